// A finite domain instance laid out as a block of BDD variables, most
// significant bit first. Sizes go up to 2^62 elements; BuDDy's fdd_* stops at int.
#pragma once

#include <cstdint>
#include <vector>

#include "bdd/bdd.hpp"

namespace refract::bdd {

// Bits needed to number `size` elements: ceil(log2(size)), at least 1.
unsigned bits_for_size(std::uint64_t size);

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

}  // namespace refract::bdd
