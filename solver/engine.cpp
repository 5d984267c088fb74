#include "solver/engine.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <fstream>
#include <functional>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <variant>

#include "bdd/var_order.hpp"
#include "relations/bdd_file.hpp"
#include "relations/domain_space.hpp"
#include "relations/element_map.hpp"
#include "relations/relation.hpp"
#include "relations/state_image.hpp"
#include "relations/tuple_io.hpp"
#include "solver/default_order.hpp"
#include "solver/instance_layout.hpp"
#include "solver/named_constants.hpp"
#include "solver/numbering_rule.hpp"
#include "solver/rule_plan.hpp"
#include "solver/schedule.hpp"
#include "solver/step_timer.hpp"
#include "solver/stratify.hpp"
#include "solver/tuple_rule.hpp"
#include "support/atomic_file.hpp"
#include "support/stopwatch.hpp"

namespace refract::solver {

namespace {

using bdd::Bdd;
using Clock = std::chrono::steady_clock;

// Adds the time a scope takes to a counter of EngineProfile.
class ScopedSeconds {
 public:
  explicit ScopedSeconds(double& into) : into_(into), start_(Clock::now()) {}
  ~ScopedSeconds() { into_ += seconds_since(start_); }
  ScopedSeconds(const ScopedSeconds&) = delete;
  ScopedSeconds& operator=(const ScopedSeconds&) = delete;

 private:
  double& into_;
  Clock::time_point start_;
};

// The message of an exhausted table: its size, what the engine was `doing`, what kept the
// table from growing and what a user may change.
std::string exhausted_message(const bdd::NodeTableExhausted& e, const std::string& doing) {
  const std::string budget = std::to_string(e.memory_budget_bytes() >> 20) + " MiB";
  const std::string advice =
      e.memory_budget_bytes() == 0 ? " (raise --nodes/--max-nodes or try another --order)"
      : e.machine_memory_held()
          ? " (the memory other processes left on the machine kept it from growing, below the "
            "budget of " +
                budget + ": free memory, or try another --order)"
          : " (the memory budget of " + budget +
                " kept it from growing: raise --max-memory, or try another --order)";
  return "BDD node table exhausted at " + std::to_string(e.node_table_size()) + " nodes while " +
         doing + advice;
}

// The manager's deadline and production limit (bdd::Manager::set_deadline,
// set_production_limit) for the lifetime of the scope.
class LimitsScope {
 public:
  LimitsScope(bdd::Manager& manager, Clock::time_point start, const EngineOptions& options)
      : manager_(manager) {
    if (options.time_limit_seconds > 0) {
      manager_.set_deadline(start + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(options.time_limit_seconds)));
    }
    if (options.max_nodes_produced > 0) manager_.set_production_limit(options.max_nodes_produced);
  }
  ~LimitsScope() {
    manager_.set_deadline(std::nullopt);
    manager_.set_production_limit(std::nullopt);
  }
  LimitsScope(const LimitsScope&) = delete;
  LimitsScope& operator=(const LimitsScope&) = delete;

 private:
  bdd::Manager& manager_;
};

}  // namespace

struct Engine::State {
  const Program& program;
  EngineOptions options;
  std::unique_ptr<rel::DomainSpace> space;
  std::vector<PlannedRelation> shapes;
  std::vector<rel::Relation> relations;
  // Per relation, its contents when last asked and their support (free_of_dropped).
  mutable std::map<std::size_t, std::pair<Bdd, Bdd>> supports;
  std::map<std::string, std::size_t> relation_index;
  std::vector<RulePlan> plans;  // parallel to program.rules
  // Per rule, for a linear recursive rule (one atom over its stratum, after a
  // static prefix) whose plan moved variables onto the delta atom's
  // instances: the plan with instances chosen as for a non-recursive rule.
  std::vector<std::optional<RulePlan>> static_plans;
  std::vector<RuleProfile> profiles;
  EngineProfile overheads;
  std::vector<Bdd> last_results;  // per rule, its last result (with options.profile)
  // Per rule, the seconds of its last semi-naive step as BDD products and on tuples (negative:
  // none yet; infinite: the tuple path gave up): the faster is taken (prefer_tuple_delta).
  std::vector<double> last_product_seconds, last_tuple_seconds;
  std::string order_text;
  Clock::time_point started;      // of run(), for options.time_limit_seconds
  std::string position;           // "stratum N/T {relations} sweep S", for LimitReached
  std::uint64_t evaluations = 0;  // rule evaluations begun, for options.max_evaluations
  bool in_evaluation = false;     // the last one begun has not ended (the next begins after it)
  std::optional<Clock::time_point> ended;  // of run(), however it ended
  // With options.seed_dir (solver/seeding.hpp): how each input compares with the seed's, the
  // relations that may have grown, the seed's domain sizes, the seed's values read so far, and
  // per derived relation, once its stratum is about to run, whether it took its seed.
  SeedPlan seed_plan;
  std::map<std::string, InputChange> seed_inputs;
  std::set<std::string> seed_grown;
  std::set<std::string> seed_available;
  std::map<std::string, std::uint64_t> seed_domain_sizes;
  std::map<std::string, std::optional<Bdd>> seed_values;
  std::map<std::string, bool> seed_within_old_domains;
  std::map<std::size_t, Bdd> seed_loaded;  // per relation of the stratum running: its seed
  std::map<std::size_t, Bdd> seed_gains;   // per relation solved: what it holds beyond its seed
  // Per input read from a tuples file: its lines' fingerprint (kSeedFingerprintsFile), and the
  // seed's; how many inputs were built from their seeds and what lay past them.
  std::map<std::string, rel::TupleFingerprint> input_fingerprints;
  std::map<std::string, rel::TupleFingerprint> seed_fingerprints;
  std::uint64_t inputs_from_seed = 0;

  State(const Program& p, EngineOptions o) : program(p), options(std::move(o)) {}

  std::ostream* progress() const { return options.progress; }

  void build_domains();
  void choose_order();
  void build_relations();
  void load_inputs();
  void read_seed_sizes_and_fingerprints();
  // The lines past the seed's when the input was so built (load_input_beyond_seed's comment).
  std::optional<std::uint64_t> load_input_beyond_seed(rel::Relation& r,
                                                      const std::filesystem::path& file);
  bool is_input(const rel::Relation& r) const;
  void place_seed_image();
  void apply_seeds();
  void seed_stratum(const Stratum& stratum);
  std::optional<Bdd> seed_value(const std::string& name);
  bool within_old_domains(const std::string& name);
  bool negation_may_fail(const Rule& rule, const Atom& atom);
  void plan_rules(const std::vector<Stratum>& strata);
  void evaluate_stratum(const Stratum& stratum, std::size_t number, std::size_t total,
                        bool from_seed = false);
  bool all_seeded(const Stratum& stratum) const;
  bool runs_from_seed(const Stratum& stratum) const;
  bool has_numbering_rule(const Stratum& stratum) const;
  std::optional<Bdd> old_range(const rel::Attribute& attribute) const;
  void record_seed_gains(const Stratum& stratum);
  static bool is_identity(const AtomStep& step);
  Bdd prepare_atom(const AtomStep& step, const Bdd& contents, const Bdd& filter = Bdd::one()) const;
  // prepare_atom of a relation the stratum does not change, all of it (or `contents`).
  Bdd prepare_static_atom(const AtomStep& step) const;
  Bdd prepare_static_atom(const AtomStep& step, const Bdd& contents) const;
  // The renaming that ends prepare_atom.
  Bdd finish_atom(const AtomStep& step, const Bdd& value) const;
  // The static relation of `step` depends on no variable the step drops.
  bool free_of_dropped(const AtomStep& step, const Bdd& contents) const;
  Bdd semijoin_filter(const RulePlan& plan, std::size_t s, const std::vector<Bdd>& values,
                      const std::set<std::size_t>& members) const;
  std::optional<Bdd> rename_by_tuples(const AtomStep& step, const Bdd& value) const;
  Bdd apply_step(const PlanStep& step, const Bdd& acc, const Bdd& value) const;
  Bdd finish_head(const RulePlan& plan, Bdd acc) const;
  Bdd run_rule(std::size_t rule, const std::function<Bdd()>& evaluate);
  std::pair<int, int> block_levels(const RulePlan& plan, const std::string& variable) const;
  bool product_pairs_sub_bdds(const RulePlan& plan) const;
  std::optional<Bdd> encode_rule_on_tuples(
      std::size_t rule, const std::function<const rel::Relation&(const std::string&)>& relation);
  std::optional<Bdd> run_rule_on_tuples(std::size_t rule);
  bool prefer_tuple_delta(std::size_t rule) const;
  std::optional<Bdd> run_delta_on_tuples(std::size_t rule, const std::set<std::size_t>& members,
                                         const std::map<std::size_t, Bdd>& delta);
  std::shared_ptr<const KeyedIndex> index_static_side(
      const RulePlan& plan, const std::vector<std::string>& indexed,
      const std::vector<std::string>& other, const std::vector<rel::PhysicalId>& other_dropped,
      const Bdd& value) const;
  // The keyed indexes index_static_side built in the stratum running, by what they index:
  // rules that join one static relation on the same keys share one (a warm example's seeded
  // pass built ActualArg's four times, 53 indexes of 1.2M tuples in all).
  struct BuiltIndex {
    Bdd value;
    std::vector<rel::PhysicalId> instances, keys, other;
    std::shared_ptr<const KeyedIndex> index;  // null: not indexed
  };
  mutable std::vector<BuiltIndex> built_indexes;
  void count_profiles();
  EvaluationError rule_exhausted(std::size_t rule, const bdd::NodeTableExhausted& e) const;
  void check_time_limit(std::size_t rule) const;
  void begin_evaluation(std::size_t rule);
  TimeLimitReached time_limit_reached(SourceLocation where, const std::string& doing) const;
  ProductionLimitReached production_limit_reached(SourceLocation where,
                                                  const std::string& doing) const;
  [[noreturn]] void throw_stopped(const bdd::OperationStopped& e, SourceLocation where,
                                  const std::string& doing) const;
};

