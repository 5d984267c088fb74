// Orders the rules of a checked program for evaluation. Relations are the
// nodes of a dependency graph with an edge from every body relation to the
// head relation of its rule (negative for a negated atom); each strongly
// connected component that some rule defines is a stratum.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "solver/ast.hpp"

namespace refract::solver {

struct Stratum {
  std::vector<std::string> relations;  // relations defined (heads) in this SCC, declaration order
  std::vector<std::size_t>
      rules;  // indices into Program::rules whose head is in this SCC, source order
  bool recursive =
      false;  // true if some rule of the stratum uses a relation of the same SCC positively
};

// Strata in dependency order: a stratum comes after every stratum it reads;
// among strata free to go first, the one with the earliest rule goes first.
// Relations no rule defines (inputs, unused) get no stratum. Throws
// InputError "negation through recursion: p -> !q -> p" at the first negated
// atom whose relation depends on the rule's head.
std::vector<Stratum> stratify(const Program& program);

}  // namespace refract::solver
