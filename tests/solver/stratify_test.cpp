// The stratifier: dependency order, recursive components, and the message
// for negation through recursion.
#include "solver/stratify.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "solver/parser.hpp"

namespace refract::solver {
namespace {

// Rules appended to this header start on line 12.
const std::string kPathHeader =
    "D 8\n"
    "e (a : D, b : D) inputtuples\n"
    "base (a : D) input\n"
    "path (a : D, b : D) output\n"
    "node (a : D) output\n"
    "unreach (a : D, b : D) output\n"
    "odd (a : D) output\n"
    "even (a : D) output\n"
    "p (a : D)\nq (a : D)\nr (a : D)\n";

std::vector<Stratum> strata_of(const std::string& rules) {
  return stratify(parse_program_text(kPathHeader + rules, "t.dl", "."));
}

std::string stratify_error(const std::string& rules) {
  try {
    strata_of(rules);
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

void expect_stratum(const Stratum& stratum, const std::vector<std::string>& relations,
                    const std::vector<std::size_t>& rules, bool recursive) {
  EXPECT_EQ(stratum.relations, relations);
  EXPECT_EQ(stratum.rules, rules);
  EXPECT_EQ(stratum.recursive, recursive);
}

TEST(StratifyTest, DependencyOrder) {
  const std::vector<Stratum> strata = strata_of(
      "unreach(x, y) :- node(x), node(y), !path(x, y).\n"
      "path(x, y) :- e(x, y).\n"
      "path(x, z) :- path(x, y), e(y, z).\n"
      "node(x) :- e(x, _).\n"
      "node(y) :- e(_, y).\n");
  ASSERT_EQ(strata.size(), 3u);
  expect_stratum(strata[0], {"path"}, {1, 2}, true);
  expect_stratum(strata[1], {"node"}, {3, 4}, false);
  expect_stratum(strata[2], {"unreach"}, {0}, false);
}

TEST(StratifyTest, MutualRecursionIsOneStratum) {
  const std::vector<Stratum> strata = strata_of(
      "even(0).\n"
      "even(x) :- odd(y), e(y, x).\n"
      "odd(x) :- even(y), e(y, x).\n"
      "node(x) :- odd(x), !even(x).\n");
  ASSERT_EQ(strata.size(), 2u);
  expect_stratum(strata[0], {"odd", "even"}, {0, 1, 2}, true);
  expect_stratum(strata[1], {"node"}, {3}, false);
}

TEST(StratifyTest, IndependentStrataKeepSourceOrder) {
  const std::vector<Stratum> strata = strata_of(
      "q(x) :- base(x).\n"
      "p(x) :- base(x).\n"
      "r(x) :- p(x), q(x).\n"
      "q(1).\n");
  ASSERT_EQ(strata.size(), 3u);
  expect_stratum(strata[0], {"q"}, {0, 3}, false);
  expect_stratum(strata[1], {"p"}, {1}, false);
  expect_stratum(strata[2], {"r"}, {2}, false);
}

TEST(StratifyTest, ALaterRuleCanMoveAStratumDown) {
  // r reads p, whose only rule comes after r's: p still goes first.
  const std::vector<Stratum> strata = strata_of(
      "r(x) :- p(x).\n"
      "p(x) :- base(x).\n");
  ASSERT_EQ(strata.size(), 2u);
  expect_stratum(strata[0], {"p"}, {1}, false);
  expect_stratum(strata[1], {"r"}, {0}, false);
}

TEST(StratifyTest, SelfRecursionAndFacts) {
  const std::vector<Stratum> strata = strata_of(
      "p(1).\n"
      "p(x) :- p(y), e(y, x).\n");
  ASSERT_EQ(strata.size(), 1u);
  expect_stratum(strata[0], {"p"}, {0, 1}, true);
}

TEST(StratifyTest, InputsAndUnusedRelationsHaveNoStratum) {
  EXPECT_TRUE(strata_of("").empty());
  const std::vector<Stratum> strata = strata_of("q(x) :- base(x), !p(x).\n");
  ASSERT_EQ(strata.size(), 1u);
  expect_stratum(strata[0], {"q"}, {0}, false);
}

TEST(StratifyTest, NegationThroughRecursion) {
  EXPECT_EQ(stratify_error("p(x) :- base(x), !q(x).\n"
                           "q(x) :- p(x).\n"),
            "t.dl:12:19: negation through recursion: p -> !q -> p");
  EXPECT_EQ(stratify_error("p(x) :- base(x), !q(x).\n"
                           "q(x) :- r(x).\n"
                           "r(x) :- base(x), p(x).\n"),
            "t.dl:12:19: negation through recursion: p -> !q -> r -> p");
  EXPECT_EQ(stratify_error("p(x) :- base(x), !p(x).\n"),
            "t.dl:12:19: negation through recursion: p -> !p");
  // The first negated atom in source order is reported, with the shortest way back.
  EXPECT_EQ(stratify_error("q(x) :- base(x), r(x).\n"
                           "r(x) :- base(x), !p(x), q(x).\n"
                           "p(x) :- q(x), !r(x).\n"),
            "t.dl:13:19: negation through recursion: r -> !p -> !r");
}

}  // namespace
}  // namespace refract::solver
