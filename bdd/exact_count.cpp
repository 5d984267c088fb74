#include "bdd/exact_count.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
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

// Per-node counts in an open-addressing table. It starts small, since the progress lines count
// each sweep's new tuples, and the first time it fills it is sized once for every node of the
// BDD at 3/4 load (bdd_nodecount marks nodes in BuDDy's own table): 16 bytes a node for 64-bit
// counts. Doubling at half load held 24-48 bytes a node, and 72 while a doubling copied.
template <typename Value>
class NodeMemo {
 public:
  NodeMemo(const Bdd& root, CountMemory* memory) : root_(root), memory_(memory) { resize(1024); }

  const Value* find(int node) const {
    for (std::size_t s = slot_of(node);; s = next(s)) {
      if (keys_[s] == node) return &values_[s];
      if (keys_[s] == kEmpty) return nullptr;
    }
  }

  void insert(int node, Value value) {
    if (4 * (used_ + 1) > 3 * keys_.size()) {
      // Every node memoised is a node of the root's BDD, so one sizing to all of them is the
      // last; doubling stays only for a count that would somehow pass it.
      const std::size_t nodes = sized_ ? 0 : root_.node_count();
      sized_ = true;
      resize(std::max(2 * keys_.size(), nodes + nodes / 3 + 1));
    }
    std::size_t s = slot_of(node);
    while (keys_[s] != kEmpty) s = next(s);
    keys_[s] = node;
    values_[s] = value;
    ++used_;
  }

 private:
  std::size_t slot_of(int node) const {
    // Fibonacci hashing mapped onto a table of any size by a high multiply.
    const std::uint64_t hash = static_cast<std::uint64_t>(node) * 0x9E3779B97F4A7C15ULL;
    return static_cast<std::size_t>((static_cast<unsigned __int128>(hash) * keys_.size()) >> 64);
  }
  std::size_t next(std::size_t s) const { return s + 1 == keys_.size() ? 0 : s + 1; }

  void resize(std::size_t slots) {
    std::vector<int> old_keys(slots, kEmpty);
    std::vector<Value> old_values(slots);
    old_keys.swap(keys_);
    old_values.swap(values_);
    if (memory_ != nullptr) {
      const std::size_t held = (keys_.size() + old_keys.size()) * kSlotBytes;
      memory_->peak_bytes = std::max(memory_->peak_bytes, held);
    }
    used_ = 0;
    for (std::size_t s = 0; s < old_keys.size(); ++s) {
      if (old_keys[s] != kEmpty) insert(old_keys[s], old_values[s]);
    }
  }

  static constexpr int kEmpty = -1;
  static constexpr std::size_t kSlotBytes = sizeof(int) + sizeof(Value);
  const Bdd& root_;
  CountMemory* memory_;
  bool sized_ = false;
  std::vector<int> keys_;
  std::vector<Value> values_;
  std::size_t used_ = 0;
};

// Counts in a fixed-width unsigned type (64 or 128 bits); gives up (nullopt) when a count does
// not fit. A node-keyed std::unordered_map of BigUint made the progress lines' counts a tenth of
// a points-to run.
template <typename Value>
class FixedWidthCounter {
 public:
  FixedWidthCounter(const Positions& positions, const Bdd& root, CountMemory* memory)
      : positions_(positions), memo_(root, memory) {}

  std::optional<Value> total(int root) {
    const std::optional<Value> below = count(root);
    if (!below) return std::nullopt;
    return shifted(*below, positions_.of(root));
  }

 private:
  // Not numeric_limits: strict C++20 does not specialise it for unsigned __int128.
  static constexpr unsigned kBits = 8 * sizeof(Value);
  static constexpr Value kMax = ~Value{0};

  static std::optional<Value> shifted(Value value, unsigned by) {
    if (value == 0) return Value{0};
    if (by >= kBits || value > (kMax >> by)) return std::nullopt;
    return value << by;
  }

  // Assignments of the variables at positions >= positions_.of(node).
  std::optional<Value> count(int node) {
    if (node == Bdd::kRawFalse) return Value{0};
    if (node == Bdd::kRawTrue) return Value{1};
    if (const Value* known = memo_.find(node)) return *known;
    const unsigned here = positions_.of(node);
    const int low = Bdd::raw_low(node);
    const int high = Bdd::raw_high(node);
    const std::optional<Value> low_count = count(low);
    if (!low_count) return std::nullopt;
    const std::optional<Value> high_count = count(high);
    if (!high_count) return std::nullopt;
    const auto from_low = shifted(*low_count, positions_.of(low) - here - 1);
    const auto from_high = shifted(*high_count, positions_.of(high) - here - 1);
    Value sum = 0;
    if (!from_low || !from_high || __builtin_add_overflow(*from_low, *from_high, &sum)) {
      return std::nullopt;
    }
    memo_.insert(node, sum);
    return sum;
  }

  const Positions& positions_;
  NodeMemo<Value> memo_;
};

// The general case, for relations past 2^128 tuples.
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

BigUint from_u128(unsigned __int128 value) {
  return (BigUint(static_cast<std::uint64_t>(value >> 64)) << 64) +
         BigUint(static_cast<std::uint64_t>(value));
}

}  // namespace

BigUint exact_count(const Bdd& f, std::span<const int> vars, CountMemory* memory) {
  const Positions positions(vars);
  // Each attempt's memo is gone before the next one starts: the peak is the largest, not the sum.
  if (const auto small = FixedWidthCounter<std::uint64_t>(positions, f, memory).total(f.raw())) {
    return BigUint(*small);
  }
  if (const auto wide = FixedWidthCounter<unsigned __int128>(positions, f, memory).total(f.raw())) {
    return from_u128(*wide);
  }
  return BigCounter(positions).total(f.raw());
}

}  // namespace refract::bdd
