// refract solve: bddbddb-compatible Datalog on BDDs.
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "bdd/manager.hpp"
#include "cli/commands.hpp"
#include "cli/datalog_program.hpp"
#include "cli/option_values.hpp"
#include "cli/run_command.hpp"
#include "solver/engine.hpp"
#include "solver/schedule.hpp"
#include "solver/stats_report.hpp"
#include "support/atomic_file.hpp"
#include "support/error.hpp"
#include "support/stopwatch.hpp"

namespace refract::cli {

namespace po = boost::program_options;

namespace {

using Clock = std::chrono::steady_clock;

struct SolveArguments {
  std::string program;
  std::optional<std::string> input_dir, output_dir, order, stats, seed, write_state, schedule;
  std::optional<std::uint64_t> nodes, cache, max_nodes, max_memory, tuple_joins, tuple_deltas;
  std::optional<double> time_limit;
  bool quiet = false;
};

po::options_description solve_options() {
  po::options_description options("refract solve PROGRAM.datalog [options]");
  options.add_options()("help,h", "show this help")(
      "input-dir", po::value<std::string>(),
      "where inputs (.tuples, .bdd) and maps are read (default: .basedir, else the program's "
      "directory)")("output-dir", po::value<std::string>(),
                    "where outputs are written (default: the input directory)")(
      "order", po::value<std::string>(),
      "BDD variable order in bddbddb syntax, e.g. V0xV1_H0_F0 (overrides .bddvarorder)")(
      "nodes", po::value<std::string>(),
      "initial BDD node table size (overrides .bddnodes; default 1000000)")(
      "cache", po::value<std::string>(),
      "BDD operator cache size (overrides .bddcache; default 200000)")(
      "max-nodes", po::value<std::string>(),
      "hard limit on the node table; exceeding it is an error naming the rule (default: none)")(
      "max-memory", po::value<std::string>(), max_memory_help().c_str())(
      "tuple-joins", po::value<std::string>(), tuple_joins_help().c_str())(
      "tuple-deltas", po::value<std::string>(), tuple_deltas_help().c_str())(
      "time-limit", po::value<std::string>(), kTimeLimitHelp)(
      "schedule", po::value<std::string>(),
      schedule_help(solver::schedule_names().front()).c_str())(
      "write-state", po::value<std::string>(),
      "after solving, write every relation as DIR/NAME.bdd: a seed for --seed")(
      "seed", po::value<std::string>(),
      "start from what --write-state wrote for a solve of these rules on fewer input tuples: "
      "derived relations whose every rule is monotone in inputs that only grew start from "
      "their seeds, the others from nothing (--stats lists which and why)")(
      "stats", po::value<std::string>(),
      "write a JSON report (phases, BDD nodes, sizes, per-rule profile) to FILE, or - for stdout")(
      "quiet,q", "no progress on stderr");
  return options;
}

std::optional<SolveArguments> parse_arguments(int argc, char** argv) {
  const std::optional<po::variables_map> parsed = parse_command_line_with_program(
      argc, argv, solve_options(),
      "\nAfter solving, prints NAME<TAB>COUNT for each printsize relation.\n");
  if (!parsed) return std::nullopt;
  const po::variables_map& vm = *parsed;
  SolveArguments args;
  if (!vm.count("program")) throw po::error("missing PROGRAM.datalog");
  args.program = vm["program"].as<std::string>();
  auto text = [&](const char* name) -> std::optional<std::string> {
    if (!vm.count(name)) return std::nullopt;
    return vm[name].as<std::string>();
  };
  args.input_dir = text("input-dir");
  args.output_dir = text("output-dir");
  args.order = text("order");
  args.stats = text("stats");
  args.seed = text("seed");
  args.write_state = text("write-state");
  if (auto v = text("nodes")) args.nodes = positive_count("nodes", *v);
  if (auto v = text("cache")) args.cache = positive_count("cache", *v);
  if (auto v = text("max-nodes")) args.max_nodes = positive_count("max-nodes", *v);
  if (auto v = text("max-memory")) args.max_memory = positive_count("max-memory", *v);
  if (auto v = text("tuple-joins")) args.tuple_joins = count("tuple-joins", *v);
  if (auto v = text("tuple-deltas")) args.tuple_deltas = count("tuple-deltas", *v);
  if (auto v = text("time-limit")) args.time_limit = positive_seconds("time-limit", *v);
  if (auto v = text("schedule")) args.schedule = schedule_name(*v);
  args.quiet = vm.count("quiet") != 0;
  return args;
}

void print_tuples(const solver::Engine& engine, const std::string& name) {
  const rel::Relation& r = engine.relation(name);
  r.for_each_tuple([&](std::span<const std::uint64_t> tuple) {
    std::cout << name << '(';
    for (std::size_t i = 0; i < tuple.size(); ++i) {
      const auto& map = r.space().domain(r.attributes()[i].domain).map;
      std::cout << (i > 0 ? ", " : "") << (map ? map->label(tuple[i]) : std::to_string(tuple[i]));
    }
    std::cout << ")\n";
  });
}

// The --stats report to FILE (written whole or not at all) or, for "-", to stdout.
void write_stats(const std::string& destination, const std::string& report) {
  if (destination == "-") {
    std::cout << report;
    return;
  }
  AtomicOutputFile out(destination);
  out.stream() << report;
  out.commit();
}

// --write-state: into a sibling temporary directory, renamed onto DIR once complete, so that a
// seed is never half written.
void write_state_atomically(const solver::Engine& engine, const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  const fs::path temporary = dir.string() + ".writing";
  fs::remove_all(temporary);
  engine.write_state(temporary);
  fs::remove_all(dir);
  fs::rename(temporary, dir);
}

int run_solve(const SolveArguments& args) {
  const auto start = Clock::now();
  solver::PhaseTimes times;
  const solver::Program program =
      read_datalog_program(args.program, args.quiet ? nullptr : &std::cerr);
  times.parse = seconds_since(start);

  solver::EngineOptions options;
  read_as_bddbddb(options);
  options.input_dir = input_directory(program, args.program, args.input_dir);
  options.output_dir =
      args.output_dir ? std::filesystem::path(*args.output_dir) : options.input_dir;
  // A missing output directory is created once solving succeeded; a file in its way is an error.
  if (std::filesystem::exists(options.output_dir) &&
      !std::filesystem::is_directory(options.output_dir)) {
    throw InputError({options.output_dir.string()}, "output path exists and is not a directory");
  }
  options.var_order = args.order;
  if (auto n = args.nodes.has_value() ? args.nodes : program.bdd_nodes)
    options.bdd.initial_nodes = *n;
  if (auto c = args.cache.has_value() ? args.cache : program.bdd_cache) options.bdd.cache_size = *c;
  if (args.max_nodes) options.bdd.max_nodes = *args.max_nodes;
  options.bdd.memory_budget_bytes = memory_budget_bytes(args.max_memory);
  if (args.tuple_joins) options.tuple_join_max_input = *args.tuple_joins;
  if (args.tuple_deltas) options.tuple_delta_max = *args.tuple_deltas;
  if (args.time_limit) options.time_limit_seconds = *args.time_limit;
  if (args.schedule) options.schedule = *args.schedule;
  options.progress = args.quiet ? nullptr : &std::cerr;
  options.profile = args.stats.has_value();
  if (args.seed) {
    if (!std::filesystem::is_directory(*args.seed))
      throw InputError({*args.seed}, "--seed: no such directory");
    options.seed_dir = *args.seed;
  }

  const auto solve_start = Clock::now();
  solver::Engine engine(program, options);
  try {
    engine.run();
  } catch (const solver::EvaluationError& e) {  // out of time or of nodes
    if (args.stats) {
      times.solve = times.total = seconds_since(solve_start);
      write_stats(*args.stats, solver::stats_json(program, engine, times, e.what()));
    }
    throw;
  }
  times.solve = seconds_since(solve_start);
  const auto write_start = Clock::now();
  std::filesystem::create_directories(options.output_dir);
  engine.write_outputs();
  if (args.write_state) write_state_atomically(engine, *args.write_state);
  times.write = seconds_since(write_start);
  times.total = seconds_since(start);

  for (const solver::RelationDecl& r : program.relations) {
    if (r.has(solver::RelationFlag::kPrintSize)) {
      std::cout << r.name << '\t' << engine.relation_size(r.name).to_string() << '\n';
    }
  }
  for (const solver::RelationDecl& r : program.relations) {
    if (r.has(solver::RelationFlag::kPrintTuples)) print_tuples(engine, r.name);
  }
  if (args.stats) write_stats(*args.stats, solver::stats_json(program, engine, times));
  if (!args.quiet) std::cerr << "[done] " << times.total << " s\n";
  return kExitOk;
}

}  // namespace

int solve_command(int argc, char** argv) {
  return run_command<po::error>(
      "solve", [&] { return parse_arguments(argc, argv); },
      [](const SolveArguments& args) { return run_solve(args); });
}

}  // namespace refract::cli
