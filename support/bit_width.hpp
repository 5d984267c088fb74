// How many bits a finite domain needs, shared by the BDD layer and by writers of
// .tuples headers (which name each column's bit width as bddbddb does).
#pragma once

#include <cstdint>

namespace refract {

// Bits needed to number `size` elements: ceil(log2(size)), at least 1.
constexpr unsigned bits_for_size(std::uint64_t size) {
  unsigned bits = 1;
  while (bits < 64 && (std::uint64_t{1} << bits) < size) ++bits;
  return bits;
}

}  // namespace refract
