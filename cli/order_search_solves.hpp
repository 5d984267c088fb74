// The bounded solves of `refract order-search`: one program, read and prepared once, solved
// under one candidate order at a time, each solve in a forked process of its own (BuDDy allows
// one manager per process, and one order's node table must not weigh on the next).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "bdd/order_search.hpp"
#include "bdd/var_order.hpp"
#include "cli/analyze_run.hpp"
#include "solver/ast.hpp"
#include "solver/engine.hpp"

namespace refract::cli {

// The schedule of every solve of a search, whatever the flavour's default: its sequence of
// rule evaluations does not depend on the order, so a bound of N evaluations is the same work.
inline constexpr const char* kOrderSearchSchedule = "rule-fixpoint";

// The bounds of one solve (solver::EngineOptions::max_evaluations, max_nodes_produced,
// time_limit_seconds).
struct SolveBounds {
  std::optional<std::uint64_t> evaluations;  // nullopt: the whole program
  std::uint64_t nodes_produced = 0;          // 0: no cap
  double seconds = 0;                        // 0: no limit
};

// How one bounded solve went.
struct BoundedSolve {
  bdd::OrderRun run;                       // its end (kBound also when it solved the whole program)
  bool whole_program = false;              // it reached the fixpoint within the bound
  std::uint64_t evaluations = 0;           // rule evaluations begun
  std::uint64_t finished_evaluations = 0;  // of them, those finished (all or all but one)
  double loading_seconds = 0;              // of the solve's seconds, those loading the inputs
  solver::Engine::OrderLayout layout;      // the order it used, when its engine was built
};

// A program order-search solves again and again.
class SearchProgram {
 public:
  virtual ~SearchProgram() = default;
  // Solves under `order` (nullopt: the program's default) within `bounds`, in this process.
  virtual BoundedSolve solve(const std::optional<std::string>& order,
                             const SolveBounds& bounds) const = 0;
  // The names order-search also moves one at a time (bdd::NeighbourChoices::single), of the
  // domains in `layout`.
  virtual std::set<std::string> single_names(const solver::Engine::OrderLayout& layout) const = 0;
};

// `refract analyze`'s program as prepared (facts, options), its work files in `work_dir`.
class AnalyzeSearchProgram : public SearchProgram {
 public:
  AnalyzeSearchProgram(const PreparedAnalysis& prepared, std::filesystem::path work_dir)
      : prepared_(prepared), work_dir_(std::move(work_dir)) {}
  BoundedSolve solve(const std::optional<std::string>& order,
                     const SolveBounds& bounds) const override;
  // The instances of the context domains C and HC.
  std::set<std::string> single_names(const solver::Engine::OrderLayout& layout) const override;

 private:
  const PreparedAnalysis& prepared_;
  std::filesystem::path work_dir_;
};

// A bddbddb program read as `refract solve` reads it; outputs are never written.
class DatalogSearchProgram : public SearchProgram {
 public:
  // `memory_budget_bytes`: the node table's (solve's --max-memory).
  DatalogSearchProgram(const solver::Program& program, std::filesystem::path input_dir,
                       std::filesystem::path output_dir, std::uint64_t memory_budget_bytes)
      : program_(program),
        input_dir_(std::move(input_dir)),
        output_dir_(std::move(output_dir)),
        memory_budget_bytes_(memory_budget_bytes) {}
  BoundedSolve solve(const std::optional<std::string>& order,
                     const SolveBounds& bounds) const override;
  // None: a bddbddb program's domains mean nothing special to order-search.
  std::set<std::string> single_names(const solver::Engine::OrderLayout&) const override {
    return {};
  }

 private:
  const solver::Program& program_;
  std::filesystem::path input_dir_;
  std::filesystem::path output_dir_;
  std::uint64_t memory_budget_bytes_;
};

// program.solve(order, bounds) in a child process, its report passed back through files in
// `folder` (`name`.log, `name`.result). A child that crashes, is killed (at twice the time
// limit plus 30 s) or cannot report is a kFailed run saying so.
BoundedSolve solve_in_child(const SearchProgram& program, const std::optional<std::string>& order,
                            const SolveBounds& bounds, const std::filesystem::path& folder,
                            const std::string& name);

}  // namespace refract::cli
