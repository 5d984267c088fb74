#include "solver/rule_plan.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "bdd/bit_block.hpp"

namespace refract::solver {

namespace {

using bdd::Bdd;
using rel::PhysicalId;

struct VariableInfo {
  rel::DomainId domain = 0;
  bool has_domain = false;
  std::optional<PhysicalId> instance;
  int occurrences = 0;
};

class RulePlanner {
 public:
  RulePlanner(const Rule& rule, const std::vector<PlannedRelation>& relations,
              const rel::DomainSpace& space, const std::set<std::size_t>& recursive)
      : rule_(rule), relations_(relations), space_(space), recursive_(recursive) {}

  RulePlan plan() {
    collect_variables();
    assign_instances();
    schedule();
    RulePlan plan;
    plan.rule = &rule_;
    plan.head = relation_index(rule_.head);
    build_steps(plan);
    build_head(plan);
    for (const auto& [name, info] : variables_) {
      plan.variable_instances.push_back(name + ":" + space_.physical(*info.instance).name);
      plan.instance_of[name] = *info.instance;
    }
    plan.absent_constants = std::move(absent_);
    return plan;
  }

 private:
  [[noreturn]] void fail(const SourceLocation& where, const std::string& message) const {
    throw InputError(where, message);
  }

  std::size_t relation_index(const Atom& atom) const {
    for (std::size_t i = 0; i < relations_.size(); ++i)
      if (relations_[i].decl->name == atom.relation) return i;
    fail(atom.where, "unknown relation '" + atom.relation + "'");
  }

  void note_atom(const Atom& atom) {
    const PlannedRelation& r = relations_[relation_index(atom)];
    if (atom.arguments.size() != r.instances.size()) {
      fail(atom.where, "relation '" + atom.relation + "' has " +
                           std::to_string(r.instances.size()) + " attributes but " +
                           std::to_string(atom.arguments.size()) + " arguments are given");
    }
    for (std::size_t i = 0; i < atom.arguments.size(); ++i) {
      const Term& t = atom.arguments[i];
      if (t.kind != Term::Kind::kVariable) continue;
      VariableInfo& v = variables_[t.text];
      v.domain = space_.physical(r.instances[i]).domain;
      v.has_domain = true;
      ++v.occurrences;
    }
  }

  void collect_variables() {
    note_atom(rule_.head);
    for (const Literal& literal : rule_.body) {
      if (const Atom* atom = std::get_if<Atom>(&literal)) note_atom(*atom);
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (const Literal& literal : rule_.body) {
        const Comparison* c = std::get_if<Comparison>(&literal);
        if (c == nullptr) continue;
        for (const Term* side : {&c->left, &c->right}) {
          const Term* other = side == &c->left ? &c->right : &c->left;
          if (side->kind != Term::Kind::kVariable) continue;
          VariableInfo& v = variables_[side->text];
          if (!v.has_domain && other->kind == Term::Kind::kVariable &&
              variables_[other->text].has_domain) {
            v.domain = variables_[other->text].domain;
            v.has_domain = true;
            changed = true;
          }
        }
      }
    }
    for (const Literal& literal : rule_.body) {
      const Comparison* c = std::get_if<Comparison>(&literal);
      if (c == nullptr) continue;
      for (const Term* side : {&c->left, &c->right}) {
        if (side->kind != Term::Kind::kVariable) continue;
        VariableInfo& v = variables_[side->text];
        ++v.occurrences;
        if (!v.has_domain)
          fail(side->where, "cannot tell the domain of variable '" + side->text + "'");
      }
    }
  }

