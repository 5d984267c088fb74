#include "bdd/bdd.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "bdd/bit_block.hpp"
#include "bdd/blocks.hpp"
#include "bdd/enumerate.hpp"
#include "bdd/exact_count.hpp"
#include "bdd/manager.hpp"

namespace refract::bdd {
namespace {

std::uint64_t decode(const std::vector<std::uint8_t>& bits, std::size_t from, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i) v = (v << 1) | bits[from + i];
  return v;
}

TEST(ManagerTest, SecondManagerIsRefused) {
  Manager first(ManagerSettings{});
  EXPECT_THROW(Manager second(ManagerSettings{}), BddError);
}

// BuDDy's bdd_done left its variable-level maps dangling, so a manager without variables after
// one with variables freed them a second time when it shut down (glibc aborted).
TEST(ManagerTest, AManagerWithoutVariablesAfterOneWithVariablesShutsDownCleanly) {
  EXPECT_EXIT(
      {
        {
          Manager manager(ManagerSettings{});
          manager.add_variables(4);
        }
        { Manager manager(ManagerSettings{}); }
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
}

TEST(ManagerTest, OperationsAreTimedByKindOnlyWhenAsked) {
  Manager manager(ManagerSettings{});
  manager.add_variables(4);
  const Bdd a = Bdd::variable(0), b = Bdd::variable(1), c = Bdd::variable(2);
  (void)(a & b);
  EXPECT_TRUE(manager.stats().operation_times.empty());
  manager.time_operations(true);
  (void)(a & b);
  (void)(a | b);
  (void)(a & c);
  manager.time_operations(false);
  (void)(a | b);
  std::map<std::string, std::uint64_t> calls;
  for (const OperationTime& op : manager.stats().operation_times) {
    calls[op.name] = op.calls;
    EXPECT_GE(op.seconds, 0.0);
  }
  EXPECT_EQ(calls, (std::map<std::string, std::uint64_t>{{"and", 2}, {"or", 1}}));
}

// Only nodes new to the unique table count: the same conjunction again makes none.
// The variables a BDD depends on, as a cube. BuDDy's own bdd_support wrote into the array the
// first manager's bdd_done had freed: the second manager's first call crashed the solver's tests.
TEST(BddSupportTest, IsTheCubeOfTheVariablesTestedUnderEveryManager) {
  for (int manager_number = 0; manager_number < 3; ++manager_number) {
    Manager manager(ManagerSettings{});
    manager.add_variables(40);
    const Bdd f = (Bdd::variable(3) & Bdd::negated_variable(17)) | Bdd::variable(39);
    const std::vector<int> expected{3, 17, 39};
    EXPECT_TRUE(f.support() == Bdd::variable_set(expected));
    EXPECT_TRUE(Bdd::one().support().is_one());
    EXPECT_TRUE(Bdd::zero().support().is_one());
  }
}

TEST(ManagerTest, CountsTheNodesItProduces) {
  Manager manager(ManagerSettings{});
  manager.add_variables(4);
  const Bdd a = Bdd::variable(0), b = Bdd::variable(1);
  const std::uint64_t before = manager.stats().nodes_produced;
  const Bdd both = a & b;  // one node: x0 ? x1 : false, over the existing node of x1
  EXPECT_EQ(manager.stats().nodes_produced, before + 1);
  const Bdd again = Bdd::variable(1) & Bdd::variable(0);
  EXPECT_EQ(again, both);
  EXPECT_EQ(manager.stats().nodes_produced, before + 1);
  EXPECT_EQ(manager.nodes_produced(), before + 1);  // the same count, read alone
}

// A first table of 2000 nodes and a small cache, for the limits below.
ManagerSettings small_fixed_table() {
  ManagerSettings settings;
  settings.initial_nodes = 2000;
  settings.cache_size = 1000;
  return settings;
}

// What building x == y over two 32-bit blocks, one after the other (about 2^32 nodes), throws;
// it needs 64 variables.
NodeTableExhausted exhaust_the_table() {
  try {
    (void)equal_blocks(block_of(0, 32), block_of(32, 32));
  } catch (const NodeTableExhausted& e) {
    return e;
  }
  ADD_FAILURE() << "the table grew past its limit";
  return NodeTableExhausted(0, 0, 0);
}

TEST(ManagerTest, NodeTableExhaustionThrowsInsteadOfExiting) {
  ManagerSettings settings = small_fixed_table();
  settings.max_nodes = 2000;
  Manager manager(settings);
  manager.add_variables(64);
  EXPECT_EQ(exhaust_the_table().memory_budget_bytes(), 0U);  // max_nodes held, not a budget
  // The manager stays usable for small work after the failure.
  EXPECT_FALSE((Bdd::variable(0) & Bdd::variable(1)).is_zero());
}

// A budget below what the process already holds keeps the table at its first size: the
// exhaustion names the budget.
TEST(ManagerTest, MemoryBudgetKeepsTheTableFromGrowing) {
  ManagerSettings settings = small_fixed_table();
  settings.memory_budget_bytes = 1;
  settings.max_nodes = 200'000;  // a backstop, should the budget not hold
  Manager manager(settings);
  manager.add_variables(64);
  const NodeTableExhausted e = exhaust_the_table();
  EXPECT_EQ(e.memory_budget_bytes(), 1U);
  EXPECT_FALSE(e.machine_memory_held());
  EXPECT_LT(e.node_table_size(), 2100U);
  EXPECT_TRUE(manager.stats().capped_by_memory_budget);
  EXPECT_FALSE(manager.stats().capped_by_machine_memory);
  EXPECT_FALSE((Bdd::variable(0) & Bdd::variable(1)).is_zero());
}

// A generous budget on a machine that other processes have filled: the machine holds the
// table, and the exhaustion says so (an antlr 3-obj+2H run was OOM-killed before this).
TEST(ManagerTest, AFullMachineKeepsTheTableFromGrowingUnderAGenerousBudget) {
  ManagerSettings settings = small_fixed_table();
  settings.memory_budget_bytes = std::uint64_t{1} << 40;
  settings.machine_memory = [] { return MachineMemory{std::uint64_t{24} << 30, 0}; };
  settings.max_nodes = 200'000;  // a backstop, should the machine not hold
  Manager manager(settings);
  manager.add_variables(64);
  const NodeTableExhausted e = exhaust_the_table();
  EXPECT_EQ(e.memory_budget_bytes(), std::uint64_t{1} << 40);
  EXPECT_TRUE(e.machine_memory_held());
  EXPECT_LT(e.node_table_size(), 2100U);
  EXPECT_TRUE(manager.stats().capped_by_machine_memory);
}

// The machine is full until the run gives back memory held elsewhere (a cache entry being
// built beside it): the table asks once, then grows into what was freed.
TEST(ManagerTest, AFullMachineAsksTheRunToReleaseMemoryAndThenGrows) {
  ManagerSettings settings = small_fixed_table();
  settings.memory_budget_bytes = std::uint64_t{1} << 40;
  bool released = false;
  int asked = 0;
  settings.machine_memory = [&] {
    return MachineMemory{std::uint64_t{24} << 30, released ? std::uint64_t{16} << 30 : 0};
  };
  settings.release_machine_memory = [&] {
    ++asked;
    released = true;
    return true;
  };
  Manager manager(settings);
  manager.add_variables(32);
  // x == y over 16-bit blocks, one after the other: about 2^17 nodes, past the first table.
  const Bdd equal = equal_blocks(block_of(0, 16), block_of(16, 16));
  EXPECT_FALSE(equal.is_zero());
  EXPECT_EQ(asked, 1);
  EXPECT_GT(manager.stats().node_table_size, 100'000U);
}

// Nothing to release: the machine holds the table as before.
TEST(ManagerTest, AFullMachineWithNothingToReleaseStillHoldsTheTable) {
  ManagerSettings settings = small_fixed_table();
  settings.memory_budget_bytes = std::uint64_t{1} << 40;
  settings.machine_memory = [] { return MachineMemory{std::uint64_t{24} << 30, 0}; };
  int asked = 0;
  settings.release_machine_memory = [&] {
    ++asked;
    return false;
  };
  settings.max_nodes = 200'000;
  Manager manager(settings);
  manager.add_variables(64);
  EXPECT_TRUE(exhaust_the_table().machine_memory_held());
  EXPECT_GE(asked, 1);
}

TEST(ManagerTest, AGenerousMemoryBudgetLetsTheTableGrow) {
  ManagerSettings settings = small_fixed_table();
  settings.memory_budget_bytes = std::uint64_t{1} << 40;
  Manager manager(settings);
  manager.add_variables(32);
  // x == y over 16-bit blocks, one after the other: about 2^17 nodes.
  const Bdd equal = equal_blocks(block_of(0, 16), block_of(16, 16));
  EXPECT_FALSE(equal.is_zero());
  EXPECT_GT(manager.stats().node_table_size, 100000U);
  EXPECT_FALSE(manager.stats().capped_by_memory_budget);
}

// Difference is computed as a ^ (a & b) (libbdd's own walks all of b): the same set
// difference on every pair of the 16 functions of two variables, constants included.
TEST(BddDifferenceTest, IsTheSetDifferenceOnEveryPairOfFunctions) {
  Manager manager(ManagerSettings{});
  manager.add_variables(2);
  const Bdd x = Bdd::variable(0), y = Bdd::variable(1);
  std::vector<Bdd> functions;
  for (int table = 0; table < 16; ++table) {
    Bdd f = Bdd::zero();
    for (int row = 0; row < 4; ++row) {
      if (((table >> row) & 1) == 0) continue;
      f |= ((row & 1) ? x : !x) & ((row & 2) ? y : !y);
    }
    functions.push_back(f);
  }
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      EXPECT_TRUE((functions[a] - functions[b]) == functions[a & ~b & 15]) << a << " - " << b;
    }
  }
}

TEST(BitBlockTest, RangesAndComparisonsMatchArithmetic) {
  Manager manager(ManagerSettings{});
  manager.add_variables(9);
  const BitBlock a = block_of(0, 5), b = block_of(5, 4);  // widths differ on purpose
  const std::vector<int> vars = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  for (std::uint64_t lo : {0, 3, 17}) {
    for (std::uint64_t hi : {0, 5, 17, 31, 40}) {
      const Bdd range = a.in_range(lo, hi);
      std::uint64_t count = 0;
      for_each_assignment(range, std::vector<int>{0, 1, 2, 3, 4}, [&](const auto& bits) {
        const std::uint64_t v = decode(bits, 0, 5);
        EXPECT_TRUE(v >= lo && v <= hi) << v << " in [" << lo << "," << hi << "]";
        ++count;
      });
      const std::uint64_t expected = lo > hi ? 0 : std::min<std::uint64_t>(hi, 31) - lo + 1;
      EXPECT_EQ(count, lo > 31 ? 0 : expected);
    }
  }
  std::uint64_t equal = 0, less = 0;
  for_each_assignment(equal_blocks(a, b), vars, [&](const auto& bits) {
    EXPECT_EQ(decode(bits, 0, 5), decode(bits, 5, 4));
    ++equal;
  });
  for_each_assignment(less_than_blocks(a, b), vars, [&](const auto& bits) {
    EXPECT_LT(decode(bits, 0, 5), decode(bits, 5, 4));
    ++less;
  });
  EXPECT_EQ(equal, 16u);          // values 0..15 exist in both
  EXPECT_EQ(less, 16u * 15 / 2);  // pairs a < b with b < 16
}

BitBlock strided_block(int first, int width, int stride) {
  BitBlock b;
  for (int i = 0; i < width; ++i) b.vars.push_back(first + i * stride);
  return b;
}

// The adder behind cloning contexts: b = (a + k) mod 2^w, every pair checked, wrap-around
// included; and it stays small when a and b are interleaved (60-bit blocks, as in 2^60 paths).
TEST(BitBlockTest, SumWithConstantIsAdditionModuloTheWidth) {
  Manager manager(ManagerSettings{});
  manager.add_variables(120);
  const BitBlock a = block_of(0, 5), b = block_of(5, 5);
  const std::vector<int> vars = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  for (std::uint64_t k : {0, 1, 7, 31, 32, 45}) {
    std::uint64_t count = 0;
    for_each_assignment(sum_with_constant(a, b, k), vars, [&](const auto& bits) {
      EXPECT_EQ(decode(bits, 5, 5), (decode(bits, 0, 5) + k) % 32) << "k=" << k;
      ++count;
    });
    EXPECT_EQ(count, 32u) << "one b for every a, k=" << k;
  }
  EXPECT_THROW(sum_with_constant(a, block_of(5, 4), 1), std::invalid_argument);
  const BitBlock x = strided_block(0, 60, 2), y = strided_block(1, 60, 2);
  const Bdd big = sum_with_constant(x, y, (std::uint64_t{1} << 59) + 12345);
  EXPECT_LT(big.node_count(), 60u * 8);
}

// Two 62-bit domains interleaved bit by bit (so x == y stays linear in size), and all 124
// variables as the counted set.
class ExactCountTest : public ::testing::Test {
 protected:
  ExactCountTest() {
    manager_.add_variables(124);
    for (int i = 0; i < 124; ++i) vars_.push_back(i);
  }

  Manager manager_{ManagerSettings{}};
  const BitBlock x_ = strided_block(0, 62, 2), y_ = strided_block(1, 62, 2);
  std::vector<int> vars_;
};

TEST_F(ExactCountTest, CountsBeyondDoublePrecision) {
  // Every value of a 62-bit domain: 2^62.
  EXPECT_EQ(exact_count(x_.in_range(0, (std::uint64_t{1} << 62) - 1), x_.vars).to_string(),
            "4611686018427387904");
  // All pairs but one: 2^124 - 1, far past 2^53 (and past 2^64 below the root already: the
  // root's children count 2^123 - 1 and 2^123).
  const Bdd all_but_one = !(x_.equals_constant(5) & y_.equals_constant(7));
  EXPECT_EQ(exact_count(all_but_one, vars_).to_string(), "21267647932558653966460912964485513215");
  // x == y: exactly 2^62 pairs.
  EXPECT_EQ(exact_count(equal_blocks(x_, y_), vars_).to_string(), "4611686018427387904");
  // 2^53 + 1 tuples: a double would round this to 2^53.
  const Bdd past_double = x_.in_range(0, (std::uint64_t{1} << 53)) & y_.equals_constant(0);
  EXPECT_EQ(exact_count(past_double, vars_).to_string(), "9007199254740993");
}

// Counts are made in 64 bits while they fit and in BigUint past that: both sides of the edge.
TEST_F(ExactCountTest, CountsAtTheEdgeOfSixtyFourBits) {
  // x < 4 with y free: 2^64, one past the largest 64-bit count.
  EXPECT_EQ(exact_count(x_.in_range(0, 3), vars_).to_string(), "18446744073709551616");
  // x < 4, y free, but not (x = 0, y = 0): 2^64 - 1, the largest that fits.
  const Bdd largest = x_.in_range(0, 3) & !(x_.equals_constant(0) & y_.equals_constant(0));
  EXPECT_EQ(exact_count(largest, vars_).to_string(), "18446744073709551615");
  // The terminals: 2^124 and 0.
  EXPECT_EQ(exact_count(Bdd::one(), vars_).to_string(), "21267647932558653966460912964485513216");
  EXPECT_EQ(exact_count(Bdd::zero(), vars_).to_string(), "0");
}

TEST(EnumerateTest, ExpandsDontCareVariables) {
  Manager manager(ManagerSettings{});
  manager.add_variables(3);
  std::vector<std::uint64_t> seen;
  for_each_assignment(Bdd::variable(1), std::vector<int>{0, 1, 2},
                      [&](const auto& bits) { seen.push_back(decode(bits, 0, 3)); });
  EXPECT_EQ(seen, (std::vector<std::uint64_t>{2, 3, 6, 7}));
}

}  // namespace
}  // namespace refract::bdd
