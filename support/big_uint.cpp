#include "support/big_uint.hpp"

#include <algorithm>

namespace refract {

BigUint::BigUint(std::uint64_t value) {
  if (value != 0) limbs_.push_back(value);
}

BigUint BigUint::power_of_two(unsigned exponent) {
  BigUint result(1);
  result <<= exponent;
  return result;
}

void BigUint::trim() {
  while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
}

BigUint& BigUint::operator+=(const BigUint& other) {
  if (limbs_.size() < other.limbs_.size()) limbs_.resize(other.limbs_.size(), 0);
  unsigned __int128 carry = 0;
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    unsigned __int128 sum = carry + limbs_[i] + (i < other.limbs_.size() ? other.limbs_[i] : 0);
    limbs_[i] = static_cast<std::uint64_t>(sum);
    carry = sum >> 64;
  }
  if (carry != 0) limbs_.push_back(static_cast<std::uint64_t>(carry));
  return *this;
}

BigUint& BigUint::operator<<=(unsigned bits) {
  if (limbs_.empty() || bits == 0) return *this;
  const unsigned whole = bits / 64;
  const unsigned part = bits % 64;
  std::vector<std::uint64_t> shifted(limbs_.size() + whole + 1, 0);
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    shifted[i + whole] |= limbs_[i] << part;
    if (part != 0) shifted[i + whole + 1] |= limbs_[i] >> (64 - part);
  }
  limbs_ = std::move(shifted);
  trim();
  return *this;
}

bool operator<(const BigUint& a, const BigUint& b) {
  if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size();
  for (std::size_t i = a.limbs_.size(); i-- > 0;) {
    if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i];
  }
  return false;
}

double BigUint::to_double() const {
  double result = 0;
  for (std::size_t i = limbs_.size(); i-- > 0;)
    result = result * 18446744073709551616.0 + limbs_[i];
  return result;
}

std::string BigUint::to_string() const {
  if (limbs_.empty()) return "0";
  // Repeated division by 10^19 on a copy of the limbs.
  std::vector<std::uint64_t> work = limbs_;
  std::vector<std::uint64_t> chunks;
  constexpr std::uint64_t kBase = 10'000'000'000'000'000'000ULL;
  while (!work.empty()) {
    unsigned __int128 remainder = 0;
    for (std::size_t i = work.size(); i-- > 0;) {
      unsigned __int128 current = (remainder << 64) | work[i];
      work[i] = static_cast<std::uint64_t>(current / kBase);
      remainder = current % kBase;
    }
    chunks.push_back(static_cast<std::uint64_t>(remainder));
    while (!work.empty() && work.back() == 0) work.pop_back();
  }
  std::string out = std::to_string(chunks.back());
  for (std::size_t i = chunks.size() - 1; i-- > 0;) {
    std::string part = std::to_string(chunks[i]);
    out += std::string(19 - part.size(), '0') + part;
  }
  return out;
}

}  // namespace refract
