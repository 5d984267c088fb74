#include "cli/analyze_arguments.hpp"

#include <stdexcept>

#include "cli/cache_trim.hpp"
#include "cli/option_values.hpp"
#include "reflection/mode.hpp"
#include "support/error.hpp"

namespace refract::cli {

namespace po = boost::program_options;

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
      "tuple-deltas", po::value<std::string>(), tuple_deltas_help().c_str())(
      "time-limit", po::value<std::string>(), kTimeLimitHelp)(
      "evaluation-limit", po::value<std::string>(),
      "stop solving after N rule evaluations, as --time-limit stops it after SECONDS: a bound "
      "that does not drift with the machine, so a stopped run can be repeated exactly")(
      "schedule", po::value<std::string>(),
      schedule_help("cheap-first for flavours with heap contexts, rule-fixpoint for the others")
          .c_str())(
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
      "dump", po::value<std::vector<std::string>>(),
      "also write relation REL as OUT/REL.tsv (OUT/REL.at-stop.tsv, the tuples derived so far, "
      "where a limit stops the solve)")(
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
      "jdk-providers", po::value<std::string>(),
      "skip (default: the providers the JDK's modules declare are not read; a ServiceLoader made "
      "for their service is flagged possibly unsound) or read (read with the program for each "
      "service its code gives ServiceLoader: sound there, but on antlr under insens more than "
      "three times the seconds)")("reflection-rules", po::value<std::string>(),
                                  "folder of the reflection rules (default: the shipped ones)")(
      "jdk-cache",
      "the default: start the solve from the cached fixpoint of the JDK's start-up work (solved "
      "once per JDK, rules, options and refract build; --reflection none, every flavour but "
      "cloning) and the front end from the JDK's cached facts (every flavour and mode); see "
      "README, \"The JDK once\". Given, a run the cache cannot serve warns")(
      "no-cache", "neither read nor write the JDK cache")(
      "cache-dir", po::value<std::string>(),
      "where the JDK cache keeps its fixpoints and facts (default: $XDG_CACHE_HOME/refract, "
      "else ~/.cache/refract)")(
      "cache-limit", po::value<std::string>(),
      ("MIB the cache folder's entries and facts may take: past it a run removes the least "
       "recently used, none used within the last hour (default: " +
       std::to_string(kDefaultCacheLimitMib) + ")")
          .c_str())(
      "cache-build", po::value<std::string>(),
      "how a missing cache entry is made: beside (a second process solves the JDK's part into "
      "the cache while this run solves without it; the default where there are two cores or "
      "more) or first (solve the JDK's part, then this run from it)")("quiet,q",
                                                                      "no progress on stderr");
  return options;
}

namespace {

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

bool parse_jdk_providers(const std::string& text, const std::string& option) {
  if (text == "read") return true;
  if (text == "skip") return false;
  throw std::invalid_argument("unknown " + option + " value '" + text +
                              "' (expected read or skip)");
}

std::optional<bool> parse_cache_build(const std::string& text, const std::string& option) {
  if (text == "beside") return true;
  if (text == "first") return false;
  throw std::invalid_argument("unknown " + option + " value '" + text +
                              "' (expected beside or first)");
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

}  // namespace

std::optional<AnalyzeArguments> parse_analyze_arguments(int argc, char** argv) {
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
  if (vm.count("tuple-deltas"))
    args.tuple_deltas = count("tuple-deltas", vm["tuple-deltas"].as<std::string>());
  if (vm.count("time-limit"))
    args.time_limit = positive_seconds("time-limit", vm["time-limit"].as<std::string>());
  if (vm.count("evaluation-limit")) {
    args.evaluation_limit =
        positive_count("evaluation-limit", vm["evaluation-limit"].as<std::string>());
  }
  if (vm.count("schedule")) args.schedule = schedule_name(vm["schedule"].as<std::string>());
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
  read_choice(vm, "jdk-providers", parse_jdk_providers, args.read_jdk_providers);
  if (vm.count("reflection-rules"))
    args.reflection.rules = vm["reflection-rules"].as<std::string>();
  if (vm.count("cache-dir")) {
    args.cache_dir = vm["cache-dir"].as<std::string>();
    if (args.cache_dir->empty()) throw po::error("--cache-dir: empty path");
  }
  read_choice(vm, "cache-build", parse_cache_build, args.cache_build_beside);
  if (vm.count("cache-limit"))
    args.cache_limit_mib = positive_count("cache-limit", vm["cache-limit"].as<std::string>());
  args.jdk_cache_asked = vm.count("jdk-cache") != 0 || args.cache_dir.has_value() ||
                         args.cache_build_beside.has_value() || args.cache_limit_mib.has_value();
  args.jdk_cache = vm.count("no-cache") == 0;
  if (!args.jdk_cache && args.jdk_cache_asked) {
    throw po::error(
        "--no-cache turns off what --jdk-cache, --cache-dir, --cache-build and --cache-limit set");
  }
  args.quiet = vm.count("quiet") != 0;
  return args;
}

}  // namespace refract::cli
