#include "bdd/watchdog.hpp"

#include <utility>

namespace refract::bdd {

Watchdog::Watchdog(std::chrono::milliseconds period, std::function<void()> check)
    : period_(period), check_(std::move(check)), thread_([this] { run(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void Watchdog::arm(bool on) {
  {
    std::lock_guard lock(mutex_);
    armed_ = on;
  }
  changed_.notify_all();
}

void Watchdog::run() {
  std::unique_lock lock(mutex_);
  while (!quit_) {
    if (!armed_) {
      changed_.wait(lock, [this] { return quit_ || armed_; });
      continue;
    }
    changed_.wait_for(lock, period_, [this] { return quit_ || !armed_; });
    if (quit_ || !armed_) continue;
    check_();
  }
}

}  // namespace refract::bdd