  // Greedy: the (variable, instance) pairs that save the most renames first.
  // Positions in atoms of the head's own stratum count far more: such an atom
  // is read through a fresh delta every round, and a delta that needs no
  // rename also keeps the quantified variables where the delta is, e.g.
  // vP(d, h) :- assign(d, s), vP(s, h) puts s on vP's V0, at the top of the
  // order, so the relational product skips every s the delta lacks; with s
  // on V1 under d it walks all of assign's d levels each round (3x slower).
  // The static atom is renamed once, the smaller result once a round.
  static constexpr int kRecursiveWeight = 1000;
  void assign_instances() {
    std::map<std::pair<std::string, PhysicalId>, int> score;
    auto count_atom = [&](const Atom& atom, int weight) {
      const PlannedRelation& r = relations_[relation_index(atom)];
      for (std::size_t i = 0; i < atom.arguments.size(); ++i) {
        if (atom.arguments[i].kind == Term::Kind::kVariable) {
          score[{atom.arguments[i].text, r.instances[i]}] += weight;
        }
      }
    };
    count_atom(rule_.head, 1);
    for (const Literal& literal : rule_.body)
      if (const Atom* atom = std::get_if<Atom>(&literal))
        count_atom(*atom, recursive_.count(relation_index(*atom)) != 0 ? kRecursiveWeight : 1);
    std::vector<std::pair<int, std::pair<std::string, PhysicalId>>> ranked;
    for (const auto& [key, s] : score) ranked.push_back({s, key});
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::set<PhysicalId> used;
    for (const auto& [s, key] : ranked) {
      VariableInfo& v = variables_[key.first];
      if (v.instance || used.count(key.second) != 0) continue;
      v.instance = key.second;
      used.insert(key.second);
    }
    for (auto& [name, v] : variables_) {
      if (v.instance) continue;
      for (unsigned k = 0; k < rel::DomainSpace::kMaxInstances && !v.instance; ++k) {
        const auto candidate = space_.find_physical(v.domain, k);
        if (candidate && used.count(*candidate) == 0) {
          v.instance = *candidate;
          used.insert(*candidate);
        }
      }
      if (!v.instance) {
        const std::string& domain = space_.domain(v.domain).name;
        fail(rule_.where, "the variable order has too few instances of domain " + domain +
                              " for this rule (variable '" + name + "' has none left); add " +
                              domain + "<n> instances to the order");
      }
    }
  }

  // Orders the body: positive atoms as written, everything else as soon as it can run. A
  // variable that no positive atom (nor '=') binds ranges over its whole domain: a step
  // bounding it to the domain comes just before the first literal that needs it, the head's
  // such variables come last.
  void schedule() {
    std::set<std::string> bound = negation_local_variables(rule_);  // dropped in their atom
    std::vector<std::size_t> pending;
    auto ready = [&](std::size_t index) {
      const Literal& literal = rule_.body[index];
      const auto vars = variables_of(literal);
      const std::size_t unbound = static_cast<std::size_t>(std::count_if(
          vars.begin(), vars.end(), [&](const std::string& v) { return bound.count(v) == 0; }));
      if (unbound == 0) return true;
      // "x = y" / "x = 5" may bind the one unbound side.
      const Comparison* c = std::get_if<Comparison>(&literal);
      return c != nullptr && c->op == CompareOp::kEq && unbound == 1 &&
             !(c->left.kind == Term::Kind::kVariable && c->right.kind == Term::Kind::kVariable &&
               c->left.text == c->right.text);
    };
    auto drain = [&]() {
      for (bool progress = true; progress;) {
        progress = false;
        for (auto it = pending.begin(); it != pending.end(); ++it) {
          if (!ready(*it)) continue;
          order_.push_back({*it, {}});
          for (const std::string& v : variables_of(rule_.body[*it])) bound.insert(v);
          pending.erase(it);
          progress = true;
          break;
        }
      }
    };
    auto range_over_domain = [&](const std::string& v) {
      order_.push_back({kDomainStep, v});
      bound.insert(v);
    };
    for (std::size_t i = 0; i < rule_.body.size(); ++i) {
      const Atom* atom = std::get_if<Atom>(&rule_.body[i]);
      if (atom != nullptr && !atom->negated) {
        order_.push_back({i, {}});
        for (const std::string& v : variables_of(rule_.body[i])) bound.insert(v);
        drain();
        compare_before_binding(i, bound, pending);
        drain();
      } else if (!scheduled(i)) {
        pending.push_back(i);
      }
    }
    drain();
    while (!pending.empty()) {
      for (const std::string& v : variables_of(rule_.body[pending.front()])) {
        if (bound.count(v) != 0) continue;
        range_over_domain(v);
        break;
      }
      drain();
    }
    for (const Term& t : rule_.head.arguments)
      if (t.kind == Term::Kind::kVariable && bound.count(t.text) == 0) range_over_domain(t.text);
  }

