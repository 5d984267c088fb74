#include "solver/instance_layout.hpp"

#include <algorithm>
#include <set>

namespace refract::solver {

namespace {

void need(InstanceLayout& layout, const std::string& domain, unsigned count,
          const std::string& by) {
  unsigned& current = layout.instances_needed[domain];
  if (count > current) {
    current = count;
    layout.needed_by[domain] = by;
  }
}

// Domain of each variable of a rule, from the attribute positions it fills.
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

}  // namespace

InstanceLayout lay_out_instances(const Program& program) {
  InstanceLayout layout;
  // 0 until an attribute needs one, so that need() records what needs each
  // instance; default_var_order still gives every domain at least one.
  for (const DomainDecl& d : program.domains) layout.instances_needed[d.name] = 0;
  for (const RelationDecl& relation : program.relations) {
    std::map<std::string, std::set<unsigned>> taken;
    for (const AttributeDecl& a : relation.attributes) {
      if (a.instance) taken[a.domain].insert(static_cast<unsigned>(*a.instance));
    }
    std::vector<unsigned> instances;
    for (const AttributeDecl& a : relation.attributes) {
      unsigned k = 0;
      if (a.instance) {
        k = static_cast<unsigned>(*a.instance);
      } else {
        while (taken[a.domain].count(k) != 0) ++k;
        taken[a.domain].insert(k);
      }
      instances.push_back(k);
      need(layout, a.domain, k + 1, "relation " + relation.name + " (" + a.where.to_string() + ")");
    }
    layout.relation_instances.push_back(std::move(instances));
  }
  for (const Rule& rule : program.rules) {
    std::map<std::string, unsigned> per_domain;
    for (const auto& [variable, domain] : variable_domains(program, rule)) ++per_domain[domain];
    for (const auto& [domain, count] : per_domain) {
      need(layout, domain, count, "rule at " + rule.where.to_string());
    }
  }
  return layout;
}

std::string default_var_order(const Program& program, const InstanceLayout& layout) {
  std::string order;
  for (const DomainDecl& d : program.domains) {
    if (!order.empty()) order += '_';
    const unsigned count = std::max(1U, layout.instances_needed.at(d.name));
    for (unsigned k = 0; k < count; ++k) {
      if (k > 0) order += 'x';
      order += d.name + std::to_string(k);
    }
  }
  return order;
}

}  // namespace refract::solver