void Engine::State::build_domains() {
  space = std::make_unique<rel::DomainSpace>(options.bdd);
  std::vector<std::optional<rel::ElementMap>> maps;
  for (const DomainDecl& d : program.domains) {
    try {
      space->add_domain(d.name, d.size);
    } catch (const std::invalid_argument& e) {
      throw InputError(d.where, e.what());
    }
    maps.emplace_back();
    if (d.map_file) maps.back() = rel::ElementMap::load(options.input_dir / *d.map_file, d.size);
  }
  const std::vector<std::string> notes =
      resolve_named_constants(program, maps, options.new_elements_for_missing_names);
  if (progress())
    for (const std::string& note : notes) *progress() << note << '\n';
  for (rel::DomainId id = 0; id < maps.size(); ++id)
    if (maps[id]) space->set_map(id, std::move(*maps[id]));
  for (const auto& [name, lanes] : options.domain_lanes) {
    const std::optional<rel::DomainId> id = space->find_domain(name);
    if (!id) throw InputError({program.file}, "lanes given for domain " + name + ", not declared");
    try {
      space->set_lanes(*id, lanes);
    } catch (const std::invalid_argument& e) {
      throw InputError(program.domains[*id].where, e.what());
    }
  }
}

void Engine::State::choose_order() {
  const InstanceLayout layout = lay_out_instances(program);
  SourceLocation where{"--order", 1, 0};
  std::string text;
  auto note = [&](const std::string& line) {
    if (progress()) *progress() << "[order] " << line << '\n';
  };
  if (options.var_order) {
    text = *options.var_order;
  } else if (program.var_order) {
    text = *program.var_order;
    where = program.var_order_where.value_or(SourceLocation{program.file, 0, 0});
  } else {
    const DefaultOrder chosen = default_var_order(program, layout);
    text = chosen.text;
    for (const std::string& line : chosen.notes) note(line);
  }
  const std::string given = text;
  if (options.var_order || program.var_order) {
    for (const RelationDecl& r : program.relations)
      if (!r.order_constraints.empty()) {
        note(r.order_constraints.front().where.to_string() +
             ": relation order constraints are a bddbddb hint that refract does not use when "
             "the order is given");
        break;
      }
    if (options.complete_var_order) {
      const bdd::CompletedVarOrder completed = bdd::complete_var_order(
          text, needed_instance_names(program, layout), instance_domains(program));
      for (const std::string& line : completed.notes)
        note(where.to_string() + ": variable order \"" + given + "\": " + line);
      if (completed.text != given) note("variable order used: " + completed.text);
      text = completed.text;
    }
  }
  bdd::VarOrder order;
  try {
    order = bdd::parse_var_order(text, space->instance_names());
  } catch (const bdd::VarOrderError& e) {
    // Columns of a completed order are not those of the text as written: only the message
    // then points into it.
    if (text == given && where.file == "--order") {
      where.column = e.column();
    } else if (text == given && where.column > 0) {
      where.column += e.column() - 1;  // the directive's order text is one run of the line
    }
    throw InputError(where, std::string(e.what()) + " (at column " + std::to_string(e.column()) +
                                " of \"" + text + "\")");
  }
  const std::vector<std::string> named = order.names();
  const std::set<std::string> present(named.begin(), named.end());
  for (const DomainDecl& d : program.domains) {
    const unsigned needed = layout.instances_needed.at(d.name);
    for (unsigned k = 0; k < needed; ++k) {
      const std::string name = d.name + std::to_string(k);
      if (present.count(name) == 0) {
        throw InputError(where, "variable order \"" + text + "\" misses domain " + name +
                                    " (needed by " + layout.needed_by.at(d.name) + ")");
      }
    }
  }
  space->lay_out(order);
  order_text = order.to_string();
  for (std::size_t r = 0; r < program.relations.size(); ++r) {
    PlannedRelation shape{&program.relations[r], {}};
    for (std::size_t a = 0; a < program.relations[r].attributes.size(); ++a) {
      const AttributeDecl& attribute = program.relations[r].attributes[a];
      const rel::DomainId domain = *space->find_domain(attribute.domain);
      shape.instances.push_back(*space->find_physical(domain, layout.relation_instances[r][a]));
    }
    shapes.push_back(std::move(shape));
  }
}

void Engine::State::build_relations() {
  for (const PlannedRelation& shape : shapes) {
    std::vector<rel::Attribute> attributes;
    std::set<std::string> names;
    for (std::size_t a = 0; a < shape.instances.size(); ++a) {
      std::string name = shape.decl->attributes[a].name;
      if (!names.insert(name).second)
        name += "#" + std::to_string(a);  // repeated names stay distinct
      attributes.push_back({name, space->physical(shape.instances[a]).domain, shape.instances[a]});
    }
    relation_index[shape.decl->name] = relations.size();
    relations.emplace_back(*space, shape.decl->name, std::move(attributes));
  }
}

void Engine::State::load_inputs() {
  for (rel::Relation& r : relations) {
    const RelationDecl& decl = *shapes[relation_index.at(r.name())].decl;
    const auto start = Clock::now();
    std::filesystem::path file;
    std::optional<std::uint64_t> tuples;       // as the reader counted them
    std::optional<std::uint64_t> beyond_seed;  // or the lines past the seed's
    try {
      if (const auto built = options.built_inputs.find(r.name());
          built != options.built_inputs.end()) {
        if (!decl.has(RelationFlag::kInput)) {
          throw InputError(decl.where, "relation " + r.name() +
                                           " is built by the caller and must be declared input");
        }
        file = "(built) " + r.name();
        built->second(r);
      } else if (decl.has(RelationFlag::kInputTuples)) {
        file = options.input_dir / (r.name() + ".tuples");
        beyond_seed = load_input_beyond_seed(r, file);
        if (!beyond_seed) {
          rel::TupleFingerprint fingerprint;
          tuples = rel::read_tuples(file, r, &fingerprint);
          if (tuples) input_fingerprints[r.name()] = fingerprint;
        }
      } else if (decl.has(RelationFlag::kInput)) {
        file = options.input_dir / (r.name() + ".bdd");
        rel::read_bdd_file(file, r);
      } else {
        continue;
      }
    } catch (const bdd::OperationStopped& e) {
      throw_stopped(e, {file.string()}, "while loading relation " + r.name());
    } catch (const bdd::NodeTableExhausted& e) {
      throw EvaluationError({file.string()}, exhausted_message(e, "loading relation " + r.name()));
    }
    if (progress()) {
      *progress() << "[load] " << r.name() << ": "
                  << (beyond_seed ? "the seed's and " + std::to_string(*beyond_seed)
                      : tuples    ? std::to_string(*tuples)
                                  : r.size().to_string())
                  << " tuples, " << r.bdd().node_count() << " nodes, " << seconds_since(start)
                  << " s\n";
    }
  }
}

// The seed's domain sizes and input fingerprints, before the inputs are read.
void Engine::State::read_seed_sizes_and_fingerprints() {
  std::ifstream domains(*options.seed_dir / kSeedDomainsFile);
  std::string name;
  std::uint64_t size = 0;
  while (domains >> name >> size) seed_domain_sizes[name] = size;
  std::ifstream fingerprints(*options.seed_dir / kSeedFingerprintsFile);
  rel::TupleFingerprint f;
  while (fingerprints >> name >> f.lines >> f.sum_a >> f.sum_b) seed_fingerprints[name] = f;
}

// An input whose lines within the seed's domains are the seed's lines (issue 35: the program's
// facts hold the JDK's part, numbered first) is the seed's value and the BDD of the few tuples
// past it, instead of the BDD of all of them.
std::optional<std::uint64_t> Engine::State::load_input_beyond_seed(
    rel::Relation& r, const std::filesystem::path& file) {
  if (!options.seed_dir) return std::nullopt;
  const auto fingerprint = seed_fingerprints.find(r.name());
  // Only a seed the image placed: seed_value() reads files only once apply_seeds has listed them.
  const auto old = seed_values.find(r.name());
  if (fingerprint == seed_fingerprints.end() || old == seed_values.end() || !old->second)
    return std::nullopt;
  std::vector<std::uint64_t> limits;
  for (const rel::Attribute& a : r.attributes()) {
    const auto size = seed_domain_sizes.find(space->domain(a.domain).name);
    if (size == seed_domain_sizes.end()) return std::nullopt;
    limits.push_back(size->second);
  }
  const auto beyond = rel::read_tuples_beyond(file, r, limits, fingerprint->second);
  if (!beyond) return std::nullopt;
  r.set_bdd(*old->second | beyond->bdd);
  ++inputs_from_seed;
  return beyond->lines;
}

bool Engine::State::is_input(const rel::Relation& r) const {
  const RelationDecl& decl = *shapes[relation_index.at(r.name())].decl;
  return options.built_inputs.count(r.name()) != 0 || decl.has(RelationFlag::kInputTuples) ||
         decl.has(RelationFlag::kInput);
}

// Before anything else is built: the seed's image placed whole into the fresh table serves every
// relation it lays out alike (seed_value), without reading their .bdd files node by node.
void Engine::State::place_seed_image() {
  const std::filesystem::path file = *options.seed_dir / kSeedImageFile;
  if (!std::filesystem::is_regular_file(file)) {
    seed_plan.read = "files: the seed has no " + std::string(kSeedImageFile);
    return;
  }
  const auto start = Clock::now();
  auto placed = rel::place_state_image(file, relations, space->manager());
  if (const std::string* why = std::get_if<std::string>(&placed)) {
    seed_plan.read = "files: " + *why;
  } else {
    rel::PlacedState& state = std::get<rel::PlacedState>(placed);
    for (auto& [name, value] : state.values) seed_values[name] = std::move(value);
    seed_plan.read = "image: " + std::to_string(state.table_nodes) + " nodes placed";
  }
  if (progress()) {
    *progress() << "[seed] " << seed_plan.read << " (" << seconds_since(start) << " s)\n";
  }
}

