// The parsed form of a bddbddb-style Datalog program. The parser fills it, the
// checker validates it, the stratifier orders it, and both the BDD evaluator
// and the reference evaluator in tests/ consume it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "support/error.hpp"

namespace refract::solver {

struct DomainDecl {
  std::string name;                     // e.g. "V"
  std::uint64_t size = 0;               // elements 0..size-1; at most 2^62
  std::optional<std::string> map_file;  // as written; resolved against the input dir
  SourceLocation where;
};

struct AttributeDecl {
  std::string name;             // e.g. "variable"
  std::string domain;           // logical domain, e.g. "V" (digits of "V1" stripped)
  std::optional<int> instance;  // physical instance if written ("V1" -> 1)
  SourceLocation where;
};

enum class RelationFlag { kInput, kInputTuples, kOutput, kOutputTuples, kPrintSize, kPrintTuples };

struct RelationDecl {
  std::string name;
  std::vector<AttributeDecl> attributes;
  std::vector<RelationFlag> flags;
  SourceLocation where;

  bool has(RelationFlag flag) const {
    for (RelationFlag f : flags)
      if (f == flag) return true;
    return false;
  }
};

// One argument of an atom or a side of a comparison.
struct Term {
  enum class Kind {
    kVariable,  // x
    kWildcard,  // _   (any value, not shared)
    kUniverse,  // *   (any value of the domain; allowed in heads)
    kNumber,    // 42
    kName,      // "quoted"  (looked up in the domain's element map)
  };
  Kind kind = Kind::kVariable;
  std::string text;          // variable name or quoted name (without quotes)
  std::uint64_t number = 0;  // for kNumber
  SourceLocation where;
};

struct Atom {
  std::string relation;
  std::vector<Term> arguments;
  bool negated = false;
  SourceLocation where;
};

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe };

struct Comparison {
  Term left;
  CompareOp op = CompareOp::kEq;
  Term right;
  SourceLocation where;
};

using Literal = std::variant<Atom, Comparison>;

// The variables a body literal reads, in the order written (repeats kept).
std::vector<std::string> variables_of(const Literal& literal);

struct Rule {
  Atom head;
  std::vector<Literal> body;  // empty for a fact: "r(1, 2)."
  std::string text;           // the rule as written, one line, for messages and profiles
  SourceLocation where;
};

struct Program {
  std::string file;                     // the top-level program file as given
  std::vector<DomainDecl> domains;      // declaration order
  std::vector<RelationDecl> relations;  // declaration order
  std::vector<Rule> rules;              // source order (includes expanded in place)

  // Directives (the command line overrides these).
  std::optional<std::string> var_order;  // .bddvarorder
  std::optional<SourceLocation> var_order_where;
  std::optional<std::uint64_t> bdd_nodes;  // .bddnodes
  std::optional<std::uint64_t> bdd_cache;  // .bddcache
  std::optional<std::string> base_dir;     // .basedir, already joined onto the program's dir

  std::vector<std::string> warnings;  // "FILE:LINE:COL: warning: ..."

  const DomainDecl* find_domain(const std::string& name) const;
  const RelationDecl* find_relation(const std::string& name) const;
};

}  // namespace refract::solver
