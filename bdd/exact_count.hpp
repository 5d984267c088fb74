// Exact satisfying-assignment counts. bdd_satcount returns a double, which
// loses precision past 2^53 tuples; relations here may hold far more.
#pragma once

#include <cstddef>
#include <span>

#include "bdd/bdd.hpp"
#include "support/big_uint.hpp"

namespace refract::bdd {

// What a count kept besides the node table: the most bytes its memo of per-node counts held
// at once. A deep run's report counts relations of hundreds of millions of nodes, and that
// memory lies outside the node table's budget.
struct CountMemory {
  std::size_t peak_bytes = 0;
};

// Number of assignments to `vars` (ascending variable = level order) that
// satisfy f. f must not depend on variables outside `vars`.
BigUint exact_count(const Bdd& f, std::span<const int> vars, CountMemory* memory = nullptr);

}  // namespace refract::bdd
