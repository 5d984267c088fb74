#include "solver/keyed_index.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "relations/tuple_io.hpp"

namespace refract::solver {

namespace {

std::vector<rel::Attribute> attributes_of(const rel::DomainSpace& space,
                                          const std::vector<rel::PhysicalId>& instances) {
  std::vector<rel::Attribute> out;
  for (const rel::PhysicalId p : instances)
    out.push_back({"a" + std::to_string(out.size()), space.physical(p).domain, p});
  return out;
}

}  // namespace

KeyedIndex::KeyedIndex(const rel::DomainSpace& space, std::vector<rel::Attribute> columns,
                       std::size_t key_count, const KeyedIndexLimits& limits)
    : space_(&space), columns_(std::move(columns)), key_count_(key_count), limits_(limits) {}

std::optional<KeyedIndex> KeyedIndex::index(const rel::DomainSpace& space, const bdd::Bdd& prefix,
                                            const std::vector<rel::PhysicalId>& instances,
                                            const std::vector<rel::PhysicalId>& keys,
                                            const std::vector<rel::PhysicalId>& delta_only,
                                            const KeyedIndexLimits& limits) {
  std::vector<rel::PhysicalId> ordered = keys;
  for (const rel::PhysicalId p : instances)
    if (std::find(keys.begin(), keys.end(), p) == keys.end()) ordered.push_back(p);
  const double count = prefix.approximate_count(space.variable_set(ordered));
  if (count > static_cast<double>(limits.max_prefix_tuples)) return std::nullopt;

  KeyedIndex out(space, attributes_of(space, ordered), keys.size(), limits);
  const std::size_t width = ordered.size();
  rel::Relation shape(space, "", out.columns_);
  shape.set_bdd(prefix);
  std::vector<std::uint64_t> unsorted;
  unsorted.reserve(static_cast<std::size_t>(count) * width);
  shape.for_each_tuple([&](std::span<const std::uint64_t> t) {
    unsorted.insert(unsorted.end(), t.begin(), t.end());
  });
  out.rows_ = unsorted.size() / std::max<std::size_t>(width, 1);
  std::vector<std::size_t> order(out.rows_);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::lexicographical_compare(
        unsorted.begin() + a * width, unsorted.begin() + a * width + keys.size(),
        unsorted.begin() + b * width, unsorted.begin() + b * width + keys.size());
  });
  out.values_.reserve(unsorted.size());
  for (const std::size_t r : order)
    out.values_.insert(out.values_.end(), unsorted.begin() + r * width,
                       unsorted.begin() + (r + 1) * width);
  out.prefix_nodes_ = prefix.node_count();
  out.key_variables_ = space.variable_set(keys);
  out.non_key_variables_ = space.variable_set(delta_only);
  return out;
}

std::pair<std::size_t, std::size_t> KeyedIndex::rows_with_key(const std::uint64_t* key) const {
  const std::size_t width = columns_.size();
  auto row_key = [&](std::size_t r) { return values_.data() + r * width; };
  auto key_less = [&](const std::uint64_t* a, const std::uint64_t* b) {
    return std::lexicographical_compare(a, a + key_count_, b, b + key_count_);
  };
  std::size_t lo = 0, hi = rows_;
  while (lo < hi) {  // first row whose key is not below `key`
    const std::size_t mid = lo + (hi - lo) / 2;
    if (key_less(row_key(mid), key))
      lo = mid + 1;
    else
      hi = mid;
  }
  std::size_t end = lo;
  while (end < rows_ && !key_less(key, row_key(end))) ++end;
  return {lo, end};
}

std::optional<bdd::Bdd> KeyedIndex::restrict_to(const bdd::Bdd& delta) const {
  const bdd::Bdd keys = delta.exists(non_key_variables_);
  const std::uint64_t budget = limits_.cost_per_tuple == 0
                                   ? std::numeric_limits<std::uint64_t>::max()
                                   : prefix_nodes_ / limits_.cost_per_tuple;
  const double key_count = keys.approximate_count(key_variables_);
  if (key_count > static_cast<double>(budget)) return std::nullopt;

  const std::vector<rel::Attribute> key_columns(columns_.begin(), columns_.begin() + key_count_);
  rel::Relation key_relation(*space_, "", key_columns);
  key_relation.set_bdd(keys);
  const std::size_t width = columns_.size();
  std::vector<std::vector<std::uint64_t>> selected;
  bool over_budget = false;
  key_relation.for_each_tuple([&](std::span<const std::uint64_t> key) {
    if (over_budget) return;
    const auto [first, last] = rows_with_key(key.data());
    for (std::size_t r = first; r < last; ++r)
      selected.emplace_back(values_.begin() + r * width, values_.begin() + (r + 1) * width);
    over_budget = selected.size() + static_cast<std::size_t>(key_count) > budget;
  });
  if (over_budget) return std::nullopt;
  return rel::bdd_from_tuples(rel::Relation(*space_, "", columns_), std::move(selected));
}

}  // namespace refract::solver
