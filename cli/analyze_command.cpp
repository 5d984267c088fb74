// refract analyze: the context-sensitive points-to analysis of a program with the JDK, and
// its call graph exported for Soot-based tools.
#include <sys/resource.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cli/analyze_reflection.hpp"
#include "cli/class_path_options.hpp"
#include "cli/commands.hpp"
#include "cli/option_values.hpp"
#include "cli/program_facts.hpp"
#include "cli/run_command.hpp"
#include "exporters/jcg_json.hpp"
#include "exporters/soot_text.hpp"
#include "pointsto/analysis.hpp"
#include "pointsto/heap_merging.hpp"
#include "pointsto/heap_numbering.hpp"
#include "reflection/metaobjects.hpp"
#include "reflection/mode.hpp"
#include "solver/engine.hpp"
#include "strings/string_coloring.hpp"
#include "support/atomic_file.hpp"
#include "support/error.hpp"
#include "support/json.hpp"
#include "support/output_paths.hpp"

namespace refract::cli {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

struct AnalyzeArguments {
  ClassPathArguments class_path;
  std::string main_class;
  std::string context = "insens";
  std::optional<pointsto::ContextBits> context_bits;  // default: the flavour's
  std::optional<std::string> order;
  std::optional<std::uint64_t> nodes;
  std::optional<std::uint64_t> cache;
  std::optional<std::uint64_t> max_nodes;
  std::optional<std::uint64_t> max_memory;  // MiB
  std::optional<std::uint64_t> tuple_joins;
  std::optional<double> time_limit;
  std::string out;
  std::vector<std::string> dumps;
  std::vector<std::string> bdd_dumps;
  std::optional<std::string> rule_stats;
  std::string rules = REFRACT_SOURCE_RULES_DIR;
  pointsto::SiteMerging exception_objects = pointsto::SiteMerging::kPerType;
  pointsto::SiteMerging string_builders = pointsto::SiteMerging::kPerType;
  pointsto::SiteMerging primitive_arrays = pointsto::SiteMerging::kPerType;
  pointsto::SiteMerging allocated_strings = pointsto::SiteMerging::kPerType;
  bool color_strings = true;  // --string-merging coloring (default) or none
  pointsto::HeapNumbering heap_numbering = pointsto::HeapNumbering::kByType;
  ReflectionArguments reflection;
  // --closed-world application: every class of the class path, and the classes string
  // constants of its code name (default with reflection); reachable: the classes reachable by
  // name from the main class (default without)
  std::optional<bool> application_closed_world;
  bool quiet = false;
};

po::options_description analyze_options() {
  po::options_description options(
      "refract analyze --classpath CP --main CLASS [--jdk DIR] [--context FLAVOUR] --out DIR "
      "[options]");
  options.add_options()("help,h", "show this help");
  add_class_path_options(options);
  options.add_options()("main", po::value<std::string>(), "the main class (binary name)")(
      "context", po::value<std::string>(),
      "insens (default), K-call, K-obj, K-type (K = 1..4) with optional +H or +JH, cloning")(
      "context-bits", po::value<std::string>(),
      "consecutive (each context field's bits together) or interleaved (bit i of every field "
      "together: the order interleaves the fields of C and HC as domains); default: interleaved "
      "for K-call with K >= 3 and heap contexts of depth >= 2, else consecutive")(
      "order", po::value<std::string>(), "BDD variable order (bddbddb syntax)")(
      "nodes", po::value<std::string>(), "initial BDD node table size")(
      "cache", po::value<std::string>(), "BDD operation cache size")(
      "max-nodes", po::value<std::string>(),
      "hard limit on the node table; exceeding it is an error naming the rule (default: none)")(
      "max-memory", po::value<std::string>(), max_memory_help().c_str())(
      "tuple-joins", po::value<std::string>(), tuple_joins_help().c_str())(
      "time-limit", po::value<std::string>(), kTimeLimitHelp)(
      "exception-objects", po::value<std::string>(),
      "per-type (default: one object per exception type) or per-site (one per allocation)")(
      "string-builders", po::value<std::string>(),
      "per-type (default: one object for all StringBuilders, one for all StringBuffers) or "
      "per-site (one per allocation)")(
      "primitive-arrays", po::value<std::string>(),
      "per-type (default: one object per array type of primitives, byte[], int[][], ...) or "
      "per-site (one per allocation)")(
      "allocated-strings", po::value<std::string>(),
      "per-type (default: one object for all Strings the program allocates, constants aside) "
      "or per-site (one per allocation)")(
      "string-merging", po::value<std::string>(),
      "coloring (default: string constants that name no two members of one class share an "
      "object) or none (one object per constant)")(
      "heap-numbering", po::value<std::string>(),
      "by-type (default: objects numbered type by type, the types in class-hierarchy order) or "
      "first-seen (as the front end met the allocation sites); changes the BDDs, not the "
      "answer")("out", po::value<std::string>(), "folder for the results")(
      "dump", po::value<std::vector<std::string>>(), "also write relation REL as OUT/REL.tsv")(
      "dump-bdd", po::value<std::vector<std::string>>(),
      "also write relation REL as OUT/REL.bdd (bddbddb's format; compact for large relations)")(
      "rule-stats", po::value<std::string>(),
      "write the solver's per-rule profile (time, evaluations, sizes, nodes) to FILE")(
      "rules", po::value<std::string>(),
      "folder of the points-to rules (default: the shipped ones)")(
      "reflection", po::value<std::string>(),
      "solar (default), probe, strings, none, tamiflex=FILE (a TamiFlex refl.log's targets) or "
      "solar+tamiflex=FILE")("reflection-annotations", po::value<std::string>(),
                             "FILE of annotations: what reflective call sites resolve to, or "
                             "that they never run (reflection/README.md)")(
      "reflection-budget", po::value<std::string>(),
      "seconds Solar may solve; past them Probe runs instead, and the report says so")(
      "closed-world", po::value<std::string>(),
      "application (every class of the class path, and the classes its code names in string "
      "constants; the default with reflection) or reachable (the classes reachable by name from "
      "the main class; the default with --reflection none)")(
      "reflection-rules", po::value<std::string>(),
      "folder of the reflection rules (default: the shipped ones)")("quiet,q",
                                                                    "no progress on stderr");
  return options;
}

// `coloring` / `none`, the value of `option`: whether string constants are colored;
// std::invalid_argument names the option and the value otherwise.
bool parse_string_merging(const std::string& text, const std::string& option) {
  if (text == "coloring") return true;
  if (text == "none") return false;
  throw std::invalid_argument("unknown " + option + " value '" + text +
                              "' (expected coloring or none)");
}

// `application` / `reachable`, the value of `option`: whether every class of the class path is
// in the program; std::invalid_argument names the option and the value otherwise.
std::optional<bool> parse_closed_world(const std::string& text, const std::string& option) {
  if (text == "application") return true;
  if (text == "reachable") return false;
  throw std::invalid_argument("unknown " + option + " value '" + text +
                              "' (expected application or reachable)");
}

// --NAME into `target` when given, through `parse` (per-type|per-site, by-type|first-seen,
// ...), which names the option and the value in a std::invalid_argument: a usage error.
template <typename Choice>
void read_choice(const po::variables_map& vm, const std::string& name,
                 Choice (*parse)(const std::string&, const std::string&), Choice& target) {
  if (!vm.count(name)) return;
  try {
    target = parse(vm[name].as<std::string>(), "--" + name);
  } catch (const std::invalid_argument& e) {
    throw po::error(e.what());
  }
}

std::optional<AnalyzeArguments> parse_arguments(int argc, char** argv) {
  const std::optional<po::variables_map> parsed = parse_command_line(argc, argv, analyze_options());
  if (!parsed) return std::nullopt;
  const po::variables_map& vm = *parsed;
  AnalyzeArguments args;
  args.class_path = class_path_arguments(vm);
  if (!vm.count("main")) throw po::error("missing --main");
  args.main_class = vm["main"].as<std::string>();
  if (!vm.count("out")) throw po::error("missing --out");
  args.out = vm["out"].as<std::string>();
  if (vm.count("context")) args.context = vm["context"].as<std::string>();
  if (vm.count("context-bits")) {
    try {
      args.context_bits =
          pointsto::parse_context_bits(vm["context-bits"].as<std::string>(), "--context-bits");
    } catch (const InputError& e) {
      throw po::error(e.message());
    }
  }
  if (vm.count("order")) args.order = vm["order"].as<std::string>();
  if (vm.count("nodes")) args.nodes = positive_count("nodes", vm["nodes"].as<std::string>());
  if (vm.count("cache")) args.cache = positive_count("cache", vm["cache"].as<std::string>());
  if (vm.count("max-nodes"))
    args.max_nodes = positive_count("max-nodes", vm["max-nodes"].as<std::string>());
  if (vm.count("max-memory"))
    args.max_memory = positive_count("max-memory", vm["max-memory"].as<std::string>());
  if (vm.count("tuple-joins"))
    args.tuple_joins = count("tuple-joins", vm["tuple-joins"].as<std::string>());
  if (vm.count("time-limit"))
    args.time_limit = positive_seconds("time-limit", vm["time-limit"].as<std::string>());
  if (vm.count("dump")) args.dumps = vm["dump"].as<std::vector<std::string>>();
  if (vm.count("dump-bdd")) args.bdd_dumps = vm["dump-bdd"].as<std::vector<std::string>>();
  if (vm.count("rule-stats")) args.rule_stats = vm["rule-stats"].as<std::string>();
  if (vm.count("rules")) args.rules = vm["rules"].as<std::string>();
  read_choice(vm, "exception-objects", pointsto::parse_site_merging, args.exception_objects);
  read_choice(vm, "string-builders", pointsto::parse_site_merging, args.string_builders);
  read_choice(vm, "primitive-arrays", pointsto::parse_site_merging, args.primitive_arrays);
  read_choice(vm, "allocated-strings", pointsto::parse_site_merging, args.allocated_strings);
  read_choice(vm, "string-merging", parse_string_merging, args.color_strings);
  read_choice(vm, "heap-numbering", pointsto::parse_heap_numbering, args.heap_numbering);
  read_choice(vm, "reflection", reflection::parse_mode, args.reflection.mode);
  if (vm.count("reflection-annotations"))
    args.reflection.annotations = vm["reflection-annotations"].as<std::string>();
  if (vm.count("reflection-budget")) {
    args.reflection.budget_seconds =
        positive_seconds("reflection-budget", vm["reflection-budget"].as<std::string>());
  }
  read_choice(vm, "closed-world", parse_closed_world, args.application_closed_world);
  if (vm.count("reflection-rules"))
    args.reflection.rules = vm["reflection-rules"].as<std::string>();
  args.quiet = vm.count("quiet") != 0;
  return args;
}

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

void write_names(std::ostream& out, const char* key, const std::vector<std::string>& names) {
  out << "  " << json_string(key) << ": [";
  for (std::size_t i = 0; i < names.size(); ++i) {
    out << (i > 0 ? ",\n    " : "\n    ") << json_string(names[i]);
  }
  out << (names.empty() ? "]" : "\n  ]");
}

// Allocation sites merged one object per type, and the objects they became.
struct MergedSites {
  std::uint64_t sites = 0;
  std::uint64_t objects = 0;
};

MergedSites count_merged(const pointsto::HeapMerge& merge) {
  std::set<std::string> objects;
  for (const auto& [site, object] : merge) objects.insert(object);
  return {merge.size(), objects.size()};
}

// What the heap abstraction did before encoding.
struct HeapSummary {
  std::uint64_t heap_objects = 0;  // elements of H after merging
  MergedSites exceptions;
  MergedSites string_builders;
  MergedSites primitive_arrays;
  MergedSites allocated_strings;
  std::uint64_t context_free = 0;  // objects with the empty heap context under every flavour
  std::optional<strings::StringColoring> strings;  // with --string-merging coloring
};

HeapSummary summarise(const frontend::FactDatabase& facts, const pointsto::HeapMerge& exceptions,
                      const pointsto::HeapMerge& string_builders,
                      const pointsto::HeapMerge& primitive_arrays,
                      const pointsto::HeapMerge& allocated_strings,
                      std::optional<strings::StringColoring> strings) {
  HeapSummary summary;
  summary.heap_objects = facts.domain("H").size();
  summary.exceptions = count_merged(exceptions);
  summary.string_builders = count_merged(string_builders);
  summary.primitive_arrays = count_merged(primitive_arrays);
  summary.allocated_strings = count_merged(allocated_strings);
  summary.strings = std::move(strings);
  return summary;
}

// The reflection analysis of a run: the mode asked for, the one whose results these are (Probe
// when Solar ran out of its budget) and why they differ.
struct ReflectionRun {
  std::string mode;
  std::string ran;
  std::optional<std::string> notice;
};

void write_stats(const fs::path& file, const AnalyzeArguments& args,
                 const pointsto::AnalysisResult& r, const frontend::FactCounts& counts,
                 const HeapSummary& heaps, const ReflectionRun& reflection, double facts_seconds,
                 double total_seconds) {
  AtomicOutputFile file_out(file);
  std::ostream& out = file_out.stream();
  out << "{\n  \"main\": " << json_string(args.main_class)
      << ",\n  \"context\": " << json_string(args.context)
      << ",\n  \"context_bits\": " << json_string(pointsto::to_string(r.context_bits))
      << ",\n  \"order\": " << json_string(r.order)
      << ",\n  \"seconds\": {\"facts\": " << facts_seconds;
  for (const auto& [phase, seconds] : r.seconds)
    out << ", " << json_string(phase) << ": " << seconds;
  out << ", \"total\": " << total_seconds << "},\n  \"peak_rss_bytes\": " << peak_rss_bytes()
      << ",\n  \"peak_bdd_nodes\": " << r.bdd.peak_used_nodes
      << ",\n  \"peak_live_bdd_nodes\": " << r.bdd.peak_live_nodes
      << ",\n  \"garbage_collections\": " << r.bdd.garbage_collections
      << ",\n  \"bdd_nodes_produced\": " << r.bdd.nodes_produced
      << ",\n  \"bdd_huge_pages\": " << (r.bdd.huge_pages ? "true" : "false")
      << ",\n  \"bdd_memory_budget_bytes\": " << r.bdd.memory_budget_bytes
      << ",\n  \"bdd_capped_by_memory_budget\": "
      << (r.bdd.capped_by_memory_budget ? "true" : "false")
      << ",\n  \"bdd_capped_by_machine_memory\": "
      << (r.bdd.capped_by_machine_memory ? "true" : "false") << ",\n  \"contexts\": " << r.contexts
      << ",\n  \"exception_objects\": " << json_string(pointsto::to_string(args.exception_objects))
      << ",\n  \"heap_objects\": " << heaps.heap_objects
      << ",\n  \"merged_allocation_sites\": " << heaps.exceptions.sites
      << ",\n  \"merged_objects\": " << heaps.exceptions.objects
      << ",\n  \"string_builders\": " << json_string(pointsto::to_string(args.string_builders))
      << ",\n  \"merged_string_builder_sites\": " << heaps.string_builders.sites
      << ",\n  \"merged_string_builder_objects\": " << heaps.string_builders.objects
      << ",\n  \"primitive_arrays\": " << json_string(pointsto::to_string(args.primitive_arrays))
      << ",\n  \"merged_primitive_array_sites\": " << heaps.primitive_arrays.sites
      << ",\n  \"merged_primitive_array_objects\": " << heaps.primitive_arrays.objects
      << ",\n  \"allocated_strings\": " << json_string(pointsto::to_string(args.allocated_strings))
      << ",\n  \"merged_allocated_string_sites\": " << heaps.allocated_strings.sites
      << ",\n  \"merged_allocated_string_objects\": " << heaps.allocated_strings.objects
      << ",\n  \"context_free_objects\": " << heaps.context_free
      << ",\n  \"string_merging\": " << json_string(heaps.strings ? "coloring" : "none")
      << ",\n  \"heap_numbering\": " << json_string(pointsto::to_string(args.heap_numbering))
      << ",\n  \"reflection\": {\"mode\": " << json_string(reflection.mode)
      << ", \"ran\": " << json_string(reflection.ran)
      << ", \"notice\": " << (reflection.notice ? json_string(*reflection.notice) : "null") << "}";
  if (heaps.strings) {
    const strings::StringColoring& s = *heaps.strings;
    out << ",\n  \"string_constants\": " << s.string_constants
        << ",\n  \"string_constants_kept_apart\": " << s.kept_apart
        << ",\n  \"string_constants_naming_members\": " << s.member_names
        << ",\n  \"string_colors\": " << s.colors
        << ",\n  \"largest_string_clique\": " << s.largest_clique;
  }
  if (r.cloning_paths != 0) {
    out << ",\n  \"cloning_max_paths\": " << r.cloning_paths
        << ",\n  \"cloning_wrapped\": " << (r.cloning_wrapped ? "true" : "false");
  }
  out << ",\n  \"reachable_methods\": " << r.call_graph.reachable_methods.size()
      << ",\n  \"call_edges\": " << r.call_graph.edges.size()
      << ",\n  \"polymorphic_call_sites\": " << r.polymorphic_calls.size()
      << ",\n  \"may_fail_casts\": " << r.may_fail_casts.size() << ",\n  \"relations\": {";
  bool first = true;
  for (const auto& [name, size] : r.sizes) {
    out << (first ? "" : ", ") << json_string(name) << ": " << size;
    first = false;
  }
  out << "},\n";
  write_names(out, "unmodelled_natives", r.unmodelled_natives);
  out << ",\n  \"unsupported_invokedynamic\": [";
  for (std::size_t i = 0; i < counts.unsupported_invokedynamic.size(); ++i) {
    const auto& site = counts.unsupported_invokedynamic[i];
    out << (i > 0 ? ",\n    " : "\n    ") << "{\"method\": " << json_string(site.method)
        << ", \"pc\": " << site.pc << ", \"what\": " << json_string(site.what) << "}";
  }
  out << (counts.unsupported_invokedynamic.empty() ? "]" : "\n  ]") << ",\n";
  write_names(out, "polymorphic_call_site_list", r.polymorphic_calls);
  out << ",\n";
  write_names(out, "may_fail_cast_list", r.may_fail_casts);
  out << "\n}\n";
  file_out.commit();
}

// Seconds as a person writes them: "30", "2.5".
std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

int run_analyze(const AnalyzeArguments& args) {
  const auto start = Clock::now();
  std::ostream* progress = args.quiet ? nullptr : &std::cerr;
  pointsto::AnalysisOptions options;
  options.flavour = pointsto::parse_context_flavour(args.context, "--context");
  options.context_bits =
      args.context_bits.value_or(pointsto::default_context_bits(options.flavour));
  options.order = args.order;
  if (args.nodes) options.bdd.initial_nodes = *args.nodes;
  if (args.cache) options.bdd.cache_size = *args.cache;
  if (args.max_nodes) options.bdd.max_nodes = *args.max_nodes;
  options.bdd.memory_budget_bytes = memory_budget_bytes(args.max_memory);
  if (args.tuple_joins) options.tuple_join_max_input = *args.tuple_joins;
  if (args.time_limit) options.time_limit_seconds = *args.time_limit;
  options.rules_dir = args.rules;
  options.work_dir = fs::path(args.out) / "facts";
  options.dumps = args.dumps;
  options.dumps.insert(options.dumps.end(), args.bdd_dumps.begin(), args.bdd_dumps.end());
  if (args.rule_stats) options.rule_stats = *args.rule_stats;
  options.progress = progress;
  check_output_directory(args.out);
  if (args.rule_stats) check_output_file(*args.rule_stats, args.out);

  // The annotations and the TamiFlex log are read first: a bad line ends the run before any
  // work; the classes they name are read with the program.
  const bool with_reflection = args.reflection.mode.kind != reflection::ModeKind::kNone;
  ReflectionInputs reflection_inputs;
  ScopeChoices scope;
  if (with_reflection) {
    reflection_inputs = read_reflection_inputs(args.reflection);
    scope.extra_roots = reflection_inputs.classes_to_read();
  }
  if (args.application_closed_world.value_or(with_reflection)) {
    scope.string_classes = frontend::StringClasses::kApplicationCode;
    scope.application_classes = true;
  }
  if (progress) *progress << "[analyze] reading classes and extracting facts\n";
  const std::unique_ptr<ExtractedProgram> program =
      extract_program(args.class_path, args.main_class, progress, scope);
  for (const frontend::SkippedClass& s : program->skipped) {
    std::cerr << "skipped: " << s.message << '\n';
  }
  const std::vector<frontend::InvocationPosition>& positions =
      program->extractor->invocation_positions();
  std::optional<frontend::FactDatabase> reflective;
  ReflectionFacts reflection_added;
  if (with_reflection) {
    reflective = program->extractor->facts();
    reflection_added = add_reflection(reflection_inputs, *reflective, positions);
  }
  const frontend::FactDatabase& extracted = reflective ? *reflective : program->extractor->facts();
  const pointsto::HeapMerge exceptions = args.exception_objects == pointsto::SiteMerging::kPerType
                                             ? pointsto::exception_objects_by_type(extracted)
                                             : pointsto::HeapMerge{};
  const pointsto::HeapMerge string_builders =
      args.string_builders == pointsto::SiteMerging::kPerType
          ? pointsto::string_builders_by_type(extracted)
          : pointsto::HeapMerge{};
  const pointsto::HeapMerge primitive_arrays =
      args.primitive_arrays == pointsto::SiteMerging::kPerType
          ? pointsto::primitive_arrays_by_type(extracted)
          : pointsto::HeapMerge{};
  const pointsto::HeapMerge allocated_strings =
      args.allocated_strings == pointsto::SiteMerging::kPerType
          ? pointsto::allocated_strings_by_type(extracted)
          : pointsto::HeapMerge{};
  std::optional<strings::StringColoring> coloring;
  if (args.color_strings) coloring = strings::color_string_constants(extracted);
  // The sites of each are disjoint: exception types, builder types, primitive array types,
  // String allocations, string constants.
  pointsto::HeapMerge by_type = exceptions;
  by_type.insert(string_builders.begin(), string_builders.end());
  by_type.insert(primitive_arrays.begin(), primitive_arrays.end());
  by_type.insert(allocated_strings.begin(), allocated_strings.end());
  pointsto::HeapMerge merge = by_type;
  if (coloring) merge.insert(coloring->merge.begin(), coloring->merge.end());
  if (coloring && with_reflection)
    merge.merge(reflection::merge_named_metaobjects(extracted, coloring->merge));
  std::optional<frontend::FactDatabase> merged;
  const std::vector<std::uint64_t> heap_order =
      args.heap_numbering == pointsto::HeapNumbering::kByType
          ? pointsto::heaps_in_type_order(extracted)
          : std::vector<std::uint64_t>{};
  if (!merge.empty() || !heap_order.empty())
    merged = pointsto::merge_heaps(extracted, merge, heap_order);
  const frontend::FactDatabase& facts = merged ? *merged : extracted;
  options.context_free_heaps = pointsto::context_free_heaps(facts, by_type);
  if (with_reflection) {
    const std::vector<std::uint64_t> metaobjects = reflection::context_free_metaobjects(facts);
    std::vector<std::uint64_t>& heaps = options.context_free_heaps;
    heaps.insert(heaps.end(), metaobjects.begin(), metaobjects.end());
    std::sort(heaps.begin(), heaps.end());
    heaps.erase(std::unique(heaps.begin(), heaps.end()), heaps.end());
    options.extra_rules.push_back(*args.reflection.mode.rule_file(args.reflection.rules));
  }
  HeapSummary heaps = summarise(facts, exceptions, string_builders, primitive_arrays,
                                allocated_strings, std::move(coloring));
  heaps.context_free = options.context_free_heaps.size();
  if (progress) {
    *progress << "[analyze] exception objects " << pointsto::to_string(args.exception_objects)
              << ": " << heaps.exceptions.sites << " allocation sites merged into "
              << heaps.exceptions.objects << " objects; string builders "
              << pointsto::to_string(args.string_builders) << ": " << heaps.string_builders.sites
              << " sites merged into " << heaps.string_builders.objects
              << " objects; primitive arrays " << pointsto::to_string(args.primitive_arrays) << ": "
              << heaps.primitive_arrays.sites << " sites merged into "
              << heaps.primitive_arrays.objects << " objects; allocated strings "
              << pointsto::to_string(args.allocated_strings) << ": "
              << heaps.allocated_strings.sites << " sites merged into "
              << heaps.allocated_strings.objects << " objects";
    if (heaps.strings) {
      *progress << "; string constants colored: " << heaps.strings->string_constants
                << " constants (" << heaps.strings->kept_apart << " kept apart) in "
                << heaps.strings->colors << " colors, largest clique "
                << heaps.strings->largest_clique;
    }
    *progress << "; " << heaps.heap_objects << " heap objects, " << heaps.context_free
              << " of them without heap context, numbered "
              << pointsto::to_string(args.heap_numbering) << "\n";
  }
  const double facts_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  reflection::Mode ran = args.reflection.mode;
  std::optional<std::string> notice;
  std::unique_ptr<pointsto::Analysis> analysis;
  pointsto::AnalysisResult result;
  // Solar within its budget, else Probe (Solar paper, Fig. 13), within --time-limit.
  const bool budgeted = args.reflection.budget_seconds &&
                        (ran.kind == reflection::ModeKind::kSolar ||
                         ran.kind == reflection::ModeKind::kSolarTamiflex) &&
                        (!args.time_limit || *args.reflection.budget_seconds < *args.time_limit);
  if (budgeted) options.time_limit_seconds = *args.reflection.budget_seconds;
  try {
    analysis = std::make_unique<pointsto::Analysis>(facts, positions, options);
    result = analysis->run();
  } catch (const solver::TimeLimitReached& e) {
    if (!budgeted) throw;
    notice = "Solar did not finish within the reflection budget of " +
             seconds_text(*args.reflection.budget_seconds) + " s (" + e.message() +
             "): these are Probe's results";
    if (progress) *progress << "[analyze] " << *notice << "\n";
    analysis.reset();
    ran = reflection::Mode{reflection::ModeKind::kProbe, std::nullopt};
    options.extra_rules = {*ran.rule_file(args.reflection.rules)};
    options.time_limit_seconds = args.time_limit.value_or(0);
    analysis = std::make_unique<pointsto::Analysis>(facts, positions, options);
    result = analysis->run();
  }

  const fs::path out = args.out;
  if (progress) *progress << "[analyze] writing results to " << out.string() << "\n";
  exporters::write_reachable_methods(out / "reachable-methods.txt", result.call_graph);
  exporters::write_call_edges(out / "call-edges.tsv", result.call_graph);
  exporters::write_jcg_json(out / "callgraph.json", result.call_graph);
  if (heaps.strings)
    strings::write_string_colors(out / "string-colors.tsv", *heaps.strings, extracted);
  for (const std::string& relation : args.dumps)
    analysis->dump(relation, out / (relation + ".tsv"));
  for (const std::string& relation : args.bdd_dumps)
    analysis->dump_bdd(relation, out / (relation + ".bdd"));
  if (with_reflection) {
    write_reflection_results(out, *analysis, facts, positions, ran.to_string(), notice,
                             reflection_added);
  }
  const double total = std::chrono::duration<double>(Clock::now() - start).count();
  write_stats(out / "stats.json", args, result, program->extractor->counts(), heaps,
              {args.reflection.mode.to_string(), ran.to_string(), notice}, facts_seconds, total);
  if (progress) {
    *progress << "[analyze] " << args.context << ": " << result.call_graph.reachable_methods.size()
              << " reachable methods, " << result.call_graph.edges.size() << " call edges, "
              << result.contexts << " contexts, peak " << result.bdd.peak_used_nodes
              << " BDD nodes; " << total << " s\n";
  }
  return kExitOk;
}

}  // namespace

int analyze_command(int argc, char** argv) {
  return run_command<po::error>(
      "analyze", [&] { return parse_arguments(argc, argv); },
      [](const AnalyzeArguments& args) { return run_analyze(args); });
}

}  // namespace refract::cli
