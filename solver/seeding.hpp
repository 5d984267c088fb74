// Which derived relations a solve may start from a seed: their values in an earlier solve of
// the same rules on fewer input tuples (the JDK's start-up fixpoint, issue 35). A seed is sound
// where it is a subset of the relation's new least fixpoint; it then only spares the work of
// deriving it again. That holds for a relation whose every dependency is monotone in inputs
// that only grew. It fails where a rule on the way negates a relation that may have grown,
// numbers paths of a graph that may have grown, or reads an input that lost tuples: such a
// relation, and every relation that reads it, is recomputed from nothing.
#pragma once

#include <map>
#include <set>
#include <string>

#include "solver/ast.hpp"

namespace refract::solver {

// How an input relation compares with its value in the seed's solve.
enum class InputChange {
  kSame,
  kGrew,   // a strict superset
  kOther,  // lost tuples, or the seed does not have it: anything may differ
};

struct SeedPlan {
  std::set<std::string> seeded;                   // derived relations started from their seed
  std::map<std::string, std::string> recomputed;  // derived relation -> why it is not seeded
};

// `inputs`: every relation the solve loads rather than derives, and how it changed; a derived
// relation that is also loaded counts as an input. `available`: the relations the seed has.
SeedPlan plan_seeds(const Program& program, const std::map<std::string, InputChange>& inputs,
                    const std::set<std::string>& available);

}  // namespace refract::solver
