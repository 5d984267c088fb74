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

}  // namespace refract::solver
