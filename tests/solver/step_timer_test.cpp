// StepTimer (solver/step_timer.hpp): --stats' time per step of a rule.
#include "solver/step_timer.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

namespace refract::solver {
namespace {

using namespace std::chrono_literals;

TEST(StepTimerTest, EachClosedStepGetsItsTime) {
  std::vector<double> seconds;
  {
    StepTimer timer(seconds, 2);
    std::this_thread::sleep_for(20ms);
    timer.next();
    timer.next();
  }
  ASSERT_EQ(seconds.size(), 2u);
  EXPECT_GE(seconds[0], 0.02);
}

// An evaluation that stops at step 1 (its delta came out empty) still charges step 1: the
// timer once dropped it, and the profile of a rule lost most of its time.
TEST(StepTimerTest, AStepLeftEarlyIsChargedWhenTheTimerGoes) {
  std::vector<double> seconds;
  {
    StepTimer timer(seconds, 3);
    timer.next();
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_EQ(seconds.size(), 3u);
  EXPECT_GE(seconds[1], 0.02);
  EXPECT_EQ(seconds[2], 0.0);
}

TEST(StepTimerTest, TimesAddUpOverEvaluations) {
  std::vector<double> seconds;
  for (int run = 0; run < 2; ++run) {
    StepTimer timer(seconds, 1);
    std::this_thread::sleep_for(10ms);
    timer.next();
  }
  EXPECT_GE(seconds[0], 0.02);
}

}  // namespace
}  // namespace refract::solver
