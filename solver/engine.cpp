#include "solver/engine.hpp"

#include <chrono>
#include <map>
#include <ostream>
#include <set>

#include "bdd/var_order.hpp"
#include "relations/bdd_file.hpp"
#include "relations/domain_space.hpp"
#include "relations/element_map.hpp"
#include "relations/relation.hpp"
#include "relations/tuple_io.hpp"
#include "solver/instance_layout.hpp"
#include "solver/rule_plan.hpp"
#include "solver/stratify.hpp"

namespace refract::solver {

namespace {

using bdd::Bdd;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

struct Engine::State {
  const Program& program;
  EngineOptions options;
  std::unique_ptr<rel::DomainSpace> space;
  std::vector<PlannedRelation> shapes;
  std::vector<rel::Relation> relations;
  std::map<std::string, std::size_t> relation_index;
  std::vector<RulePlan> plans;  // parallel to program.rules
  std::vector<RuleProfile> profiles;
  std::string order_text;

  State(const Program& p, EngineOptions o) : program(p), options(std::move(o)) {}

  std::ostream* progress() const { return options.progress; }

  void build_domains();
  void choose_order();
  void build_relations();
  void load_inputs();
  void plan_rules();
  void evaluate_stratum(const Stratum& stratum, std::size_t number, std::size_t total);
  Bdd prepare_atom(const AtomStep& step, const Bdd& contents) const;
  Bdd evaluate_rule(RulePlan& plan, const std::vector<Bdd>& atom_values);
  Bdd run_rule(std::size_t rule, const std::vector<Bdd>& atom_values);
  EvaluationError rule_exhausted(std::size_t rule, const bdd::NodeTableExhausted& e) const;
};

void Engine::State::build_domains() {
  space = std::make_unique<rel::DomainSpace>(options.bdd);
  for (const DomainDecl& d : program.domains) {
    rel::DomainId id = 0;
    try {
      id = space->add_domain(d.name, d.size);
    } catch (const std::invalid_argument& e) {
      throw InputError(d.where, e.what());
    }
    if (d.map_file) {
      const std::filesystem::path file = options.input_dir / *d.map_file;
      space->set_map(id, rel::ElementMap::load(file, d.size));
    }
  }
}

void Engine::State::choose_order() {
  const InstanceLayout layout = lay_out_instances(program);
  SourceLocation where{"--order", 1, 0};
  std::string text;
  if (options.var_order) {
    text = *options.var_order;
  } else if (program.var_order) {
    text = *program.var_order;
    where = program.var_order_where.value_or(SourceLocation{program.file, 0, 0});
  } else {
    text = default_var_order(program, layout);
  }
  bdd::VarOrder order;
  try {
    order = bdd::parse_var_order(text, space->instance_names());
  } catch (const bdd::VarOrderError& e) {
    if (where.file == "--order") {
      where.column = e.column();
    } else if (where.column > 0) {
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
        rel::read_tuples(file, r);
      } else if (decl.has(RelationFlag::kInput)) {
        file = options.input_dir / (r.name() + ".bdd");
        rel::read_bdd_file(file, r);
      } else {
        continue;
      }
    } catch (const bdd::NodeTableExhausted& e) {
      throw EvaluationError({file.string()}, "BDD node table exhausted at " +
                                                 std::to_string(e.node_table_size()) +
                                                 " nodes while loading relation " + r.name() +
                                                 " (raise --nodes/--max-nodes or try another "
                                                 "--order)");
    }
    if (progress()) {
      *progress() << "[load] " << r.name() << ": " << r.size().to_string() << " tuples, "
                  << r.bdd().node_count() << " nodes, " << seconds_since(start) << " s\n";
    }
  }
}

void Engine::State::plan_rules() {
  for (const Rule& rule : program.rules) {
    plans.push_back(plan_rule(rule, shapes, *space));
    if (progress()) {
      for (const std::string& warning : plans.back().absent_constants)
        *progress() << warning << '\n';
    }
    RuleProfile profile;
    profile.rule_text = rule.text;
    profile.where = rule.where;
    profiles.push_back(std::move(profile));
  }
}

Bdd Engine::State::prepare_atom(const AtomStep& step, const Bdd& contents) const {
  Bdd value = contents.and_exists(step.select, step.drop);
  if (step.rename) value = value.replace(*step.rename);
  return value;
}

// atom_values[s] holds the prepared value of step s when it is an atom.
Bdd Engine::State::evaluate_rule(RulePlan& plan, const std::vector<Bdd>& atom_values) {
  Bdd acc = Bdd::one();
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    if (const AtomStep* atom = std::get_if<AtomStep>(&plan.steps[s])) {
      if (atom->negated) {
        acc = (acc - atom_values[s]).exists(atom->quantify_after);
      } else {
        acc = acc.and_exists(atom_values[s], atom->quantify_after);
      }
    } else {
      const ConstraintStep& c = std::get<ConstraintStep>(plan.steps[s]);
      acc = c.subtract ? acc - c.constraint : acc & c.constraint;
      acc = acc.exists(c.quantify_after);
    }
    if (acc.is_zero()) return acc;
  }
  if (plan.head_rename) acc = acc.replace(*plan.head_rename);
  return acc & plan.head_extra;
}

