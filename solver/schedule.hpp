// The order in which a recursive stratum's rules run on their deltas (issue 32): a unit of its
// own, so that schedules can be written, tested and compared one beside another. Every
// schedule runs rules only while some rule has unseen tuples and stops when none has, so on
// monotone rules all of them reach the same fixpoint; they differ in how much work it takes.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace refract::solver {

class Schedule {
 public:
  virtual ~Schedule() = default;
  // The position (into the stratum's rules) of the rule to evaluate next, given which
  // positions have tuples their rule has not seen; nullopt once none has (the fixpoint).
  virtual std::optional<std::size_t> next(const std::function<bool(std::size_t)>& pending) = 0;
  // What an evaluation of the rule at `position` cost (the first sweep's included): the BDD
  // nodes it produced, its delta and absorbing its result included. Unlike seconds, the same
  // on every run, so that a schedule that ranks rules by cost runs the same sequence each time.
  virtual void evaluated(std::size_t position, double cost) = 0;
  // Rounds begun so far: the progress lines and limit messages count them as sweeps.
  virtual std::size_t round() const = 0;
};

// The schedules --schedule names, the default first.
const std::vector<std::string>& schedule_names();
// One schedule for a stratum of `rules` rules; throws std::invalid_argument naming the known
// schedules for an unknown name.
std::unique_ptr<Schedule> make_schedule(std::string_view name, std::size_t rules);

}  // namespace refract::solver
