#include "solver/checker.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

namespace refract::solver {
namespace {

constexpr std::uint64_t kMaxDomainSize = std::uint64_t{1} << 62;

[[noreturn]] void fail(const SourceLocation& where, const std::string& message) {
  throw InputError(where, message);
}

std::string quoted(const std::string& name) {
  return "'" + name + "'";
}

std::string count(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string term_text(const Term& term) {
  switch (term.kind) {
    case Term::Kind::kVariable:
      return term.text;
    case Term::Kind::kWildcard:
      return "_";
    case Term::Kind::kUniverse:
      return "*";
    case Term::Kind::kNumber:
      return std::to_string(term.number);
    case Term::Kind::kName:
      return "\"" + term.text + "\"";
  }
  return {};
}

const char* op_text(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "!=";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
  }
  return "?";
}

std::string comparison_text(const Comparison& comparison) {
  return "'" + term_text(comparison.left) + " " + op_text(comparison.op) + " " +
         term_text(comparison.right) + "'";
}

bool is_constant(const Term& term) {
  return term.kind == Term::Kind::kNumber || term.kind == Term::Kind::kName;
}

bool is_variable(const Term& term) {
  return term.kind == Term::Kind::kVariable;
}

class Checker {
 public:
  explicit Checker(const Program& program) : program_(program) {}

  void run() {
    declarations();
    for (const Rule& rule : program_.rules) check_rule(rule);
  }

 private:
  struct Variable {
    const DomainDecl* domain = nullptr;  // null until some position or comparison fixes it
    SourceLocation where;                // where the domain was fixed
  };
  using Variables = std::unordered_map<std::string, Variable>;

  void declarations();
  void check_rule(const Rule& rule);
  const RelationDecl& resolve(const Atom& atom) const;
  void check_value(const Term& term, const DomainDecl& domain) const;
  void check_numbering(const Rule& rule) const;
  void check_comparisons(const Rule& rule, Variables& variables) const;

