// One run of `refract compare` (or one candidate of `refract order-search`) in a process of its
// own: a fork after the facts are extracted, so that one variant's memory (the BDD node table
// above all) never weighs on the next, and a crash or a time limit ends that run alone. Also a
// child started now and waited for later (start_child): the JDK cache's entry built on a second
// core beside the analysis that needs it (cli/jdk_cache.hpp).
#pragma once

#include <sys/types.h>

#include <chrono>
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

// A child running beside its parent.
struct StartedChild {
  pid_t pid = 0;
  std::chrono::steady_clock::time_point start;
};

// Forks a child that runs `body` and exits with what it returns (3 if it throws), its stdout
// and stderr going to `log`, or staying the parent's without one. std::runtime_error when the
// child cannot be started.
StartedChild start_child(const std::function<int()>& body,
                         const std::optional<std::filesystem::path>& log);

// Waits for `child` to end; past `deadline_seconds` from its start (0: no deadline) kills it.
ChildOutcome wait_for_child(const StartedChild& child, double deadline_seconds);

// What the outcome says in a report: "ok", "exit 4", "signal 9", "killed after 60 s".
std::string describe(const ChildOutcome& outcome);

// The last non-empty line of a child's log, "no output" for none: the error that ended it (a
// time limit says where the solver stopped), or, for a run killed or crashed, the last
// progress it made.
std::string last_log_line(const std::filesystem::path& log);

}  // namespace refract::cli
