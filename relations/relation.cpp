#include "relations/relation.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "bdd/enumerate.hpp"
#include "bdd/exact_count.hpp"

namespace refract::rel {

Relation::Relation(const DomainSpace& space, std::string name, std::vector<Attribute> attributes)
    : space_(&space), name_(std::move(name)), attributes_(std::move(attributes)) {
  std::set<PhysicalId> used;
  std::set<std::string> names;
  for (const Attribute& a : attributes_) {
    if (space.physical(a.physical).domain != a.domain) {
      throw std::invalid_argument("relation " + name_ + ": attribute " + a.name +
                                  " is bound to an instance of another domain");
    }
    if (!used.insert(a.physical).second) {
      throw std::invalid_argument("relation " + name_ + ": instance " +
                                  space.physical(a.physical).name + " is used twice");
    }
    if (!names.insert(a.name).second) {
      throw std::invalid_argument("relation " + name_ + ": attribute " + a.name + " repeats");
    }
  }
}

const Attribute& Relation::attribute(const std::string& name) const {
  for (const Attribute& a : attributes_)
    if (a.name == name) return a;
  throw std::invalid_argument("relation " + name_ + " has no attribute " + name);
}

bool Relation::has_attribute(const std::string& name) const {
  return std::any_of(attributes_.begin(), attributes_.end(),
                     [&](const Attribute& a) { return a.name == name; });
}

std::vector<PhysicalId> Relation::physicals() const {
  std::vector<PhysicalId> out;
  for (const Attribute& a : attributes_) out.push_back(a.physical);
  return out;
}

bdd::Bdd Relation::valid_tuples() const {
  bdd::Bdd universe = bdd::Bdd::one();
  for (const Attribute& a : attributes_) universe &= space_->valid_values(a.physical);
  return universe;
}

BigUint Relation::size() const {
  if (!size_) size_ = bdd::exact_count(value_, space_->sorted_variables(physicals()));
  return *size_;
}

void Relation::for_each_tuple(
    const std::function<void(std::span<const std::uint64_t>)>& visit) const {
  const std::vector<int> vars = space_->sorted_variables(physicals());
  // For each variable position: which attribute it feeds and with what weight.
  std::map<int, std::pair<std::size_t, unsigned>> role;
  for (std::size_t a = 0; a < attributes_.size(); ++a) {
    const auto& block = space_->physical(attributes_[a].physical).block;
    for (unsigned bit = 0; bit < block.width(); ++bit) {
      role[block.vars[bit]] = {a, block.width() - 1 - bit};
    }
  }
  std::vector<std::pair<std::size_t, unsigned>> by_position;
  for (int v : vars) by_position.push_back(role.at(v));
  std::vector<std::uint64_t> tuple(attributes_.size());
  bdd::for_each_assignment(value_, vars, [&](const std::vector<std::uint8_t>& bits) {
    std::fill(tuple.begin(), tuple.end(), 0);
    for (std::size_t i = 0; i < bits.size(); ++i) {
      if (bits[i] != 0) tuple[by_position[i].first] |= std::uint64_t{1} << by_position[i].second;
    }
    visit(tuple);
  });
}

namespace {

std::vector<PhysicalId> physicals_of(const Relation& r, const std::vector<std::string>& names) {
  std::vector<PhysicalId> out;
  for (const std::string& n : names) out.push_back(r.attribute(n).physical);
  return out;
}

bool contains(const std::vector<std::string>& names, const std::string& n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}

}  // namespace

Relation join(const Relation& a, const Relation& b, const std::vector<std::string>& drop) {
  std::vector<Attribute> attributes;
  std::vector<PhysicalId> dropped;
  for (const Attribute& x : a.attributes()) {
    if (b.has_attribute(x.name) && b.attribute(x.name).physical != x.physical) {
      throw std::invalid_argument("join " + a.name() + " with " + b.name() + ": attribute " +
                                  x.name + " sits on different instances");
    }
    if (contains(drop, x.name)) {
      dropped.push_back(x.physical);
    } else {
      attributes.push_back(x);
    }
  }
  for (const Attribute& y : b.attributes()) {
    if (a.has_attribute(y.name)) continue;
    if (contains(drop, y.name)) {
      dropped.push_back(y.physical);
    } else {
      attributes.push_back(y);
    }
  }
  // The Relation constructor rejects two attributes on one instance.
  Relation result(a.space(), a.name() + "*" + b.name(), attributes);
  for (const Attribute& x : a.attributes()) {
    for (const Attribute& y : b.attributes()) {
      if (x.name != y.name && x.physical == y.physical) {
        throw std::invalid_argument("join " + a.name() + " with " + b.name() + ": attributes " +
                                    x.name + " and " + y.name + " share an instance");
      }
    }
  }
  result.set_bdd(a.bdd().and_exists(b.bdd(), a.space().variable_set(dropped)));
  return result;
}

Relation project_away(const Relation& r, const std::vector<std::string>& drop) {
  std::vector<Attribute> kept;
  for (const Attribute& a : r.attributes())
    if (!contains(drop, a.name)) kept.push_back(a);
  Relation result(r.space(), r.name(), kept);
  result.set_bdd(r.bdd().exists(r.space().variable_set(physicals_of(r, drop))));
  return result;
}

Relation rename(const Relation& r, const std::vector<std::pair<std::string, PhysicalId>>& moves) {
  std::vector<Attribute> attributes = r.attributes();
  std::vector<int> from, to;
  std::set<PhysicalId> vacated, targets;
  for (const auto& [name, target] : moves) {
    const Attribute& source = r.attribute(name);
    if (r.space().physical(target).domain != source.domain) {
      throw std::invalid_argument("rename " + r.name() + "." + name + " onto " +
                                  r.space().physical(target).name + ": different domain");
    }
    vacated.insert(source.physical);
    targets.insert(target);
  }
  for (const Attribute& a : r.attributes()) {
    const bool moving =
        std::any_of(moves.begin(), moves.end(), [&](const auto& m) { return m.first == a.name; });
    if (!moving && targets.count(a.physical) != 0) {
      throw std::invalid_argument("rename " + r.name() + ": instance " +
                                  r.space().physical(a.physical).name + " is still used by " +
                                  a.name);
    }
  }
  for (const auto& [name, target] : moves) {
    for (Attribute& a : attributes) {
      if (a.name != name) continue;
      const auto& src = r.space().physical(a.physical).block.vars;
      const auto& dst = r.space().physical(target).block.vars;
      from.insert(from.end(), src.begin(), src.end());
      to.insert(to.end(), dst.begin(), dst.end());
      a.physical = target;
    }
  }
  Relation result(r.space(), r.name(), attributes);
  result.set_bdd(r.bdd().replace(bdd::VarPermutation(from, to)));
  return result;
}

Relation select_equal(const Relation& r, const std::string& attribute, std::uint64_t value) {
  const Attribute& a = r.attribute(attribute);
  Relation result(r.space(), r.name(), r.attributes());
  if (value >= r.space().domain(a.domain).size) return result;  // empty
  result.set_bdd(r.bdd() & r.space().physical(a.physical).block.equals_constant(value));
  return result;
}

namespace {
void require_same_shape(const Relation& a, const Relation& b, const char* op) {
  if (a.attributes().size() != b.attributes().size()) {
    throw std::invalid_argument(std::string(op) + ": relations differ in arity");
  }
  for (std::size_t i = 0; i < a.attributes().size(); ++i) {
    const Attribute& x = a.attributes()[i];
    const Attribute& y = b.attributes()[i];
    if (x.name != y.name || x.physical != y.physical) {
      throw std::invalid_argument(std::string(op) + ": attribute " + x.name + " differs between " +
                                  a.name() + " and " + b.name());
    }
  }
}
}  // namespace

Relation unite(const Relation& a, const Relation& b) {
  require_same_shape(a, b, "union");
  Relation result(a.space(), a.name(), a.attributes());
  result.set_bdd(a.bdd() | b.bdd());
  return result;
}

Relation subtract(const Relation& a, const Relation& b) {
  require_same_shape(a, b, "difference");
  Relation result(a.space(), a.name(), a.attributes());
  result.set_bdd(a.bdd() - b.bdd());
  return result;
}

}  // namespace refract::rel
