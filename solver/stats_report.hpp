// The --stats report of `refract solve`: phase times, the order used, BDD
// node statistics, exact relation sizes (as strings: they exceed 2^53) and the
// per-rule profile.
#pragma once

#include <map>
#include <string>

#include "solver/engine.hpp"

namespace refract::solver {

struct PhaseTimes {
  double parse = 0, solve = 0, write = 0, total = 0;
};

// `stopped` (when not empty) says why solving ended before its fixpoint (TimeLimitReached's
// message): the report then describes the relations and profile at that point.
std::string stats_json(const Program& program, const Engine& engine, const PhaseTimes& times,
                       const std::string& stopped = "");

}  // namespace refract::solver
