#include "cli/order_search_solves.hpp"

#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "cli/compare_child.hpp"
#include "cli/datalog_program.hpp"
#include "pointsto/analysis.hpp"
#include "support/atomic_file.hpp"

namespace refract::cli {

namespace fs = std::filesystem;

namespace {

// How a solve stopped at a limit ended: the evaluation bound is the end every candidate aims
// for.
bdd::RunEnd end_at(const solver::LimitReached& e) {
  if (dynamic_cast<const solver::EvaluationLimitReached*>(&e) != nullptr)
    return bdd::RunEnd::kBound;
  if (dynamic_cast<const solver::ProductionLimitReached*>(&e) != nullptr)
    return bdd::RunEnd::kNodeCap;
  return bdd::RunEnd::kTimeLimit;
}

void read_engine(const solver::Engine& engine, BoundedSolve& out) {
  out.run.nodes_produced = engine.bdd_stats().nodes_produced;
  out.run.seconds = engine.solve_seconds();
  out.evaluations = engine.evaluations();
  out.finished_evaluations = engine.finished_evaluations();
  out.loading_seconds = engine.engine_profile().loading;
  out.layout = engine.order_layout();
}

// The solve `run` makes of `engine` (which exists once `run` has built it), however it ends.
template <typename Run, typename EngineOf>
BoundedSolve bounded_solve(Run&& run, EngineOf&& engine) {
  BoundedSolve out;
  try {
    run();
    out.whole_program = true;
    out.run.end = bdd::RunEnd::kBound;
  } catch (const solver::LimitReached& e) {
    out.run.end = end_at(e);
    out.run.detail = e.what();
  } catch (const std::exception& e) {
    out.run.end = bdd::RunEnd::kFailed;
    out.run.detail = e.what();
    return out;
  }
  if (const solver::Engine* built = engine()) read_engine(*built, out);
  return out;
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\t') c = ' ';
  return text;
}

// The child's report to the parent: one `KEY<TAB>VALUE...` line each.
void write_result(const fs::path& file, const BoundedSolve& solve) {
  AtomicOutputFile out(file);
  std::ostream& o = out.stream();
  o << std::setprecision(17);
  o << "end\t" << bdd::to_string(solve.run.end) << "\nwhole\t" << (solve.whole_program ? 1 : 0)
    << "\nnodes\t" << solve.run.nodes_produced << "\nseconds\t" << solve.run.seconds
    << "\nevaluations\t" << solve.evaluations << '\t' << solve.finished_evaluations << "\nloading\t"
    << solve.loading_seconds << "\ndetail\t" << one_line(solve.run.detail) << '\n';
  const bdd::VarOrder& order = solve.layout.order;
  for (std::size_t b = 0; b < order.blocks.size(); ++b)
    for (const std::string& name : order.blocks[b])
      o << "instance\t" << name << '\t' << solve.layout.elements.at(name) << '\t'
        << solve.layout.domain.at(name) << '\t' << b << '\n';
  out.commit();
}

bdd::RunEnd parse_end(const std::string& text) {
  for (bdd::RunEnd end :
       {bdd::RunEnd::kBound, bdd::RunEnd::kNodeCap, bdd::RunEnd::kTimeLimit, bdd::RunEnd::kFailed})
    if (bdd::to_string(end) == text) return end;
  throw std::runtime_error("order-search: a run reported the end '" + text + "'");
}

BoundedSolve read_result(const fs::path& file) {
  std::ifstream in(file);
  BoundedSolve solve;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key;
    std::getline(fields, key, '\t');
    if (key == "end") {
      std::string end;
      std::getline(fields, end);
      solve.run.end = parse_end(end);
    } else if (key == "whole") {
      int whole = 0;
      fields >> whole;
      solve.whole_program = whole != 0;
    } else if (key == "nodes") {
      fields >> solve.run.nodes_produced;
    } else if (key == "seconds") {
      fields >> solve.run.seconds;
    } else if (key == "evaluations") {
      fields >> solve.evaluations >> solve.finished_evaluations;
    } else if (key == "loading") {
      fields >> solve.loading_seconds;
    } else if (key == "detail") {
      std::getline(fields, solve.run.detail);
    } else if (key == "instance") {
      std::string name, domain;
      std::uint64_t elements = 0;
      std::size_t block = 0;
      std::getline(fields, name, '\t');
      fields >> elements;
      fields.ignore(1);
      std::getline(fields, domain, '\t');
      fields >> block;
      std::vector<std::vector<std::string>>& blocks = solve.layout.order.blocks;
      if (blocks.size() <= block) blocks.resize(block + 1);
      blocks[block].push_back(name);
      solve.layout.elements[name] = elements;
      solve.layout.domain[name] = domain;
    }
  }
  return solve;
}

}  // namespace

