// An unsigned integer of any width, for exact tuple counts: a relation over a
// few 62-bit domains has far more than 2^64 (and 2^128) tuples, and a double
// loses precision past 2^53.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace refract {

class BigUint {
 public:
  BigUint() = default;
  BigUint(std::uint64_t value);  // NOLINT(google-explicit-constructor): counts are numbers

  static BigUint power_of_two(unsigned exponent);

  BigUint& operator+=(const BigUint& other);
  BigUint& operator<<=(unsigned bits);
  friend BigUint operator+(BigUint a, const BigUint& b) { return a += b; }
  friend BigUint operator<<(BigUint a, unsigned bits) { return a <<= bits; }
  friend bool operator==(const BigUint& a, const BigUint& b) { return a.limbs_ == b.limbs_; }
  friend bool operator<(const BigUint& a, const BigUint& b);

  bool is_zero() const { return limbs_.empty(); }
  bool fits_u64() const { return limbs_.size() <= 1; }
  std::uint64_t to_u64() const { return limbs_.empty() ? 0 : limbs_[0]; }  // low 64 bits
  double to_double() const;
  std::string to_string() const;  // decimal

 private:
  void trim();
  std::vector<std::uint64_t> limbs_;  // little-endian; empty means zero
};

}  // namespace refract
