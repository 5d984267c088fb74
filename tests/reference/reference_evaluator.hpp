// A deliberately simple Datalog evaluator over explicit tuple sets: the oracle
// the BDD engine is checked against. It shares nothing with solver/ but the
// AST: it reads its own inputs, computes its own strata, and evaluates each
// stratum naively (every rule, every iteration, until nothing changes). A rule
// body is a join over sets of variable bindings; filters run as soon as their
// variables are bound, and variables no later literal reads are dropped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/ast.hpp"

namespace refract::reference {

using Tuple = std::vector<std::uint64_t>;
using TupleSet = std::set<Tuple>;
using Database = std::map<std::string, TupleSet>;  // relation name -> tuples

// The program or an input is something the reference does not evaluate: an
// unknown name, an unsafe rule, negation through recursion, a bad tuple line.
class ReferenceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads a bddbddb `.tuples` file for `relation`: an optional `# D0:6 E0:3`
// header (its column count must match), then one tuple per line; a field is
// a number, `*` (every element of the column's domain) or `lo-hi` (inclusive).
TupleSet read_tuples_file(const std::filesystem::path& file, const solver::RelationDecl& relation,
                          const solver::Program& program);

// Every declared relation's tuples after evaluating `program`; inputtuples
// relations are read from `input_dir/NAME.tuples`, domain maps from
// `input_dir/MAPFILE`.
Database evaluate(const solver::Program& program, const std::filesystem::path& input_dir);

// The strata in evaluation order: each holds the relations whose rules run
// together. A relation sits in a stratum at least as high as every relation
// its rules use positively, and strictly higher than every one they negate.
std::vector<std::vector<std::string>> stratify(const solver::Program& program);

}  // namespace refract::reference