  bool scheduled(std::size_t literal) const {
    return std::any_of(order_.begin(), order_.end(),
                       [&](const Scheduled& s) { return s.literal == literal; });
  }

  // A comparison of two variables where one is bound and dies there (no other literal nor the
  // head uses it) and the other is bound only by a later positive atom runs now, quantifying
  // the first: PolymorphicCall(i) :- VirtualTarget(i, m1), VirtualTarget(i, m2), m1 < m2 then
  // makes "some target of i lies below m2" from each site's targets, where joining the two
  // atoms first paired every target of a site with every other (60.1 s against 4.1 s on
  // checkstyle with its libraries). The later atom's join keeps only the valid values of the
  // second.
  void compare_before_binding(std::size_t last_atom, std::set<std::string>& bound,
                              std::vector<std::size_t>& pending) {
    std::set<std::string> bound_later;  // by a positive atom after last_atom
    for (std::size_t j = last_atom + 1; j < rule_.body.size(); ++j) {
      const Atom* atom = std::get_if<Atom>(&rule_.body[j]);
      if (atom != nullptr && !atom->negated)
        for (const std::string& v : variables_of(rule_.body[j])) bound_later.insert(v);
    }
    for (std::size_t i = 0; i < rule_.body.size(); ++i) {
      const Comparison* c = std::get_if<Comparison>(&rule_.body[i]);
      if (c == nullptr || scheduled(i) || c->op == CompareOp::kEq ||
          c->left.kind != Term::Kind::kVariable || c->right.kind != Term::Kind::kVariable)
        continue;
      const bool left_bound = bound.count(c->left.text) != 0;
      const bool right_bound = bound.count(c->right.text) != 0;
      if (left_bound == right_bound) continue;
      const std::string& dying = left_bound ? c->left.text : c->right.text;
      const std::string& later = left_bound ? c->right.text : c->left.text;
      if (bound_later.count(later) == 0 || used_elsewhere(dying, i)) continue;
      order_.push_back({i, {}});
      bound.insert(later);
      std::erase(pending, i);
    }
  }

  // Whether `variable` appears in the head or in a body literal other than `literal` that is
  // not scheduled yet.
  bool used_elsewhere(const std::string& variable, std::size_t literal) const {
    for (const Term& t : rule_.head.arguments)
      if (t.kind == Term::Kind::kVariable && t.text == variable) return true;
    for (std::size_t j = 0; j < rule_.body.size(); ++j) {
      if (j == literal || scheduled(j)) continue;
      for (const std::string& v : variables_of(rule_.body[j]))
        if (v == variable) return true;
    }
    return false;
  }

  const rel::PhysicalDomain& instance_of(const std::string& variable) const {
    return space_.physical(*variables_.at(variable).instance);
  }

  std::uint64_t constant_value(const Term& t, rel::DomainId domain) const {
    const rel::LogicalDomain& d = space_.domain(domain);
    if (t.kind == Term::Kind::kNumber) {
      if (t.number >= d.size) {
        fail(t.where, "value " + std::to_string(t.number) + " is outside domain " + d.name +
                          " (size " + std::to_string(d.size) + ")");
      }
      return t.number;
    }
    if (!d.map)
      fail(t.where, "domain " + d.name + " has no map file to look up \"" + t.text + "\"");
    const std::optional<std::uint64_t> value = d.map->find(t.text);
    if (!value) fail(t.where, "\"" + t.text + "\" is not an element of domain " + d.name);
    return *value;
  }

  // A constant of the body: nullopt for a quoted name absent from the map, which then
  // matches nothing; numbers out of range and domains without a map stay errors.
  std::optional<std::uint64_t> body_constant_value(const Term& t, rel::DomainId domain) const {
    const rel::LogicalDomain& d = space_.domain(domain);
    if (t.kind == Term::Kind::kName && d.map) {
      const std::optional<std::uint64_t> value = d.map->find(t.text);
      if (!value) {
        absent_.push_back(t.where.to_string() + ": warning: \"" + t.text +
                          "\" is not an element of domain " + d.name + "; it matches nothing");
      }
      return value;
    }
    return constant_value(t, domain);
  }

