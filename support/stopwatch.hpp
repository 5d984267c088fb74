// Elapsed wall time on the steady clock: what progress lines, reports and limits read.
#pragma once

#include <chrono>

namespace refract {

using SteadyClock = std::chrono::steady_clock;

// Seconds since `start`; the steady clock, so a clock change mid-run cannot make it negative.
inline double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

}  // namespace refract
