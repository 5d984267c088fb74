// A relation: a BDD plus named attributes, each bound to a physical domain
// instance. The operations keep attribute names and instances consistent and
// refuse renamings that would land on an instance still in use.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bdd/bdd.hpp"
#include "relations/domain_space.hpp"
#include "support/big_uint.hpp"

namespace refract::rel {

struct Attribute {
  std::string name;
  DomainId domain = 0;
  PhysicalId physical = 0;
};

class Relation {
 public:
  Relation(const DomainSpace& space, std::string name, std::vector<Attribute> attributes);

  const std::string& name() const { return name_; }
  const std::vector<Attribute>& attributes() const { return attributes_; }
  std::size_t arity() const { return attributes_.size(); }
  const Attribute& attribute(const std::string& name) const;  // throws if absent
  bool has_attribute(const std::string& name) const;
  std::vector<PhysicalId> physicals() const;
  const DomainSpace& space() const { return *space_; }
  // Every tuple of valid values of its attributes' domains (DomainSpace::valid_values).
  bdd::Bdd valid_tuples() const;

  const bdd::Bdd& bdd() const { return value_; }
  void set_bdd(bdd::Bdd value) {
    value_ = std::move(value);
    size_.reset();
  }
  bool empty() const { return value_.is_zero(); }

  // Exact; counted once per value: a deep run's report asks for a relation of hundreds of
  // millions of nodes more than once (the --stats report, the printed sizes).
  BigUint size() const;
  // Every tuple, values in attribute order; streams in BDD (level) order.
  void for_each_tuple(const std::function<void(std::span<const std::uint64_t>)>& visit) const;

 private:
  const DomainSpace* space_;
  std::string name_;
  std::vector<Attribute> attributes_;
  bdd::Bdd value_;
  mutable std::optional<BigUint> size_;  // of value_, once counted
};

// Natural join on equally named attributes, quantifying `drop` in the same
// relational product (early quantification).
Relation join(const Relation& a, const Relation& b, const std::vector<std::string>& drop);
// Existentially quantifies the named attributes away.
Relation project_away(const Relation& r, const std::vector<std::string>& drop);
// Moves attributes onto other instances of their domain; (attribute, new instance).
// A target instance held by an attribute that is not itself moving is an error.
Relation rename(const Relation& r, const std::vector<std::pair<std::string, PhysicalId>>& moves);
// Keeps tuples whose attribute equals `value`.
Relation select_equal(const Relation& r, const std::string& attribute, std::uint64_t value);
// Set union and difference of relations with identical attributes.
Relation unite(const Relation& a, const Relation& b);
Relation subtract(const Relation& a, const Relation& b);

}  // namespace refract::rel