// Compares each input with its seed; the derived relations take theirs stratum by stratum
// (seed_stratum), once what their rules negate is solved.
void Engine::State::apply_seeds() {
  const std::filesystem::path& dir = *options.seed_dir;
  std::uint64_t seed_nodes = 0;
  for (const rel::Relation& r : relations) {
    if (std::filesystem::is_regular_file(dir / (r.name() + ".bdd"))) {
      seed_available.insert(r.name());
      if (seed_values.count(r.name()) == 0)
        seed_nodes += rel::bdd_file_node_count(dir / (r.name() + ".bdd"));
    }
  }
  // Room for every seed at once: a table grown step by step while they are read collects at
  // each step, and each collection marks all the seed read so far.
  space->manager().reserve_free_nodes(seed_nodes);
  for (const rel::Relation& r : relations) {
    if (!is_input(r)) continue;
    const std::optional<Bdd> old = seed_value(r.name());
    // A constructor built of bit equalities also holds values past a domain's size; across a
    // seed those change with the domains' widths, and what they gain is no element.
    if (old) seed_gains[relation_index.at(r.name())] = (r.bdd() - *old) & r.valid_tuples();
    seed_inputs[r.name()] = !old                         ? InputChange::kOther
                            : *old == r.bdd()            ? InputChange::kSame
                            : (*old - r.bdd()).is_zero() ? InputChange::kGrew
                                                         : InputChange::kOther;
  }
  // A relation no rule derives and no input fills stays empty: it gained nothing.
  std::set<std::string> heads;
  for (const Rule& rule : program.rules) heads.insert(rule.head.relation);
  for (std::size_t r = 0; r < relations.size(); ++r)
    if (!is_input(relations[r]) && heads.count(relations[r].name()) == 0)
      seed_gains[r] = Bdd::zero();
  seed_grown = may_have_grown(program, seed_inputs);
  seed_plan.read += "; " + std::to_string(inputs_from_seed) + " inputs grown from their seeds";
}

std::optional<Bdd> Engine::State::seed_value(const std::string& name) {
  const auto known = seed_values.find(name);
  if (known != seed_values.end()) return known->second;
  std::optional<Bdd>& value = seed_values[name];
  if (seed_available.count(name) != 0) {
    const rel::Relation& r = relations[relation_index.at(name)];
    rel::Relation old(*space, name, r.attributes());
    rel::read_bdd_file(*options.seed_dir / (name + ".bdd"), old, rel::OutsideValues::kKeep);
    value = old.bdd();
  }
  return value;
}

// The values of `attribute` the seed's domain had, or nothing when the seed does not say.
std::optional<Bdd> Engine::State::old_range(const rel::Attribute& attribute) const {
  const auto size = seed_domain_sizes.find(space->domain(attribute.domain).name);
  if (size == seed_domain_sizes.end() || size->second == 0) return std::nullopt;
  return space->physical(attribute.physical).block.in_range(0, size->second - 1);
}

// The seed's value of `name` holds only elements the seed's domains had.
bool Engine::State::within_old_domains(const std::string& name) {
  const auto known = seed_within_old_domains.find(name);
  if (known != seed_within_old_domains.end()) return known->second;
  bool within = false;
  if (const std::optional<Bdd> old = seed_value(name)) {
    Bdd universe = Bdd::one();
    within = true;
    for (const rel::Attribute& a : relations[relation_index.at(name)].attributes()) {
      const std::optional<Bdd> range = old_range(a);
      if (!range) {
        within = false;
        break;
      }
      universe &= *range;
    }
    within = within && (*old - universe).is_zero();
  }
  return seed_within_old_domains[name] = within;
}

// A negation over a solved relation fails on a derivation of the seed's solve only if the
// relation gained a tuple whose values at the rule's bound positions that solve had: the
// bindings of its derivations, read from seeds within the seed's domains, had only those.
bool Engine::State::negation_may_fail(const Rule& rule, const Atom& atom) {
  if (seed_grown.count(atom.relation) == 0) return false;
  const std::optional<Bdd> old = seed_value(atom.relation);
  if (!old || seed_domain_sizes.empty()) return true;
  const rel::Relation& negated = relations[relation_index.at(atom.relation)];
  const auto known_gain = seed_gains.find(relation_index.at(atom.relation));
  const Bdd gained = known_gain != seed_gains.end() ? known_gain->second : negated.bdd() - *old;
  if (gained.is_zero()) return false;
  for (const Literal& literal : rule.body) {
    const Atom* positive = std::get_if<Atom>(&literal);
    if (positive != nullptr && !positive->negated && !within_old_domains(positive->relation))
      return true;
  }
  const std::set<std::string> local = negation_local_variables(rule);
  Bdd bound_old = Bdd::one();
  for (std::size_t p = 0; p < atom.arguments.size(); ++p) {
    const Term& term = atom.arguments[p];
    const bool bound = (term.kind == Term::Kind::kVariable && local.count(term.text) == 0) ||
                       term.kind == Term::Kind::kNumber || term.kind == Term::Kind::kName;
    if (!bound) continue;
    const std::optional<Bdd> range = old_range(negated.attributes()[p]);
    if (!range) return true;
    bound_old &= *range;
  }
  return !(gained & bound_old).is_zero();
}

// Before a stratum runs: each of its relations takes its seed unless one of its rules may have
// lost a derivation of the seed's solve (seed_unsafe_because), or reads a relation that did.
void Engine::State::seed_stratum(const Stratum& stratum) {
  std::map<std::string, std::string> unsafe;
  SeedQuestions questions;
  questions.input_change = [&](const std::string& name) -> std::optional<InputChange> {
    const auto found = seed_inputs.find(name);
    if (found == seed_inputs.end()) return std::nullopt;
    return found->second;
  };
  // A relation solved from nothing for want of a seed is still a superset of the seed's.
  questions.recomputed = [&](const std::string& name) {
    return unsafe.count(name) != 0 ||
           (seed_plan.recomputed.count(name) != 0 && seed_available.count(name) != 0);
  };
  questions.may_have_grown = [&](const std::string& name) { return seed_grown.count(name) != 0; };
  questions.negation_may_fail = [&](const Rule& rule, const Atom& atom) {
    return negation_may_fail(rule, atom);
  };
  const std::set<std::string> members(stratum.relations.begin(), stratum.relations.end());
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t r : stratum.rules) {
      const Rule& rule = program.rules[r];
      const std::string& head = rule.head.relation;
      if (members.count(head) == 0 || unsafe.count(head) != 0 || seed_inputs.count(head) != 0)
        continue;
      std::string why = seed_unsafe_because(rule, questions);
      if (why.empty()) continue;
      unsafe[head] = std::move(why);
      changed = true;
    }
  }
  for (const std::string& name : stratum.relations) {
    if (seed_inputs.count(name) != 0) continue;
    if (const auto u = unsafe.find(name); u != unsafe.end()) {
      seed_plan.recomputed[name] = u->second;
    } else if (seed_available.count(name) == 0) {
      seed_plan.recomputed[name] = "the seed does not have it";
    } else {
      const std::size_t index = relation_index.at(name);
      relations[index].set_bdd(*seed_value(name));
      seed_loaded[index] = relations[index].bdd();
      seed_values.erase(name);  // the relation holds it now, and will hold more
      seed_plan.seeded.insert(name);
    }
  }
}

// Whether every relation of the stratum took its seed.
bool Engine::State::all_seeded(const Stratum& stratum) const {
  for (const std::string& name : stratum.relations)
    if (seed_plan.seeded.count(name) == 0) return false;
  return true;
}

// Whether a stratum can run from its seed semi-naively (evaluate_stratum's from_seed): it is
// recursive and numbers no graph, every member took its seed, and every relation its rules
// read has a known gain since the seed's solve.
bool Engine::State::runs_from_seed(const Stratum& stratum) const {
  if (!stratum.recursive || has_numbering_rule(stratum) || !all_seeded(stratum)) return false;
  for (std::size_t r : stratum.rules) {
    for (const Literal& literal : program.rules[r].body) {
      const Atom* atom = std::get_if<Atom>(&literal);
      if (atom == nullptr || atom->negated) continue;
      const std::size_t index = relation_index.at(atom->relation);
      if (seed_loaded.count(index) == 0 && seed_gains.count(index) == 0) return false;
    }
  }
  return true;
}

bool Engine::State::has_numbering_rule(const Stratum& stratum) const {
  for (std::size_t r : stratum.rules)
    if (program.rules[r].numbering) return true;
  return false;
}

// After a stratum: what each relation that took its seed holds beyond it, for the strata that
// read it (runs_from_seed, negation_may_fail).
void Engine::State::record_seed_gains(const Stratum& stratum) {
  for (const std::string& name : stratum.relations) {
    const std::size_t index = relation_index.at(name);
    const auto loaded = seed_loaded.find(index);
    if (loaded == seed_loaded.end()) continue;
    seed_gains[index] = relations[index].bdd() - loaded->second;
    seed_loaded.erase(loaded);
  }
}

void Engine::State::plan_rules(const std::vector<Stratum>& strata) {
  std::map<std::size_t, std::set<std::size_t>> recursive;  // rule -> relations of its stratum
  for (const Stratum& stratum : strata) {
    if (!stratum.recursive) continue;
    std::set<std::size_t> members;
    for (const std::string& name : stratum.relations) members.insert(relation_index.at(name));
    for (std::size_t rule : stratum.rules) recursive[rule] = members;
  }
  for (std::size_t r = 0; r < program.rules.size(); ++r) {
    const Rule& rule = program.rules[r];
    if (rule.numbering && !recursive[r].empty())
      throw InputError(*rule.numbering,
                       "numbering rule: its head depends on itself (bddbddb cannot number paths "
                       "in a cycle either)");
    plans.push_back(plan_rule(rule, shapes, *space, recursive[r]));
    std::optional<RulePlan> alternative;
    std::size_t stratum_atoms = 0, first_stratum_atom = 0;
    for (std::size_t s = plans.back().steps.size(); s-- > 0;) {
      const AtomStep* atom = std::get_if<AtomStep>(&plans.back().steps[s]);
      if (atom != nullptr && recursive[r].count(atom->relation) != 0) {
        ++stratum_atoms;
        first_stratum_atom = s;
      }
    }
    if (stratum_atoms == 1 && first_stratum_atom > 0) {
      alternative = plan_rule(rule, shapes, *space);
      if (alternative->variable_instances == plans.back().variable_instances) alternative.reset();
    }
    static_plans.push_back(std::move(alternative));
    if (progress()) {
      for (const std::string& warning : plans.back().absent_constants)
        *progress() << warning << '\n';
    }
    RuleProfile profile;
    profile.rule_text = rule.text;
    profile.where = rule.where;
    profile.step_literals = plans.back().body_literals;
    profile.variable_instances = plans.back().variable_instances;
    // Sized once: every plan of a rule, its static plan too, has a step per body literal.
    profile.step_atom_delta_seconds.assign(plans.back().steps.size(), 0.0);
    profile.step_prefix_delta_seconds.assign(plans.back().steps.size(), 0.0);
    for (std::size_t s = 0; s < plans.back().steps.size(); ++s)
      if (const AtomStep* atom = std::get_if<AtomStep>(&plans.back().steps[s]);
          atom && atom->rename)
        profile.renamed_steps.push_back(s);
    profiles.push_back(std::move(profile));
  }
}

