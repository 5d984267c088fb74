// The finite domains of one analysis run and their BDD encoding: logical
// domains (V, H, ...) with sizes and optional element maps, and the physical
// instances (V0, V1, ...) the variable order lays out as bit blocks.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bdd/bdd.hpp"
#include "bdd/bit_block.hpp"
#include "bdd/manager.hpp"
#include "bdd/var_order.hpp"
#include "relations/element_map.hpp"

namespace refract::rel {

using DomainId = std::size_t;    // index of a logical domain
using PhysicalId = std::size_t;  // index of a physical instance

struct LogicalDomain {
  std::string name;
  std::uint64_t size = 0;
  unsigned bits = 1;
  std::optional<ElementMap> map;
  unsigned lanes = 1;  // equal fields the order interleaves as domains of their own
};

struct PhysicalDomain {
  std::string name;  // logical name + instance number, e.g. "V1"
  DomainId domain = 0;
  unsigned instance = 0;
  bdd::BitBlock block;
};

class DomainSpace {
 public:
  static constexpr std::uint64_t kMaxDomainSize = std::uint64_t{1} << 62;
  static constexpr unsigned kMaxInstances = 64;  // per logical domain, for order parsing

  explicit DomainSpace(const bdd::ManagerSettings& settings);

  DomainId add_domain(std::string name, std::uint64_t size);
  void set_map(DomainId domain, ElementMap map);
  // Lays out every instance of `domain` as `lanes` equal fields interleaved bit by bit
  // (bdd::lay_out). std::invalid_argument unless its bits are a multiple of `lanes`.
  void set_lanes(DomainId domain, unsigned lanes);

  // Names every physical instance an order may mention (V0..V63 for each V).
  std::vector<std::string> instance_names() const;
  // Creates the instances named by `order` and assigns their BDD variables.
  // Can be called once.
  void lay_out(const bdd::VarOrder& order);
  bool laid_out() const { return laid_out_; }

  std::size_t domain_count() const { return domains_.size(); }
  const LogicalDomain& domain(DomainId id) const { return domains_.at(id); }
  std::optional<DomainId> find_domain(const std::string& name) const;

  std::size_t physical_count() const { return physicals_.size(); }
  const PhysicalDomain& physical(PhysicalId id) const { return physicals_.at(id); }
  std::optional<PhysicalId> find_physical(DomainId domain, unsigned instance) const;
  std::optional<PhysicalId> find_physical(const std::string& name) const;

  // x < size for one instance: the universe a complement must stay inside.
  const bdd::Bdd& valid_values(PhysicalId id) const;
  bdd::Bdd variable_set(const std::vector<PhysicalId>& ids) const;
  // Variables of the given instances in ascending (level) order.
  std::vector<int> sorted_variables(const std::vector<PhysicalId>& ids) const;
  const bdd::VarOrder& order() const { return order_; }

  bdd::Manager& manager() { return *manager_; }
  const bdd::Manager& manager() const { return *manager_; }

 private:
  std::unique_ptr<bdd::Manager> manager_;
  std::vector<LogicalDomain> domains_;
  std::vector<PhysicalDomain> physicals_;
  std::map<std::string, PhysicalId> physical_by_name_;
  mutable std::vector<std::optional<bdd::Bdd>> valid_values_;
  bdd::VarOrder order_;
  bool laid_out_ = false;
};

}  // namespace refract::rel
