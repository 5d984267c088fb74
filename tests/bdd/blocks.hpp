// Bit blocks of consecutive variables, for the bdd/ tests.
#pragma once

#include "bdd/bit_block.hpp"

namespace refract::bdd {

// Variables first .. first + width - 1, the most significant first.
inline BitBlock block_of(int first, int width) {
  BitBlock b;
  for (int i = 0; i < width; ++i) b.vars.push_back(first + i);
  return b;
}

}  // namespace refract::bdd