// The relation itself is the atom's value: nothing to select, drop (now) or rename.
bool Engine::State::is_identity(const AtomStep& step) {
  return step.select.is_one() && (step.drop.is_one() || step.drop_in_join) && !step.rename;
}

bool Engine::State::free_of_dropped(const AtomStep& step, const Bdd& contents) const {
  if (step.drop.is_one()) return false;
  auto cached = supports.find(step.relation);
  if (cached == supports.end() || !(cached->second.first == contents)) {
    cached =
        supports.insert_or_assign(step.relation, std::pair{contents, contents.support()}).first;
  }
  const Bdd& support = cached->second.second;
  return support.exists(step.drop) == support;
}

Bdd Engine::State::prepare_atom(const AtomStep& step, const Bdd& contents,
                                const Bdd& filter) const {
  if (is_identity(step)) return contents;
  if (step.drop_in_join) return contents & step.select;
  Bdd value = contents.and_exists(filter.is_one() ? step.select : step.select & filter, step.drop);
  return finish_atom(step, value);
}

Bdd Engine::State::prepare_static_atom(const AtomStep& step) const {
  return prepare_static_atom(step, relations[step.relation].bdd());
}

Bdd Engine::State::prepare_static_atom(const AtomStep& step, const Bdd& contents) const {
  // Where the relation has none of the dropped variables (K-type's Merge is free in the call
  // site and caller context a rule fixes), exists drop. (contents & select) is contents &
  // exists drop. select: the product would walk the relation path by path once the operator
  // cache overflows (checkstyle's finalizer edge ran for over ten minutes in it).
  if (is_identity(step) || step.drop_in_join || !free_of_dropped(step, contents))
    return prepare_atom(step, contents);
  return finish_atom(step, contents & step.select.exists(step.drop));
}

Bdd Engine::State::finish_atom(const AtomStep& step, const Bdd& value) const {
  if (!step.rename) return value;
  if (!step.rename_keeps_order) {
    if (std::optional<Bdd> rebuilt = rename_by_tuples(step, value)) return *rebuilt;
  }
  return value.replace(*step.rename);
}

// For a renamed stratum atom at step s: the values its kept variables take in the static atoms
// of the rule, on the atom's own instances. Each new delta is cut down to them before the
// rename, which then copies only the tuples the join can use: VarPointsTo(cc, r, hc, h) in a
// return rule keeps only return variables (ReturnVar(m, r)), a few per cent of each delta.
// one() for an atom without rename, or when no static atom shares a variable with it.
Bdd Engine::State::semijoin_filter(const RulePlan& plan, std::size_t s,
                                   const std::vector<Bdd>& values,
                                   const std::set<std::size_t>& members) const {
  const auto& atom = std::get<AtomStep>(plan.steps[s]);
  if (!atom.rename) return Bdd::one();
  const std::vector<std::string>& kept = plan.step_variables[s];
  Bdd filter = Bdd::one();
  for (std::size_t other = 0; other < plan.steps.size(); ++other) {
    const AtomStep* side = std::get_if<AtomStep>(&plan.steps[other]);
    if (side == nullptr || side->negated || members.count(side->relation) != 0) continue;
    std::vector<rel::PhysicalId> not_shared;
    bool shares = false;
    for (const std::string& v : plan.step_variables[other]) {
      if (std::find(kept.begin(), kept.end(), v) != kept.end()) {
        shares = true;
      } else {
        not_shared.push_back(plan.instance_of.at(v));
      }
    }
    if (shares) filter &= values[other].exists(space->variable_set(not_shared));
  }
  return filter.is_one() ? filter : filter.replace(*atom.rename_back);
}

// A rename that reorders variables (e.g. swapping the columns of assign(V0,
// V1)) makes BuDDy rebuild the BDD through deep ite chains: 1.4 s for 60k
// tuples in 160k nodes. Enumerating the tuples and building the renamed BDD
// bottom-up from them costs time linear in the tuples, so it is used when they
// are few for the node count.
std::optional<Bdd> Engine::State::rename_by_tuples(const AtomStep& step, const Bdd& value) const {
  constexpr std::uint64_t kMaxTuples = std::uint64_t{1} << 24;
  std::vector<rel::Attribute> from, to;
  for (const auto& [source, target] : step.moves) {
    const std::string name = "a" + std::to_string(from.size());
    from.push_back({name, space->physical(source).domain, source});
    to.push_back({name, space->physical(target).domain, target});
  }
  std::vector<rel::PhysicalId> instances;
  for (const auto& [source, target] : step.moves) instances.push_back(source);
  const double count = value.approximate_count(space->variable_set(instances));
  if (count > static_cast<double>(std::min(kMaxTuples, 4 * value.node_count())))
    return std::nullopt;
  rel::Relation original(*space, "", std::move(from));
  original.set_bdd(value);
  std::vector<std::vector<std::uint64_t>> tuples;
  tuples.reserve(static_cast<std::size_t>(count));
  original.for_each_tuple(
      [&](std::span<const std::uint64_t> t) { tuples.emplace_back(t.begin(), t.end()); });
  return rel::bdd_from_tuples(rel::Relation(*space, "", std::move(to)), std::move(tuples));
}

// acc joined with (or, for a negated atom, minus) one step's value, then the
// variables that die at this step quantified away.
Bdd Engine::State::apply_step(const PlanStep& step, const Bdd& acc, const Bdd& value) const {
  if (const AtomStep* atom = std::get_if<AtomStep>(&step)) {
    if (atom->negated) return (acc - value).exists(atom->quantify_after);
    return acc.and_exists(value, atom->quantify_after);
  }
  const ConstraintStep& c = std::get<ConstraintStep>(step);
  // One product where the step quantifies (a comparison run before its second variable's atom,
  // rule_plan.cpp's compare_before_binding): the pairs it relates are never built whole.
  if (!c.quantify_after.is_one())
    return acc.and_exists(c.subtract ? !c.constraint : c.constraint, c.quantify_after);
  return c.subtract ? acc - c.constraint : acc & c.constraint;
}

Bdd Engine::State::finish_head(const RulePlan& plan, Bdd acc) const {
  if (acc.is_zero()) return acc;
  if (plan.head_rename) acc = acc.replace(*plan.head_rename);
  return acc & plan.head_extra;
}

EvaluationError Engine::State::rule_exhausted(std::size_t rule,
                                              const bdd::NodeTableExhausted& e) const {
  return EvaluationError(program.rules[rule].where,
                         exhausted_message(e, "evaluating rule: " + program.rules[rule].text));
}

void Engine::State::check_time_limit(std::size_t rule) const {
  if (options.time_limit_seconds <= 0) return;
  if (seconds_since(started) < options.time_limit_seconds) return;
  throw time_limit_reached(program.rules[rule].where, "before rule: " + program.rules[rule].text);
}

// Counts a rule evaluation about to begin; stops the run first where time is up, where it
// would pass options.max_evaluations or where more nodes have been produced than
// options.max_nodes_produced: a stop here leaves no evaluation half done.
void Engine::State::begin_evaluation(std::size_t rule) {
  in_evaluation = false;
  check_time_limit(rule);
  const Rule& r = program.rules[rule];
  if (options.max_evaluations && evaluations >= *options.max_evaluations) {
    throw EvaluationLimitReached(
        r.where, "evaluation limit of " + std::to_string(*options.max_evaluations) +
                     " rule evaluations reached in " + position + ", before rule: " + r.text);
  }
  if (options.max_nodes_produced > 0 &&
      space->manager().stats().nodes_produced > options.max_nodes_produced) {
    throw production_limit_reached(r.where, "before rule: " + r.text);
  }
  ++evaluations;
  in_evaluation = true;
}

// `doing`: what was about to run or was abandoned (bdd::DeadlinePassed) when time ran out.
TimeLimitReached Engine::State::time_limit_reached(SourceLocation where,
                                                   const std::string& doing) const {
  std::ostringstream message;
  message << "time limit of " << options.time_limit_seconds << " s reached after "
          << seconds_since(started) << " s, in " << position << ", " << doing;
  return TimeLimitReached(std::move(where), message.str());
}

ProductionLimitReached Engine::State::production_limit_reached(SourceLocation where,
                                                               const std::string& doing) const {
  std::ostringstream message;
  message << "production limit of " << options.max_nodes_produced << " BDD nodes passed after "
          << evaluations << " rule evaluations, in " << position << ", " << doing;
  return ProductionLimitReached(std::move(where), message.str());
}

// The engine's error for a BDD operation abandoned at one of the manager's limits.
void Engine::State::throw_stopped(const bdd::OperationStopped& e, SourceLocation where,
                                  const std::string& doing) const {
  if (dynamic_cast<const bdd::ProductionLimitPassed*>(&e) != nullptr)
    throw production_limit_reached(std::move(where), doing);
  throw time_limit_reached(std::move(where), doing);
}

Bdd Engine::State::run_rule(std::size_t rule, const std::function<Bdd()>& evaluate) {
  check_time_limit(rule);
  RuleProfile& profile = profiles[rule];
  const auto start = Clock::now();
  const std::vector<bdd::OperationTime> operations_before =
      options.profile ? space->manager().stats().operation_times
                      : std::vector<bdd::OperationTime>{};
  Bdd result;
  try {
    result = evaluate();
  } catch (const bdd::NodeTableExhausted& e) {
    throw rule_exhausted(rule, e);
  } catch (const bdd::OperationStopped& e) {
    throw_stopped(e, program.rules[rule].where, "during rule: " + program.rules[rule].text);
  }
  profile.seconds += seconds_since(start);
  ++profile.evaluations;
  if (options.profile) {
    for (const bdd::OperationTime& after : space->manager().stats().operation_times) {
      double before = 0;
      for (const bdd::OperationTime& op : operations_before)
        if (op.name == after.name) before = op.seconds;
      if (after.seconds > before) profile.operation_seconds[after.name] += after.seconds - before;
    }
  }
  space->manager().sample_peak();
  profile.peak_nodes = std::max(profile.peak_nodes, space->manager().stats().used_nodes);
  // Counted once, after the run: counting every evaluation would cost more
  // than the evaluation itself on large relations.
  if (options.profile) last_results[rule] = result;
  return result;
}

