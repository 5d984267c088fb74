// refract order-search: variable orders for a program, tried and ranked. The program is read
// once (as `refract analyze` or `refract solve` reads it); the default order is solved first
// for a share of the budget, which sets the bound every candidate is solved to (the first N
// rule evaluations: the same work under every order); candidates are neighbours of the best
// order so far (bdd/order_search.hpp), each solved in a process of its own and ranked by the
// BDD nodes it produced up to the bound.
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bdd/order_search.hpp"
#include "cli/analyze_arguments.hpp"
#include "cli/analyze_run.hpp"
#include "cli/class_path_options.hpp"
#include "cli/commands.hpp"
#include "cli/datalog_program.hpp"
#include "cli/option_values.hpp"
#include "cli/order_search_solves.hpp"
#include "cli/run_command.hpp"
#include "pointsto/context_flavour.hpp"
#include "reflection/mode.hpp"
#include "support/error.hpp"
#include "support/stopwatch.hpp"

namespace refract::cli {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kDefaultBudgetSeconds = 300;
// The bound is the work the default order does in this share of the budget, so that a search
// tries some twenty candidates or more (fewer where bad orders run up to their caps).
constexpr double kBoundShare = 20;
// A candidate stops once it has produced this many times the default's nodes: it cannot rank
// near the top, and the cap depends on the work alone, not on the machine.
constexpr std::uint64_t kNodeCapFactor = 2;
// ... or once it has taken this many times the default's seconds (at least kMinCandidateSeconds),
// for orders whose time goes elsewhere than into new nodes.
constexpr double kTimeCapFactor = 4;
constexpr double kMinCandidateSeconds = 2;

struct OrderSearchArguments {
  std::optional<std::string> datalog;  // PROGRAM.datalog
  std::optional<std::string> input_dir;
  std::optional<AnalyzeArguments> analyze;  // a Java program
  double budget = kDefaultBudgetSeconds;
  std::optional<std::uint64_t> evaluations;
  std::optional<std::uint64_t> max_memory;
  bool quiet = false;
};

po::options_description order_search_options() {
  po::options_description options(
      "refract order-search (--classpath CP --main CLASS [--jdk DIR] --context FLAVOUR | "
      "PROGRAM.datalog [--input-dir D]) [--budget SECONDS] [options]");
  options.add_options()("help,h", "show this help");
  add_class_path_options(options);
  options.add_options()("main", po::value<std::string>(), "the main class (binary name)")(
      "context", po::value<std::string>(),
      "the context flavour (refract analyze --context), with --classpath")(
      "reflection", po::value<std::string>(),
      "the reflection analysis (refract analyze --reflection; default solar), with --classpath")(
      "rules", po::value<std::string>(),
      "folder of the points-to rules (refract analyze --rules), with --classpath: a copy keeps a "
      "long search apart from edits to the shipped ones")(
      "reflection-rules", po::value<std::string>(),
      "folder of the reflection rules (refract analyze --reflection-rules), with --classpath")(
      "input-dir", po::value<std::string>(),
      "where PROGRAM.datalog's inputs are (refract solve --input-dir)")(
      "budget", po::value<std::string>(),
      "seconds for the search, the default order's solves included (default 300); the bound "
      "each candidate is solved to is the work the default order does in a 20th of them")(
      "evaluations", po::value<std::string>(),
      "solve each candidate to the first N rule evaluations instead (the bound the progress "
      "names: a search that gives it again measures every order alike)")(
      "max-memory", po::value<std::string>(), max_memory_help().c_str())("quiet,q",
                                                                         "no progress on stderr");
  return options;
}

constexpr const char* kHelpEpilogue =
    "\nPrints ORDER<TAB>NODES_PRODUCED<TAB>SECONDS for every order tried, best first: the BDD "
    "nodes its solve produced up to the bound, and the seconds the solve took. Orders that "
    "stopped at a cap (twice the default's nodes, or four times its seconds) come last.\n";

[[noreturn]] void not_with(const std::string& option, const std::string& mode) {
  throw po::error("--" + option + " is not an option for " + mode);
}

// The analyze arguments of a Java program: the class path, main class, flavour, reflection.
AnalyzeArguments java_program(const po::variables_map& vm) {
  if (vm.count("input-dir")) not_with("input-dir", "a Java program (--classpath)");
  if (!vm.count("main")) throw po::error("missing --main");
  if (!vm.count("context")) throw po::error("missing --context");
  AnalyzeArguments args;
  args.class_path = class_path_arguments(vm);
  args.main_class = vm["main"].as<std::string>();
  args.context = vm["context"].as<std::string>();
  try {
    pointsto::parse_context_flavour(args.context, "--context");
  } catch (const InputError& e) {
    throw po::error(e.message());
  }
  if (vm.count("rules")) args.rules = vm["rules"].as<std::string>();
  if (vm.count("reflection-rules"))
    args.reflection.rules = vm["reflection-rules"].as<std::string>();
  if (vm.count("reflection")) {
    try {
      args.reflection.mode =
          reflection::parse_mode(vm["reflection"].as<std::string>(), "--reflection");
    } catch (const std::invalid_argument& e) {
      throw po::error(e.what());
    }
  }
  return args;
}

std::optional<OrderSearchArguments> parse_arguments(int argc, char** argv) {
  const std::optional<po::variables_map> parsed =
      parse_command_line_with_program(argc, argv, order_search_options(), kHelpEpilogue);
  if (!parsed) return std::nullopt;
  const po::variables_map& vm = *parsed;
  OrderSearchArguments args;
  const bool java = vm.count("classpath") != 0;
  if (vm.count("program") && java)
    throw po::error(
        "give PROGRAM.datalog or --classpath CP --main CLASS --context FLAVOUR, not both");
  if (vm.count("program")) {
    args.datalog = vm["program"].as<std::string>();
    for (const char* option :
         {"main", "context", "reflection", "rules", "reflection-rules", "jdk", "skip-bad-classes"})
      if (vm.count(option)) not_with(option, "PROGRAM.datalog");
    if (vm.count("input-dir")) args.input_dir = vm["input-dir"].as<std::string>();
  } else if (java) {
    args.analyze = java_program(vm);
  } else {
    throw po::error("missing PROGRAM.datalog or --classpath CP --main CLASS --context FLAVOUR");
  }
  if (vm.count("budget")) args.budget = positive_seconds("budget", vm["budget"].as<std::string>());
  if (vm.count("evaluations"))
    args.evaluations = positive_count("evaluations", vm["evaluations"].as<std::string>());
  if (vm.count("max-memory")) {
    args.max_memory = positive_count("max-memory", vm["max-memory"].as<std::string>());
    if (args.analyze) args.analyze->max_memory = args.max_memory;
  }
  args.quiet = vm.count("quiet") != 0;
  if (args.analyze) args.analyze->quiet = args.quiet;
  return args;
}

// A folder of the search's own (the candidates' logs and reports, an analysis's facts),
// removed with everything in it when the search ends.
class ScratchFolder {
 public:
  ScratchFolder()
      : path_(fs::temp_directory_path() / ("refract-order-search-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(3) << seconds;
  return text.str();
}

std::string bound_text(const SolveBounds& bound) {
  return bound.evaluations ? "the first " + std::to_string(*bound.evaluations) + " rule evaluations"
                           : "the whole program";
}

// The default order solved for `seconds`, to find how much work that is.
BoundedSolve solve_for(const SearchProgram& program, double seconds, const fs::path& scratch,
                       std::ostream* progress) {
  if (progress) {
    *progress << "[order-search] the default order, for up to " << seconds_text(seconds)
              << " s to set the bound\n";
  }
  SolveBounds bounds;
  bounds.seconds = seconds;
  return solve_in_child(program, std::nullopt, bounds, scratch, "default");
}

// The bound: the rule evaluations the default order finishes in a share of the budget spent
// evaluating rules (loading the inputs is not counted in the share: on a fixture with the
// JDK it took 4 s of a 45 s solve), with the default's solve to it in `solve`. Solves the
// default again for longer when loading took most of the share. nullopt when the default
// solved the whole program in the share, or failed.
std::optional<std::uint64_t> calibrate(const SearchProgram& program,
                                       const OrderSearchArguments& args, const fs::path& scratch,
                                       BoundedSolve& solve, std::ostream* progress) {
  const double share = args.budget / kBoundShare;
  double limit = share;
  double spent = 0;
  for (;;) {
    solve = solve_for(program, limit, scratch, progress);
    spent += solve.run.seconds;
    if (solve.run.end != bdd::RunEnd::kTimeLimit) return std::nullopt;
    const bool loaded = solve.evaluations > 0;
    if (loaded && solve.run.seconds - solve.loading_seconds >= share / 2) break;
    // Past the loading, a share of evaluations; still loading, twice as long.
    const double next = loaded ? solve.loading_seconds + share : 2 * limit;
    if (spent + next > args.budget / 2) break;
    limit = next;
  }
  const std::uint64_t bound = solve.finished_evaluations;
  if (bound == 0) {
    throw InputError({"--budget"}, "the default order finished no rule evaluation in " +
                                       seconds_text(solve.run.seconds) +
                                       " s (loading the inputs took " +
                                       seconds_text(solve.loading_seconds) +
                                       " s): give a larger --budget, or --evaluations N");
  }
  if (progress) {
    *progress << "[order-search] it finished " << bound << " rule evaluations in "
              << seconds_text(solve.run.seconds) << " s (" << seconds_text(solve.loading_seconds)
              << " s loading the inputs)\n";
  }
  // Stopped between two evaluations, the solve did just the bound's work: it is the default's
  // measure. Stopped inside one, it did more, and is solved again to the bound.
  if (bound == solve.evaluations) solve.run.end = bdd::RunEnd::kBound;
  return bound;
}

// The default order solved to the bound every candidate will be solved to: --evaluations, or
// the work of a share of the budget (calibrate). Returns the default's solve; sets `bound`.
BoundedSolve solve_default(const SearchProgram& program, const OrderSearchArguments& args,
                           const fs::path& scratch, SolveBounds& bound, std::ostream* progress) {
  BoundedSolve solve;
  bound.evaluations = args.evaluations;
  if (!args.evaluations) bound.evaluations = calibrate(program, args, scratch, solve, progress);
  if (bound.evaluations && solve.run.end != bdd::RunEnd::kBound) {
    if (progress) {
      *progress << "[order-search] the default order, to " << bound_text(bound) << '\n';
    }
    SolveBounds bounds = bound;
    bounds.seconds = args.budget;
    solve = solve_in_child(program, std::nullopt, bounds, scratch, "default");
    if (solve.whole_program) bound.evaluations.reset();
  }
  if (solve.run.end != bdd::RunEnd::kBound) {
    throw InputError({"order-search"}, "the default order's solve did not reach the bound (" +
                                           bdd::to_string(solve.run.end) +
                                           "): " + solve.run.detail);
  }
  return solve;
}

void print_orders(const std::vector<bdd::TriedOrder>& tried) {
  for (const bdd::TriedOrder& t : tried) {
    std::cout << t.order.to_string() << '\t' << t.run.nodes_produced << '\t'
              << seconds_text(t.run.seconds) << '\n';
  }
}

void report_best(const std::vector<bdd::TriedOrder>& tried, std::uint64_t default_nodes,
                 std::ostream& progress) {
  const bdd::TriedOrder& best = tried.front();
  progress << "[order-search] " << tried.size() << " orders tried; ";
  if (best.number == 1) {
    progress << "the default order stays best\n";
    return;
  }
  std::ostringstream ratio;
  ratio << std::fixed << std::setprecision(3)
        << static_cast<double>(best.run.nodes_produced) / static_cast<double>(default_nodes);
  progress << "best " << best.order.to_string() << ", " << best.run.nodes_produced
           << " nodes produced, " << ratio.str() << "x the default's\n";
}

int search_orders(const SearchProgram& program, const OrderSearchArguments& args,
                  const fs::path& scratch, std::ostream* progress) {
  const auto started = Clock::now();
  auto remaining = [&] { return args.budget - seconds_since(started); };
  SolveBounds bound;
  const BoundedSolve first = solve_default(program, args, scratch, bound, progress);
  bound.nodes_produced = std::max<std::uint64_t>(kNodeCapFactor * first.run.nodes_produced, 1);
  const double time_cap = std::max(kTimeCapFactor * first.run.seconds, kMinCandidateSeconds);
  if (progress) {
    *progress << "[order-search] bound: " << bound_text(bound);
    if (bound.evaluations) *progress << " (--evaluations " << *bound.evaluations << ")";
    *progress << "; the default order " << first.layout.order.to_string() << " produced "
              << first.run.nodes_produced << " nodes in " << seconds_text(first.run.seconds)
              << " s; candidates stop past " << bound.nodes_produced << " nodes or "
              << seconds_text(time_cap) << " s\n";
  }
  bdd::NeighbourChoices choices;
  for (const auto& [name, elements] : first.layout.elements)
    if (elements == 1) choices.ignored.insert(name);
  choices.single = program.single_names(first.layout);

  const bdd::MeasureOrder measure = [&](const bdd::VarOrder& order,
                                        const bdd::CandidatePlace& place) {
    SolveBounds bounds = bound;
    bounds.seconds = std::min(time_cap, remaining());
    BoundedSolve solve = solve_in_child(program, order.to_string(), bounds, scratch,
                                        "candidate-" + std::to_string(place.number));
    // Stopped by the end of the budget, not by its own cap: not measured.
    if (solve.run.end == bdd::RunEnd::kTimeLimit && bounds.seconds < time_cap)
      solve.run.end = bdd::RunEnd::kCutShort;
    if (progress) {
      *progress << "[order-search] candidate " << place.number << " (neighbour " << place.neighbour
                << "/" << place.neighbours << " of the best so far) " << order.to_string() << ": ";
      if (solve.run.end == bdd::RunEnd::kBound) {
        *progress << solve.run.nodes_produced << " nodes, " << seconds_text(solve.run.seconds)
                  << " s\n";
      } else if (solve.run.end == bdd::RunEnd::kCutShort) {
        *progress << "cut short by the end of the budget, left out\n";
      } else {
        *progress << bdd::to_string(solve.run.end) << " after " << seconds_text(solve.run.seconds)
                  << " s: " << solve.run.detail << '\n';
      }
    }
    return solve.run;
  };
  // A candidate needs about the default's time; with less left the search ends.
  const auto keep_going = [&] { return remaining() >= first.run.seconds; };
  const std::vector<bdd::TriedOrder> tried =
      bdd::climb({first.layout.order, first.run, 1}, choices, measure, keep_going);
  print_orders(tried);
  if (progress) report_best(tried, first.run.nodes_produced, *progress);
  return kExitOk;
}

int run_order_search(const OrderSearchArguments& args) {
  std::ostream* progress = args.quiet ? nullptr : &std::cerr;
  const ScratchFolder scratch;
  if (args.datalog) {
    const solver::Program program = read_datalog_program(*args.datalog, progress);
    const DatalogSearchProgram search(program,
                                      input_directory(program, *args.datalog, args.input_dir),
                                      scratch.path() / "out", memory_budget_bytes(args.max_memory));
    return search_orders(search, args, scratch.path(), progress);
  }
  if (progress) *progress << "[order-search] reading the program once\n";
  const AnalyzeInputs inputs = read_analyze_inputs(*args.analyze, progress);
  const PreparedAnalysis prepared = prepare_analysis(*args.analyze, inputs, progress);
  const AnalyzeSearchProgram search(prepared, scratch.path() / "facts");
  return search_orders(search, args, scratch.path(), progress);
}

}  // namespace

int order_search_command(int argc, char** argv) {
  return run_command<po::error>(
      "order-search", [&] { return parse_arguments(argc, argv); },
      [](const OrderSearchArguments& args) { return run_order_search(args); });
}

}  // namespace refract::cli
