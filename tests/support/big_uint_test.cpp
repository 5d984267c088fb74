#include "support/big_uint.hpp"

#include <gtest/gtest.h>

namespace refract {
namespace {

TEST(BigUintTest, DecimalOfLargePowersAndSums) {
  EXPECT_EQ(BigUint().to_string(), "0");
  EXPECT_EQ(BigUint::power_of_two(64).to_string(), "18446744073709551616");
  EXPECT_EQ(BigUint::power_of_two(128).to_string(), "340282366920938463463374607431768211456");
  BigUint x = BigUint::power_of_two(100);
  x += BigUint(~std::uint64_t{0});
  EXPECT_EQ(x.to_string(), "1267650600246676145570412756991");
  EXPECT_TRUE(BigUint(5) < BigUint::power_of_two(70));
  EXPECT_FALSE(BigUint::power_of_two(70) < BigUint(5));
  EXPECT_TRUE(BigUint(123).fits_u64());
  EXPECT_EQ((BigUint(3) << 1).to_u64(), 6u);
}

}  // namespace
}  // namespace refract
