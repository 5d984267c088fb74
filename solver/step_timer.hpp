// The time of each step of one rule evaluation, for --stats' step_seconds.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace refract::solver {

// Adds the time of each step to `seconds[step]`: next() closes a step and opens the next. A step
// the evaluation leaves early (an empty delta ends it) is charged when the timer goes, so that
// the steps account for the rule's time.
class StepTimer {
 public:
  StepTimer(std::vector<double>& seconds, std::size_t steps)
      : seconds_(seconds), start_(Clock::now()) {
    if (seconds_.size() < steps) seconds_.resize(steps, 0.0);
  }
  ~StepTimer() {
    if (step_ < seconds_.size()) seconds_[step_] += elapsed();
  }
  StepTimer(const StepTimer&) = delete;
  StepTimer& operator=(const StepTimer&) = delete;

  void next() { seconds_[step_++] += elapsed(); }

 private:
  using Clock = std::chrono::steady_clock;

  double elapsed() {
    const auto now = Clock::now();
    const double out = std::chrono::duration<double>(now - start_).count();
    start_ = now;
    return out;
  }

  std::vector<double>& seconds_;
  std::size_t step_ = 0;
  Clock::time_point start_;
};

}  // namespace refract::solver