EvaluationError Engine::State::rule_exhausted(std::size_t rule,
                                              const bdd::NodeTableExhausted& e) const {
  return EvaluationError(program.rules[rule].where,
                         "BDD node table exhausted at " + std::to_string(e.node_table_size()) +
                             " nodes while evaluating rule: " + program.rules[rule].text +
                             " (raise --nodes/--max-nodes or try another --order)");
}

Bdd Engine::State::run_rule(std::size_t rule, const std::vector<Bdd>& atom_values) {
  RuleProfile& profile = profiles[rule];
  const auto start = Clock::now();
  Bdd result;
  try {
    result = evaluate_rule(plans[rule], atom_values);
  } catch (const bdd::NodeTableExhausted& e) {
    throw rule_exhausted(rule, e);
  }
  profile.seconds += seconds_since(start);
  ++profile.evaluations;
  space->manager().sample_peak();
  profile.peak_nodes = std::max(profile.peak_nodes, space->manager().stats().used_nodes);
  if (options.profile) {
    rel::Relation produced(*space, "", relations[plans[rule].head].attributes());
    produced.set_bdd(result);
    profile.result_tuples = produced.size();
  }
  return result;
}

}  // namespace refract::solver

namespace refract::solver {

void Engine::State::evaluate_stratum(const Stratum& stratum, std::size_t number,
                                     std::size_t total) {
  std::set<std::size_t> members;
  for (const std::string& name : stratum.relations) members.insert(relation_index.at(name));
  std::string label;
  for (const std::string& name : stratum.relations) label += (label.empty() ? "" : ", ") + name;

  // Atoms over relations of earlier strata are final: prepare them once.
  // Preparing a rule's atoms (select, project, rename) is that rule's work:
  // running out of nodes there names the rule, as in run_rule.
  std::map<std::size_t, std::vector<Bdd>> fixed;
  for (std::size_t rule : stratum.rules) {
    std::vector<Bdd>& values = fixed[rule];
    values.resize(plans[rule].steps.size());
    try {
      for (std::size_t s = 0; s < plans[rule].steps.size(); ++s) {
        const AtomStep* atom = std::get_if<AtomStep>(&plans[rule].steps[s]);
        if (atom != nullptr && members.count(atom->relation) == 0) {
          values[s] = prepare_atom(*atom, relations[atom->relation].bdd());
        }
      }
    } catch (const bdd::NodeTableExhausted& e) {
      throw rule_exhausted(rule, e);
    }
  }
  auto prepare_members = [&](std::size_t rule, std::vector<Bdd> values,
                             const std::map<std::size_t, Bdd>& contents) {
    for (std::size_t s = 0; s < plans[rule].steps.size(); ++s) {
      const AtomStep* atom = std::get_if<AtomStep>(&plans[rule].steps[s]);
      if (atom != nullptr && members.count(atom->relation) != 0) {
        values[s] = prepare_atom(*atom, contents.at(atom->relation));
      }
    }
    return values;
  };

  std::map<std::size_t, Bdd> full, delta;
  for (std::size_t r : members) full[r] = relations[r].bdd();
  // First round: every rule on the full relations.
  std::map<std::size_t, Bdd> produced;
  for (std::size_t rule : stratum.rules) {
    const std::size_t head = plans[rule].head;
    try {
      produced[head] |= run_rule(rule, prepare_members(rule, fixed[rule], full));
    } catch (const bdd::NodeTableExhausted& e) {
      throw rule_exhausted(rule, e);
    }
  }
  std::size_t iteration = 1;
  auto absorb = [&]() {
    bool changed = false;
    std::string sizes;
    for (std::size_t r : members) {
      Bdd fresh;
      try {
        fresh = produced[r] - full[r];
        if (!fresh.is_zero()) {
          full[r] = full[r] | fresh;
          relations[r].set_bdd(full[r]);
          changed = true;
        }
      } catch (const bdd::NodeTableExhausted& e) {
        throw EvaluationError(shapes[r].decl->where,
                              "BDD node table exhausted at " + std::to_string(e.node_table_size()) +
                                  " nodes while adding new tuples to relation " +
                                  relations[r].name() +
                                  " (raise --nodes/--max-nodes or try another --order)");
      }
      if (progress()) {
        rel::Relation d(*space, "", relations[r].attributes());
        d.set_bdd(fresh);
        sizes += " " + relations[r].name() + " +" + d.size().to_string();
      }
      delta[r] = std::move(fresh);
    }
    produced.clear();
    if (progress()) {
      space->manager().sample_peak();
      *progress() << "[solve] stratum " << number << "/" << total << " {" << label << "} iteration "
                  << iteration << ":" << sizes << "; nodes " << space->manager().stats().used_nodes
                  << "\n";
    }
    return changed;
  };
  const bool changed = absorb();
  if (!stratum.recursive || !changed) return;

  // Semi-naive rounds: each rule once per member atom, that atom on the delta.
  while (true) {
    ++iteration;
    for (std::size_t rule : stratum.rules) {
      const RulePlan& plan = plans[rule];
      std::vector<Bdd> values;  // full-relation values, made on first need
      for (std::size_t s = 0; s < plan.steps.size(); ++s) {
        const AtomStep* atom = std::get_if<AtomStep>(&plan.steps[s]);
        if (atom == nullptr || atom->negated || members.count(atom->relation) == 0) continue;
        if (delta[atom->relation].is_zero()) continue;
        try {
          if (values.empty()) values = prepare_members(rule, fixed[rule], full);
          std::vector<Bdd> variant = values;
          variant[s] = prepare_atom(*atom, delta[atom->relation]);
          produced[plan.head] |= run_rule(rule, variant);
        } catch (const bdd::NodeTableExhausted& e) {
          throw rule_exhausted(rule, e);
        }
      }
    }
    if (!absorb()) break;
  }
}

Engine::Engine(const Program& program, EngineOptions options)
    : state_(std::make_unique<State>(program, std::move(options))) {}

Engine::~Engine() = default;

void Engine::run() {
  State& s = *state_;
  s.build_domains();
  s.choose_order();
  s.build_relations();
  s.load_inputs();
  s.plan_rules();
  const std::vector<Stratum> strata = stratify(s.program);
  for (std::size_t i = 0; i < strata.size(); ++i)
    s.evaluate_stratum(strata[i], i + 1, strata.size());
  s.space->manager().sample_peak();
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
bdd::ManagerStats Engine::bdd_stats() const {
  return state_->space->manager().stats();
}
std::string Engine::var_order() const {
  return state_->order_text;
}

}  // namespace refract::solver
