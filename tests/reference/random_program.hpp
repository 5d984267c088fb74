// Random stratified Datalog programs for the differential test: bddbddb text,
// its inputs, and three variable orders, all determined by one seed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "solver/ast.hpp"

namespace refract::reference {

struct GeneratedProgram {
  std::uint64_t seed = 0;
  // The program as generated; `text` says exactly this. The reference
  // evaluates it directly, so a parser bug cannot hide an engine bug.
  solver::Program program;
  std::string text;                      // bddbddb syntax, also in DIR/program.datalog
  std::vector<std::string> inputs;       // inputtuples relations, each in DIR/NAME.tuples
  std::vector<std::string> derived;      // relations computed by rules
  std::map<std::string, int> instances;  // domain -> physical instances the engine needs
  // Three orders, each naming every instance once: every instance its own
  // block in declaration order; the reverse of that; and interleaved blocks.
  std::vector<std::string> var_orders;
};

// Writes the program, its `.tuples` inputs and one domain's `.map` file into
// `directory` (which must exist). 1-3 domains of 1..64 elements, 2-4 inputs
// and 2-5 derived relations of arity 1-4 in up to three strata, with
// recursion, negation, constants, `_`, `*` and `_` heads, comparisons of all six kinds,
// repeated attribute names, and variables no positive atom binds (in heads, facts, negated
// atoms and comparisons: each ranges over its domain, or, written only in one negated atom,
// is quantified inside it); every rule uses each variable with one domain.
GeneratedProgram generate_random_program(std::uint64_t seed,
                                         const std::filesystem::path& directory);

// One rule in bddbddb syntax, e.g. `q0(v0, 3) :- p1(v0, _), !q1(v0), v0 != "e2".`
std::string rule_text(const solver::Rule& rule);

}  // namespace refract::reference
