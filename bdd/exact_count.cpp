#include "bdd/exact_count.hpp"

#include <stdexcept>
#include <unordered_map>

namespace refract::bdd {

namespace {

class Counter {
 public:
  explicit Counter(std::span<const int> vars) {
    for (std::size_t i = 0; i < vars.size(); ++i) position_[vars[i]] = static_cast<unsigned>(i);
    end_ = static_cast<unsigned>(vars.size());
  }

  unsigned position_of(int node) const {
    if (node == Bdd::kRawFalse || node == Bdd::kRawTrue) return end_;
    const auto it = position_.find(Bdd::raw_var(node));
    if (it == position_.end()) {
      throw std::logic_error("exact_count: BDD depends on variable " +
                             std::to_string(Bdd::raw_var(node)) + " outside the counted set");
    }
    return it->second;
  }

  // Assignments of the variables at positions >= position_of(node).
  const BigUint& count(int node) {
    if (node == Bdd::kRawFalse) return zero_;
    if (node == Bdd::kRawTrue) return one_;
    if (auto it = memo_.find(node); it != memo_.end()) return it->second;
    const unsigned here = position_of(node);
    const int low = Bdd::raw_low(node);
    const int high = Bdd::raw_high(node);
    BigUint result = count(low) << (position_of(low) - here - 1);
    result += count(high) << (position_of(high) - here - 1);
    return memo_.emplace(node, std::move(result)).first->second;
  }

 private:
  std::unordered_map<int, unsigned> position_;
  std::unordered_map<int, BigUint> memo_;
  unsigned end_ = 0;
  const BigUint zero_{0};
  const BigUint one_{1};
};

}  // namespace

BigUint exact_count(const Bdd& f, std::span<const int> vars) {
  Counter counter(vars);
  const int root = f.raw();
  return counter.count(root) << counter.position_of(root);
}

}  // namespace refract::bdd
