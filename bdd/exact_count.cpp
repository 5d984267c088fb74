#include "bdd/exact_count.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
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

// Per-node counts, chained: entries in fixed chunks that never move, and a bucket array of
// entry numbers that doubles when it is as long as the entries. A doubling frees the old
// buckets before it relinks the entries, so nothing is held twice: 20-24 bytes a node for
// 64-bit counts. An open-addressing table doubling at half load held 24-48, and 72 while it
// copied; sizing it once to bdd_nodecount's count held 16 but took a third longer (BuDDy marks
// and unmarks every node).
template <typename Value>
class NodeMemo {
 public:
  explicit NodeMemo(CountMemory* memory) : memory_(memory) { relink(1024); }

  const Value* find(int node) const {
    for (std::uint32_t e = buckets_[bucket_of(node)]; e != kNone; e = entry(e).next) {
      if (entry(e).node == node) return &entry(e).value;
    }
    return nullptr;
  }

  void insert(int node, Value value) {
    if (size_ == buckets_.size()) relink(2 * buckets_.size());
    if (size_ % kChunk == 0) {
      chunks_.push_back(std::make_unique<Entry[]>(kChunk));
      note_memory();  // the memo grows only here and in relink
    }
    std::uint32_t& head = buckets_[bucket_of(node)];
    entry(size_) = {value, node, head};
    head = size_++;
  }

 private:
  struct Entry {
    Value value;
    int node;
    std::uint32_t next;
  };
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t kChunk = 4096;

  Entry& entry(std::uint32_t e) { return chunks_[e / kChunk][e % kChunk]; }
  const Entry& entry(std::uint32_t e) const { return chunks_[e / kChunk][e % kChunk]; }

  std::size_t bucket_of(int node) const {
    // Fibonacci hashing, the bucket count a power of two.
    return static_cast<std::size_t>((static_cast<std::uint64_t>(node) * 0x9E3779B97F4A7C15ULL) >>
                                    shift_);
  }

  void relink(std::size_t buckets) {
    std::vector<std::uint32_t>().swap(buckets_);  // freed before the new array is made
    buckets_.assign(buckets, kNone);
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(buckets));
    for (std::uint32_t e = 0; e < size_; ++e) {
      std::uint32_t& head = buckets_[bucket_of(entry(e).node)];
      entry(e).next = head;
      head = e;
    }
    note_memory();
  }

  void note_memory() {
    if (memory_ == nullptr) return;
    const std::size_t held = buckets_.size() * sizeof(std::uint32_t) +
                             chunks_.size() * (kChunk * sizeof(Entry) + sizeof(chunks_[0]));
    memory_->peak_bytes = std::max(memory_->peak_bytes, held);
  }

  CountMemory* memory_;
  std::vector<std::unique_ptr<Entry[]>> chunks_;
  std::vector<std::uint32_t> buckets_;
  unsigned shift_ = 0;
  std::uint32_t size_ = 0;
};

// Counts in a fixed-width unsigned type (64 or 128 bits); gives up (nullopt) when a count does
// not fit. A node-keyed std::unordered_map of BigUint made the progress lines' counts a tenth of
// a points-to run.
template <typename Value>
class FixedWidthCounter {
 public:
  FixedWidthCounter(const Positions& positions, CountMemory* memory)
      : positions_(positions), memo_(memory) {}

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
  if (const auto small = FixedWidthCounter<std::uint64_t>(positions, memory).total(f.raw())) {
    return BigUint(*small);
  }
  if (const auto wide = FixedWidthCounter<unsigned __int128>(positions, memory).total(f.raw())) {
    return from_u128(*wide);
  }
  return BigCounter(positions).total(f.raw());
}

}  // namespace refract::bdd