BoundedSolve AnalyzeSearchProgram::solve(const std::optional<std::string>& order,
                                         const SolveBounds& bounds) const {
  pointsto::AnalysisOptions options = prepared_.options;
  options.order = order;
  options.max_evaluations = bounds.evaluations;
  options.max_nodes_produced = bounds.nodes_produced;
  options.time_limit_seconds = bounds.seconds;
  // The bound is the first N evaluations, the same work under every order only where the
  // sequence of evaluations does not depend on the order: not by cost (cheap-first).
  options.schedule = kOrderSearchSchedule;
  options.work_dir = work_dir_;
  options.progress = nullptr;
  options.rule_stats.reset();
  options.dumps.clear();
  pointsto::Analysis analysis(prepared_.facts(),
                              prepared_.program->extractor->invocation_positions(), options);
  std::optional<std::uint64_t> fixpoint_nodes;
  BoundedSolve out = bounded_solve([&] { fixpoint_nodes = analysis.run().bdd.nodes_produced; },
                                   [&] { return analysis.built_engine(); });
  // Reading the results after the fixpoint makes BDDs too: they are no part of the solve.
  if (fixpoint_nodes) out.run.nodes_produced = *fixpoint_nodes;
  return out;
}

std::set<std::string> AnalyzeSearchProgram::single_names(
    const solver::Engine::OrderLayout& layout) const {
  std::set<std::string> names;
  for (const auto& [name, domain] : layout.domain)
    if (domain == "C" || domain == "HC") names.insert(name);
  return names;
}

BoundedSolve DatalogSearchProgram::solve(const std::optional<std::string>& order,
                                         const SolveBounds& bounds) const {
  solver::EngineOptions options;
  read_as_bddbddb(options);
  options.input_dir = input_dir_;
  options.output_dir = output_dir_;
  options.var_order = order;
  if (program_.bdd_nodes) options.bdd.initial_nodes = *program_.bdd_nodes;
  if (program_.bdd_cache) options.bdd.cache_size = *program_.bdd_cache;
  options.bdd.memory_budget_bytes = memory_budget_bytes_;
  options.max_evaluations = bounds.evaluations;
  options.max_nodes_produced = bounds.nodes_produced;
  options.time_limit_seconds = bounds.seconds;
  options.schedule = kOrderSearchSchedule;
  std::optional<solver::Engine> engine;
  return bounded_solve(
      [&] {
        engine.emplace(program_, options);
        engine->run();
      },
      [&]() -> const solver::Engine* { return engine ? &*engine : nullptr; });
}

BoundedSolve solve_in_child(const SearchProgram& program, const std::optional<std::string>& order,
                            const SolveBounds& bounds, const fs::path& folder,
                            const std::string& name) {
  const fs::path log = folder / (name + ".log");
  const fs::path result = folder / (name + ".result");
  fs::remove(result);
  const ChildOutcome outcome = run_in_child(
      [&] {
        write_result(result, program.solve(order, bounds));
        return 0;
      },
      log, bounds.seconds > 0 ? 2 * bounds.seconds + 30 : 0);
  if (outcome.exit_code == 0 && fs::exists(result)) return read_result(result);
  BoundedSolve failed;
  failed.run.end = outcome.killed_at_deadline ? bdd::RunEnd::kTimeLimit : bdd::RunEnd::kFailed;
  failed.run.seconds = outcome.seconds;
  failed.run.detail = describe(outcome) + ": " + last_log_line(log);
  return failed;
}

}  // namespace refract::cli
