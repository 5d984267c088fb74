// Garbage collections inside deep operations on a fresh manager, and the
// operations the solver's hot loop uses in place of BuDDy's and-not and ite.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include "bdd/bdd.hpp"
#include "bdd/exact_count.hpp"
#include "bdd/manager.hpp"
#include "bdd/split_pairs.hpp"

namespace refract::bdd {
namespace {

// BuDDy mallocs its reference stack (2 * (varnum + 2) ints) in setvarnum. Freed
// chunks of that size filled with a large node id make an uninitialised stack
// hold that id; a collection marking it reads far outside the node table.
void poison_heap_chunks(std::size_t bytes) {
  std::vector<void*> chunks;
  for (int i = 0; i < 64; ++i) {
    void* p = std::malloc(bytes);
    std::memset(p, 0x3f, bytes);  // node id 0x3f3f3f3f
    chunks.push_back(p);
  }
  for (void* p : chunks) std::free(p);
}

// A table of 1,000 nodes growing 1,000 at a time: collections come often.
ManagerSettings often_growing_table() {
  ManagerSettings settings;
  settings.initial_nodes = 1000;
  settings.cache_size = 1000;
  settings.max_increase = 1000;
  settings.growth_percent = 0;
  return settings;
}

// `g` is `f` with its pairs split: as many assignments, and the split's node count.
void expect_split_of(const Bdd& g, const Bdd& f, int pairs) {
  std::vector<int> all(2 * pairs);
  for (int v = 0; v < 2 * pairs; ++v) all[v] = v;
  EXPECT_EQ(exact_count(g, all), exact_count(f, all));
  EXPECT_GT(g.node_count(), std::uint64_t{1} << pairs);
}

TEST(CollectionTest, CollectionsInsideReplaceOnAFreshTableKeepTheManagerSound) {
  constexpr int kPairs = 12;
  constexpr int kVars = 2 * kPairs;
  for (int trial = 0; trial < 10; ++trial) {
    poison_heap_chunks(sizeof(int) * (2 * kVars + 4));
    Manager manager(often_growing_table());
    manager.add_variables(kVars);
    const Bdd f = pairs_function(kVars);
    // The split is the manager's first recursive operation (segfaulted before the stack was
    // zeroed).
    expect_split_of(f.replace(split_pairs(kPairs)), f, kPairs);
    EXPECT_GT(manager.stats().garbage_collections, 0U);
  }
}

// The same growing function on a table that grows by a share of its size needs fewer
// collections than on one that grows by a fixed 1,000 nodes (the hook set no step before).
TEST(CollectionTest, ATableGrowingByAShareOfItsSizeCollectsLessOften) {
  constexpr int kPairs = 14;
  auto collections_with = [&](unsigned growth_percent) {
    ManagerSettings settings = often_growing_table();
    settings.growth_percent = growth_percent;
    Manager manager(settings);
    manager.add_variables(2 * kPairs);
    const Bdd f = pairs_function(2 * kPairs);
    expect_split_of(f.replace(split_pairs(kPairs)), f, kPairs);
    return manager.stats().garbage_collections;
  };
  const std::uint64_t fixed_steps = collections_with(0);
  const std::uint64_t doubling = collections_with(100);
  EXPECT_GT(doubling, 0U);
  EXPECT_LT(2 * doubling, fixed_steps);
}

// Room reserved up front: the split that collects on the small table (the test above) builds
// without a collection; the table grew to the room asked for, not by its steps of 1,000.
TEST(ReserveTest, AReservedTableBuildsWithoutACollection) {
  constexpr int kPairs = 12;
  Manager manager(often_growing_table());
  manager.add_variables(2 * kPairs);
  manager.reserve_free_nodes(1'000'000);
  const ManagerStats reserved = manager.stats();
  EXPECT_GE(reserved.node_table_size - reserved.used_nodes, 1'000'000U);
  const Bdd f = pairs_function(2 * kPairs);
  expect_split_of(f.replace(split_pairs(kPairs)), f, kPairs);
  EXPECT_EQ(manager.stats().garbage_collections, 0U);
}

// A reservation past max_nodes takes the table to its cap and no further, without an error.
TEST(ReserveTest, AReservationStopsAtTheTablesCap) {
  ManagerSettings settings = often_growing_table();
  settings.max_nodes = 20'000;
  Manager manager(settings);
  manager.add_variables(8);
  manager.reserve_free_nodes(1'000'000);
  EXPECT_LE(manager.stats().node_table_size, 20'000U);
  EXPECT_GT(manager.stats().node_table_size, 10'000U);
  EXPECT_TRUE((Bdd::variable(0) & Bdd::variable(1)).node_count() == 2);
}

// A deadline already passed stops a long operation at its first collections, and the manager
// goes on: the same operation without the deadline builds the whole function.
TEST(DeadlineTest, AnOperationPastTheDeadlineStopsAtACollectionAndTheManagerGoesOn) {
  constexpr int kPairs = 12;
  Manager manager(often_growing_table());
  manager.add_variables(2 * kPairs);
  const Bdd f = pairs_function(2 * kPairs);
  const VarPermutation split = split_pairs(kPairs);
  manager.set_deadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
  EXPECT_THROW((void)f.replace(split), DeadlinePassed);
  const std::uint64_t collections = manager.stats().garbage_collections;
  EXPECT_GT(collections, 0U);
  (void)(Bdd::variable(0) & Bdd::variable(1));  // no collection: no stop
  manager.set_deadline(std::nullopt);
  expect_split_of(f.replace(split), f, kPairs);
}

// A memory budget recomputes the table's cap at every collection, also in the retry that
// BuDDy makes of an operation abandoned at the deadline: it must not lift the stop there, or
// the retry grows the table and runs on (it did before the budget left tripped runs alone).
TEST(DeadlineTest, AMemoryBudgetDoesNotLetTheAbandonedOperationGrowTheTable) {
  constexpr int kPairs = 12;
  ManagerSettings settings = often_growing_table();
  settings.memory_budget_bytes = std::uint64_t{1} << 40;
  Manager manager(settings);
  manager.add_variables(2 * kPairs);
  const Bdd f = pairs_function(2 * kPairs);
  const std::uint64_t table = manager.stats().node_table_size;
  manager.set_deadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
  EXPECT_THROW((void)f.replace(split_pairs(kPairs)), DeadlinePassed);
  EXPECT_EQ(manager.stats().node_table_size, table);
}

// BuDDy retries an abandoned operation once; the retry must stop too, at once.
// It ran on before, as long as each collection freed enough to need no larger table: hsqldb's
// probe run spent minutes past --time-limit in one and_exists. A product that quantifies makes
// such garbage: each intermediate disjunction is dropped once its level is done.
TEST(DeadlineTest, TheRetryOfAnAbandonedOperationStopsAtItsFirstNewNode) {
  constexpr int kPairs = 14;
  Manager manager(often_growing_table());
  manager.add_variables(2 * kPairs);
  const Bdd split = pairs_function(2 * kPairs).replace(split_pairs(kPairs));
  const Bdd split_twice = split.replace(split_pairs(kPairs));
  Bdd low_half = Bdd::one();
  for (int v = 0; v < kPairs; ++v) low_half = low_half & Bdd::variable(v);
  const std::uint64_t before = manager.stats().nodes_produced;
  manager.set_deadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
  EXPECT_THROW((void)split.and_exists(split_twice, low_half), DeadlinePassed);
  const std::uint64_t abandoned = manager.stats().nodes_produced - before;
  manager.set_deadline(std::nullopt);
  const std::uint64_t whole_start = manager.stats().nodes_produced;
  const std::uint64_t collections_start = manager.stats().garbage_collections;
  const Bdd product = split.and_exists(split_twice, low_half);
  const std::uint64_t whole = manager.stats().nodes_produced - whole_start;
  EXPECT_GT(manager.stats().garbage_collections - collections_start, 4U);  // else it shows nothing
  // the abandoned operation made what fits up to one collection, twice at most; the retry
  // made the whole product again before
  EXPECT_LT(4 * abandoned, whole);
  EXPECT_TRUE(product == (split & split_twice).exists(low_half));
}

TEST(DeadlineTest, AFutureDeadlineChangesNothing) {
  Manager manager(often_growing_table());
  manager.add_variables(24);
  manager.set_deadline(std::chrono::steady_clock::now() + std::chrono::hours(1));
  const Bdd f = pairs_function(24);
  expect_split_of(f.replace(split_pairs(12)), f, 12);
  EXPECT_GT(manager.stats().garbage_collections, 0U);
}

// A production limit below what the operation needs stops it at a collection, and the
// manager goes on; lifted, the same operation builds the whole function. Unlike a deadline
// the stop depends on the work alone.
TEST(ProductionLimitTest, AnOperationProducingPastTheLimitStopsAtACollection) {
  constexpr int kPairs = 12;
  Manager manager(often_growing_table());
  manager.add_variables(2 * kPairs);
  const Bdd f = pairs_function(2 * kPairs);
  const VarPermutation split = split_pairs(kPairs);
  const std::uint64_t before = manager.stats().nodes_produced;
  manager.set_production_limit(before + 100);
  EXPECT_THROW((void)f.replace(split), ProductionLimitPassed);
  EXPECT_GT(manager.stats().nodes_produced, before + 100);
  manager.set_production_limit(std::nullopt);
  expect_split_of(f.replace(split), f, kPairs);
}

TEST(ProductionLimitTest, ALimitAboveTheWorkChangesNothing) {
  Manager manager(often_growing_table());
  manager.add_variables(24);
  const Bdd f = pairs_function(24);
  manager.set_production_limit(manager.stats().nodes_produced + 100'000'000);
  expect_split_of(f.replace(split_pairs(12)), f, 12);
  EXPECT_GT(manager.stats().garbage_collections, 0U);
}

// A table with room for every node of an operation: it never collects, so before the watchdog
// no limit stopped it (checkstyle's 2-type+H run went 600 s past --time-limit in one sweep).
ManagerSettings roomy_table() {
  ManagerSettings settings;
  settings.initial_nodes = 4'000'000;  // the 2^18-node split below and its garbage
  settings.limit_poll_period = std::chrono::milliseconds(1);
  return settings;
}

constexpr int kRoomyPairs = 18;

TEST(WatchdogTest, TheRoomyTableHoldsTheWholeSplitWithoutACollection) {
  Manager manager(roomy_table());
  manager.add_variables(2 * kRoomyPairs);
  const Bdd f = pairs_function(2 * kRoomyPairs);
  expect_split_of(f.replace(split_pairs(kRoomyPairs)), f, kRoomyPairs);
  EXPECT_EQ(manager.stats().garbage_collections, 0U);
}

TEST(WatchdogTest, AnOperationThatNeverCollectsStillStopsAtTheDeadline) {
  Manager manager(roomy_table());
  manager.add_variables(2 * kRoomyPairs);
  const Bdd f = pairs_function(2 * kRoomyPairs);
  const VarPermutation split = split_pairs(kRoomyPairs);
  manager.set_deadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
  EXPECT_THROW((void)f.replace(split), DeadlinePassed);
  EXPECT_GT(manager.stats().garbage_collections, 0U);
  manager.set_deadline(std::nullopt);
  expect_split_of(f.replace(split), f, kRoomyPairs);
}

TEST(WatchdogTest, AnOperationThatNeverCollectsStillStopsAtTheProductionLimit) {
  Manager manager(roomy_table());
  manager.add_variables(2 * kRoomyPairs);
  const Bdd f = pairs_function(2 * kRoomyPairs);
  const VarPermutation split = split_pairs(kRoomyPairs);
  manager.set_production_limit(manager.stats().nodes_produced + 100);
  EXPECT_THROW((void)f.replace(split), ProductionLimitPassed);
  manager.set_production_limit(std::nullopt);
  expect_split_of(f.replace(split), f, kRoomyPairs);
}

// Between operations the watchdog leaves the free list alone: work outside them is not
// stopped, and a limit lifted again leaves nothing behind.
TEST(WatchdogTest, APassedDeadlineBetweenOperationsForcesNoCollection) {
  Manager manager(roomy_table());
  manager.add_variables(2 * kRoomyPairs);
  manager.set_deadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const Bdd f = pairs_function(2 * kRoomyPairs);  // node by node: no operation
  manager.set_deadline(std::nullopt);
  EXPECT_EQ(manager.stats().garbage_collections, 0U);
  expect_split_of(f.replace(split_pairs(kRoomyPairs)), f, kRoomyPairs);
  EXPECT_EQ(manager.stats().garbage_collections, 0U);
}

TEST(BddOpsTest, XorOfASubsetIsTheDifference) {
  Manager manager(ManagerSettings{});
  manager.add_variables(12);
  const Bdd a = pairs_function(12) ^ Bdd::variable(3);
  const Bdd b = a & (Bdd::variable(0) | Bdd::negated_variable(7));
  EXPECT_TRUE((a ^ b) == (a - b));
  EXPECT_TRUE((a ^ a).is_zero());
  EXPECT_TRUE((a ^ Bdd::zero()) == a);
}

TEST(BddOpsTest, NodeBuildsTheSameFunctionAsIte) {
  Manager manager(ManagerSettings{});
  manager.add_variables(8);
  const Bdd low = Bdd::variable(5) & Bdd::negated_variable(7);
  const Bdd high = Bdd::variable(4) | Bdd::variable(6);
  EXPECT_TRUE(Bdd::node(2, low, high) == Bdd::ite(Bdd::variable(2), high, low));
  EXPECT_TRUE(Bdd::node(0, low, low) == low);  // reduced
  EXPECT_TRUE(Bdd::node(1, Bdd::zero(), Bdd::one()) == Bdd::variable(1));
}

// makenode runs outside BuDDy's setjmp: an exhausted table must throw, not
// unwind to a stale jump buffer (crashed before).
TEST(BddOpsTest, NodeOnAnExhaustedTableThrows) {
  ManagerSettings settings;
  settings.initial_nodes = 1000;
  settings.max_nodes = 1000;
  settings.cache_size = 1000;
  Manager manager(settings);
  manager.add_variables(20);
  (void)(Bdd::variable(0) & Bdd::variable(1));  // leaves a jump buffer behind
  std::vector<Bdd> held;
  EXPECT_THROW(
      for (int i = 0; i < 100000; ++i) {
        // A distinct node each time: a chain of i's low bits.
        Bdd f = Bdd::one();
        for (int v = 19; v >= 4; --v)
          f = ((i >> (19 - v)) & 1) != 0 ? Bdd::node(v, f, Bdd::zero())
                                         : Bdd::node(v, Bdd::zero(), f);
        held.push_back(f);
      },
      NodeTableExhausted);
  held.clear();
  EXPECT_TRUE((Bdd::variable(2) | Bdd::variable(3)) == Bdd::node(2, Bdd::variable(3), Bdd::one()));
}

}  // namespace
}  // namespace refract::bdd
