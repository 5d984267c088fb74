// One run of the points-to analysis (`refract analyze`): the program's facts and a context
// flavour in; the solved relations, the call graph and the statistics out. The rules are the
// Datalog files of pointsto/rules/; this code only declares the context domains, builds the
// flavour's constructor relations (pointsto/context_constructors.hpp) and reads results.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bdd/manager.hpp"
#include "exporters/call_graph.hpp"
#include "frontend/fact_database.hpp"
#include "frontend/fact_extractor.hpp"
#include "pointsto/cloning_numbering.hpp"
#include "pointsto/context_flavour.hpp"
#include "solver/engine.hpp"

namespace refract::pointsto {

struct AnalysisOptions {
  ContextFlavour flavour;
  std::optional<std::string> order;                      // overrides the flavour's default order
  ContextBits context_bits = ContextBits::kConsecutive;  // how the order places context fields
  // Context fields hold at least this many elements: a layout fixed beforehand, so that the
  // contexts of a seed (seed_dir) are encoded alike (cli/jdk_cache.hpp). 0: as many as there are.
  std::uint64_t context_element_capacity = 0;
  // Domains declared with at least this many elements, for the same reason: a seed's relations
  // are then laid out as the run's, and its image is placed whole (cli/jdk_cache.hpp).
  std::map<std::string, std::uint64_t> domain_room;
  bdd::ManagerSettings bdd;
  // rules evaluated once over relations of at most this many tuples run on explicit tuples
  // (solver::EngineOptions::tuple_join_max_input); 0: BDD products only
  std::uint64_t tuple_join_max_input = solver::EngineOptions{}.tuple_join_max_input;
  // semi-naive steps on explicit tuples (solver::EngineOptions::tuple_delta_max); 0: off
  std::uint64_t tuple_delta_max = solver::EngineOptions{}.tuple_delta_max;
  // H elements allocated with the empty heap context under every flavour
  // (ContextConstructors::context_free_heaps, filled by heap_merging.hpp's context_free_heaps)
  std::vector<std::uint64_t> context_free_heaps;
  double time_limit_seconds = 0;  // per solve (solver::EngineOptions); 0: none
  // solver/schedule.hpp; nullopt: the flavour's default (default_schedule)
  std::optional<std::string> schedule;
  // Bounds on the solve's work (solver::EngineOptions::max_evaluations, max_nodes_produced),
  // for comparing orders; cloning's pre-pass, which no order changes, runs without them.
  std::optional<std::uint64_t> max_evaluations;
  std::uint64_t max_nodes_produced = 0;
  std::filesystem::path rules_dir;  // holds pointsto.datalog and what it includes
  // rule files included after pointsto.datalog: the reflection mode's (reflection/*.datalog)
  std::vector<std::filesystem::path> extra_rules;
  std::filesystem::path work_dir;  // facts, contexts.datalog and analysis.datalog go here
  std::vector<std::string> dumps;  // relations --dump/--dump-bdd ask for: checked before solving
  // --rule-stats: the solver's report (per-rule time, evaluations, result size, peak nodes),
  // as `refract solve --stats` writes it
  std::optional<std::filesystem::path> rule_stats;
  std::ostream* progress = nullptr;
  // A solve of the same rules on a part of these facts to start from (solver::EngineOptions::
  // seed_dir: the JDK's start-up fixpoint), and where to leave this solve's state for one.
  std::optional<std::filesystem::path> seed_dir;
  std::optional<std::filesystem::path> state_dir;
  // Off for a solve kept only for its state (a cache entry): the call graph and statistics
  // are not read from the relations, which takes 1 s under insens and 4.5 s under 2-obj+H.
  bool read_results = true;
};

struct AnalysisResult {
  exporters::CallGraph call_graph;
  std::string order;                                     // the variable order used
  ContextBits context_bits = ContextBits::kConsecutive;  // and how it placed context fields
  // The solve's schedule (solver/schedule.hpp), its sweeps and its rule evaluations on deltas
  std::string schedule;
  std::uint64_t sweeps = 0;
  std::uint64_t delta_evaluations = 0;
  std::uint64_t contexts = 0;                  // distinct contexts of reachable methods
  std::map<std::string, std::string> sizes;    // every relation's exact size
  std::map<std::string, std::uint64_t> nodes;  // every relation's BDD node count
  // VarPointsTo tuples whose object is a java.lang.String (seed 003 Sec. 6, "var points-to
  // string"), exact
  std::string string_var_points_to = "0";
  std::vector<std::string> polymorphic_calls;
  std::vector<std::string> may_fail_casts;
  std::vector<std::string> unmodelled_natives;
  std::map<std::string, double> seconds;  // per phase
  bdd::ManagerStats bdd;
  std::uint64_t cloning_paths = 0;  // cloning: the most call paths to one method (cap 2^62)
  bool cloning_wrapped = false;     // cloning: some method had more, contexts wrapped around
  // With AnalysisOptions::seed_dir: the relations that started from the seed, and the others
  // with why (solver/seeding.hpp).
  std::set<std::string> seeded;
  std::map<std::string, std::string> recomputed;
  std::string seed_read;  // how the seed was read (solver::SeedPlan::read)
};

class Analysis {
 public:
  // positions: of each I element (FactExtractor::invocation_positions), for the JCG export.
  Analysis(const frontend::FactDatabase& facts,
           const std::vector<frontend::InvocationPosition>& positions, AnalysisOptions options);
  ~Analysis();

  // Writes the facts and the program into work_dir, solves, reads the results.
  AnalysisResult run();
  // A relation of the solved program as TSV of element names; std::invalid_argument if the
  // program has no such relation.
  void dump(const std::string& relation, const std::filesystem::path& file) const;
  // The same relation as a bddbddb .bdd file (relations/bdd_file.hpp): compact where the TSV
  // of a large points-to relation would take gigabytes.
  void dump_bdd(const std::string& relation, const std::filesystem::path& file) const;
  // The solved program and its engine (after run()), for reports over other relations.
  const solver::Program& program() const { return *program_; }
  const solver::Engine& engine() const { return *engine_; }
  // The engine once run() has built it, also when the solve stopped at a limit; else null.
  const solver::Engine* built_engine() const { return engine_.get(); }

 private:
  CallGraphIds prepass_call_graph() const;

  const frontend::FactDatabase& facts_;
  const std::vector<frontend::InvocationPosition>& positions_;
  AnalysisOptions options_;
  std::unique_ptr<solver::Program> program_;
  std::unique_ptr<solver::Engine> engine_;
};

}  // namespace refract::pointsto
