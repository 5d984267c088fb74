#include "bdd/bit_block.hpp"

#include <algorithm>
#include <stdexcept>

namespace refract::bdd {

Bdd BitBlock::variable_set() const {
  return Bdd::variable_set(vars);
}

Bdd BitBlock::equals_constant(std::uint64_t value) const {
  if (width() < 64 && (value >> width()) != 0) {
    throw std::out_of_range("value " + std::to_string(value) + " does not fit in " +
                            std::to_string(width()) + " bits");
  }
  // Built bottom-up so each step is a single node on top of the rest.
  Bdd result = Bdd::one();
  for (unsigned i = width(); i-- > 0;) {
    const bool bit = ((value >> (width() - 1 - i)) & 1) != 0;
    result = (bit ? Bdd::variable(vars[i]) : Bdd::negated_variable(vars[i])) & result;
  }
  return result;
}

namespace {
// x <= bound over the bits from position `from` (MSB index) down, as a BDD.
// Built LSB first: le(i) = bit_i(bound) ? (!x_i | le(i+1)) : (!x_i & le(i+1)).
Bdd at_most(const BitBlock& block, std::uint64_t bound) {
  Bdd result = Bdd::one();  // equal on all remaining bits -> <= holds
  const unsigned w = block.width();
  for (unsigned i = w; i-- > 0;) {
    const bool bit = ((bound >> (w - 1 - i)) & 1) != 0;
    Bdd x = Bdd::variable(block.vars[i]);
    result = bit ? Bdd::ite(x, result, Bdd::one()) : Bdd::ite(x, Bdd::zero(), result);
  }
  return result;
}

Bdd at_least(const BitBlock& block, std::uint64_t bound) {
  Bdd result = Bdd::one();
  const unsigned w = block.width();
  for (unsigned i = w; i-- > 0;) {
    const bool bit = ((bound >> (w - 1 - i)) & 1) != 0;
    Bdd x = Bdd::variable(block.vars[i]);
    result = bit ? Bdd::ite(x, result, Bdd::zero()) : Bdd::ite(x, Bdd::one(), result);
  }
  return result;
}
}  // namespace

Bdd BitBlock::in_range(std::uint64_t lo, std::uint64_t hi) const {
  if (lo > hi) return Bdd::zero();
  const std::uint64_t max = width() >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width()) - 1;
  if (lo > max) return Bdd::zero();
  hi = std::min(hi, max);
  Bdd result = Bdd::one();
  if (hi < max) result = at_most(*this, hi);
  if (lo > 0) result &= at_least(*this, lo);
  return result;
}

namespace {
// Aligns two blocks at the least significant bit; returns the high bits of the
// wider block that have no partner.
struct Aligned {
  std::vector<std::pair<int, int>> pairs;  // (a var, b var), MSB first
  std::vector<int> a_extra, b_extra;       // unpaired high bits
};

Aligned align(const BitBlock& a, const BitBlock& b) {
  Aligned out;
  const unsigned w = std::min(a.width(), b.width());
  out.a_extra.assign(a.vars.begin(), a.vars.end() - w);
  out.b_extra.assign(b.vars.begin(), b.vars.end() - w);
  for (unsigned i = 0; i < w; ++i) {
    out.pairs.emplace_back(a.vars[a.width() - w + i], b.vars[b.width() - w + i]);
  }
  return out;
}

Bdd all_zero(const std::vector<int>& vars) {
  Bdd result = Bdd::one();
  for (auto it = vars.rbegin(); it != vars.rend(); ++it)
    result = Bdd::negated_variable(*it) & result;
  return result;
}
}  // namespace

Bdd equal_blocks(const BitBlock& a, const BitBlock& b) {
  const Aligned al = align(a, b);
  Bdd result = all_zero(al.a_extra) & all_zero(al.b_extra);
  for (auto it = al.pairs.rbegin(); it != al.pairs.rend(); ++it) {
    result &= Bdd::variable(it->first).biimp(Bdd::variable(it->second));
  }
  return result;
}

Bdd less_than_blocks(const BitBlock& a, const BitBlock& b) {
  const Aligned al = align(a, b);
  // Over the paired bits, from LSB up: lt = (!x & y) | ((x <-> y) & lt_below).
  Bdd less = Bdd::zero();
  for (auto it = al.pairs.rbegin(); it != al.pairs.rend(); ++it) {
    Bdd x = Bdd::variable(it->first);
    Bdd y = Bdd::variable(it->second);
    less = (y - x) | (x.biimp(y) & less);
  }
  // a's extra high bits set -> a is larger; b's extra high bits set -> b larger.
  Bdd a_high_zero = all_zero(al.a_extra);
  Bdd b_high_zero = all_zero(al.b_extra);
  return a_high_zero & ((!b_high_zero) | less);
}

Bdd sum_with_constant(const BitBlock& a, const BitBlock& b, std::uint64_t k) {
  if (a.width() != b.width()) throw std::invalid_argument("sum_with_constant: widths differ");
  // Bits from the least significant up; with_carry[c]: the bits so far add up and carry c out.
  Bdd with_carry[2] = {Bdd::one(), Bdd::zero()};
  for (unsigned i = 0; i < a.width(); ++i) {
    const unsigned at = a.width() - 1 - i;  // vars[0] is the most significant bit
    const unsigned k_bit = i < 64 ? static_cast<unsigned>((k >> i) & 1U) : 0U;
    const Bdd x = Bdd::variable(a.vars[at]);
    const Bdd y = Bdd::variable(b.vars[at]);
    Bdd next[2] = {Bdd::zero(), Bdd::zero()};
    for (unsigned carry = 0; carry < 2; ++carry) {
      for (unsigned x_bit = 0; x_bit < 2; ++x_bit) {
        const unsigned sum = x_bit + k_bit + carry;
        next[sum >> 1] |= with_carry[carry] & (x_bit ? x : !x) & ((sum & 1U) ? y : !y);
      }
    }
    with_carry[0] = next[0];
    with_carry[1] = next[1];
  }
  return with_carry[0] | with_carry[1];  // the carry out of the top bit wraps around
}

}  // namespace refract::bdd
