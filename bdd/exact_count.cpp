#include "bdd/exact_count.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace refract::bdd {

namespace {

constexpr unsigned kNotCounted = std::numeric_limits<unsigned>::max();

// Position of each counted variable in `vars`; the terminals sit past the last one.
class Positions {
 public:
  explicit Positions(std::span<const int> vars) {
    for (std::size_t i = 0; i < vars.size(); ++i) {
      const auto v = static_cast<std::size_t>(vars[i]);
      if (v >= by_var_.size()) by_var_.resize(v + 1, kNotCounted);
      by_var_[v] = static_cast<unsigned>(i);
    }
    end_ = static_cast<unsigned>(vars.size());
  }

  unsigned of(int node) const {
    if (node == Bdd::kRawFalse || node == Bdd::kRawTrue) return end_;
    const auto v = static_cast<std::size_t>(Bdd::raw_var(node));
    if (v >= by_var_.size() || by_var_[v] == kNotCounted) {
      throw std::logic_error("exact_count: BDD depends on variable " + std::to_string(v) +
                             " outside the counted set");
    }
    return by_var_[v];
  }

 private:
  std::vector<unsigned> by_var_;
  unsigned end_ = 0;
};

// Counts in 64 bits, memoised in an open-addressing table: the progress lines count every
// relation's new tuples each round, and a node-keyed std::unordered_map of BigUint made that
// a tenth of a points-to run. Gives up (nullopt) when a count does not fit.
class Counter64 {
 public:
  explicit Counter64(const Positions& positions) : positions_(positions) {}

  std::optional<std::uint64_t> total(int root) {
    const std::optional<std::uint64_t> below = count(root);
    if (!below) return std::nullopt;
    return shifted(*below, positions_.of(root));
  }

 private:
  static std::optional<std::uint64_t> shifted(std::uint64_t value, unsigned by) {
    if (value == 0) return 0;
    if (by >= 64 || value > (std::numeric_limits<std::uint64_t>::max() >> by)) {
      return std::nullopt;
    }
    return value << by;
  }

  // Assignments of the variables at positions >= positions_.of(node).
  std::optional<std::uint64_t> count(int node) {
    if (node == Bdd::kRawFalse) return 0;
    if (node == Bdd::kRawTrue) return 1;
    if (const std::uint64_t* known = find(node)) return *known;
    const unsigned here = positions_.of(node);
    const int low = Bdd::raw_low(node);
    const int high = Bdd::raw_high(node);
    const std::optional<std::uint64_t> low_count = count(low);
    if (!low_count) return std::nullopt;
    const std::optional<std::uint64_t> high_count = count(high);
    if (!high_count) return std::nullopt;
    const auto from_low = shifted(*low_count, positions_.of(low) - here - 1);
    const auto from_high = shifted(*high_count, positions_.of(high) - here - 1);
    std::uint64_t sum = 0;
    if (!from_low || !from_high || __builtin_add_overflow(*from_low, *from_high, &sum)) {
      return std::nullopt;
    }
    insert(node, sum);
    return sum;
  }

  std::size_t slot_of(int node) const {
    return (static_cast<std::size_t>(node) * 0x9E3779B97F4A7C15ULL) & (keys_.size() - 1);
  }

  const std::uint64_t* find(int node) const {
    for (std::size_t s = slot_of(node);; s = (s + 1) & (keys_.size() - 1)) {
      if (keys_[s] == node) return &values_[s];
      if (keys_[s] == kEmpty) return nullptr;
    }
  }

  void insert(int node, std::uint64_t value) {
    if (2 * (used_ + 1) > keys_.size()) grow();
    std::size_t s = slot_of(node);
    while (keys_[s] != kEmpty) s = (s + 1) & (keys_.size() - 1);
    keys_[s] = node;
    values_[s] = value;
    ++used_;
  }

  void grow() {
    std::vector<int> old_keys(keys_.size() * 2, kEmpty);
    std::vector<std::uint64_t> old_values(values_.size() * 2);
    old_keys.swap(keys_);
    old_values.swap(values_);
    used_ = 0;
    for (std::size_t s = 0; s < old_keys.size(); ++s) {
      if (old_keys[s] != kEmpty) insert(old_keys[s], old_values[s]);
    }
  }

  static constexpr int kEmpty = -1;
  const Positions& positions_;
  std::vector<int> keys_ = std::vector<int>(1024, kEmpty);
  std::vector<std::uint64_t> values_ = std::vector<std::uint64_t>(1024);
  std::size_t used_ = 0;
};

// The general case, for relations past 2^64 tuples.
class BigCounter {
 public:
  explicit BigCounter(const Positions& positions) : positions_(positions) {}

  BigUint total(int root) { return count(root) << positions_.of(root); }

 private:
  const BigUint& count(int node) {
    if (node == Bdd::kRawFalse) return zero_;
    if (node == Bdd::kRawTrue) return one_;
    if (auto it = memo_.find(node); it != memo_.end()) return it->second;
    const unsigned here = positions_.of(node);
    const int low = Bdd::raw_low(node);
    const int high = Bdd::raw_high(node);
    BigUint result = count(low) << (positions_.of(low) - here - 1);
    result += count(high) << (positions_.of(high) - here - 1);
    return memo_.emplace(node, std::move(result)).first->second;
  }

  const Positions& positions_;
  std::unordered_map<int, BigUint> memo_;
  const BigUint zero_{0};
  const BigUint one_{1};
};

}  // namespace

BigUint exact_count(const Bdd& f, std::span<const int> vars) {
  const Positions positions(vars);
  if (const std::optional<std::uint64_t> small = Counter64(positions).total(f.raw())) {
    return BigUint(*small);
  }
  return BigCounter(positions).total(f.raw());
}

}  // namespace refract::bdd
