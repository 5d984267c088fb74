// The parsed form of a bddbddb-style Datalog program. The parser fills it, the
// checker validates it, the stratifier orders it, and both the BDD evaluator
// and the reference evaluator in tests/ consume it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
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

// A relation option like `v<h` (attribute v's instance above h's in the variable order) or
// `dest=source` (the two interleaved): bddbddb's hints for an order it finds itself. The
// order refract chooses when the program gives none honours them.
struct OrderConstraint {
  std::size_t left = 0;  // attribute indices
  std::size_t right = 0;
  bool interleaved = false;  // '=' (else '<')
  std::string text;          // as written, for messages
  SourceLocation where;
};

struct RelationDecl {
  std::string name;
  std::vector<AttributeDecl> attributes;
  std::vector<RelationFlag> flags;
  std::vector<OrderConstraint> order_constraints;
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
  // bddbddb's `number` option: the body is a graph (its first atom the roots, the others
  // edges) whose paths the head numbers (solver/numbering_rule.hpp) instead of a join.
  std::optional<SourceLocation> numbering;
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
  // .strict: a relation a rule uses must be declared (else its first use declares it, as
  // bddbddb does).
  bool strict_declarations = false;

  std::vector<std::string> warnings;  // "FILE:LINE:COL: warning: ..."

  const DomainDecl* find_domain(const std::string& name) const;
  const RelationDecl* find_relation(const std::string& name) const;
};

// The domain (name) of each variable of `rule`, from the attribute positions it fills in the
// head and body; a variable seen only in comparisons takes the domain of the other side.
// Variables of unknown relations or positions are left out (the checker names them).
std::map<std::string, std::string> variable_domains(const Program& program, const Rule& rule);

// The variables of `rule` that a positive body atom binds, directly or through `=` with a
// constant or with a variable so bound.
std::set<std::string> bound_variables(const Rule& rule);
// Variables written only in one negated atom (once or more): like `_` there, they are
// quantified inside the negation: `!s(x, y)` holds when s(x, y) holds for no y. (bddbddb
// quantifies them out of the complement instead, which holds for almost every x.)
std::set<std::string> negation_local_variables(const Rule& rule);
// The rule's other variables (head, negated atoms, comparisons) that neither of the above
// binds, in the order first written. bddbddb's meaning, which refract keeps: each ranges over
// every element of its domain.
std::vector<std::string> unbound_variables(const Rule& rule);

}  // namespace refract::solver