// The highest and the lowest level of the block a rule variable is on (variable number =
// level: refract never reorders).
std::pair<int, int> Engine::State::block_levels(const RulePlan& plan,
                                                const std::string& variable) const {
  const std::vector<int>& vars = space->physical(plan.instance_of.at(variable)).block.vars;
  const auto [top, bottom] = std::minmax_element(vars.begin(), vars.end());
  return {*top, *bottom};
}

// Whether the BDD product of the rule must pair each sub-BDD of one atom with each of another
// before it reaches their join variable. Two cases:
//  * a join variable quantified away lies below every head variable (HeapDispatch(h, r, m) :-
//    HeapType(h, t), Dispatch(t, r, m) with T last: 8.9 s on antlr, 1.5 s on tuples);
//  * two atoms sharing a join variable each have another variable whose whole block lies above
//    it (MethodStaticCall(caller, i, m) :- CallIn(i, caller), StaticCall(i, m) with I below M,
//    as the call-site flavours order it: 58 s on antlr).
// Where the order puts the join variable higher the product is the faster way (CaughtAtSite:
// 0.01 s against 0.7 s on tuples).
bool Engine::State::product_pairs_sub_bdds(const RulePlan& plan) const {
  const Rule& rule = *plan.rule;
  std::map<std::string, int> positive_uses;
  std::map<std::string, int> uses_under_a_block;  // atoms with a whole other block above v
  for (const Literal& literal : rule.body) {
    const Atom* atom = std::get_if<Atom>(&literal);
    if (atom == nullptr || atom->negated) continue;
    const std::vector<std::string> listed = variables_of(literal);
    const std::set<std::string> vars(listed.begin(), listed.end());
    for (const std::string& v : vars) {
      ++positive_uses[v];
      const int top = block_levels(plan, v).first;
      if (std::any_of(vars.begin(), vars.end(), [&](const std::string& other) {
            return other != v && block_levels(plan, other).second < top;
          }))
        ++uses_under_a_block[v];
    }
  }
  std::set<std::string> head_vars;
  for (const Term& t : rule.head.arguments)
    if (t.kind == Term::Kind::kVariable) head_vars.insert(t.text);
  int lowest_head_level = -1;  // the deepest level a head variable reaches
  for (const std::string& v : head_vars)
    lowest_head_level = std::max(lowest_head_level, block_levels(plan, v).second);
  for (const auto& [v, uses] : positive_uses) {
    if (uses < 2) continue;
    if (uses_under_a_block[v] >= 2) return true;
    if (head_vars.count(v) == 0 && block_levels(plan, v).first > lowest_head_level) return true;
  }
  return false;
}

// A rule evaluated once, on explicit tuples when its body relations are small enough
// (EngineOptions::tuple_join_max_input); nullopt leaves it to its BDD plan.
std::optional<Bdd> Engine::State::run_rule_on_tuples(std::size_t rule) {
  if (options.tuple_join_max_input == 0) return std::nullopt;
  if (options.tuple_joins_where_bdd_is_slow && !product_pairs_sub_bdds(plans[rule]))
    return std::nullopt;
  check_time_limit(rule);
  const BigUint limit(options.tuple_join_max_input);
  for (const Literal& literal : program.rules[rule].body) {
    const Atom* atom = std::get_if<Atom>(&literal);
    if (atom != nullptr && limit < relations[relation_index.at(atom->relation)].size())
      return std::nullopt;
  }
  std::optional<Bdd> result =
      encode_rule_on_tuples(rule, [&](const std::string& name) -> const rel::Relation& {
        return relations[relation_index.at(name)];
      });
  if (result) ++overheads.tuple_rules;
  return result;
}

// The rule evaluated on the tuples `relation` gives for each body relation, its result encoded
// into the head, with the rule's profile kept (a try that gave up counts its seconds); nullopt
// when the tuple path gave up (TupleRuleLimits).
std::optional<Bdd> Engine::State::encode_rule_on_tuples(
    std::size_t rule, const std::function<const rel::Relation&(const std::string&)>& relation) {
  RuleProfile& profile = profiles[rule];
  const Rule& source = program.rules[rule];
  const auto start = Clock::now();
  std::optional<Bdd> result;
  try {
    auto tuples = evaluate_rule_on_tuples(source, relation, *space, options.tuple_limits);
    if (tuples) {
      result = rel::bdd_from_tuples(relations[plans[rule].head], std::move(*tuples));
      ++profile.evaluations;
      if (options.profile) last_results[rule] = *result;
    }
  } catch (const bdd::NodeTableExhausted& e) {
    throw rule_exhausted(rule, e);
  } catch (const bdd::OperationStopped& e) {
    throw_stopped(e, source.where, "during rule: " + source.text);
  }
  profile.seconds += seconds_since(start);
  space->manager().sample_peak();
  profile.peak_nodes = std::max(profile.peak_nodes, space->manager().stats().used_nodes);
  return result;
}

// Whether a rule's next semi-naive step tries explicit tuples: chosen by measurement, once its
// last step as products took kSlowProductSeconds or more, as long as the last one on tuples
// (if any) was faster. The tuple path enumerates the static sides each time, which costs more
// than a quick product: ThrowPointsTo's covered-call rule went from 0.8 to 66 s on antlr
// when every eligible step took it. With tuple_joins_where_bdd_is_slow off (tests), always.
bool Engine::State::prefer_tuple_delta(std::size_t rule) const {
  if (!options.tuple_joins_where_bdd_is_slow) return true;
  constexpr double kSlowProductSeconds = 0.05;
  const double product = last_product_seconds[rule];
  const double tuples = last_tuple_seconds[rule];
  return product >= kSlowProductSeconds && (tuples < 0 || tuples < product);
}

// One semi-naive step of a rule whose body reads its component through one atom, joined with
// static relations where the BDD product pairs sub-BDDs (product_pairs_sub_bdds), on explicit
// tuples when the atom's delta is small (EngineOptions::tuple_delta_max); nullopt leaves it to
// the BDD plan. Its result is the rule on that delta alone. MethodCallsMethod(ctx, caller, cc,
// m) :- InstanceEdge(ctx, i, cc, m), UncoveredCall(i, caller), with I below M, took 120 of 760 s
// on checkstyle under solar as products (77 s with this path).
std::optional<Bdd> Engine::State::run_delta_on_tuples(std::size_t rule,
                                                      const std::set<std::size_t>& members,
                                                      const std::map<std::size_t, Bdd>& delta) {
  if (options.tuple_delta_max == 0 || delta.size() != 1) return std::nullopt;
  const Rule& source = program.rules[rule];
  const std::size_t changed = delta.begin()->first;
  std::size_t member_atoms = 0;
  for (const Literal& literal : source.body) {
    const Atom* atom = std::get_if<Atom>(&literal);
    if (atom == nullptr) continue;
    const std::size_t r = relation_index.at(atom->relation);
    if (members.count(r) != 0) ++member_atoms;
    if (r != changed && BigUint(options.tuple_join_max_input) < relations[r].size())
      return std::nullopt;
  }
  if (member_atoms != 1) return std::nullopt;
  if (options.tuple_joins_where_bdd_is_slow && !product_pairs_sub_bdds(plans[rule]))
    return std::nullopt;
  rel::Relation gained(*space, relations[changed].name(), relations[changed].attributes());
  gained.set_bdd(delta.begin()->second);
  if (BigUint(options.tuple_delta_max) < gained.size()) return std::nullopt;
  const auto start = Clock::now();
  std::optional<Bdd> result =
      encode_rule_on_tuples(rule, [&](const std::string& name) -> const rel::Relation& {
        const std::size_t r = relation_index.at(name);
        return r == changed ? gained : relations[r];
      });
  last_tuple_seconds[rule] =
      result ? seconds_since(start) : std::numeric_limits<double>::infinity();
  if (result) {
    ++profiles[rule].tuple_steps;
    ++overheads.tuple_deltas;
  }
  return result;
}

// `value` (over the variables `indexed`, the static side of a join) indexed by the variables
// it shares with `other` (the side that changes), when the order puts all of some other
// variable of `indexed` above them: only then does the product walk the static side whatever
// the other holds (solver/keyed_index.hpp). `other_dropped`: instances the other side still
// holds though no variable is on them (AtomStep::drop_in_join).
std::shared_ptr<const KeyedIndex> Engine::State::index_static_side(
    const RulePlan& plan, const std::vector<std::string>& indexed,
    const std::vector<std::string>& other, const std::vector<rel::PhysicalId>& other_dropped,
    const Bdd& value) const {
  auto in = [](const std::vector<std::string>& vars, const std::string& v) {
    return std::find(vars.begin(), vars.end(), v) != vars.end();
  };
  std::vector<rel::PhysicalId> instances, keys, other_only;
  int highest_key = std::numeric_limits<int>::max();
  int lowest_other_on_top = std::numeric_limits<int>::max();  // of a whole block
  for (const std::string& v : indexed) {
    instances.push_back(plan.instance_of.at(v));
    if (in(other, v)) {
      keys.push_back(plan.instance_of.at(v));
      highest_key = std::min(highest_key, block_levels(plan, v).first);
    } else {
      lowest_other_on_top = std::min(lowest_other_on_top, block_levels(plan, v).second);
    }
  }
  if (keys.empty()) return nullptr;
  // A block interleaved with the keys (Assign(to, from) on V0xV1) is pruned bit by bit as
  // the product descends; only a whole block above them is walked in full.
  if (options.keyed_indexes_where_product_is_slow && lowest_other_on_top > highest_key)
    return nullptr;
  for (const std::string& v : other)
    if (!in(indexed, v)) other_only.push_back(plan.instance_of.at(v));
  other_only.insert(other_only.end(), other_dropped.begin(), other_dropped.end());
  for (const BuiltIndex& built : built_indexes) {
    if (built.value == value && built.instances == instances && built.keys == keys &&
        built.other == other_only)
      return built.index;
  }
  std::optional<KeyedIndex> built =
      KeyedIndex::index(*space, value, instances, keys, other_only, options.keyed_limits);
  std::shared_ptr<const KeyedIndex> index =
      built ? std::make_shared<const KeyedIndex>(std::move(*built)) : nullptr;
  built_indexes.push_back({value, instances, keys, other_only, index});
  return index;
}

}  // namespace refract::solver

