// A reference-counted handle on one BuDDy node. Copying adds a reference,
// destruction drops it; every operation checks BuDDy's error state.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace refract::bdd {

class NodeImage;
class VarPermutation;

class Bdd {
 public:
  Bdd();  // false
  Bdd(const Bdd& other);
  Bdd(Bdd&& other) noexcept;
  Bdd& operator=(const Bdd& other);
  Bdd& operator=(Bdd&& other) noexcept;
  ~Bdd();

  static Bdd zero();
  static Bdd one();
  static Bdd variable(int var);          // var = 1
  static Bdd negated_variable(int var);  // var = 0
  // The node (var ? high : low); var must lie above every variable of low and
  // high. One unique-table lookup instead of an ite: for bottom-up builders.
  static Bdd node(int var, const Bdd& low, const Bdd& high);
  // A cube of variables, the form quantification takes.
  static Bdd variable_set(std::span<const int> vars);

  bool is_zero() const;
  bool is_one() const;
  std::uint64_t node_count() const;
  // Satisfying assignments over the variables of the cube `variables` (which
  // must include this BDD's support), as a double: O(nodes), unlike the exact
  // count; for estimates.
  double approximate_count(const Bdd& variables) const;

  Bdd operator&(const Bdd& other) const;
  Bdd operator|(const Bdd& other) const;
  Bdd operator-(const Bdd& other) const;  // and-not
  // BuDDy's and-not walks shared subgraphs of its operands to the leaves;
  // xor stops at them. For b subset of a, a ^ b = a - b at far less cost.
  Bdd operator^(const Bdd& other) const;
  Bdd operator!() const;
  Bdd biimp(const Bdd& other) const;
  Bdd& operator&=(const Bdd& other) { return *this = *this & other; }
  Bdd& operator|=(const Bdd& other) { return *this = *this | other; }
  friend bool operator==(const Bdd& a, const Bdd& b) { return a.root_ == b.root_; }

  static Bdd ite(const Bdd& condition, const Bdd& then_branch, const Bdd& else_branch);
  Bdd exists(const Bdd& variables) const;
  // The cube of the variables this BDD depends on: one pass over its nodes, no operator cache.
  Bdd support() const;
  // exists variables. (this & other) in one pass: the relational product.
  Bdd and_exists(const Bdd& other, const Bdd& variables) const;
  Bdd replace(const VarPermutation& permutation) const;

  // Node-level inspection for exact counting, enumeration and serialisation.
  // Valid only while no operation runs (no garbage collection in between).
  int raw() const { return root_; }
  static int raw_var(int node);
  static int raw_low(int node);
  static int raw_high(int node);
  static constexpr int kRawFalse = 0;
  static constexpr int kRawTrue = 1;

 private:
  friend class NodeImage;  // writes nodes by id and places roots (bdd/node_image.hpp)
  explicit Bdd(int root);  // takes a fresh (unreferenced) result and references it
  int root_;
};

// Renaming of variables (a BuDDy pair table); maps from[i] -> to[i] simultaneously.
class VarPermutation {
 public:
  VarPermutation(std::span<const int> from, std::span<const int> to);
  VarPermutation(const VarPermutation&) = delete;
  VarPermutation& operator=(const VarPermutation&) = delete;
  VarPermutation(VarPermutation&& other) noexcept;
  VarPermutation& operator=(VarPermutation&& other) noexcept;
  ~VarPermutation();

  void* raw() const { return pair_; }

 private:
  void* pair_;
};

}  // namespace refract::bdd
