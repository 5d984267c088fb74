// A thread that runs a check at a fixed period while it is armed. The manager uses it to cut
// short a BuDDy operation that runs on past a limit without ever collecting (bdd/manager.cpp).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace refract::bdd {

class Watchdog {
 public:
  // `check` runs on the watchdog's thread, every `period` while armed, never after the
  // destructor has returned.
  Watchdog(std::chrono::milliseconds period, std::function<void()> check);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void arm(bool on);

 private:
  void run();

  std::chrono::milliseconds period_;
  std::function<void()> check_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool armed_ = false;
  bool quit_ = false;
  std::thread thread_;
};

}  // namespace refract::bdd
