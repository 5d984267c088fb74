// The neighbourhood and the hill climbing of refract order-search, on orders measured by a
// cost function in place of solves.
#include "bdd/order_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bdd/order_neighbours.hpp"
#include "bdd/var_order.hpp"

namespace refract::bdd {
namespace {

const std::vector<std::string> kNames = {"A0", "B0", "B1", "C0", "C1", "Z0"};

VarOrder order(const std::string& text) {
  return parse_var_order(text, kNames);
}

std::vector<std::string> texts(const std::vector<VarOrder>& orders) {
  std::vector<std::string> out;
  for (const VarOrder& o : orders) out.push_back(o.to_string());
  return out;
}

bool has(const std::vector<std::string>& list, const std::string& text) {
  return std::find(list.begin(), list.end(), text) != list.end();
}

TEST(OrderNeighboursTest, SwapsSplitsMergesAndMovesBlocksEachOnce) {
  const std::vector<std::string> n = texts(order_neighbours(order("A0_B0xB1_C0"), {}));
  const std::vector<std::string> expected = {"B0xB1_A0_C0", "A0_C0_B0xB1",  // adjacent swaps
                                             "A0_B0_B1_C0",                 // split
                                             "A0xB0xB1_C0", "A0_B0xB1xC0",  // merges
                                             // moved two places: A0 to the bottom, C0 to the top
                                             "B0xB1_C0_A0", "C0_A0_B0xB1"};
  EXPECT_EQ(n, expected);
}

TEST(OrderNeighboursTest, EveryNeighbourKeepsEveryNameOnce) {
  const VarOrder start = order("Z0_A0_B0xB1_C0xC1");
  NeighbourChoices choices;
  choices.single = {"C0", "C1"};
  const std::vector<VarOrder> n = order_neighbours(start, choices);
  EXPECT_GT(n.size(), 10U);
  std::vector<std::string> names = start.names();
  std::sort(names.begin(), names.end());
  std::set<std::string> distinct;
  for (const VarOrder& o : n) {
    std::vector<std::string> got = o.names();
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, names) << o.to_string();
    // Each is accepted as an order of these names.
    EXPECT_EQ(parse_var_order(o.to_string(), kNames).to_string(), o.to_string());
    EXPECT_TRUE(distinct.insert(o.to_string()).second) << o.to_string();
  }
  EXPECT_EQ(distinct.count(start.to_string()), 0U);
}

TEST(OrderNeighboursTest, SingleNamesMoveOneStepOutOfOrIntoTheBlocksAround) {
  NeighbourChoices choices;
  choices.single = {"C0"};
  const std::vector<std::string> n = texts(order_neighbours(order("A0_B0xC0xB1_Z0"), choices));
  EXPECT_TRUE(has(n, "A0_C0_B0xB1_Z0"));   // out of its block, above it
  EXPECT_TRUE(has(n, "A0_B0xB1_C0_Z0"));   // out of its block, below it
  EXPECT_TRUE(has(n, "A0xC0_B0xB1_Z0"));   // joining the block above
  EXPECT_TRUE(has(n, "A0_B0xB1_Z0xC0"));   // joining the block below
  EXPECT_FALSE(has(n, "C0_A0_B0xB1_Z0"));  // two steps: not a single move
  // Names not chosen as single move only with their blocks.
  EXPECT_FALSE(has(n, "A0_B0xC0_B1_Z0"));
}

// Orders that differ only in where an ignored name stands count as the order itself.
TEST(OrderNeighboursTest, OrdersDifferingOnlyInIgnoredNamesAreOne) {
  NeighbourChoices choices;
  choices.ignored = {"Z0"};
  const std::vector<std::string> n = texts(order_neighbours(order("Z0_A0_B0"), choices));
  for (const std::string& text : n) EXPECT_NE(effective_order(order(text), {"Z0"}), "A0_B0");
  EXPECT_TRUE(has(n, "Z0_B0_A0"));
  EXPECT_FALSE(has(n, "A0_Z0_B0"));
  EXPECT_EQ(effective_order(order("A0xZ0_B0"), {"Z0"}), "A0_B0");
}

// Where each name's block stands, top first.
std::map<std::string, std::size_t> block_of(const VarOrder& o) {
  std::map<std::string, std::size_t> out;
  for (std::size_t b = 0; b < o.blocks.size(); ++b)
    for (const std::string& name : o.blocks[b]) out[name] = b;
  return out;
}

// A cost that counts the pairs of names placed otherwise (one above the other, or together)
// than in the wanted order A0_B0xB1_C0, 100 nodes a pair: the climb reaches the wanted one.
OrderRun cost(const VarOrder& o) {
  const std::map<std::string, std::size_t> wanted = block_of(order("A0_B0xB1_C0"));
  const std::map<std::string, std::size_t> got = block_of(o);
  auto compare = [](std::size_t a, std::size_t b) { return a < b ? -1 : a > b ? 1 : 0; };
  std::uint64_t pairs = 0;
  for (const auto& [x, wx] : wanted)
    for (const auto& [y, wy] : wanted)
      if (x < y && compare(wx, wy) != compare(got.at(x), got.at(y))) ++pairs;
  return {RunEnd::kBound, 100 * pairs + 50, 0.1, ""};
}

TEST(OrderSearchTest, ClimbsToTheBestOrderAndRanksEveryTriedOrder) {
  const VarOrder start = order("C0_A0_B0_B1");
  std::vector<std::size_t> numbers;
  const std::vector<TriedOrder> tried = climb(
      {start, cost(start), 1}, {},
      [&](const VarOrder& o, const CandidatePlace& place) {
        numbers.push_back(place.number);
        EXPECT_LE(place.neighbour, place.neighbours);
        return cost(o);
      },
      [] { return true; });
  ASSERT_FALSE(tried.empty());
  EXPECT_EQ(tried.front().order.to_string(), "A0_B0xB1_C0");
  EXPECT_EQ(tried.front().run.nodes_produced, 50U);
  for (std::size_t i = 1; i < tried.size(); ++i)
    EXPECT_FALSE(ranks_before(tried[i], tried[i - 1])) << i;
  // Numbered in sequence, the start first, none measured twice.
  EXPECT_EQ(numbers.size() + 1, tried.size());
  for (std::size_t i = 0; i < numbers.size(); ++i) EXPECT_EQ(numbers[i], i + 2);
  std::set<std::string> distinct;
  for (const TriedOrder& t : tried) EXPECT_TRUE(distinct.insert(t.order.to_string()).second);
}

TEST(OrderSearchTest, StopsWhenTheBudgetSaysSoAndKeepsTheStartAgainstNoBetter) {
  const VarOrder start = order("A0_B0xB1_C0");
  int budget = 3;
  const std::vector<TriedOrder> tried = climb(
      {start, {RunEnd::kBound, 500, 1, ""}, 1}, {},
      [](const VarOrder&, const CandidatePlace&) {
        return OrderRun{RunEnd::kBound, 500, 1, ""};
      },
      [&] { return budget-- > 0; });
  ASSERT_EQ(tried.size(), 4U);
  EXPECT_EQ(tried.front().number, 1U);  // a tie goes to the start
}

// A candidate the budget cut short has no measure: it is left out, and the search ends.
TEST(OrderSearchTest, ACandidateCutShortIsLeftOutAndEndsTheClimb) {
  const VarOrder start = order("A0_B0xB1_C0");
  int measured = 0;
  const std::vector<TriedOrder> tried = climb(
      {start, {RunEnd::kBound, 500, 1, ""}, 1}, {},
      [&](const VarOrder&, const CandidatePlace&) {
        return ++measured < 3 ? OrderRun{RunEnd::kBound, 600, 1, ""}
                              : OrderRun{RunEnd::kCutShort, 10, 1, ""};
      },
      [] { return true; });
  EXPECT_EQ(measured, 3);
  ASSERT_EQ(tried.size(), 3U);
  for (const TriedOrder& t : tried) EXPECT_EQ(t.run.end, RunEnd::kBound);
}

TEST(OrderSearchTest, StoppedRunsRankAfterEveryRunThatReachedTheBound) {
  const TriedOrder bound{order("A0"), {RunEnd::kBound, 900, 1, ""}, 3};
  const TriedOrder capped{order("A0"), {RunEnd::kNodeCap, 100, 1, ""}, 2};
  const TriedOrder timed{order("A0"), {RunEnd::kTimeLimit, 50, 1, ""}, 4};
  const TriedOrder failed{order("A0"), {RunEnd::kFailed, 0, 1, ""}, 5};
  EXPECT_TRUE(ranks_before(bound, capped));
  EXPECT_TRUE(ranks_before(capped, timed));
  EXPECT_TRUE(ranks_before(timed, failed));
  EXPECT_FALSE(ranks_before(capped, bound));
}

}  // namespace
}  // namespace refract::bdd