  const Program& program_;
  std::unordered_map<std::string, const DomainDecl*> domains_;
  std::unordered_map<std::string, const RelationDecl*> relations_;
};

void Checker::declarations() {
  for (const DomainDecl& domain : program_.domains) {
    auto [it, inserted] = domains_.emplace(domain.name, &domain);
    if (!inserted)
      fail(domain.where, "domain " + quoted(domain.name) + " is declared twice (first at " +
                             it->second->where.to_string() + ")");
    if (domain.size == 0 || domain.size > kMaxDomainSize)
      fail(domain.where, "size " + std::to_string(domain.size) + " of domain " +
                             quoted(domain.name) +
                             " is out of range; it must be between 1 and 2^62 (" +
                             std::to_string(kMaxDomainSize) + ")");
  }
  for (const RelationDecl& relation : program_.relations) {
    auto [it, inserted] = relations_.emplace(relation.name, &relation);
    if (!inserted)
      fail(relation.where, "relation " + quoted(relation.name) + " is declared twice (first at " +
                               it->second->where.to_string() + ")");
    if (relation.attributes.empty())
      fail(relation.where,
           "relation " + quoted(relation.name) + " must have at least one attribute");
    // Attribute names may repeat (bddbddb's `aT (type:T0, type:T1)`): arguments are matched
    // by position, never by name.
    std::unordered_set<std::string> instances;
    for (const AttributeDecl& attribute : relation.attributes) {
      if (!domains_.count(attribute.domain))
        fail(attribute.where, "unknown domain " + quoted(attribute.domain) + " for attribute " +
                                  quoted(attribute.name) + " of relation " + quoted(relation.name));
      if (attribute.instance) {
        const std::string instance = attribute.domain + std::to_string(*attribute.instance);
        if (!instances.insert(instance).second)
          fail(attribute.where, "domain instance " + quoted(instance) +
                                    " appears twice in relation " + quoted(relation.name));
      }
    }
    for (const OrderConstraint& constraint : relation.order_constraints) {
      if (constraint.left >= relation.attributes.size() ||
          constraint.right >= relation.attributes.size())
        fail(constraint.where, "order constraint '" + constraint.text +
                                   "' names an attribute relation " + quoted(relation.name) +
                                   " does not have");
      if (constraint.left == constraint.right)
        fail(constraint.where, "order constraint '" + constraint.text +
                                   "' relates an attribute of relation " + quoted(relation.name) +
                                   " to itself");
    }
  }
}

const RelationDecl& Checker::resolve(const Atom& atom) const {
  const auto it = relations_.find(atom.relation);
  if (it == relations_.end()) fail(atom.where, "unknown relation " + quoted(atom.relation));
  const RelationDecl& relation = *it->second;
  if (relation.attributes.size() != atom.arguments.size())
    fail(atom.where, "relation " + quoted(relation.name) + " has " +
                         count(relation.attributes.size(), "attribute") + " but " +
                         count(atom.arguments.size(), "argument") +
                         (atom.arguments.size() == 1 ? " is" : " are") + " given");
  return relation;
}

void Checker::check_value(const Term& term, const DomainDecl& domain) const {
  if (term.kind == Term::Kind::kNumber && term.number >= domain.size)
    fail(term.where, "value " + std::to_string(term.number) + " is outside domain " + domain.name +
                         " (size " + std::to_string(domain.size) + ")");
}

void Checker::check_rule(const Rule& rule) {
  if (rule.head.negated) fail(rule.head.where, "the head of a rule cannot be negated");

  // Names and arities, head first, then the body in source order.
  std::vector<std::pair<const Atom*, const RelationDecl*>> atoms;
  atoms.emplace_back(&rule.head, &resolve(rule.head));
  for (const Literal& literal : rule.body)
    if (const Atom* atom = std::get_if<Atom>(&literal)) atoms.emplace_back(atom, &resolve(*atom));

  for (const Literal& literal : rule.body) {
    const Comparison* comparison = std::get_if<Comparison>(&literal);
    if (!comparison) continue;
    for (const Term* side : {&comparison->left, &comparison->right})
      if (side->kind == Term::Kind::kWildcard || side->kind == Term::Kind::kUniverse)
        fail(side->where, "'" + term_text(*side) + "' cannot appear in a comparison");
    if (is_constant(comparison->left) && is_constant(comparison->right))
      fail(comparison->where,
           "comparison " + comparison_text(*comparison) + " compares two constants");
  }

  // Each position fixes the domain of the variable or constant written there.
  Variables variables;
  for (const auto& [atom, relation] : atoms) {
    for (std::size_t i = 0; i < atom->arguments.size(); ++i) {
      const Term& term = atom->arguments[i];
      const DomainDecl& domain = *domains_.at(relation->attributes[i].domain);
      check_value(term, domain);
      if (!is_variable(term)) continue;
      auto [it, inserted] = variables.emplace(term.text, Variable{&domain, term.where});
      if (!inserted && it->second.domain != &domain)
        fail(term.where, "variable " + quoted(term.text) + " has domain " + domain.name +
                             " here but domain " + it->second.domain->name + " at " +
                             it->second.where.to_string());
    }
  }

  check_comparisons(rule, variables);
  if (rule.numbering) check_numbering(rule);
}

// bddbddb's `number` rule, e.g. `IEnum(i, m, c, d) :- roots(m), calls(m, i), target(i, m).`:
// the first body atom lists the roots (its one variable), every other atom the edges from
// its first variable's node to its second's; the head names the two variables of one edge
// atom, then the numbers of that edge's source and target.
void Checker::check_numbering(const Rule& rule) const {
  const SourceLocation& where = *rule.numbering;
  auto shape = [](const std::string& what) { return "numbering rule: " + what; };
  std::vector<const Atom*> atoms;
  for (const Literal& literal : rule.body) {
    const Atom* atom = std::get_if<Atom>(&literal);
    if (atom == nullptr)
      fail(std::get<Comparison>(literal).where, shape("a comparison cannot be part of the graph"));
    if (atom->negated) fail(atom->where, shape("a negated atom cannot be part of the graph"));
    atoms.push_back(atom);
  }
  if (atoms.size() < 2) fail(where, shape("needs a root atom and at least one edge atom"));
  int root_variables = 0;
  for (const Term& t : atoms[0]->arguments) {
    if (is_variable(t)) {
      ++root_variables;
    } else if (t.kind != Term::Kind::kWildcard) {
      fail(t.where, shape("the root atom takes one variable and '_' elsewhere"));
    }
  }
  if (root_variables != 1)
    fail(atoms[0]->where, shape("the root atom takes one variable and '_' elsewhere"));
  std::unordered_set<std::string> body_variables;
  for (std::size_t a = 1; a < atoms.size(); ++a) {
    const Atom& edge = *atoms[a];
    if (edge.arguments.size() != 2 || !is_variable(edge.arguments[0]) ||
        !is_variable(edge.arguments[1]) || edge.arguments[0].text == edge.arguments[1].text)
      fail(edge.where, shape("an edge atom takes two different variables, source and target"));
  }
  for (const Atom* atom : atoms)
    for (const Term& t : atom->arguments)
      if (is_variable(t)) body_variables.insert(t.text);
  const std::vector<Term>& head = rule.head.arguments;
  if (head.size() != 4 || !std::all_of(head.begin(), head.end(), is_variable))
    fail(rule.head.where,
         shape("the head takes four variables: an edge's source and target, then their numbers"));
  bool names_an_edge = false;
  for (std::size_t a = 1; a < atoms.size(); ++a)
    names_an_edge = names_an_edge || (atoms[a]->arguments[0].text == head[0].text &&
                                      atoms[a]->arguments[1].text == head[1].text);
  if (!names_an_edge)
    fail(rule.head.where, shape("the head's first two variables must be those of an edge atom"));
  for (std::size_t i = 2; i < 4; ++i)
    if (body_variables.count(head[i].text) != 0)
      fail(head[i].where,
           shape("number variable " + quoted(head[i].text) + " must not appear in the body"));
  if (head[2].text == head[3].text)
    fail(head[3].where, shape("the source and target numbers need two variables"));
  const RelationDecl& relation = *relations_.at(rule.head.relation);
  if (relation.attributes[2].domain != relation.attributes[3].domain)
    fail(rule.head.where, shape("the source and target numbers must be of one domain"));
}

// Both sides of a comparison live in one domain; a variable that appears only
// in comparisons takes the domain of the variable it is compared with.
void Checker::check_comparisons(const Rule& rule, Variables& variables) const {
  std::vector<const Comparison*> comparisons;
  for (const Literal& literal : rule.body)
    if (const Comparison* comparison = std::get_if<Comparison>(&literal))
      comparisons.push_back(comparison);
  auto domain_of = [&](const Term& term) -> const DomainDecl* {
    const auto it = variables.find(term.text);
    return it == variables.end() ? nullptr : it->second.domain;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Comparison* comparison : comparisons) {
      const Term& left = comparison->left;
      const Term& right = comparison->right;
      if (!is_variable(left) || !is_variable(right)) continue;
      const DomainDecl* left_domain = domain_of(left);
      const DomainDecl* right_domain = domain_of(right);
      if (left_domain && !right_domain) {
        variables[right.text] = Variable{left_domain, left.where};
        changed = true;
      } else if (right_domain && !left_domain) {
        variables[left.text] = Variable{right_domain, right.where};
        changed = true;
      }
    }
  }
  for (const Comparison* comparison : comparisons) {
    const Term& left = comparison->left;
    const Term& right = comparison->right;
    for (const Term* side : {&left, &right})
      if (is_variable(*side) && !domain_of(*side))
        fail(side->where, "cannot determine the domain of variable " + quoted(side->text) +
                              "; it appears in no atom");
    if (is_variable(left) && is_variable(right)) {
      if (domain_of(left) != domain_of(right))
        fail(comparison->where, "comparison " + comparison_text(*comparison) +
                                    " compares variables of different domains: '" + left.text +
                                    "' is in " + domain_of(left)->name + ", '" + right.text +
                                    "' is in " + domain_of(right)->name);
      continue;
    }
    const DomainDecl& domain = *domain_of(is_variable(left) ? left : right);
    check_value(is_variable(left) ? right : left, domain);
  }
}

}  // namespace

