// One run of `refract compare` in a process of its own: a fork of compare after the facts are
// extracted, so that one variant's memory (the BDD node table above all) never weighs on the
// next, and a crash or a time limit ends that run alone.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace refract::cli {

struct ChildOutcome {
  std::optional<int> exit_code;  // when the child exited
  std::optional<int> signal;     // when a signal ended it
  bool killed_at_deadline = false;
  double seconds = 0;  // wall seconds from fork to exit
};

// Runs `body` in a forked child with stdout and stderr going to `log`; the child exits with
// what `body` returns (3 if it throws). Past `deadline_seconds` (0: no deadline) compare kills
// it. std::runtime_error when the child cannot be started.
ChildOutcome run_in_child(const std::function<int()>& body, const std::filesystem::path& log,
                          double deadline_seconds);

// What the outcome says in a report: "ok", "exit 4", "signal 9", "killed after 60 s".
std::string describe(const ChildOutcome& outcome);

}  // namespace refract::cli
