// The semantic checker: one test per kind of error, each with its exact
// FILE:LINE:COL and message, and the legal programs it must accept.
#include "solver/checker.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "solver/parser.hpp"

namespace refract::solver {
namespace {

namespace fs = std::filesystem;

// Rules appended to this header start on line 7.
const std::string kPairHeader =
    "V 64\n"
    "H 32\n"
    "vP0 (v : V, h : H) input\n"
    "assign (d : V, s : V) inputtuples\n"
    "vP (v : V, h : H) output\n"
    "pair (a : V0, b : V1) output\n";

Program parse_text(const std::string& text) {
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
  return check_error(parse_text(text));
}

std::string rule_error(const std::string& rules) {
  return check_error(kPairHeader + rules);
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

// Under .strict (else a first use declares a relation: parser_test.cpp).
TEST(CheckerTest, UnknownRelation) {
  EXPECT_EQ(check_error(".strict\n" + kPairHeader + "vP(v, h) :- vP0(v, h), foo(v).\n"),
            "t.dl:8:24: unknown relation 'foo'");
  EXPECT_EQ(check_error(".strict\n" + kPairHeader + "bar(v) :- vP0(v, _).\n"),
            "t.dl:8:1: unknown relation 'bar'");
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

// [genericroots.datalog: aT (type:T0, type:T1)] Arguments match attributes by position.
TEST(CheckerTest, RepeatedAttributeNameIsAllowed) {
  EXPECT_EQ(check_error("V 4\nr (a : V, a : V) output\n"), "no error");
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

// [typerefine.datalog] A variable no positive atom binds ranges over its domain (bddbddb's
// meaning): in a head, a negated atom or a comparison, and `_` in a head.
TEST(CheckerTest, VariablesNoPositiveAtomBindsAreAllowed) {
  for (const char* rule :
       {"vP(v, h) :- vP0(v, _).\n", "vP(v, h) :- vP0(v, _), !vP0(_, h).\n", "vP(v, 1).\n",
        "vP(v, h) :- vP0(v, h), !assign(v, w).\n", "vP(v, h) :- vP0(v, h), v != w.\n",
        "vP(v, h) :- vP0(v, h), 3 < y, y = v.\n", "vP(_, h) :- vP0(_, h).\n",
        "vP(*, h) :- vP0(_, h).\n"})
    EXPECT_EQ(rule_error(rule), "no error") << rule;
  EXPECT_EQ(rule_error("vP(v, h) :- vP0(v, h), x < y.\n"),
            "t.dl:7:24: cannot determine the domain of variable 'x'; it appears in no atom");
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
  Program program = parse_text(kPairHeader);
  program.relations.push_back(program.relations[0]);
  EXPECT_EQ(check_error(program), "t.dl:3:1: relation 'vP0' is declared twice (first at t.dl:3:1)");

  program = parse_text(kPairHeader);
  program.domains.push_back(program.domains[1]);
  EXPECT_EQ(check_error(program), "t.dl:2:1: domain 'H' is declared twice (first at t.dl:2:1)");

  program = parse_text(kPairHeader);
  program.domains[0].size = 0;
  EXPECT_EQ(check_error(program),
            "t.dl:1:1: size 0 of domain 'V' is out of range; it must be between 1 and 2^62 "
            "(4611686018427387904)");

  program = parse_text(kPairHeader);
  program.relations[1].attributes.clear();
  EXPECT_EQ(check_error(program), "t.dl:4:1: relation 'assign' must have at least one attribute");

  program = parse_text(kPairHeader + "vP(v, h) :- vP0(v, h).\n");
  program.rules[0].head.negated = true;
  EXPECT_EQ(check_error(program), "t.dl:7:1: the head of a rule cannot be negated");
}

TEST(CheckerTest, WarningsFromTheChecker) {
  const Program program = parse_text(kPairHeader +
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

// [pacs2.datalog] A `number` rule's body is a graph: one root atom with one variable, then
// edge atoms of two different variables; its head names an edge atom's variables, then two
// number variables of one domain that the body does not use.
TEST(CheckerTest, NumberingRuleShape) {
  const std::string header =
      "M 8\nI 8\nC 16\nroots (m : M)\nmI (m : M, i : I)\nIE (i : I, m : M)\n"
      "calls (a : M, b : M)\nIEnum (i : I, m : M, a : C1, b : C0)\n"
      "wide (i : I, m : M, a : C, b : M)\n";
  auto error = [&](const std::string& rule) { return check_error(header + rule + " number\n"); };
  EXPECT_EQ(error("IEnum(i, m, a, b) :- roots(m), mI(m, i), IE(i, m)."), "no error");
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"IEnum(i, m, a, b) :- roots(m).", "needs a root atom and at least one edge atom"},
      {"IEnum(i, m, a, b) :- roots(m), mI(m, i), !IE(i, m).", "a negated atom cannot be"},
      {"IEnum(i, m, a, b) :- roots(m), mI(m, i), IE(i, m), i != 2.", "a comparison cannot be"},
      {"IEnum(i, m, a, b) :- roots(_), mI(m, i), IE(i, m).", "the root atom takes one variable"},
      {"IEnum(i, m, a, b) :- roots(m), calls(m, m), IE(i, m).", "two different variables"},
      {"IEnum(i, m, a, b) :- roots(m), mI(m, i), IE(i, 2).", "two different variables"},
      {"IEnum(i, m, a, b) :- roots(m), mI(m, i), IE(i, n).", "those of an edge atom"},
      {"IEnum(i, m, 0, b) :- roots(m), mI(m, i), IE(i, m).", "the head takes four variables"},
      {"IEnum(i, m, a, a) :- roots(m), mI(m, i), IE(i, m).", "need two variables"},
      {"wide(i, m, a, b) :- roots(m), mI(m, i), IE(i, m).", "must be of one domain"},
  };
  for (const auto& [rule, message] : refused) {
    const std::string refusal = error(rule);
    EXPECT_NE(refusal.find(": numbering rule: "), std::string::npos) << rule << "\n" << refusal;
    EXPECT_NE(refusal.find(message), std::string::npos) << rule << "\n" << refusal;
  }
}

// [pac.datalog: vP0 (v:V0, h:H0) input v<h] Order constraints name two attributes.
TEST(CheckerTest, OrderConstraints) {
  EXPECT_EQ(check_error("V 4\nH 4\nr (v : V, h : H) v<h h=v\n"), "no error");
  EXPECT_EQ(check_error("V 4\nr (v : V, w : V) v<v\n"),
            "t.dl:2:18: order constraint 'v<v' relates an attribute of relation 'r' to itself");
}

}  // namespace
}  // namespace refract::solver