void check_program(const Program& program) {
  Checker(program).run();
}

std::vector<std::string> program_warnings(const Program& program) {
  std::unordered_set<std::string> defined;
  for (const Rule& rule : program.rules) defined.insert(rule.head.relation);
  std::unordered_set<std::string> reported;
  std::vector<std::string> warnings;
  auto warn = [&](const SourceLocation& where, const std::string& message) {
    warnings.push_back(where.to_string() + ": warning: " + message);
  };

  for (const Rule& rule : program.rules) {
    std::unordered_map<std::string, int> occurrences;
    auto tally = [&](const Term& term) {
      if (is_variable(term)) ++occurrences[term.text];
    };
    for (const Term& term : rule.head.arguments) tally(term);
    for (const Literal& literal : rule.body)
      for (const std::string& v : variables_of(literal)) ++occurrences[v];

    for (const Literal& literal : rule.body) {
      const Atom* atom = std::get_if<Atom>(&literal);
      if (!atom) continue;
      const RelationDecl* relation = program.find_relation(atom->relation);
      if (relation && !defined.count(relation->name) && !relation->has(RelationFlag::kInput) &&
          !relation->has(RelationFlag::kInputTuples) && reported.insert(relation->name).second)
        warn(atom->where, "relation " + quoted(relation->name) +
                              " is never defined by a rule nor an input, so it is empty");
      // Elsewhere a single occurrence is a variable no atom binds: its whole domain.
      if (atom->negated) continue;
      for (const Term& term : atom->arguments)
        if (is_variable(term) && occurrences[term.text] == 1)
          warn(term.where, "variable " + quoted(term.text) +
                               " occurs only once in the rule; write '_' if that is intended");
    }
  }
  return warnings;
}

}  // namespace refract::solver
