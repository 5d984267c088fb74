#include "solver/ast.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace refract::solver {

const DomainDecl* Program::find_domain(const std::string& name) const {
  for (const DomainDecl& d : domains)
    if (d.name == name) return &d;
  return nullptr;
}

const RelationDecl* Program::find_relation(const std::string& name) const {
  for (const RelationDecl& r : relations)
    if (r.name == name) return &r;
  return nullptr;
}

std::vector<std::string> variables_of(const Literal& literal) {
  std::vector<std::string> out;
  auto add = [&](const Term& t) {
    if (t.kind == Term::Kind::kVariable) out.push_back(t.text);
  };
  if (const Atom* atom = std::get_if<Atom>(&literal)) {
    for (const Term& t : atom->arguments) add(t);
  } else {
    const Comparison& c = std::get<Comparison>(literal);
    add(c.left);
    add(c.right);
  }
  return out;
}

std::map<std::string, std::string> variable_domains(const Program& program, const Rule& rule) {
  std::map<std::string, std::string> domains;
  auto visit_atom = [&](const Atom& atom) {
    const RelationDecl* decl = program.find_relation(atom.relation);
    if (decl == nullptr) return;
    for (std::size_t i = 0; i < atom.arguments.size() && i < decl->attributes.size(); ++i) {
      if (atom.arguments[i].kind == Term::Kind::kVariable) {
        domains.emplace(atom.arguments[i].text, decl->attributes[i].domain);
      }
    }
  };
  visit_atom(rule.head);
  for (const Literal& literal : rule.body) {
    if (const Atom* atom = std::get_if<Atom>(&literal)) visit_atom(*atom);
  }
  // Variables seen only in comparisons take the domain of the other side.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Literal& literal : rule.body) {
      const Comparison* c = std::get_if<Comparison>(&literal);
      if (c == nullptr || c->left.kind != Term::Kind::kVariable ||
          c->right.kind != Term::Kind::kVariable)
        continue;
      const auto l = domains.find(c->left.text);
      const auto r = domains.find(c->right.text);
      if (l != domains.end() && r == domains.end()) {
        domains.emplace(c->right.text, l->second);
        changed = true;
      } else if (r != domains.end() && l == domains.end()) {
        domains.emplace(c->left.text, r->second);
        changed = true;
      }
    }
  }
  return domains;
}

std::set<std::string> bound_variables(const Rule& rule) {
  std::set<std::string> bound;
  for (const Literal& literal : rule.body)
    if (const Atom* atom = std::get_if<Atom>(&literal); atom && !atom->negated)
      for (const Term& t : atom->arguments)
        if (t.kind == Term::Kind::kVariable) bound.insert(t.text);
  auto is_bound = [&](const Term& t) {
    return t.kind == Term::Kind::kNumber || t.kind == Term::Kind::kName ||
           (t.kind == Term::Kind::kVariable && bound.count(t.text) != 0);
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Literal& literal : rule.body) {
      const Comparison* c = std::get_if<Comparison>(&literal);
      if (c == nullptr || c->op != CompareOp::kEq) continue;
      for (const auto& [side, other] : {std::pair{&c->left, &c->right}, {&c->right, &c->left}}) {
        if (side->kind == Term::Kind::kVariable && !is_bound(*side) && is_bound(*other)) {
          bound.insert(side->text);
          changed = true;
        }
      }
    }
  }
  return bound;
}

std::set<std::string> negation_local_variables(const Rule& rule) {
  std::map<std::string, int> literals_using;  // the head counts as one
  for (const Term& t : rule.head.arguments)
    if (t.kind == Term::Kind::kVariable) literals_using[t.text] = 1;
  for (const Literal& literal : rule.body) {
    const std::vector<std::string> listed = variables_of(literal);
    for (const std::string& v : std::set<std::string>(listed.begin(), listed.end()))
      ++literals_using[v];
  }
  std::set<std::string> out;
  for (const Literal& literal : rule.body)
    if (const Atom* atom = std::get_if<Atom>(&literal); atom && atom->negated)
      for (const Term& t : atom->arguments)
        if (t.kind == Term::Kind::kVariable && literals_using[t.text] == 1) out.insert(t.text);
  return out;
}

std::vector<std::string> unbound_variables(const Rule& rule) {
  std::set<std::string> bound = bound_variables(rule);
  bound.merge(negation_local_variables(rule));
  std::vector<std::string> out;
  auto visit = [&](const std::string& v) {
    if (bound.count(v) == 0 && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  };
  for (const Term& t : rule.head.arguments)
    if (t.kind == Term::Kind::kVariable) visit(t.text);
  for (const Literal& literal : rule.body)
    for (const std::string& v : variables_of(literal)) visit(v);
  return out;
}

}  // namespace refract::solver
