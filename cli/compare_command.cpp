// refract compare: one program under several encodings (variable orders, context-bit layouts,
// heap numbering, string merging, ...) side by side. The facts are extracted once; each
// variant is then solved --runs times, the variants interleaved, each run in a process of its
// own (cli/compare_child.hpp); the reports put the medians next to the baseline's.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/analyze_arguments.hpp"
#include "cli/analyze_run.hpp"
#include "cli/class_path_options.hpp"
#include "cli/commands.hpp"
#include "cli/compare_child.hpp"
#include "cli/compare_page.hpp"
#include "cli/compare_report.hpp"
#include "cli/compare_results.hpp"
#include "cli/compare_variants.hpp"
#include "cli/option_values.hpp"
#include "cli/run_command.hpp"
#include "pointsto/context_flavour.hpp"
#include "support/error.hpp"
#include "support/output_paths.hpp"
#include "support/stopwatch.hpp"

namespace refract::cli {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// A run that a rule evaluation keeps from ever checking --time-limit is killed this long past
// the limit (the solver checks it between evaluations).
double deadline_for(double time_limit) {
  return 2 * time_limit + 30;
}

struct CompareArguments {
  std::vector<EncodingVariant> variants;
  std::vector<AnalyzeArguments> analyze;  // per variant, its out folder still unset
  unsigned runs = 3;
  std::optional<double> time_limit;
  std::vector<std::string> relations;  // main_relations() and --relation's
  std::string out;
  bool quiet = false;
  CompareSummary summary;
};

po::options_description compare_options() {
  po::options_description options(
      "refract compare --classpath CP --main CLASS [--jdk DIR] --context FLAVOUR "
      "--encoding NAME=OPTIONS [--encoding NAME=OPTIONS]... [--runs N] [--time-limit S] "
      "[--reflection MODE] --out DIR [options]");
  options.add_options()("help,h", "show this help");
  add_class_path_options(options);
  options.add_options()("main", po::value<std::string>(), "the main class (binary name)")(
      "context", po::value<std::string>(),
      "the context flavour of every variant that does not set its own (refract analyze "
      "--context)")("encoding", po::value<std::vector<std::string>>(),
                    "a variant: NAME=OPTIONS, the refract analyze options it sets as one "
                    "argument ('fs=--heap-numbering first-seen' or "
                    "fs=--heap-numbering=first-seen; base= sets none); the first is the "
                    "baseline")("runs", po::value<std::string>(),
                                "solve each variant N times (default 3); the reports give medians")(
      "time-limit", po::value<std::string>(),
      "stop a run after SECONDS of solving (refract analyze --time-limit): its variant is a row "
      "saying so")("max-memory", po::value<std::string>(), max_memory_help().c_str())(
      "reflection", po::value<std::string>(),
      "the reflection analysis of every variant (refract analyze --reflection; default solar)")(
      "relation", po::value<std::vector<std::string>>(),
      "also report the size of relation NAME (besides VarPointsTo, FieldPointsTo, "
      "CallGraphEdge, Reachable)")(
      "out", po::value<std::string>(),
      "folder for compare.csv, compare.json, compare.html and runs/VARIANT/N/")(
      "quiet,q", "no progress on stderr");
  return options;
}

// The analyze options every variant shares, from compare's own.
std::vector<std::string> shared_analyze_options(const po::variables_map& vm) {
  std::vector<std::string> words = {"--classpath", vm["classpath"].as<std::string>()};
  for (const char* name : {"jdk", "main", "time-limit", "max-memory", "reflection"}) {
    if (vm.count(name)) {
      words.push_back(std::string("--") + name);
      words.push_back(vm[name].as<std::string>());
    }
  }
  if (vm.count("skip-bad-classes")) words.push_back("--skip-bad-classes");
  return words;
}

// The analyze arguments of `variant`: the shared options, compare's --context unless the
// variant sets its own, and the variant's. A usage error naming the --encoding text for a bad
// value.
AnalyzeArguments variant_arguments(const EncodingVariant& variant,
                                   const std::vector<std::string>& shared,
                                   const std::string& context) {
  std::vector<std::string> words = {"analyze"};
  words.insert(words.end(), shared.begin(), shared.end());
  if (!variant.sets_context) {
    words.push_back("--context");
    words.push_back(context);
  }
  words.insert(words.end(), variant.options.begin(), variant.options.end());
  words.push_back("--out");
  words.push_back(".");  // each run's own folder replaces it
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  try {
    std::optional<AnalyzeArguments> args =
        parse_analyze_arguments(static_cast<int>(argv.size()), argv.data());
    if (!args) throw po::error("--help is not an encoding option");
    // Encodings are compared on the same work: the cache only where a variant asks for it.
    if (!args->jdk_cache_asked) args->jdk_cache = false;
    pointsto::parse_context_flavour(args->context, "--context");
    return *args;
  } catch (const po::error& e) {
    throw po::error("--encoding '" + variant.text + "': " + e.what());
  } catch (const InputError& e) {
    throw po::error("--encoding '" + variant.text + "': " + e.message());
  }
}

std::optional<CompareArguments> parse_arguments(int argc, char** argv) {
  const std::optional<po::variables_map> parsed = parse_command_line(argc, argv, compare_options());
  if (!parsed) return std::nullopt;
  const po::variables_map& vm = *parsed;
  CompareArguments args;
  class_path_arguments(vm);  // --classpath is there
  if (!vm.count("main")) throw po::error("missing --main");
  if (!vm.count("context")) throw po::error("missing --context");
  if (!vm.count("out")) throw po::error("missing --out");
  args.out = vm["out"].as<std::string>();
  const std::string context = vm["context"].as<std::string>();
  try {
    pointsto::parse_context_flavour(context, "--context");
  } catch (const InputError& e) {
    throw po::error(e.message());
  }
  if (vm.count("runs")) {
    const std::uint64_t runs = positive_count("runs", vm["runs"].as<std::string>());
    if (runs > 1000) throw po::error("--runs " + std::to_string(runs) + " is more than 1000");
    args.runs = static_cast<unsigned>(runs);
  }
  if (vm.count("time-limit"))
    args.time_limit = positive_seconds("time-limit", vm["time-limit"].as<std::string>());
  if (vm.count("max-memory")) positive_count("max-memory", vm["max-memory"].as<std::string>());
  args.quiet = vm.count("quiet") != 0;
  args.relations = main_relations();
  if (vm.count("relation")) {
    for (const std::string& r : vm["relation"].as<std::vector<std::string>>())
      if (std::find(args.relations.begin(), args.relations.end(), r) == args.relations.end())
        args.relations.push_back(r);
  }
  args.variants =
      parse_encodings(vm.count("encoding") ? vm["encoding"].as<std::vector<std::string>>()
                                           : std::vector<std::string>{});
  const std::vector<std::string> shared = shared_analyze_options(vm);
  for (const EncodingVariant& v : args.variants)
    args.analyze.push_back(variant_arguments(v, shared, context));
  args.summary.main_class = vm["main"].as<std::string>();
  args.summary.context = context;
  args.summary.reflection = args.analyze.front().reflection.mode.to_string();
  args.summary.runs = args.runs;
  args.summary.relations = args.relations;
  return args;
}

std::string status_of(const ChildOutcome& outcome) {
  if (outcome.killed_at_deadline) return "killed at the deadline";
  if (outcome.exit_code && *outcome.exit_code == kExitTimeLimit) return "time limit";
  return "failed (" + describe(outcome) + ")";
}

// One run of one variant in a child process; its results in `row`.
void run_variant(const CompareArguments& args, std::size_t variant, unsigned run,
                 const AnalyzeInputs& inputs, VariantRow& row, std::ostream* progress) {
  const fs::path dir = fs::path(args.out) / "runs" / row.name / std::to_string(run);
  fs::remove_all(dir);
  fs::create_directories(dir);
  AnalyzeArguments analyze = args.analyze[variant];
  analyze.out = dir.string();
  const ChildOutcome outcome = run_in_child(
      [&] {
        return run_command<po::error>(
            "analyze", [&] { return std::optional<AnalyzeArguments>(analyze); },
            [&](const AnalyzeArguments& a) { return analyze_extracted(a, inputs, Clock::now()); });
      },
      dir / "analyze.log", args.time_limit ? deadline_for(*args.time_limit) : 0);
  fs::remove_all(dir / "facts");  // the facts as the solver read them: large, and kept nowhere
  const std::string which = "run " + std::to_string(run) + "/" + std::to_string(args.runs);
  if (outcome.exit_code != 0) {
    const std::string stopped = last_log_line(dir / "analyze.log");
    const std::string log = "log: " + (dir / "analyze.log").string();
    row.status = status_of(outcome);
    row.detail = which + ": " + stopped + "; " + log;
    if (progress)
      *progress << "[compare] " << which << ' ' << row.name << ": " << row.status << ": " << stopped
                << " (" << log << ")\n";
    return;
  }
  RunMetrics metrics = read_run_metrics(dir, args.relations);
  row.total_seconds.push_back(metrics.total_seconds);
  row.solve_seconds.push_back(metrics.solve_seconds);
  row.peak_rss_bytes.push_back(metrics.peak_rss_bytes);
  if (!row.metrics) {
    row.metrics = std::move(metrics);
    row.first_run = dir;
  }
  if (progress) {
    *progress << "[compare] " << which << ' ' << row.name << ": "
              << fixed(row.total_seconds.back(), 3) << " s total, "
              << fixed(row.solve_seconds.back(), 3) << " s solving\n";
  }
}

// Ratios and client differences against the first row, the baseline.
void compare_with_baseline(std::vector<VariantRow>& rows) {
  const VariantRow& base = rows.front();
  if (!base.ok()) return;
  const ClientResults base_clients = read_client_results(base.first_run);
  const double base_total = median(base.total_seconds);
  const double base_solve = median(base.solve_seconds);
  for (VariantRow& row : rows) {
    if (!row.ok()) continue;
    if (base_total > 0) row.total_ratio = median(row.total_seconds) / base_total;
    if (base_solve > 0) row.solve_ratio = median(row.solve_seconds) / base_solve;
    row.differences = compare_clients(read_client_results(row.first_run), base_clients);
  }
}

int run_compare(const CompareArguments& args) {
  std::ostream* progress = args.quiet ? nullptr : &std::cerr;
  check_output_directory(args.out);
  fs::create_directories(fs::path(args.out) / "runs");
  if (progress) *progress << "[compare] reading classes and extracting facts, once\n";
  const auto start = Clock::now();
  // Every variant reads the same classes: the class path, main class and reflection options
  // are compare's, shared by all.
  const AnalyzeInputs inputs = read_analyze_inputs(args.analyze.front(), progress);
  CompareSummary summary = args.summary;
  summary.extraction_seconds = seconds_since(start);

  std::vector<VariantRow> rows;
  for (const EncodingVariant& v : args.variants) {
    VariantRow row;
    row.name = v.name;
    row.options = v.text.substr(v.name.size() + 1);
    rows.push_back(row);
  }
  // Interleaved, so that drift of the machine's speed hits every variant alike; a variant
  // that failed once is not run again.
  for (unsigned run = 1; run <= args.runs; ++run) {
    for (std::size_t v = 0; v < rows.size(); ++v) {
      if (rows[v].ok()) run_variant(args, v, run, inputs, rows[v], progress);
    }
  }
  compare_with_baseline(rows);
  const fs::path out = args.out;
  write_csv(out / "compare.csv", summary, rows);
  write_json(out / "compare.json", summary, rows);
  write_compare_page(out / "compare.html", summary, rows);
  write_table(std::cout, summary, rows);
  if (progress) *progress << "[compare] wrote " << (out / "compare.html").string() << '\n';
  return kExitOk;
}

}  // namespace

int compare_command(int argc, char** argv) {
  return run_command<po::error>(
      "compare", [&] { return parse_arguments(argc, argv); },
      [](const CompareArguments& args) { return run_compare(args); });
}

}  // namespace refract::cli
