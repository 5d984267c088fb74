// The semantic checker: one test per kind of error, each with its exact
// FILE:LINE:COL and message, and the legal programs it must accept.
#include "solver/checker.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "solver/parser.hpp"

namespace refract::solver {
namespace {

namespace fs = std::filesystem;

// Rules appended to this header start on line 7.
const std::string kHeader =
    "V 64\n"
    "H 32\n"
    "vP0 (v : V, h : H) input\n"
    "assign (d : V, s : V) inputtuples\n"
    "vP (v : V, h : H) output\n"
    "pair (a : V0, b : V1) output\n";

Program parse(const std::string& text) {
  return parse_program_text(text, "t.dl", ".");
}

std::string check_error(const Program& program) {
  try {
    check_program(program);
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

std::string check_error(const std::string& text) {
  return check_error(parse(text));
}

std::string rule_error(const std::string& rules) {
  return check_error(kHeader + rules);
}

TEST(CheckerTest, AcceptsTheGoldenProgram) {
  EXPECT_NO_THROW(check_program(
      parse_program_file(fs::path(REFRACT_TEST_DATA) / "solver" / "golden" / "main.datalog")));
}

TEST(CheckerTest, AcceptsLegalRules) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h).\n"
                       "vP(v, h) :- assign(v, w), vP(w, h).\n"
                       "vP(*, 3) .\n"
                       "vP(w, h) :- vP0(v, h), w = v.\n"         // bound through '='
                       "vP(x, h) :- vP0(v, h), x = y, y = v.\n"  // ... to a fixpoint
                       "vP(v, h) :- vP0(v, h), x = 3, x < v.\n"  // x bound by a constant, V by v
                       "vP(v, h) :- vP0(v, h), !assign(v, _), h != 31, \"n\" < v, v <= 63.\n"
                       "vP0(v, h) :- vP(v, h).\n"  // adding to an input is allowed
                       "pair(a, b) :- assign(a, b), a != b.\n"),
            "no error");
}

TEST(CheckerTest, UnknownRelation) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), foo(v).\n"), "t.dl:7:24: unknown relation 'foo'");
  EXPECT_EQ(rule_error("bar(v) :- vP0(v, _).\n"), "t.dl:7:1: unknown relation 'bar'");
}

TEST(CheckerTest, UnknownDomain) {
  EXPECT_EQ(check_error("V 4\nr (a : V, b : X) output\n"),
            "t.dl:2:15: unknown domain 'X' for attribute 'b' of relation 'r'");
  EXPECT_EQ(check_error("V 4\nr (a : V, b : X1) output\n"),
            "t.dl:2:15: unknown domain 'X' for attribute 'b' of relation 'r'");
}

TEST(CheckerTest, RepeatedDomainInstance) {
  EXPECT_EQ(check_error("V 4\nr (a : V0, b : V0) output\n"),
            "t.dl:2:16: domain instance 'V0' appears twice in relation 'r'");
  EXPECT_EQ(check_error("V 4\nr (a : V, b : V, c : V1, d : V0) output\n"), "no error");
}

TEST(CheckerTest, RepeatedAttributeName) {
  EXPECT_EQ(check_error("V 4\nr (a : V, a : V) output\n"),
            "t.dl:2:15: attribute 'a' appears twice in relation 'r'");
}

TEST(CheckerTest, ArityMismatch) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h, h).\n"),
            "t.dl:7:13: relation 'vP0' has 2 attributes but 3 arguments are given");
  EXPECT_EQ(rule_error("vP(v) :- vP0(v, _).\n"),
            "t.dl:7:1: relation 'vP' has 2 attributes but 1 argument is given");
}

TEST(CheckerTest, VariableInTwoDomains) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), assign(h, v).\n"),
            "t.dl:7:31: variable 'h' has domain V here but domain H at t.dl:7:7");
}

TEST(CheckerTest, UnboundHeadVariable) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, _).\n"),
            "t.dl:7:7: variable 'h' in the head is not bound by a positive body atom");
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, _), !vP0(_, h).\n"),
            "t.dl:7:7: variable 'h' in the head is not bound by a positive body atom");
  EXPECT_EQ(rule_error("vP(v, 1).\n"),
            "t.dl:7:4: variable 'v' in the head is not bound by a positive body atom");
}

TEST(CheckerTest, UnboundVariableInNegatedAtom) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), !assign(v, w).\n"),
            "t.dl:7:35: variable 'w' in negated atom '!assign' is not bound by a positive body "
            "atom");
}

