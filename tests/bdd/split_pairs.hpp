// A BDD that one replace blows up by a factor of 2^pairs: how the bdd/ tests make a single deep
// operation that collects and grows the node table many times.
#pragma once

#include <vector>

#include "bdd/bdd.hpp"

namespace refract::bdd {

// x_0 x_1 | x_2 x_3 | ...: linear in size when each pair is adjacent. Built
// node by node, so no recursive operation (which would write the reference
// stack) runs before the caller's.
inline Bdd pairs_function(int vars) {
  Bdd f = Bdd::zero();
  for (int v = vars - 2; v >= 0; v -= 2) f = Bdd::node(v, f, Bdd::node(v + 1, f, Bdd::one()));
  return f;
}

// Pair i of pairs_function moves to variables i and pairs + i: ~2^pairs nodes, built by a
// deep replace that collects many times on a small table.
inline VarPermutation split_pairs(int pairs) {
  std::vector<int> from, to;
  for (int i = 0; i < pairs; ++i) {
    from.insert(from.end(), {2 * i, 2 * i + 1});
    to.insert(to.end(), {i, pairs + i});
  }
  return VarPermutation(from, to);
}

}  // namespace refract::bdd
