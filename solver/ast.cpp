#include "solver/ast.hpp"

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

}  // namespace refract::solver