TEST(CheckerTest, UnboundVariableInComparison) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), v != w.\n"),
            "t.dl:7:29: variable 'w' in comparison 'v != w' is not bound by a positive body atom");
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), x < y.\n"),
            "t.dl:7:24: comparison 'x < y' uses only unbound variables");
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), 3 < y.\n"),
            "t.dl:7:24: comparison '3 < y' uses only unbound variables");
}

TEST(CheckerTest, WildcardInHead) {
  EXPECT_EQ(rule_error("vP(_, h) :- vP0(_, h).\n"),
            "t.dl:7:4: '_' cannot appear in the head of a rule; use '*' for any value");
  EXPECT_EQ(rule_error("vP(*, h) :- vP0(_, h).\n"), "no error");
}

TEST(CheckerTest, ValueOutsideDomain) {
  EXPECT_EQ(rule_error("vP(70, h) :- vP0(_, h).\n"),
            "t.dl:7:4: value 70 is outside domain V (size 64)");
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, 32).\n"),
            "t.dl:7:20: value 32 is outside domain H (size 32)");
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), h < 40.\n"),
            "t.dl:7:28: value 40 is outside domain H (size 32)");
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), 64 != v.\n"),
            "t.dl:7:24: value 64 is outside domain V (size 64)");
  EXPECT_EQ(rule_error("vP(63, 31) :- vP0(63, 31).\n"), "no error");
}

TEST(CheckerTest, ComparisonOfTwoConstants) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), 1 < 2.\n"),
            "t.dl:7:24: comparison '1 < 2' compares two constants");
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), \"a\" = 2.\n"),
            "t.dl:7:24: comparison '\"a\" = 2' compares two constants");
}

TEST(CheckerTest, ComparisonOfDifferentDomains) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), v = h.\n"),
            "t.dl:7:24: comparison 'v = h' compares variables of different domains: 'v' is in V, "
            "'h' is in H");
  // A variable that appears only in comparisons takes its domain from them.
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), x = v, x < h.\n"),
            "t.dl:7:31: comparison 'x < h' compares variables of different domains: 'x' is in V, "
            "'h' is in H");
}

TEST(CheckerTest, WildcardsInComparisons) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), v = _.\n"),
            "t.dl:7:28: '_' cannot appear in a comparison");
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), * != h.\n"),
            "t.dl:7:24: '*' cannot appear in a comparison");
}

TEST(CheckerTest, VariableWithoutDomain) {
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), x = 3.\n"),
            "t.dl:7:24: cannot determine the domain of variable 'x'; it appears in no atom");
}

TEST(CheckerTest, DeclarationsBuiltWithoutTheParser) {
  Program program = parse(kHeader);
  program.relations.push_back(program.relations[0]);
  EXPECT_EQ(check_error(program), "t.dl:3:1: relation 'vP0' is declared twice (first at t.dl:3:1)");

  program = parse(kHeader);
  program.domains.push_back(program.domains[1]);
  EXPECT_EQ(check_error(program), "t.dl:2:1: domain 'H' is declared twice (first at t.dl:2:1)");

  program = parse(kHeader);
  program.domains[0].size = 0;
  EXPECT_EQ(check_error(program),
            "t.dl:1:1: size 0 of domain 'V' is out of range; it must be between 1 and 2^62 "
            "(4611686018427387904)");

  program = parse(kHeader);
  program.relations[1].attributes.clear();
  EXPECT_EQ(check_error(program), "t.dl:4:1: relation 'assign' must have at least one attribute");

  program = parse(kHeader + "vP(v, h) :- vP0(v, h).\n");
  program.rules[0].head.negated = true;
  EXPECT_EQ(check_error(program), "t.dl:7:1: the head of a rule cannot be negated");
}

TEST(CheckerTest, WarningsFromTheChecker) {
  const Program program = parse(kHeader +
                                "never (v : V)\n"
                                "vP(v, h) :- vP0(v, h), never(v), assign(v, unused).\n");
  EXPECT_EQ(program_warnings(program),
            (std::vector<std::string>{
                "t.dl:8:24: warning: relation 'never' is never defined by a rule nor an input, so "
                "it is empty",
                "t.dl:8:44: warning: variable 'unused' occurs only once in the rule; write '_' if "
                "that is intended",
            }));
  EXPECT_EQ(program.warnings, program_warnings(program));
  EXPECT_NO_THROW(check_program(program));
}

}  // namespace
}  // namespace refract::solver
