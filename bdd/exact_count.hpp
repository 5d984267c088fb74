// Exact satisfying-assignment counts. bdd_satcount returns a double, which
// loses precision past 2^53 tuples; relations here may hold far more.
#pragma once

#include <span>

#include "bdd/bdd.hpp"
#include "support/big_uint.hpp"

namespace refract::bdd {

// Number of assignments to `vars` (ascending variable = level order) that
// satisfy f. f must not depend on variables outside `vars`.
BigUint exact_count(const Bdd& f, std::span<const int> vars);

}  // namespace refract::bdd