  Bdd variable_set(const std::set<std::string>& vars) const {
    std::vector<PhysicalId> ids;
    for (const std::string& v : vars) ids.push_back(*variables_.at(v).instance);
    return space_.variable_set(ids);
  }

  // See AtomStep::drop_in_join. Only stratum atoms: a static atom is prepared once.
  bool drops_in_join(const RulePlan& plan, std::size_t s, const AtomStep& step) const {
    if (step.negated || step.rename || step.dropped.empty()) return false;
    if (recursive_.count(step.relation) == 0) return false;
    if (s == 0) return true;
    for (const std::string& v : plan.live_after[s - 1])
      if (std::find(step.dropped.begin(), step.dropped.end(), *variables_.at(v).instance) !=
          step.dropped.end())
        return false;
    return true;
  }

  AtomStep atom_step(const Atom& atom) const {
    AtomStep step;
    step.relation = relation_index(atom);
    step.negated = atom.negated;
    const PlannedRelation& r = relations_[step.relation];
    Bdd select = Bdd::one();
    std::vector<PhysicalId> drop;
    std::vector<int> from, to;
    std::map<std::string, PhysicalId> first;
    std::map<std::string, int> local_uses;
    for (const Term& t : atom.arguments)
      if (t.kind == Term::Kind::kVariable) ++local_uses[t.text];
    for (std::size_t i = 0; i < atom.arguments.size(); ++i) {
      const Term& t = atom.arguments[i];
      const PhysicalId p = r.instances[i];
      const bdd::BitBlock& block = space_.physical(p).block;
      switch (t.kind) {
        case Term::Kind::kVariable: {
          if (const auto seen = first.find(t.text); seen != first.end()) {
            select &= bdd::equal_blocks(space_.physical(seen->second).block, block);
            drop.push_back(p);
            break;
          }
          first[t.text] = p;
          if (variables_.at(t.text).occurrences == local_uses[t.text]) {
            drop.push_back(p);  // used by this atom only: an existential
            break;
          }
          const PhysicalId target = *variables_.at(t.text).instance;
          step.moves.emplace_back(p, target);
          if (target != p) {
            const auto& src = block.vars;
            const auto& dst = space_.physical(target).block.vars;
            from.insert(from.end(), src.begin(), src.end());
            to.insert(to.end(), dst.begin(), dst.end());
          }
          break;
        }
        case Term::Kind::kWildcard:
        case Term::Kind::kUniverse:
          drop.push_back(p);
          break;
        case Term::Kind::kNumber:
        case Term::Kind::kName:
          if (const auto k = body_constant_value(t, space_.physical(p).domain)) {
            select &= block.equals_constant(*k);
          } else {
            select = Bdd::zero();
          }
          drop.push_back(p);
          break;
      }
    }
    step.select = select;
    step.drop = space_.variable_set(drop);
    step.dropped = drop;
    if (!from.empty()) {
      step.rename = std::make_shared<bdd::VarPermutation>(from, to);
      step.rename_back = std::make_shared<bdd::VarPermutation>(to, from);
    }
    // BuDDy renames cheaply only when the variables keep their relative order.
    std::vector<std::pair<int, int>> mapped;
    for (const auto& [source, target] : step.moves) {
      const auto& src = space_.physical(source).block.vars;
      const auto& dst = space_.physical(target).block.vars;
      for (std::size_t i = 0; i < src.size(); ++i) mapped.emplace_back(src[i], dst[i]);
    }
    std::sort(mapped.begin(), mapped.end());
    for (std::size_t i = 1; i < mapped.size(); ++i)
      if (mapped[i].second < mapped[i - 1].second) step.rename_keeps_order = false;
    return step;
  }

  // Variables an atom keeps after its own existentials.
  std::set<std::string> kept_variables(const Atom& atom) const {
    std::set<std::string> out;
    std::map<std::string, int> local_uses;
    for (const Term& t : atom.arguments)
      if (t.kind == Term::Kind::kVariable) ++local_uses[t.text];
    for (const auto& [v, n] : local_uses)
      if (variables_.at(v).occurrences != n) out.insert(v);
    return out;
  }

