#include "cli/compare_child.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "support/stopwatch.hpp"

namespace refract::cli {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kChildSetupFailed = 125;
constexpr int kChildThrew = 3;  // commands.hpp's kExitInternal
// How often compare looks whether a child with a deadline has ended.
constexpr auto kPollInterval = std::chrono::milliseconds(20);

// In the child: output to `log` (when given), run, and exit without running the parent's
// atexit handlers or flushing its stdio buffers a second time.
[[noreturn]] void child_main(const std::function<int()>& body,
                             const std::optional<std::filesystem::path>& log) {
  if (log) {
    const int fd = ::open(log->c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0 || ::dup2(fd, STDERR_FILENO) < 0)
      std::_Exit(kChildSetupFailed);
    ::close(fd);
  }
  int code = kChildThrew;
  try {
    code = body();
  } catch (const std::exception& e) {
    std::cerr << "refract compare: run failed: " << e.what() << '\n';
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

int wait_for(pid_t child, int options) {
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(child, &status, options);
    if (done == child) return status;
    if (done == 0) return -1;  // WNOHANG: still running
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
}

}  // namespace

StartedChild start_child(const std::function<int()>& body,
                         const std::optional<std::filesystem::path>& log) {
  // Buffered output would otherwise be written by both processes.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  StartedChild child;
  child.start = Clock::now();
  child.pid = ::fork();
  if (child.pid < 0) throw std::runtime_error("cannot start a run: fork failed");
  if (child.pid == 0) child_main(body, log);
  return child;
}

ChildOutcome wait_for_child(const StartedChild& child, double deadline_seconds) {
  ChildOutcome outcome;
  int status = 0;
  if (deadline_seconds <= 0) {
    status = wait_for(child.pid, 0);
  } else {
    for (;;) {
      status = wait_for(child.pid, WNOHANG);
      if (status != -1) break;
      if (seconds_since(child.start) > deadline_seconds) {
        ::kill(child.pid, SIGKILL);
        status = wait_for(child.pid, 0);
        outcome.killed_at_deadline = true;
        break;
      }
      std::this_thread::sleep_for(kPollInterval);
    }
  }
  outcome.seconds = seconds_since(child.start);
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  return outcome;
}

ChildOutcome run_in_child(const std::function<int()>& body, const std::filesystem::path& log,
                          double deadline_seconds) {
  return wait_for_child(start_child(body, log), deadline_seconds);
}

std::string describe(const ChildOutcome& outcome) {
  std::ostringstream text;
  if (outcome.killed_at_deadline) {
    text << "killed after " << outcome.seconds << " s";
  } else if (outcome.signal) {
    text << "signal " << *outcome.signal;
  } else if (outcome.exit_code && *outcome.exit_code == 0) {
    text << "ok";
  } else {
    text << "exit " << outcome.exit_code.value_or(-1);
  }
  return text.str();
}

std::string last_log_line(const std::filesystem::path& log) {
  std::ifstream in(log);
  std::string last;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) last = line;
  return last.empty() ? "no output" : last;
}

}  // namespace refract::cli