namespace refract::solver {

// Semi-naive evaluation with materialised join prefixes.
//
// A rule's plan is a chain of steps s_1..s_n; P_k is the rule's intermediate
// result after step k (already projected onto the variables still needed).
// The first round computes every P_k from the full relations and keeps those
// a later step over a relation of this stratum will need. In the rule's
// round t each atom over a stratum relation has a full value F_k (relation as
// of the rule's round t-1, prepared: selected, projected, renamed) and a delta
// D_k (what the relation gained since then, prepared the same way); atoms of
// earlier strata and comparisons have no delta. Since every step distributes over union,
//     P_k(t) = P_k(t-1)  u  (dP_{k-1}(t) . F_k)  u  (P_{k-1}(t-1) . D_k)
// with dP_0 = 0 and P_0 = true, so dP_k(t) is computed from deltas alone and
// no join over the full relations is repeated. The head receives dP_n(t).
// P_k is kept only when some later step reads a stratum relation (else no
// later round needs it); F_k grows by D_k each round instead of being
// prepared from scratch.
void Engine::State::evaluate_stratum(const Stratum& stratum, std::size_t number, std::size_t total,
                                     bool from_seed) {
  built_indexes.clear();
  std::set<std::size_t> members;
  for (const std::string& name : stratum.relations) members.insert(relation_index.at(name));
  const std::set<std::size_t> own_members = members;
  // From a seed, the relations the rules read that gained tuples since the seed's solve change
  // once, from their value then (what they hold less the gain) to their value now: they join
  // the members, so that the prefixes kept are the seed's and the gains are the first deltas.
  std::map<std::size_t, Bdd> gained_inputs;
  std::set<std::size_t> read_gained;  // rules reading one: their static plans would not see it
  if (from_seed) {
    for (std::size_t rule : stratum.rules)
      for (const Literal& literal : program.rules[rule].body) {
        const Atom* atom = std::get_if<Atom>(&literal);
        if (atom == nullptr || atom->negated) continue;
        const std::size_t r = relation_index.at(atom->relation);
        const auto gain = seed_gains.find(r);
        if (members.count(r) != 0 || gain == seed_gains.end() || gain->second.is_zero()) continue;
        gained_inputs[r] = gain->second;
        read_gained.insert(rule);
      }
    for (const auto& [r, gain] : gained_inputs) members.insert(r);
  }
  std::string label;
  for (const std::string& name : stratum.relations) label += (label.empty() ? "" : ", ") + name;

  auto member_step = [&](const PlanStep& step) -> const AtomStep* {
    const AtomStep* atom = std::get_if<AtomStep>(&step);
    return atom != nullptr && members.count(atom->relation) != 0 ? atom : nullptr;
  };

  struct RuleState {
    std::vector<Bdd> values;     // per atom step: prepared full value
    std::vector<Bdd> prefixes;   // per step: P_k, when keep[k]
    std::vector<bool> keep;      // a later step reads a stratum relation
    std::vector<bool> use_full;  // an earlier step reads one: dP_{k-1} may be non-empty
    // Per step: the static prefix before a stratum atom, or a static atom, indexed by the
    // variables it shares with the changing side (index_static_side), built when first needed;
    // `indexed` says it was tried.
    std::vector<std::shared_ptr<const KeyedIndex>> keyed;
    std::vector<bool> indexed;
    std::vector<Bdd> filters;  // per renamed stratum atom: semijoin_filter, else one()
  };
  std::map<std::size_t, RuleState> state;

  auto init_state = [&](const RulePlan& plan, RuleState& rs) {
    const std::size_t n = plan.steps.size();
    rs.values.resize(n);
    rs.prefixes.resize(n);
    rs.keep.assign(n, false);
    rs.use_full.assign(n, false);
    rs.keyed.assign(n, nullptr);
    rs.indexed.assign(n, false);
    rs.filters.assign(n, Bdd::one());
    for (std::size_t s = 1; s < n; ++s)
      rs.use_full[s] = rs.use_full[s - 1] || member_step(plan.steps[s - 1]) != nullptr;
    bool later_member = false;
    for (std::size_t s = n; s-- > 0;) {
      rs.keep[s] = stratum.recursive && later_member;
      if (const AtomStep* atom = member_step(plan.steps[s])) {
        if (atom->negated) {
          throw std::logic_error("negated atom inside its own stratum");  // stratify forbids it
        }
        later_member = true;
      }
    }
  };
  for (std::size_t rule : stratum.rules) init_state(plans[rule], state[rule]);

  // Gauss-Seidel: rules run one after another, each seeing what the rules
  // before it just produced, and a rule runs again at once while it has
  // unseen tuples (a linear rule like vP :- assign, vP runs to its own
  // fixpoint before the rules that read it). A rule's delta is what its body
  // relations gained since it last ran. On bddbddb-shaped points-to inputs
  // this cuts the sweeps over all rules from 62 rounds to 9.
  std::map<std::size_t, Bdd> full, added;
  for (std::size_t r : members) full[r] = relations[r].bdd();
  for (const auto& [r, gain] : gained_inputs) full[r] = relations[r].bdd() - gain;
  // A gained input's atom: its values prepared as a static atom's (prepare_static_atom).
  auto prepare_member = [&](const AtomStep& atom, const Bdd& contents, const Bdd& filter) {
    return gained_inputs.count(atom.relation) != 0 ? prepare_static_atom(atom, contents)
                                                   : prepare_atom(atom, contents, filter);
  };
  // A rule's delta of relation r is what r gained since the rule last read it. Each absorb
  // that changes r makes a new version and logs its new tuples. A delta over the last
  // options.delta_log_versions (16) versions is the union of their pieces, over more the xor
  // of r with the value read: on antlr insens deltas took 4.9 s as xors, 2.9 s so (2.5 s with
  // every version logged, but then the 42 inner steps of the bddbddb preset's assign rule cost
  // 13% more in all; with 4 or 16 the preset is unchanged). A delta is found once per version
  // for all the rules that read r there (on antlr about 20 rules read VarPointsTo). Pieces
  // every reader has seen are dropped, so a long log holds about one sweep's additions.
  struct Read {
    std::uint64_t version = 0;
    Bdd value;
  };
  std::map<std::size_t, std::uint64_t> version;                      // r -> absorbs that changed it
  std::map<std::size_t, std::deque<Bdd>> pieces;                     // r -> new tuples per version
  std::map<std::size_t, std::map<std::size_t, Read>> seen;           // rule -> r -> what it read
  std::map<std::size_t, std::map<std::uint64_t, Bdd>> known_deltas;  // r -> since version -> delta
  // Drops the pieces that every rule reading r has seen: the log then holds about one sweep of
  // additions, however many versions it may keep.
  auto prune = [&](std::size_t r) {
    std::uint64_t oldest = version[r];
    for (const auto& [reader, reads] : seen)
      if (const auto read = reads.find(r); read != reads.end())
        oldest = std::min(oldest, read->second.version);
    std::deque<Bdd>& log = pieces[r];
    while (log.size() > version[r] - oldest) log.pop_front();
  };
  auto see_all = [&](std::size_t rule) {
    for (const PlanStep& step : plans[rule].steps)
      if (const AtomStep* atom = member_step(step)) {
        seen[rule][atom->relation] = {version[atom->relation], full[atom->relation]};
        prune(atom->relation);
      }
  };
  auto delta_since = [&](std::size_t r, const Read& read) {
    const auto known = known_deltas[r].find(read.version);
    if (known != known_deltas[r].end()) return known->second;
    const std::deque<Bdd>& log = pieces[r];  // the last log.size() versions
    const std::uint64_t missed = version[r] - read.version;
    Bdd delta;
    if (missed <= log.size()) {
      // Pairwise, so that each tuple takes part in log2(pieces) unions, not one per later
      // piece.
      std::vector<Bdd> level(log.end() - static_cast<std::ptrdiff_t>(missed), log.end());
      while (level.size() > 1) {
        std::vector<Bdd> next;
        for (std::size_t k = 0; k + 1 < level.size(); k += 2)
          next.push_back(level[k] | level[k + 1]);
        if (level.size() % 2 == 1) next.push_back(level.back());
        level = std::move(next);
      }
      delta = level.front();
    } else {
      delta = full[r] ^ read.value;
    }
    return known_deltas[r][read.version] = delta;
  };
  auto deltas = [&](std::size_t rule) {
    ScopedSeconds timer(overheads.deltas);
    std::map<std::size_t, Bdd> out;
    for (const auto& [r, read] : seen[rule])
      if (read.version != version[r]) out[r] = delta_since(r, read);
    return out;
  };
  // Adds a rule's result to its head.
  auto absorb = [&](std::size_t rule, const Bdd& result) {
    ScopedSeconds timer(overheads.absorbing);
    const std::size_t r = plans[rule].head;
    try {
      // result - full as result ^ (result & full): and and xor stop at shared
      // subgraphs, and-not does not (see Bdd::operator^); about 10% less than
      // (full | result) ^ full on the bddbddb preset, and 40% less than -.
      const Bdd known = result & full[r];
      if (known == result) return;
      Bdd fresh = result ^ known;
      full[r] = full[r] | fresh;
      relations[r].set_bdd(full[r]);
      if (progress()) added[r] |= fresh;
      ++version[r];
      pieces[r].push_back(std::move(fresh));
      if (pieces[r].size() > options.delta_log_versions) pieces[r].pop_front();
      known_deltas[r].clear();
    } catch (const bdd::NodeTableExhausted& e) {
      throw EvaluationError(
          shapes[r].decl->where,
          exhausted_message(e, "adding new tuples to relation " + relations[r].name()));
    }
  };
  std::size_t iteration = 0;
  auto set_position = [&] {
    position = "stratum " + std::to_string(number) + "/" + std::to_string(total) + " {" + label +
               "} sweep " + std::to_string(iteration);
  };
  // At most one line per progress_interval_seconds: cheap-first's rounds are many and short.
  // A line holds the gains of the rounds not printed before it; the stratum's last is printed.
  double printed_at = -std::numeric_limits<double>::infinity();
  bool unprinted = true;  // evaluations since the last line
  auto report = [&](bool last) {
    if (!progress() || !unprinted) return;
    const double now = seconds_since(started);
    if (!last && now - printed_at < options.progress_interval_seconds) return;
    printed_at = now;
    unprinted = false;
    ScopedSeconds timer(overheads.reporting);
    std::string sizes;
    for (std::size_t r : members) {
      if (added.count(r) == 0 || added[r].is_zero()) continue;
      rel::Relation d(*space, "", relations[r].attributes());
      d.set_bdd(added[r]);
      sizes += " " + relations[r].name() + " +" + d.size().to_string();
    }
    if (sizes.empty()) sizes = " nothing new";
    added.clear();
    space->manager().sample_peak();
    const bdd::ManagerStats bdd = space->manager().stats();
    // The time since the solve began: which sweep was slow is what a profile by rule cannot say.
    std::ostringstream at;
    at << std::fixed << std::setprecision(1) << now;
    *progress() << "[solve] stratum " << number << "/" << total << " {" << label << "} iteration "
                << iteration << " at " << at.str() << " s:" << sizes << "; nodes "
                << bdd.used_nodes;
    // A run at the cap collects more often: say why it slows down.
    if (bdd.capped_by_memory_budget)
      *progress() << " of " << bdd.node_table_size << ", the table held by the memory budget"
                  << (bdd.capped_by_machine_memory ? " and the machine's available memory" : "");
    *progress() << "\n";
  };

  // First sweep: every rule on the full relations, keeping the prefixes. The nodes each
  // produced are the schedule's first measure of its cost.
  const std::unique_ptr<Schedule> schedule = make_schedule(options.schedule, stratum.rules.size());
  std::vector<std::uint64_t> produced_before(stratum.rules.size() + 1);
  ++iteration;
  ++overheads.sweeps;
  set_position();
  for (std::size_t position = 0; position < stratum.rules.size(); ++position) {
    produced_before[position] = space->manager().nodes_produced();
    const std::size_t rule = stratum.rules[position];
    const RulePlan& plan = plans[rule];
    RuleState& rs = state[rule];
    begin_evaluation(rule);
    if (program.rules[rule].numbering) {  // a graph, not a join: solver/numbering_rule.hpp
      absorb(rule, run_rule(rule, [&] {
               return evaluate_numbering_rule(
                   program.rules[rule],
                   [&](const std::string& name) -> const rel::Relation& {
                     return relations[relation_index.at(name)];
                   },
                   relations[plan.head]);
             }));
      continue;
    }
    if (!stratum.recursive) {
      if (std::optional<Bdd> result = run_rule_on_tuples(rule)) {
        absorb(rule, *result);
        continue;
      }
    }
    // Prepared now, not before the sweep, so that they include what earlier
    // rules just added; this rule has then seen everything so far.
    try {
      ScopedSeconds timer(overheads.preparing);
      for (std::size_t s = 0; s < plan.steps.size(); ++s) {
        if (const AtomStep* atom = std::get_if<AtomStep>(&plan.steps[s]);
            atom != nullptr && member_step(plan.steps[s]) == nullptr) {
          rs.values[s] = prepare_static_atom(*atom);
        }
      }
      for (std::size_t s = 0; s < plan.steps.size(); ++s) {
        if (const AtomStep* atom = member_step(plan.steps[s])) {
          if (gained_inputs.count(atom->relation) == 0) {
            rs.filters[s] = semijoin_filter(plan, s, rs.values, members);
            if (!rs.filters[s].is_one()) profiles[rule].filtered_steps.push_back(s);
          }
          rs.values[s] = prepare_member(*atom, full[atom->relation], rs.filters[s]);
        }
      }
    } catch (const bdd::NodeTableExhausted& e) {
      throw rule_exhausted(rule, e);
    }
    see_all(rule);
    // From a seed, the fixpoint of what the relations held then, only the prefixes that later
    // deltas join with are needed, not the rule's result.
    std::size_t last = plan.steps.size();
    if (from_seed)
      while (last > 0 && !rs.keep[last - 1]) --last;
    const Bdd result = run_rule(rule, [&] {
      Bdd acc = Bdd::one();
      StepTimer timer(profiles[rule].step_seconds, plan.steps.size());
      for (std::size_t s = 0; s < last && !acc.is_zero(); timer.next(), ++s) {
        acc = apply_step(plan.steps[s], acc, rs.values[s]);
        if (rs.keep[s]) rs.prefixes[s] = acc;
      }
      return from_seed ? Bdd::zero() : finish_head(plan, acc);
    });
    if (!from_seed) absorb(rule, result);
    // A stratum atom no earlier delta reaches is read only through its delta
    // from now on: its full value need not be kept up to date.
    for (std::size_t s = 0; s < plan.steps.size(); ++s)
      if (member_step(plan.steps[s]) != nullptr && !rs.use_full[s]) rs.values[s] = Bdd::zero();
    // A first sweep over seeded relations runs for minutes: say how far it got as it goes.
    unprinted = true;
    report(false);
  }
  produced_before.back() = space->manager().nodes_produced();
  // The gained inputs now change, once: their gains are the rounds' first deltas.
  for (const auto& [r, gain] : gained_inputs) {
    full[r] = relations[r].bdd();
    ++version[r];
    pieces[r].push_back(gain);
    known_deltas[r].clear();
  }
  report(!stratum.recursive);
  if (!stratum.recursive) return;

  // The static side of the join at step `s` cut down to the keys of the changing side, when
  // that is cheaper than the product with all of it (solver/keyed_index.hpp): the prefix before
  // a stratum atom (joined with that atom's delta) or a static atom (joined with dP_{s-1}).
  auto restrict_static_side = [&](std::size_t rule, const RulePlan& plan, RuleState& rs,
                                  std::size_t s, const Bdd& changing) -> std::optional<Bdd> {
    if (!options.keyed_indexes || s == 0) return std::nullopt;
    const bool prefix = member_step(plan.steps[s]) != nullptr;
    if (prefix && rs.use_full[s]) return std::nullopt;  // the prefix still changes
    if (!rs.indexed[s]) {
      rs.indexed[s] = true;
      if (prefix) {
        const AtomStep& atom = std::get<AtomStep>(plan.steps[s]);
        rs.keyed[s] = index_static_side(
            plan, plan.live_after[s - 1], plan.step_variables[s],
            atom.drop_in_join ? atom.dropped : std::vector<rel::PhysicalId>{}, rs.prefixes[s - 1]);
      } else {
        rs.keyed[s] = index_static_side(plan, plan.step_variables[s], plan.live_after[s - 1], {},
                                        rs.values[s]);
      }
    }
    if (!rs.keyed[s]) return std::nullopt;
    std::optional<Bdd> restricted = rs.keyed[s]->restrict_to(changing);
    if (restricted) {
      ++overheads.keyed_joins;
      ++profiles[rule].keyed_joins;
    }
    return restricted;
  };

  // One semi-naive step of a rule on the deltas of its body relations.
  auto run_delta = [&](std::size_t rule, const RulePlan& plan, RuleState& rs,
                       const std::map<std::size_t, Bdd>& delta) {
    return run_rule(rule, [&] {
      Bdd acc_delta = Bdd::zero();  // dP_{k-1}(t)
      Bdd old_prefix = Bdd::one();  // P_{k-1}(t-1); P_0 = true
      RuleProfile& profile = profiles[rule];
      StepTimer timer(profile.step_seconds, plan.steps.size());
      for (std::size_t s = 0; s < plan.steps.size(); timer.next(), ++s) {
        const PlanStep& step = plan.steps[s];
        Bdd step_delta;
        if (const AtomStep* atom = member_step(step)) {
          if (const auto d = delta.find(atom->relation); d != delta.end()) {
            const Bdd prepared = prepare_member(*atom, d->second, rs.filters[s]);
            // F_k(t) = F_k(t-1) u D_k: with no preparation that is the relation
            // itself (the rule has now seen all of it).
            if (rs.use_full[s]) {
              rs.values[s] = is_identity(*atom) ? full[atom->relation] : rs.values[s] | prepared;
            }
            if (!old_prefix.is_zero()) {
              const std::optional<Bdd> keyed = restrict_static_side(rule, plan, rs, s, prepared);
              const ScopedSeconds product(profile.step_atom_delta_seconds[s]);
              step_delta = apply_step(step, keyed ? *keyed : old_prefix, prepared);
            }
          }
        }
        if (!acc_delta.is_zero()) {
          const AtomStep* atom = std::get_if<AtomStep>(&step);
          std::optional<Bdd> keyed;
          if (atom != nullptr && !atom->negated && member_step(step) == nullptr)
            keyed = restrict_static_side(rule, plan, rs, s, acc_delta);
          Bdd joined;
          {
            const ScopedSeconds product(profile.step_prefix_delta_seconds[s]);
            joined = apply_step(step, acc_delta, keyed ? *keyed : rs.values[s]);
          }
          step_delta |= joined;
        }
        if (rs.keep[s]) {
          old_prefix = rs.prefixes[s];
          if (!step_delta.is_zero()) {
            Bdd merged = old_prefix | step_delta;
            step_delta = merged ^ old_prefix;  // = merged - old_prefix, see Bdd::operator^
            rs.prefixes[s] = std::move(merged);
          }
        }
        acc_delta = std::move(step_delta);
        // keep[s] false: no later step reads a delta, so nothing more can come.
        if (!rs.keep[s] && acc_delta.is_zero()) return Bdd::zero();
      }
      return finish_head(plan, acc_delta);
    });
  };

  // A linear rule with a static plan (see static_plans) takes it for large
  // deltas. Its main plan keeps the quantified variables with the delta, at
  // the top of the order for vP(d, h) :- assign(d, s), vP(s, h): the product
  // skips the sources the delta lacks but merges the results of all the
  // others level by level, which grows with the delta; the static plan walks
  // all of assign once whatever the delta. On the bddbddb preset they break
  // even near a delta of 1/8 of the static prefix's nodes.
  constexpr std::uint64_t kStaticPlanRatio = 8;
  std::map<std::size_t, RuleState> static_state;
  std::map<std::size_t, std::uint64_t> prefix_nodes;  // rule -> nodes of its main static prefix
  auto choose =
      [&](std::size_t rule,
          const std::map<std::size_t, Bdd>& delta) -> std::pair<const RulePlan*, RuleState*> {
    const std::optional<RulePlan>& alternative = static_plans[rule];
    // A gained input's delta: the rule is not linear in this round.
    if (!alternative || read_gained.count(rule) != 0) return {&plans[rule], &state[rule]};
    RuleState& main = state[rule];
    std::size_t m = 0;
    while (member_step(plans[rule].steps[m]) == nullptr) ++m;
    if (prefix_nodes.count(rule) == 0) prefix_nodes[rule] = main.prefixes[m - 1].node_count();
    if (kStaticPlanRatio * delta.begin()->second.node_count() < prefix_nodes[rule])
      return {&plans[rule], &main};
    auto [it, fresh] = static_state.try_emplace(rule);
    if (fresh) {
      // Only static atoms precede the stratum atom: their values and prefixes never change.
      init_state(*alternative, it->second);
      try {
        Bdd acc = Bdd::one();
        for (std::size_t s = 0; s < alternative->steps.size(); ++s) {
          if (const AtomStep* atom = std::get_if<AtomStep>(&alternative->steps[s]);
              atom != nullptr && member_step(alternative->steps[s]) == nullptr) {
            it->second.values[s] = prepare_static_atom(*atom);
          }
          if (it->second.keep[s])
            it->second.prefixes[s] = acc =
                apply_step(alternative->steps[s], acc, it->second.values[s]);
        }
        for (std::size_t s = 0; s < alternative->steps.size(); ++s)
          if (member_step(alternative->steps[s]) != nullptr)
            it->second.filters[s] = semijoin_filter(*alternative, s, it->second.values, members);
      } catch (const bdd::NodeTableExhausted& e) {
        throw rule_exhausted(rule, e);
      }
    }
    return {&*alternative, &it->second};
  };

  for (std::size_t position = 0; position < stratum.rules.size(); ++position)
    schedule->evaluated(
        position, static_cast<double>(produced_before[position + 1] - produced_before[position]));
  // A rule is pending while a relation it reads has a version it has not seen.
  auto pending = [&](std::size_t position) {
    for (const auto& [r, read] : seen[stratum.rules[position]])
      if (read.version != version[r]) return true;
    return false;
  };
  std::size_t round = 0;
  while (const std::optional<std::size_t> position = schedule->next(pending)) {
    if (schedule->round() != round) {
      report(false);
      round = schedule->round();
      iteration = 1 + round;
      ++overheads.sweeps;
      set_position();
    }
    const std::size_t rule = stratum.rules[*position];
    const std::uint64_t produced = space->manager().nodes_produced();
    const std::map<std::size_t, Bdd> delta = deltas(rule);
    begin_evaluation(rule);
    see_all(rule);
    std::optional<Bdd> on_tuples;
    if (prefer_tuple_delta(rule)) on_tuples = run_delta_on_tuples(rule, own_members, delta);
    if (on_tuples) {
      absorb(rule, *on_tuples);
    } else {
      const auto [plan, rs] = choose(rule, delta);
      const auto start = Clock::now();
      Bdd result = run_delta(rule, *plan, *rs, delta);
      last_product_seconds[rule] = seconds_since(start);
      absorb(rule, result);
    }
    ++overheads.delta_evaluations;
    unprinted = true;
    schedule->evaluated(*position,
                        static_cast<double>(space->manager().nodes_produced() - produced));
  }
  report(true);
}

Engine::Engine(const Program& program, EngineOptions options)
    : state_(std::make_unique<State>(program, std::move(options))) {}

Engine::~Engine() = default;

void Engine::run() {
  State& s = *state_;
  s.started = Clock::now();
  s.ended.reset();
  s.evaluations = 0;
  s.in_evaluation = false;
  make_schedule(s.options.schedule, 0);  // an unknown name fails before any work
  s.overheads.schedule = s.options.schedule;
  struct EndTime {
    State& s;
    ~EndTime() { s.ended = Clock::now(); }
  } end_time{s};
  s.build_domains();
  s.space->manager().time_operations(s.options.profile);
  s.choose_order();
  s.build_relations();
  try {
    // Long single operations (a constructor, one product) stop at their next garbage
    // collection; between operations the engine checks the limits itself (check_time_limit,
    // begin_evaluation). Lifted however solving ends: the reports that follow must not stop.
    const LimitsScope limits(s.space->manager(), s.started, s.options);
    {
      ScopedSeconds timer(s.overheads.loading);
      if (s.options.seed_dir) {
        s.position = "placing the seed's image";
        s.place_seed_image();
      }
      if (s.options.seed_dir) s.read_seed_sizes_and_fingerprints();
      s.position = "loading the inputs";
      s.load_inputs();
      if (s.options.seed_dir) {
        s.position = "loading the seeds";
        s.apply_seeds();
      }
    }
    const std::vector<Stratum> strata = stratify(s.program);
    try {
      s.position = "planning the rules";
      s.plan_rules(strata);
      if (s.options.plan_only) return;
      s.last_results.assign(s.plans.size(), Bdd::zero());
      s.last_product_seconds.assign(s.plans.size(), -1);
      s.last_tuple_seconds.assign(s.plans.size(), -1);
      for (std::size_t i = 0; i < strata.size(); ++i) {
        if (!s.options.seed_dir) {
          s.evaluate_stratum(strata[i], i + 1, strata.size());
          continue;
        }
        s.seed_stratum(strata[i]);
        // From the seed's prefixes and the gains (EngineOptions::seeded_first_sweep false), or a
        // first sweep over the seeded relations; a stratum that did not take all its seeds, or
        // is not recursive, is evaluated as without a seed.
        const bool from_seed = !s.options.seeded_first_sweep && s.runs_from_seed(strata[i]);
        if (from_seed || (s.options.seeded_first_sweep && s.all_seeded(strata[i])))
          ++s.overheads.strata_from_seed;
        s.evaluate_stratum(strata[i], i + 1, strata.size(), from_seed);
        s.record_seed_gains(strata[i]);
      }
      if (s.options.seed_dir && s.progress()) {
        *s.progress() << "[seed] " << s.seed_plan.seeded.size() << " relations started from "
                      << s.options.seed_dir->string() << ", " << s.seed_plan.recomputed.size()
                      << " from nothing\n";
      }
    } catch (const bdd::OperationStopped& e) {
      s.throw_stopped(e, {s.program.file}, "during BDD operation " + e.operation());
    }
  } catch (const LimitReached&) {
    if (s.options.profile) s.count_profiles();  // the profile of a stopped run is still reported
    throw;
  }
  s.in_evaluation = false;
  s.space->manager().sample_peak();
  if (s.options.profile) s.count_profiles();
}

void Engine::State::count_profiles() {
  for (std::size_t rule = 0; rule < plans.size(); ++rule) {
    rel::Relation produced(*space, "", relations[plans[rule].head].attributes());
    produced.set_bdd(last_results[rule]);
    profiles[rule].result_tuples = produced.size();
  }
  last_results.clear();
}

void Engine::write_outputs() {
  State& s = *state_;
  for (const rel::Relation& r : s.relations) {
    const RelationDecl& decl = *s.shapes[s.relation_index.at(r.name())].decl;
    if (decl.has(RelationFlag::kOutputTuples)) {
      rel::write_tuples(s.options.output_dir / (r.name() + ".tuples"), r);
    }
    if (decl.has(RelationFlag::kOutput)) {
      rel::write_bdd_file(s.options.output_dir / (r.name() + ".bdd"), r);
    }
  }
}

void Engine::write_state(const std::filesystem::path& dir) const {
  std::filesystem::create_directories(dir);
  for (const rel::Relation& r : state_->relations)
    rel::write_bdd_file(dir / (r.name() + ".bdd"), r);
  rel::write_state_image(dir / kSeedImageFile, state_->relations);
  // The domains' sizes: which elements the solve had, for a solve seeded from this one
  // (Engine::State::negation_may_fail).
  AtomicOutputFile domains(dir / kSeedDomainsFile);
  for (std::size_t d = 0; d < state_->space->domain_count(); ++d) {
    const rel::LogicalDomain& domain = state_->space->domain(static_cast<rel::DomainId>(d));
    std::uint64_t had = domain.size;  // a domain declared with room had only its elements
    if (const auto elements = state_->options.domain_elements.find(domain.name);
        elements != state_->options.domain_elements.end())
      had = std::min(had, std::max<std::uint64_t>(elements->second, 1));
    domains.stream() << domain.name << " " << had << "\n";
  }
  domains.commit();
  // An input a rule adds to holds more than its lines.
  std::set<std::string> heads;
  for (const Rule& rule : state_->program.rules) heads.insert(rule.head.relation);
  AtomicOutputFile fingerprints(dir / kSeedFingerprintsFile);
  for (const auto& [name, f] : state_->input_fingerprints) {
    if (heads.count(name) != 0) continue;
    fingerprints.stream() << name << " " << f.lines << " " << f.sum_a << " " << f.sum_b << "\n";
  }
  fingerprints.commit();
}

const SeedPlan& Engine::seed_plan() const {
  return state_->seed_plan;
}

const std::map<std::string, InputChange>& Engine::seed_inputs() const {
  return state_->seed_inputs;
}

const rel::Relation& Engine::relation(const std::string& name) const {
  const auto it = state_->relation_index.find(name);
  if (it == state_->relation_index.end()) throw std::invalid_argument("unknown relation " + name);
  return state_->relations[it->second];
}

BigUint Engine::relation_size(const std::string& name) const {
  return relation(name).size();
}

void Engine::for_each_tuple(
    const std::string& name,
    const std::function<void(std::span<const std::uint64_t>)>& visit) const {
  relation(name).for_each_tuple(visit);
}

std::vector<std::vector<std::uint64_t>> Engine::tuples(const std::string& name) const {
  std::vector<std::vector<std::uint64_t>> out;
  for_each_tuple(name,
                 [&](std::span<const std::uint64_t> t) { out.emplace_back(t.begin(), t.end()); });
  return out;
}

const std::vector<RuleProfile>& Engine::rule_profiles() const {
  return state_->profiles;
}

const EngineProfile& Engine::engine_profile() const {
  return state_->overheads;
}
bdd::ManagerStats Engine::bdd_stats() const {
  return state_->space->manager().stats();
}
std::string Engine::var_order() const {
  return state_->order_text;
}

std::uint64_t Engine::evaluations() const {
  return state_->evaluations;
}

std::uint64_t Engine::finished_evaluations() const {
  return state_->evaluations - (state_->in_evaluation ? 1 : 0);
}

double Engine::solve_seconds() const {
  const State& s = *state_;
  return std::chrono::duration<double>(s.ended.value_or(Clock::now()) - s.started).count();
}

Engine::OrderLayout Engine::order_layout() const {
  const rel::DomainSpace& space = *state_->space;
  OrderLayout out;
  out.order = space.order();
  for (const std::string& name : out.order.names()) {
    const rel::PhysicalDomain& instance = space.physical(*space.find_physical(name));
    out.domain[name] = space.domain(instance.domain).name;
    out.elements[name] = space.domain(instance.domain).size;
  }
  return out;
}

}  // namespace refract::solver
