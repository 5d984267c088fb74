#include "relations/domain_space.hpp"

#include <algorithm>
#include <stdexcept>

namespace refract::rel {

DomainSpace::DomainSpace(const bdd::ManagerSettings& settings)
    : manager_(std::make_unique<bdd::Manager>(settings)) {}

DomainId DomainSpace::add_domain(std::string name, std::uint64_t size) {
  if (laid_out_) throw std::logic_error("domains must be added before the order is laid out");
  if (size == 0 || size > kMaxDomainSize) {
    throw std::invalid_argument("domain " + name + " has size " + std::to_string(size) +
                                "; sizes run from 1 to 2^62");
  }
  if (find_domain(name)) throw std::invalid_argument("domain " + name + " declared twice");
  domains_.push_back(
      LogicalDomain{std::move(name), size, bdd::bits_for_size(size), std::nullopt, 1});
  return domains_.size() - 1;
}

void DomainSpace::set_map(DomainId domain, ElementMap map) {
  domains_.at(domain).map = std::move(map);
}

void DomainSpace::set_lanes(DomainId domain, unsigned lanes) {
  if (laid_out_) throw std::logic_error("lanes must be set before the order is laid out");
  LogicalDomain& d = domains_.at(domain);
  if (lanes == 0 || d.bits % lanes != 0) {
    throw std::invalid_argument("domain " + d.name + " of " + std::to_string(d.bits) +
                                " bits cannot be laid out in " + std::to_string(lanes) + " lanes");
  }
  d.lanes = lanes;
}

std::optional<DomainId> DomainSpace::find_domain(const std::string& name) const {
  for (DomainId i = 0; i < domains_.size(); ++i)
    if (domains_[i].name == name) return i;
  return std::nullopt;
}

std::vector<std::string> DomainSpace::instance_names() const {
  std::vector<std::string> names;
  for (const LogicalDomain& d : domains_)
    for (unsigned k = 0; k < kMaxInstances; ++k) names.push_back(d.name + std::to_string(k));
  return names;
}

void DomainSpace::lay_out(const bdd::VarOrder& order) {
  if (laid_out_) throw std::logic_error("variable order laid out twice");
  std::map<std::string, unsigned> widths;
  std::map<std::string, unsigned> lanes;
  std::vector<std::pair<std::string, std::pair<DomainId, unsigned>>> named;
  for (const std::string& name : order.names()) {
    // The longest logical name that prefixes `name` and leaves only digits.
    std::optional<DomainId> best;
    for (DomainId i = 0; i < domains_.size(); ++i) {
      const std::string& base = domains_[i].name;
      if (name.size() <= base.size() || name.compare(0, base.size(), base) != 0) continue;
      if (!std::all_of(name.begin() + static_cast<std::ptrdiff_t>(base.size()), name.end(),
                       [](char c) { return c >= '0' && c <= '9'; }))
        continue;
      if (!best || domains_[*best].name.size() < base.size()) best = i;
    }
    if (!best) throw std::invalid_argument("order names unknown domain instance " + name);
    const unsigned instance =
        static_cast<unsigned>(std::stoul(name.substr(domains_[*best].name.size())));
    widths[name] = domains_[*best].bits;
    lanes[name] = domains_[*best].lanes;
    named.push_back({name, {*best, instance}});
  }
  const auto blocks = bdd::lay_out(order, widths, 0, lanes);
  int total = 0;
  for (const auto& [name, width] : widths) total += static_cast<int>(width);
  manager_->add_variables(total);
  for (const auto& [name, id] : named) {
    physicals_.push_back(PhysicalDomain{name, id.first, id.second, blocks.at(name)});
    physical_by_name_[name] = physicals_.size() - 1;
  }
  valid_values_.assign(physicals_.size(), std::nullopt);
  order_ = order;
  laid_out_ = true;
}

std::optional<PhysicalId> DomainSpace::find_physical(DomainId domain, unsigned instance) const {
  for (PhysicalId i = 0; i < physicals_.size(); ++i)
    if (physicals_[i].domain == domain && physicals_[i].instance == instance) return i;
  return std::nullopt;
}

std::optional<PhysicalId> DomainSpace::find_physical(const std::string& name) const {
  const auto it = physical_by_name_.find(name);
  if (it == physical_by_name_.end()) return std::nullopt;
  return it->second;
}

const bdd::Bdd& DomainSpace::valid_values(PhysicalId id) const {
  auto& cached = valid_values_.at(id);
  if (!cached) {
    const PhysicalDomain& p = physicals_.at(id);
    cached = p.block.in_range(0, domains_.at(p.domain).size - 1);
  }
  return *cached;
}

std::vector<int> DomainSpace::sorted_variables(const std::vector<PhysicalId>& ids) const {
  std::vector<int> vars;
  for (PhysicalId id : ids) {
    const auto& v = physicals_.at(id).block.vars;
    vars.insert(vars.end(), v.begin(), v.end());
  }
  std::sort(vars.begin(), vars.end());
  return vars;
}

bdd::Bdd DomainSpace::variable_set(const std::vector<PhysicalId>& ids) const {
  return bdd::Bdd::variable_set(sorted_variables(ids));
}

}  // namespace refract::rel
