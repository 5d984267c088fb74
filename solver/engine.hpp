// Runs a checked, stratified Datalog program on BDDs: loads inputs, evaluates
// each stratum semi-naively to a fixpoint, and writes the flagged outputs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bdd/manager.hpp"
#include "bdd/var_order.hpp"
#include "relations/relation.hpp"
#include "solver/ast.hpp"
#include "solver/keyed_index.hpp"
#include "solver/seeding.hpp"
#include "solver/tuple_rule.hpp"
#include "support/big_uint.hpp"

namespace refract::solver {

struct EngineOptions {
  std::filesystem::path input_dir;       // where inputs and maps are read
  std::filesystem::path output_dir;      // where outputs are written
  std::optional<std::string> var_order;  // overrides .bddvarorder
  bdd::ManagerSettings bdd;              // node table and cache (overrides applied by caller)
  std::ostream* progress = nullptr;      // stratum/iteration/size/node lines; null = quiet
  // Per domain declared with more room than it has elements (frontend::write_fact_database's
  // `room`): its elements, which write_state records as the solve's, so that a solve seeded
  // from it tells the seed's elements from those past them.
  std::map<std::string, std::uint64_t> domain_elements;
  // At most one iteration line per this many seconds within a stratum (its last always; a
  // line adds up the sweeps not printed): cheap-first has thousands of short rounds.
  double progress_interval_seconds = 1.0;
  // Count each rule's last result (one count per rule, at the end) and time the BDD
  // operations by kind (bdd::ManagerStats::operation_times).
  bool profile = false;
  // Relations declared `input` whose BDD a caller builds instead of reading NAME.bdd: e.g.
  // the context constructors of a points-to flavour, made of bit equalities. The builder
  // gets the empty relation, laid out in the chosen order, and sets its BDD.
  std::map<std::string, std::function<void(rel::Relation&)>> built_inputs;
  // Rules evaluated once (non-recursive strata) whose body relations each hold at most this
  // many tuples are joined on explicit tuples (solver/tuple_rule.hpp) and their result
  // encoded once; 0 keeps every rule on BDD products.
  std::uint64_t tuple_join_max_input = std::uint64_t{1} << 22;
  // Only where the order puts a join variable below the head's variables (the BDD product is
  // then slow, see Engine::State::product_pairs_sub_bdds); false: every such small rule (tests).
  bool tuple_joins_where_bdd_is_slow = true;
  TupleRuleLimits tuple_limits;  // past them a rule goes back to its BDD plan
  // In a recursive component, a semi-naive step of a rule with one atom over the component,
  // joined with earlier relations where the BDD product is slow (as above), runs on explicit
  // tuples when that atom's delta holds at most this many tuples and each other relation at
  // most tuple_join_max_input; 0 keeps every step on BDD products.
  std::uint64_t tuple_delta_max = std::uint64_t{1} << 16;
  // Stop with TimeLimitReached once solving has taken this long: checked before each rule
  // evaluation, and inside a long BDD operation at its next garbage collection
  // (bdd::Manager::set_deadline); 0: no limit.
  double time_limit_seconds = 0;
  // Bounds on the work of a run, for comparing variable orders (refract order-search):
  //  * stop with EvaluationLimitReached before rule evaluation number max_evaluations + 1
  //    (a rule's first evaluation and each semi-naive step alike). Under a schedule that does
  //    not rank rules by cost (rule-fixpoint, sweep), every order evaluates the same rules on
  //    the same tuples in the same sequence, so this bound is the same work under any order;
  //    nullopt: none;
  //  * stop with ProductionLimitReached once more than max_nodes_produced BDD nodes have been
  //    produced (bdd::ManagerStats::nodes_produced): checked before each rule evaluation and
  //    inside a long BDD operation at its next garbage collection; 0: none.
  std::optional<std::uint64_t> max_evaluations;
  std::uint64_t max_nodes_produced = 0;
  // In a recursive stratum, a join of something that changes with a static side (the prefix
  // before a stratum atom, or a static atom after one) reads just the static tuples that share
  // its keys (solver/keyed_index.hpp), where the order puts a whole block of the static side
  // above the shared variables and the limits say that is cheaper.
  bool keyed_indexes = true;
  bool keyed_indexes_where_product_is_slow = true;  // false: wherever a side is static (tests)
  KeyedIndexLimits keyed_limits;
  // A delta over at most this many additions to a relation is the union of their new tuples,
  // over more an xor with the value last read (Engine::State::evaluate_stratum); 0: always xor.
  std::uint64_t delta_log_versions = 16;
  // Which rule of a recursive stratum runs next on its deltas (solver/schedule.hpp; one of
  // schedule_names()). A seeded stratum (seed_dir) keeps its own order.
  std::string schedule = "rule-fixpoint";
  // Domains laid out in lanes (rel::DomainSpace::set_lanes): name -> equal fields the order
  // interleaves bit by bit, for domains that are tuples of elements (contexts).
  std::map<std::string, unsigned> domain_lanes;
  // bddbddb's own behaviour, for programs written for it (refract solve sets both):
  //  * an order given by --order or .bddvarorder that misses instances the program uses, or
  //    names others, is completed (bdd::complete_var_order) instead of rejected;
  //  * a quoted name a domain's map lacks becomes a new element of the domain where it has
  //    room for one (solver/named_constants.hpp), instead of matching nothing in a body and
  //    failing in a head.
  bool complete_var_order = false;
  bool new_elements_for_missing_names = false;
  // run() stops once the inputs are loaded and every rule is planned (refract check).
  bool plan_only = false;
  // A solve of the same rules on fewer input tuples, as Engine::write_state left it (issue 35:
  // the JDK's start-up fixpoint): each input is compared with its value there, and the derived
  // relations solver/seeding.hpp allows start from theirs instead of from nothing.
  std::optional<std::filesystem::path> seed_dir;
  // How a recursive stratum whose relations took their seeds is evaluated (bench/README.md,
  // "The JDK once from the seed's prefixes"). false: only the prefixes later deltas join with,
  // over the relations as the seed's solve left them, and the schedule's rounds from what the
  // stratum's inputs gained (insens warm: antlr 0.72x, xalan 0.68x, checkstyle 1.08x, hsqldb
  // 1.16x the run without the seed). true: a first sweep over the seeded relations, every
  // rule's result included, and the rounds from there (antlr under 2-type+H: 92 s, against
  // 260 s from the prefixes and 740 s without the seed: the sweep's products find the
  // program's part at once).
  bool seeded_first_sweep = false;
};

// Per-rule profile, reported by --stats.
struct RuleProfile {
  std::string rule_text;
  SourceLocation where;
  std::uint64_t evaluations = 0;
  std::uint64_t keyed_joins = 0;  // of them, joins with a keyed static side
  std::uint64_t tuple_steps = 0;  // of them, semi-naive steps on explicit tuples
  double seconds = 0;
  BigUint result_tuples;  // tuples the rule produced in its last evaluation (with profile on)
  std::uint64_t peak_nodes = 0;  // node table occupancy seen right after its evaluations
  // Per step of its plan: which body literal (0-based) the step evaluates (-1: the domain of
  // a variable no literal binds), and its time.
  std::vector<std::int64_t> step_literals;
  std::vector<double> step_seconds;
  // The products of semi-naive evaluations within step_seconds, by the side that changed: the
  // prefix before the step joined with what the step's atom gained (`atom_delta`), and what
  // the prefix gained joined with all of the atom (`prefix_delta`; a static atom has only
  // this one). A large prefix_delta for a small change points at an order that puts the
  // atom's kept variables above the shared ones, so that each product walks all of it.
  std::vector<double> step_atom_delta_seconds;
  std::vector<double> step_prefix_delta_seconds;
  // How the plan laid the rule out, for comparing orders: "x:V1" per variable, and the steps
  // whose atom is renamed onto the rule's instances (a replace per delta it reads).
  std::vector<std::string> variable_instances;
  std::vector<std::size_t> renamed_steps;
  // Renamed stratum atoms whose deltas are cut down to the values the rule's static atoms allow
  // before the rename (a semijoin).
  std::vector<std::size_t> filtered_steps;
  // Seconds per kind of BDD operation within its evaluations ("relprod", "replace", ...):
  // a step's time split into the renames, unions and products it did.
  std::map<std::string, double> operation_seconds;
};

// Where the solver's time goes besides the rules' own products (RuleProfile), reported by
// --stats: what an order or a rule rewrite cannot explain shows up here.
struct EngineProfile {
  double loading = 0;                   // reading and encoding the inputs
  double preparing = 0;                 // renaming full relations for a first sweep
  double deltas = 0;                    // finding what each rule has not yet seen
  double absorbing = 0;                 // adding rule results to their heads
  double reporting = 0;                 // counting new tuples for the progress lines
  std::uint64_t tuple_rules = 0;        // rules evaluated on explicit tuples (tuple_join_max_input)
  std::uint64_t tuple_deltas = 0;       // semi-naive steps evaluated so (tuple_delta_max)
  std::uint64_t keyed_joins = 0;        // joins with a keyed restriction of a static side
  std::uint64_t strata_from_seed = 0;   // run from their seeds (EngineOptions::seed_dir)
  std::string schedule;                 // EngineOptions::schedule
  std::uint64_t sweeps = 0;             // rounds of every stratum, the first sweeps included
  std::uint64_t delta_evaluations = 0;  // rule evaluations on deltas after the first sweeps
};

// In a state Engine::write_state writes: `DOMAIN SIZE` per line.
inline constexpr const char* kSeedDomainsFile = "domain-sizes.txt";
// ... and every relation at once as a node image (relations/state_image.hpp).
inline constexpr const char* kSeedImageFile = "relations.image";
// ... and `RELATION LINES SUM_A SUM_B` per input read from a tuples file that no rule adds to
// (rel::TupleFingerprint): a seeded solve builds only the tuples past the seed's domains of an
// input whose other lines are the seed's.
inline constexpr const char* kSeedFingerprintsFile = "input-fingerprints.txt";

class Engine {
 public:
  Engine(const Program& program, EngineOptions options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Loads inputs and evaluates every stratum. Throws InputError for bad inputs
  // and EvaluationError (with the rule) when the node table is exhausted.
  void run();
  // Writes output/outputtuples relations (atomically, one file each).
  void write_outputs();
  // Writes every relation, inputs included, as DIR/NAME.bdd (each file atomically), and each
  // domain's size in DIR/domain-sizes.txt: what a later solve reads as EngineOptions::seed_dir.
  void write_state(const std::filesystem::path& dir) const;
  // With EngineOptions::seed_dir, once run() has loaded the inputs: what was seeded and what
  // recomputed, and how each input compared with the seed's.
  const SeedPlan& seed_plan() const;
  const std::map<std::string, InputChange>& seed_inputs() const;

  BigUint relation_size(const std::string& relation) const;
  // Every tuple of a relation, in BDD order; for tests and printtuples.
  void for_each_tuple(const std::string& relation,
                      const std::function<void(std::span<const std::uint64_t>)>& visit) const;
  std::vector<std::vector<std::uint64_t>> tuples(const std::string& relation) const;

  const std::vector<RuleProfile>& rule_profiles() const;
  const EngineProfile& engine_profile() const;
  bdd::ManagerStats bdd_stats() const;
  std::string var_order() const;  // the order actually used
  // Rule evaluations begun so far (EngineOptions::max_evaluations counts them), and of them
  // those finished: all but one when a limit stopped the run inside an evaluation.
  std::uint64_t evaluations() const;
  std::uint64_t finished_evaluations() const;
  // Seconds run() took (loading the inputs included), also when it stopped at a limit.
  double solve_seconds() const;
  // The order actually used, block by block; per instance its domain and the domain's size.
  struct OrderLayout {
    bdd::VarOrder order;
    std::map<std::string, std::string> domain;
    std::map<std::string, std::uint64_t> elements;
  };
  OrderLayout order_layout() const;
  // A relation by name, e.g. for TSV dumps; throws std::invalid_argument if unknown.
  const rel::Relation& relation(const std::string& name) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// A rule failed during evaluation (e.g. the node table ran out): names the rule.
class EvaluationError : public InputError {
 public:
  using InputError::InputError;
};

// Solving stopped at a limit of EngineOptions: names the stratum, the sweep and the rule about
// to run. The engine's profile and relations stay as they were at that point.
class LimitReached : public EvaluationError {
 public:
  using EvaluationError::EvaluationError;
};

// Solving took longer than EngineOptions::time_limit_seconds.
class TimeLimitReached : public LimitReached {
 public:
  using LimitReached::LimitReached;
};

// The run has done EngineOptions::max_evaluations rule evaluations.
class EvaluationLimitReached : public LimitReached {
 public:
  using LimitReached::LimitReached;
};

// The run has produced more BDD nodes than EngineOptions::max_nodes_produced.
class ProductionLimitReached : public LimitReached {
 public:
  using LimitReached::LimitReached;
};

}  // namespace refract::solver
