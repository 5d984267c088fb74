// refract analyze: the context-sensitive points-to analysis of a program with the JDK, and
// its call graph exported for Soot-based tools.
#include <sys/resource.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cli/analyze_arguments.hpp"
#include "cli/analyze_reflection.hpp"
#include "cli/analyze_run.hpp"
#include "cli/class_path_options.hpp"
#include "cli/commands.hpp"
#include "cli/jdk_cache.hpp"
#include "cli/jdk_cache_build.hpp"
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
#include "support/stopwatch.hpp"

namespace refract::cli {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

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

MergedSites count_merged(const pointsto::HeapMerge& merge) {
  std::set<std::string> objects;
  for (const auto& [site, object] : merge) objects.insert(object);
  return {merge.size(), objects.size()};
}

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
                 double total_seconds, const JdkCacheUse& cache,
                 const std::optional<JdkFactsCache>& jdk_facts) {
  AtomicOutputFile file_out(file);
  std::ostream& out = file_out.stream();
  out << "{\n  \"main\": " << json_string(args.main_class)
      << ",\n  \"context\": " << json_string(args.context)
      << ",\n  \"context_bits\": " << json_string(pointsto::to_string(r.context_bits))
      << ",\n  \"order\": " << json_string(r.order)
      << ",\n  \"schedule\": {\"name\": " << json_string(r.schedule) << ", \"sweeps\": " << r.sweeps
      << ", \"delta_evaluations\": " << r.delta_evaluations << "}"
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
  out << ",\n  \"jdk_cache\": {\"status\": " << json_string(cache.status)
      << ", \"key\": " << json_string(cache.key) << ", \"build\": " << json_string(cache.build)
      << ", \"build_seconds\": " << cache.build_seconds
      << ", \"seeded\": " << json_string_array(r.seeded)
      << ", \"recomputed\": " << json_string_object(r.recomputed)
      << ", \"read\": " << json_string(r.seed_read) << ", \"facts\": "
      << json_string(jdk_facts ? jdk_facts->status : std::string("off: ") + kCacheNotUsed) << "}";
  if (heaps.strings) {
    const strings::StringColoring& s = *heaps.strings;
    out << ",\n  \"string_constants\": " << s.string_constants
        << ",\n  \"string_constants_kept_apart\": " << s.kept_apart
        << ",\n  \"string_constants_naming_members\": " << s.member_names
        << ",\n  \"string_colors\": " << s.colors
        << ",\n  \"largest_string_clique\": " << s.largest_clique
        << ",\n  \"string_coloring_seconds\": " << heaps.coloring_seconds;
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
  out << "},\n  \"relation_nodes\": {";
  first = true;
  for (const auto& [name, nodes] : r.nodes) {
    out << (first ? "" : ", ") << json_string(name) << ": " << nodes;
    first = false;
  }
  out << "},\n  \"var_points_to_string_objects\": " << r.string_var_points_to << ",\n";
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

// Where a limit stopped the solve, the --dump relations as they stood, as REL.at-stop.tsv (or
// .bdd): the tuples derived so far, all of them in the fixpoint too, since a stratum only
// negates strata finished before it. What a stopped run was doing can be read from them.
void dump_at_stop(const AnalyzeArguments& args, const pointsto::Analysis& analysis) {
  const fs::path out = args.out;
  for (const std::string& relation : args.dumps)
    analysis.dump(relation, out / (relation + ".at-stop.tsv"));
  for (const std::string& relation : args.bdd_dumps)
    analysis.dump_bdd(relation, out / (relation + ".at-stop.bdd"));
}

// Destroying the facts (two databases of a million strings each), the class hierarchy and the
// node table one allocation at a time took 1.3 s of a 12 s warm run (issue 35); every output
// is committed by now and the process ends anyway.
[[noreturn]] void end_process(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

}  // namespace

AnalyzeInputs read_analyze_inputs(const AnalyzeArguments& args, std::ostream* progress) {
  // The annotations and the TamiFlex log are read first: a bad line ends the run before any
  // work; the classes they name are read with the program.
  const bool with_reflection = args.reflection.mode.kind != reflection::ModeKind::kNone;
  AnalyzeInputs inputs;
  ScopeChoices scope;
  if (with_reflection) {
    inputs.reflection = read_reflection_inputs(args.reflection);
    scope.extra_roots = inputs.reflection.classes_to_read();
    scope.service_providers = true;
    scope.jdk_providers = args.read_jdk_providers;
  }
  if (args.application_closed_world.value_or(with_reflection)) {
    scope.string_classes = frontend::StringClasses::kApplicationCode;
    scope.application_classes = true;
  }
  if (args.jdk_cache) {
    inputs.jdk_facts = jdk_facts_cache(
        args.class_path, args.cache_dir ? fs::path(*args.cache_dir) : default_cache_dir());
  }
  if (progress) *progress << "[analyze] reading classes and extracting facts\n";
  inputs.program = extract_program(args.class_path, args.main_class, progress, scope,
                                   inputs.jdk_facts ? &*inputs.jdk_facts : nullptr);
  for (const frontend::SkippedClass& s : inputs.program->skipped) {
    std::cerr << "skipped: " << s.message << '\n';
  }
  for (const frontend::ServiceWarning& w : inputs.program->service_warnings)
    std::cerr << "warning: " << w.to_string() << '\n';
  return inputs;
}

PreparedAnalysis prepare_analysis(const AnalyzeArguments& args, const AnalyzeInputs& inputs,
                                  std::ostream* progress) {
  PreparedAnalysis prepared;
  prepared.program = inputs.program.get();
  pointsto::AnalysisOptions& options = prepared.options;
  options.flavour = pointsto::parse_context_flavour(args.context, "--context");
  options.context_bits =
      args.context_bits.value_or(pointsto::default_context_bits(options.flavour));
  options.order = args.order;
  if (args.nodes) options.bdd.initial_nodes = *args.nodes;
  if (args.cache) options.bdd.cache_size = *args.cache;
  if (args.max_nodes) options.bdd.max_nodes = *args.max_nodes;
  options.bdd.memory_budget_bytes = memory_budget_bytes(args.max_memory);
  if (args.tuple_joins) options.tuple_join_max_input = *args.tuple_joins;
  if (args.tuple_deltas) options.tuple_delta_max = *args.tuple_deltas;
  if (args.time_limit) options.time_limit_seconds = *args.time_limit;
  options.max_evaluations = args.evaluation_limit;
  if (args.schedule) options.schedule = *args.schedule;
  options.rules_dir = args.rules;
  options.work_dir = fs::path(args.out) / "facts";
  options.dumps = args.dumps;
  options.dumps.insert(options.dumps.end(), args.bdd_dumps.begin(), args.bdd_dumps.end());
  if (args.rule_stats) options.rule_stats = *args.rule_stats;
  options.progress = progress;

  const bool with_reflection = args.reflection.mode.kind != reflection::ModeKind::kNone;
  const ExtractedProgram& program = *inputs.program;
  if (with_reflection) {
    prepared.reflective = program.extractor->facts();
    prepared.reflection_added =
        add_reflection(inputs.reflection, program.service_providers, program.module_providers,
                       program.unread_module_providers, *prepared.reflective,
                       program.extractor->invocation_positions());
  }
  const frontend::FactDatabase& extracted = prepared.extracted();
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
  const auto coloring_start = Clock::now();
  // By part without reflection, so that the JDK's objects are numbered alike for every program
  // (cli/jdk_cache.hpp); with it, the reflection rules need the whole program's conflicts.
  if (args.color_strings) {
    coloring = with_reflection ? strings::color_string_constants(extracted)
                               : strings::color_string_constants_by_part(extracted);
  }
  const double coloring_seconds = seconds_since(coloring_start);
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
  const std::vector<std::uint64_t> heap_order =
      args.heap_numbering == pointsto::HeapNumbering::kByType
          ? pointsto::heaps_in_type_order(extracted)
          : std::vector<std::uint64_t>{};
  if (!merge.empty() || !heap_order.empty())
    prepared.merged = pointsto::merge_heaps(extracted, merge, heap_order);
  const frontend::FactDatabase& facts = prepared.facts();
  options.context_free_heaps = pointsto::context_free_heaps(facts, by_type);
  if (with_reflection) {
    const std::vector<std::uint64_t> metaobjects = reflection::context_free_metaobjects(facts);
    std::vector<std::uint64_t>& heaps = options.context_free_heaps;
    heaps.insert(heaps.end(), metaobjects.begin(), metaobjects.end());
    std::sort(heaps.begin(), heaps.end());
    heaps.erase(std::unique(heaps.begin(), heaps.end()), heaps.end());
    options.extra_rules.push_back(*args.reflection.mode.rule_file(args.reflection.rules));
  }
  HeapSummary& heaps = prepared.heaps;
  heaps = summarise(facts, exceptions, string_builders, primitive_arrays, allocated_strings,
                    std::move(coloring));
  heaps.context_free = options.context_free_heaps.size();
  heaps.coloring_seconds = coloring_seconds;
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
  return prepared;
}

int analyze_extracted(const AnalyzeArguments& args, const AnalyzeInputs& inputs,
                      std::chrono::steady_clock::time_point start, JdkCacheUse* started_cache,
                      AfterOutputs after) {
  std::ostream* progress = args.quiet ? nullptr : &std::cerr;
  check_output_directory(args.out);
  PreparedAnalysis prepared = prepare_analysis(args, inputs, progress);
  pointsto::AnalysisOptions& options = prepared.options;
  const frontend::FactDatabase& facts = prepared.facts();
  const frontend::FactDatabase& extracted = prepared.extracted();
  const HeapSummary& heaps = prepared.heaps;
  const ExtractedProgram& program = *inputs.program;
  const std::vector<frontend::InvocationPosition>& positions =
      program.extractor->invocation_positions();
  const bool with_reflection = args.reflection.mode.kind != reflection::ModeKind::kNone;
  const double facts_seconds = seconds_since(start);
  JdkCacheUse own_cache;
  if (!started_cache) own_cache = start_jdk_cache(args, progress);
  JdkCacheUse& cache = started_cache ? *started_cache : own_cache;
  const JdkCacheBuildStopper stop_cache_build(cache);  // no child outlives a run that stops
  use_jdk_cache(cache, args, facts, progress);
  if (cache.state) {
    options.seed_dir = *cache.state;
    options.context_element_capacity = cache.context_capacity;
    options.domain_room = cache.domain_room;
  }
  // The run's own solve comes first: an entry being built beside it gives up its memory.
  if (cache.building) {
    options.bdd.release_machine_memory = [&cache, progress] {
      return stop_jdk_cache_build_for_memory(cache, progress);
    };
  }
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
    try {
      analysis = std::make_unique<pointsto::Analysis>(facts, positions, options);
      result = analysis->run();
    } catch (const solver::TimeLimitReached& e) {
      if (!budgeted) throw;
      notice = "Solar did not finish within the reflection budget of " +
               seconds_text(*args.reflection.budget_seconds) + " s (" + e.message() +
               "): these are Probe's results";
      if (progress) *progress << "[analyze] " << *notice << "\n";
      // where Solar spread before its budget ran out: what to annotate for it to finish
      write_reflection_at_stop(args.out, *analysis, facts, positions, ran.to_string(), e.message(),
                               progress);
      analysis.reset();
      ran = reflection::Mode{reflection::ModeKind::kProbe, std::nullopt};
      options.extra_rules = {*ran.rule_file(args.reflection.rules)};
      options.time_limit_seconds = args.time_limit.value_or(0);
      analysis = std::make_unique<pointsto::Analysis>(facts, positions, options);
      result = analysis->run();
    }
  } catch (const solver::LimitReached& e) {
    if (analysis) {
      dump_at_stop(args, *analysis);
      if (with_reflection)
        write_reflection_at_stop(args.out, *analysis, facts, positions, ran.to_string(),
                                 e.message(), progress);
    }
    throw;
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
                             prepared.reflection_added);
  }
  if (cache.building && progress)
    *progress << "[cache] waiting for the JDK's part to be written to the cache\n";
  finish_jdk_cache(cache, args, facts);
  keep_jdk_cache_within_limit(args, progress);
  const double total = seconds_since(start);
  write_stats(out / "stats.json", args, result, program.extractor->counts(), heaps,
              {args.reflection.mode.to_string(), ran.to_string(), notice}, facts_seconds, total,
              cache, inputs.jdk_facts);
  if (progress) {
    *progress << "[analyze] " << args.context << ": " << result.call_graph.reachable_methods.size()
              << " reachable methods, " << result.call_graph.edges.size() << " call edges, "
              << result.contexts << " contexts, peak " << result.bdd.peak_used_nodes
              << " BDD nodes; " << total << " s\n";
  }
  if (after == AfterOutputs::kEndProcess) end_process(kExitOk);
  return kExitOk;
}

namespace {

int run_analyze(const AnalyzeArguments& args) {
  const auto start = Clock::now();
  std::ostream* progress = args.quiet ? nullptr : &std::cerr;
  // A bad flavour or output path ends the run before any work.
  pointsto::parse_context_flavour(args.context, "--context");
  check_output_directory(args.out);
  if (args.rule_stats) check_output_file(*args.rule_stats, args.out);
  // A missing JDK cache entry starts building beside the run before its facts are read.
  JdkCacheUse cache = start_jdk_cache(args, progress);
  const JdkCacheBuildStopper stop_cache_build(cache);  // when reading the facts fails
  const AnalyzeInputs inputs = read_analyze_inputs(args, progress);
  return analyze_extracted(args, inputs, start, &cache, AfterOutputs::kEndProcess);
}

}  // namespace

int analyze_command(int argc, char** argv) {
  return run_command<po::error>(
      "analyze", [&] { return parse_analyze_arguments(argc, argv); },
      [](const AnalyzeArguments& args) { return run_analyze(args); });
}

}  // namespace refract::cli
