// The schedules of solver/schedule.hpp on a simulated stratum: which rule each runs next, when
// it says the fixpoint is reached, and how it counts rounds. That every schedule reaches the
// engine's fixpoint is differential_test's and solve_golden_test's subject.
#include "solver/schedule.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/engine.hpp"

namespace refract::solver {
namespace {

// A stratum where rule k has `pending[k]` evaluations of unseen tuples left, and running rule k
// may give others some (`feeds`, used once each): the positions a schedule runs, in order.
std::vector<std::size_t> run(Schedule& schedule, std::vector<int> pending,
                             std::multimap<std::size_t, std::size_t> feeds = {}) {
  std::vector<std::size_t> ran;
  auto has_pending = [&](std::size_t k) { return pending[k] > 0; };
  while (const std::optional<std::size_t> k = schedule.next(has_pending)) {
    EXPECT_GT(pending[*k], 0) << "ran rule " << *k << " with nothing pending";
    --pending[*k];
    ran.push_back(*k);
    const auto [from, to] = feeds.equal_range(*k);
    for (auto it = from; it != to; ++it) ++pending[it->second];
    feeds.erase(from, to);
    schedule.evaluated(*k, 0.001);
    if (ran.size() > 100) break;
  }
  return ran;
}

// The schedule `name` on a stratum of pending.size() rules runs `expected` in `rounds` rounds.
void expect_runs(const std::string& name, std::vector<int> pending,
                 std::multimap<std::size_t, std::size_t> feeds,
                 const std::vector<std::size_t>& expected, std::size_t rounds) {
  const auto schedule = make_schedule(name, pending.size());
  EXPECT_EQ(run(*schedule, std::move(pending), std::move(feeds)), expected) << name;
  EXPECT_EQ(schedule->round(), rounds) << name;
}

// The round that found nothing pending counts too, as the engine's sweeps do.
TEST(ScheduleTest, RuleFixpointRunsEachRuleAgainWhileItHasUnseenTuples) {
  expect_runs("rule-fixpoint", {2, 0, 1}, {}, {0, 0, 2}, 2);
}

TEST(ScheduleTest, RuleFixpointGoesBackForWhatALaterRuleGaveAnEarlierOne) {
  expect_runs("rule-fixpoint", {1, 1}, {{1, 0}}, {0, 1, 0}, 3);
}

TEST(ScheduleTest, SweepRunsEachPendingRuleOncePerRound) {
  expect_runs("sweep", {2, 0, 1}, {}, {0, 2, 0}, 3);
}

TEST(ScheduleTest, CostOrderSweepsFromTheCheapestRuleSoFarToTheDearest) {
  const auto schedule = make_schedule("cost-order", 3);
  schedule->evaluated(0, 0.9);
  schedule->evaluated(1, 0.5);
  schedule->evaluated(2, 0.1);
  // The order is fixed for a round: rule 2's new cost counts from the next one.
  std::vector<double> costs = {0.9, 0.5, 0.1};
  std::vector<int> pending = {1, 2, 1};
  std::vector<std::size_t> ran;
  auto has_pending = [&](std::size_t k) { return pending[k] > 0; };
  while (const std::optional<std::size_t> k = schedule->next(has_pending)) {
    --pending[*k];
    ran.push_back(*k);
    if (ran.size() == 1) pending = {1, 2, 1};  // rule 2 gave everyone more, itself too
    schedule->evaluated(*k, *k == 2 ? 5.0 : costs[*k]);
  }
  EXPECT_EQ(ran, (std::vector<std::size_t>{2, 2, 1, 1, 0}));
}

TEST(ScheduleTest, CostOrderResortsAtEachRound) {
  const auto schedule = make_schedule("cost-order", 2);
  schedule->evaluated(0, 0.1);
  schedule->evaluated(1, 0.2);
  std::vector<int> pending = {1, 0};
  auto has_pending = [&](std::size_t k) { return pending[k] > 0; };
  EXPECT_EQ(schedule->next(has_pending), 0u);
  pending = {1, 1};
  schedule->evaluated(0, 1.9);                 // rule 0 now costs 1.0 on average, rule 1 0.2
  EXPECT_EQ(schedule->next(has_pending), 0u);  // still this round's order: rule 0 again
  pending = {0, 1};
  EXPECT_EQ(schedule->next(has_pending), 1u);
  pending = {1, 1};
  schedule->evaluated(1, 0.2);
  EXPECT_EQ(schedule->next(has_pending), 1u);  // rule 1 again, at once
  pending = {1, 0};
  EXPECT_EQ(schedule->next(has_pending), 0u);  // the next round, rule 1 first, then rule 0
  EXPECT_EQ(schedule->round(), 2u);
}

TEST(ScheduleTest, CheapFirstRunsThePendingRuleWithTheLowestMeanCost) {
  const auto schedule = make_schedule("cheap-first", 3);
  schedule->evaluated(0, 1.0);
  schedule->evaluated(1, 0.1);
  schedule->evaluated(2, 0.5);
  schedule->evaluated(2, 0.5);
  auto all = [](std::size_t) { return true; };
  EXPECT_EQ(schedule->next(all), 1u);
  auto not_one = [](std::size_t k) { return k != 1; };
  EXPECT_EQ(schedule->next(not_one), 2u);
  // A mean, not a sum: rule 1 now costs (0.1 + 2.0) / 2 = 1.05, more than rule 0.
  schedule->evaluated(1, 2.0);
  EXPECT_EQ(schedule->next(all), 2u);
  auto only_zero_or_one = [](std::size_t k) { return k < 2; };
  EXPECT_EQ(schedule->next(only_zero_or_one), 0u);
  EXPECT_EQ(schedule->next([](std::size_t) { return false; }), std::nullopt);
}

TEST(ScheduleTest, CheapFirstRunsUnmeasuredRulesFirstInTheStratumsOrder) {
  const auto schedule = make_schedule("cheap-first", 3);
  schedule->evaluated(0, 0.2);
  EXPECT_EQ(schedule->next([](std::size_t) { return true; }), 1u);
}

TEST(ScheduleTest, CheapFirstCountsARoundPerAsManyEvaluationsAsRules) {
  const auto schedule = make_schedule("cheap-first", 2);
  EXPECT_EQ(run(*schedule, {2, 2}).size(), 4u);
  EXPECT_EQ(schedule->round(), 2u);
}

TEST(ScheduleTest, EveryScheduleStopsOnlyWhenNothingIsPending) {
  for (const std::string& name : schedule_names()) {
    const auto schedule = make_schedule(name, 4);
    const std::vector<std::size_t> ran = run(*schedule, {1, 3, 0, 2}, {{3, 0}, {0, 2}, {2, 1}});
    EXPECT_EQ(ran.size(), 9u) << name;  // 6 pending at the start, 3 given on the way
  }
}

TEST(ScheduleTest, TheDefaultIsTheEnginesDefault) {
  EXPECT_EQ(schedule_names().front(), EngineOptions{}.schedule);
}

TEST(ScheduleTest, AnUnknownNameListsTheKnownOnes) {
  try {
    make_schedule("fastest", 2);
    FAIL() << "no error for an unknown schedule";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown schedule 'fastest' (known: rule-fixpoint, sweep, cost-order, cheap-first)");
  }
}

}  // namespace
}  // namespace refract::solver
