#include "solver/instance_layout.hpp"

#include <algorithm>
#include <set>

#include "relations/domain_space.hpp"

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

std::vector<std::string> needed_instance_names(const Program& program,
                                               const InstanceLayout& layout) {
  std::vector<std::string> out;
  for (const DomainDecl& d : program.domains)
    for (unsigned k = 0; k < layout.instances_needed.at(d.name); ++k)
      out.push_back(d.name + std::to_string(k));
  return out;
}

std::map<std::string, std::string> instance_domains(const Program& program) {
  std::map<std::string, std::string> out;
  for (const DomainDecl& d : program.domains)
    for (unsigned k = 0; k < rel::DomainSpace::kMaxInstances; ++k)
      out.emplace(d.name + std::to_string(k), d.name);
  return out;
}

}  // namespace refract::solver
