// A finite domain instance laid out as a block of BDD variables, most
// significant bit first. Sizes go up to 2^62 elements; BuDDy's fdd_* stops at int.
#pragma once

#include <cstdint>
#include <vector>

#include "bdd/bdd.hpp"
#include "support/bit_width.hpp"

namespace refract::bdd {

using refract::bits_for_size;

struct BitBlock {
  std::vector<int> vars;  // vars[0] is the most significant bit

  unsigned width() const { return static_cast<unsigned>(vars.size()); }
  Bdd variable_set() const;
  // x == value; value must fit in width() bits.
  Bdd equals_constant(std::uint64_t value) const;
  // lo <= x <= hi (unsigned, inclusive).
  Bdd in_range(std::uint64_t lo, std::uint64_t hi) const;
};

// a == b as numbers; the wider block's extra high bits must be zero.
Bdd equal_blocks(const BitBlock& a, const BitBlock& b);
// a < b as unsigned numbers.
Bdd less_than_blocks(const BitBlock& a, const BitBlock& b);
// b == (a + k) mod 2^width for blocks of one width (std::invalid_argument otherwise): a
// ripple-carry adder, linear in the width when a and b are interleaved.
Bdd sum_with_constant(const BitBlock& a, const BitBlock& b, std::uint64_t k);

}  // namespace refract::bdd