  ConstraintStep constraint_step(const Comparison& c) const {
    ConstraintStep step;
    CompareOp op = c.op;
    const Term* left = &c.left;
    const Term* right = &c.right;
    if (left->kind != Term::Kind::kVariable && right->kind == Term::Kind::kVariable) {
      std::swap(left, right);
      switch (op) {
        case CompareOp::kLt:
          op = CompareOp::kGt;
          break;
        case CompareOp::kLe:
          op = CompareOp::kGe;
          break;
        case CompareOp::kGt:
          op = CompareOp::kLt;
          break;
        case CompareOp::kGe:
          op = CompareOp::kLe;
          break;
        default:
          break;
      }
    }
    if (left->kind != Term::Kind::kVariable) {
      fail(c.where, "a comparison needs at least one variable");
    }
    const rel::PhysicalDomain& a = instance_of(left->text);
    if (right->kind == Term::Kind::kVariable) {
      const rel::PhysicalDomain& b = instance_of(right->text);
      switch (op) {
        case CompareOp::kEq:
          step.constraint = bdd::equal_blocks(a.block, b.block);
          break;
        case CompareOp::kNe:
          step.constraint = bdd::equal_blocks(a.block, b.block);
          step.subtract = true;
          break;
        case CompareOp::kLt:
          step.constraint = bdd::less_than_blocks(a.block, b.block);
          break;
        case CompareOp::kGt:
          step.constraint = bdd::less_than_blocks(b.block, a.block);
          break;
        case CompareOp::kLe:
          step.constraint = bdd::less_than_blocks(b.block, a.block);
          step.subtract = true;
          break;
        case CompareOp::kGe:
          step.constraint = bdd::less_than_blocks(a.block, b.block);
          step.subtract = true;
          break;
      }
      return step;
    }
    if (op == CompareOp::kEq || op == CompareOp::kNe) {
      // x = "absent" never holds; x != "absent" always does.
      const std::optional<std::uint64_t> k = body_constant_value(*right, a.domain);
      step.constraint = k ? a.block.equals_constant(*k) : Bdd::zero();
      step.subtract = op == CompareOp::kNe;
      return step;
    }
    const std::uint64_t k = constant_value(*right, a.domain);
    const std::uint64_t max = space_.domain(a.domain).size - 1;
    switch (op) {
      case CompareOp::kEq:
        step.constraint = a.block.equals_constant(k);
        break;
      case CompareOp::kNe:
        step.constraint = a.block.equals_constant(k);
        step.subtract = true;
        break;
      case CompareOp::kLt:
        step.constraint = k == 0 ? Bdd::zero() : a.block.in_range(0, k - 1);
        break;
      case CompareOp::kLe:
        step.constraint = a.block.in_range(0, k);
        break;
      case CompareOp::kGt:
        step.constraint = k >= max ? Bdd::zero() : a.block.in_range(k + 1, max);
        break;
      case CompareOp::kGe:
        step.constraint = a.block.in_range(k, max);
        break;
    }
    return step;
  }

