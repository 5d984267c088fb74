// Exact counts of large BDDs: the memory their per-node memo holds, and the widths a count
// moves through (64 bits, 128 bits, any).
#include "bdd/exact_count.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "bdd/bit_block.hpp"
#include "bdd/blocks.hpp"
#include "bdd/manager.hpp"

namespace refract::bdd {
namespace {

// A deep run's report counts relations of hundreds of millions of nodes; a memo that doubled
// at half load held up to 72 bytes a node (24-48 in between), past the node table's memory
// budget. Chained entries that never move, with buckets freed before they double, hold 24.
TEST(ExactCountMemoTest, HoldsAtMostTwentyFourBytesANodeForSixtyFourBitCounts) {
  Manager manager(ManagerSettings{});
  manager.add_variables(40);
  const BitBlock x = block_of(0, 40);
  std::mt19937_64 random(7);
  std::set<std::uint64_t> values;
  Bdd f = Bdd::zero();
  while (values.size() < 20000) {
    const std::uint64_t v = random() & ((std::uint64_t{1} << 40) - 1);
    if (values.insert(v).second) f = f | x.equals_constant(v);
  }
  const std::uint64_t nodes = f.node_count();
  ASSERT_GT(nodes, 200000u);  // large enough for the memo's first chunk not to matter

  CountMemory memory;
  EXPECT_EQ(exact_count(f, x.vars, &memory).to_string(), "20000");
  EXPECT_GT(memory.peak_bytes, 16 * nodes);  // every node memoised once
  EXPECT_LE(memory.peak_bytes, 24 * nodes + 16 * 4096 + 64);
}

TEST(ExactCountWidthTest, CountsPastSixtyFourAndPastOneHundredTwentyEightBits) {
  Manager manager(ManagerSettings{});
  manager.add_variables(140);
  std::vector<int> all;
  for (int i = 0; i < 140; ++i) all.push_back(i);
  const BitBlock high = block_of(0, 12);  // 128 free variables below it
  // high < 2: 2^129 tuples, past 128 bits.
  EXPECT_EQ(exact_count(high.in_range(0, 1), all).to_string(),
            "680564733841876926926749214863536422912");
  // high == 0 and not everything below zero: 2^128 - 1, the largest 128-bit count.
  const Bdd below_zero = block_of(12, 64).equals_constant(0) & block_of(76, 64).equals_constant(0);
  EXPECT_EQ(exact_count(high.equals_constant(0) & !below_zero, all).to_string(),
            "340282366920938463463374607431768211455");
  // high == 0 alone: 2^128.
  EXPECT_EQ(exact_count(high.equals_constant(0), all).to_string(),
            "340282366920938463463374607431768211456");
  // Block 12..75 free, the rest zero, and one more tuple: 2^64 + 1, past 64 bits, within 128.
  const Bdd rest_zero = block_of(76, 64).equals_constant(0);
  const Bdd one_more = high.equals_constant(1) & block_of(12, 64).equals_constant(0) & rest_zero;
  EXPECT_EQ(exact_count((high.equals_constant(0) & rest_zero) | one_more, all).to_string(),
            "18446744073709551617");
}

}  // namespace
}  // namespace refract::bdd
