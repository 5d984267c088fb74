#include "bdd/enumerate.hpp"

namespace refract::bdd {

namespace {

class Enumerator {
 public:
  Enumerator(std::span<const int> vars,
             const std::function<void(const std::vector<std::uint8_t>&)>& visit)
      : vars_(vars), bits_(vars.size(), 0), visit_(visit) {}

  void walk(int node, std::size_t position) {
    if (node == Bdd::kRawFalse) return;
    if (position == vars_.size()) {
      visit_(bits_);  // node is true: every variable has been assigned
      return;
    }
    const bool tests_here = node != Bdd::kRawTrue && Bdd::raw_var(node) == vars_[position];
    const int low = tests_here ? Bdd::raw_low(node) : node;
    const int high = tests_here ? Bdd::raw_high(node) : node;
    bits_[position] = 0;
    walk(low, position + 1);
    bits_[position] = 1;
    walk(high, position + 1);
  }

 private:
  std::span<const int> vars_;
  std::vector<std::uint8_t> bits_;
  const std::function<void(const std::vector<std::uint8_t>&)>& visit_;
};

}  // namespace

void for_each_assignment(const Bdd& f, std::span<const int> vars,
                         const std::function<void(const std::vector<std::uint8_t>&)>& visit) {
  Enumerator(vars, visit).walk(f.raw(), 0);
}

}  // namespace refract::bdd