  void build_steps(RulePlan& plan) {
    std::set<std::string> head_vars;
    for (const Term& t : rule_.head.arguments)
      if (t.kind == Term::Kind::kVariable) head_vars.insert(t.text);
    // Last step using each variable (atoms count only the variables they keep).
    std::map<std::string, std::size_t> last_use;
    std::vector<std::set<std::string>> step_vars;
    for (std::size_t s = 0; s < order_.size(); ++s) {
      std::set<std::string> vars;
      if (order_[s].literal == kDomainStep) {
        vars.insert(order_[s].variable);
      } else if (const Atom* atom = std::get_if<Atom>(&rule_.body[order_[s].literal])) {
        vars = kept_variables(*atom);
      } else {
        for (const std::string& v : variables_of(rule_.body[order_[s].literal])) vars.insert(v);
      }
      for (const std::string& v : vars) last_use[v] = s;
      step_vars.push_back(std::move(vars));
    }
    std::set<std::string> live;
    for (std::size_t s = 0; s < order_.size(); ++s) {
      std::set<std::string> dying;
      for (const std::string& v : step_vars[s])
        if (last_use[v] == s && head_vars.count(v) == 0) dying.insert(v);
      live.insert(step_vars[s].begin(), step_vars[s].end());
      for (const std::string& v : dying) live.erase(v);
      plan.step_variables.emplace_back(step_vars[s].begin(), step_vars[s].end());
      plan.live_after.emplace_back(live.begin(), live.end());
      if (order_[s].literal == kDomainStep) {
        plan.body_literals.push_back(-1);
        ConstraintStep step;
        step.constraint = space_.valid_values(*variables_.at(order_[s].variable).instance);
        step.quantify_after = variable_set(dying);
        plan.steps.emplace_back(std::move(step));
        continue;
      }
      plan.body_literals.push_back(static_cast<std::int64_t>(order_[s].literal));
      const Literal& literal = rule_.body[order_[s].literal];
      if (const Atom* atom = std::get_if<Atom>(&literal)) {
        AtomStep step = atom_step(*atom);
        step.quantify_after = variable_set(dying);
        if (drops_in_join(plan, s, step)) {
          step.drop_in_join = true;
          step.quantify_after = step.quantify_after & step.drop;  // the union of two sets
        }
        plan.steps.emplace_back(std::move(step));
      } else {
        ConstraintStep step = constraint_step(std::get<Comparison>(literal));
        step.quantify_after = variable_set(dying);
        plan.steps.emplace_back(std::move(step));
      }
    }
  }

  void build_head(RulePlan& plan) {
    const PlannedRelation& r = relations_[plan.head];
    Bdd extra = Bdd::one();
    std::vector<int> from, to;
    std::map<std::string, PhysicalId> first;
    for (std::size_t i = 0; i < rule_.head.arguments.size(); ++i) {
      const Term& t = rule_.head.arguments[i];
      const PhysicalId p = r.instances[i];
      const rel::PhysicalDomain& target = space_.physical(p);
      switch (t.kind) {
        case Term::Kind::kVariable: {
          if (const auto seen = first.find(t.text); seen != first.end()) {
            extra &= bdd::equal_blocks(space_.physical(seen->second).block, target.block);
            break;
          }
          first[t.text] = p;
          const rel::PhysicalDomain& source = instance_of(t.text);
          if (source.domain != target.domain) {
            fail(t.where, "variable '" + t.text + "' is of domain " +
                              space_.domain(source.domain).name + " but this attribute is of " +
                              space_.domain(target.domain).name);
          }
          if (&source != &target) {
            from.insert(from.end(), source.block.vars.begin(), source.block.vars.end());
            to.insert(to.end(), target.block.vars.begin(), target.block.vars.end());
          }
          break;
        }
        case Term::Kind::kUniverse:
        case Term::Kind::kWildcard:  // bddbddb: a variable nothing binds, so every value
          extra &= space_.valid_values(p);
          break;
        case Term::Kind::kNumber:
        case Term::Kind::kName:
          extra &= target.block.equals_constant(constant_value(t, target.domain));
          break;
      }
    }
    plan.head_extra = extra;
    if (!from.empty()) plan.head_rename = std::make_shared<bdd::VarPermutation>(from, to);
  }

  const Rule& rule_;
  const std::vector<PlannedRelation>& relations_;
  const rel::DomainSpace& space_;
  const std::set<std::size_t>& recursive_;
  // A step of the schedule: a body literal, or (literal == kDomainStep) the domain of a
  // variable no literal binds.
  static constexpr std::size_t kDomainStep = static_cast<std::size_t>(-1);
  struct Scheduled {
    std::size_t literal = 0;
    std::string variable;
  };
  std::map<std::string, VariableInfo> variables_;
  std::vector<Scheduled> order_;             // evaluation order
  mutable std::vector<std::string> absent_;  // warnings of body_constant_value
};

}  // namespace

RulePlan plan_rule(const Rule& rule, const std::vector<PlannedRelation>& relations,
                   const rel::DomainSpace& space, const std::set<std::size_t>& recursive) {
  return RulePlanner(rule, relations, space, recursive).plan();
}

}  // namespace refract::solver
