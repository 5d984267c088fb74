// The reference evaluator on hand-written programs with hand-computed answers.
// The programs are built as ASTs directly, so these tests do not depend on the
// parser the differential test also exercises.
#include "reference/reference_evaluator.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

namespace refract::reference {
namespace {

using solver::Atom;
using solver::CompareOp;
using solver::Comparison;
using solver::Literal;
using solver::Program;
using solver::RelationFlag;
using solver::Rule;
using solver::Term;

Term var(const std::string& name) {
  Term term;
  term.kind = Term::Kind::kVariable;
  term.text = name;
  return term;
}

Term num(std::uint64_t value) {
  Term term;
  term.kind = Term::Kind::kNumber;
  term.number = value;
  return term;
}

Term quoted(const std::string& name) {
  Term term;
  term.kind = Term::Kind::kName;
  term.text = name;
  return term;
}

Term any() {
  Term term;
  term.kind = Term::Kind::kWildcard;
  return term;
}

Term all() {
  Term term;
  term.kind = Term::Kind::kUniverse;
  return term;
}

Atom atom(const std::string& relation, std::vector<Term> arguments) {
  return Atom{relation, std::move(arguments), false, {}};
}

Atom negated(const std::string& relation, std::vector<Term> arguments) {
  return Atom{relation, std::move(arguments), true, {}};
}

Comparison cmp(Term left, CompareOp op, Term right) {
  return Comparison{std::move(left), op, std::move(right), {}};
}

class ReferenceEvaluatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("refract-reference-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void write(const std::string& file, const std::string& text) {
    std::ofstream(dir_ / file) << text;
  }
  void domain(const std::string& name, std::uint64_t size, const char* map_file = nullptr) {
    solver::DomainDecl decl{name, size, std::nullopt, {}};
    if (map_file != nullptr) decl.map_file = map_file;
    program_.domains.push_back(decl);
  }
  void relation(const std::string& name, std::initializer_list<std::string> domains,
                std::vector<RelationFlag> flags = {}) {
    solver::RelationDecl decl{name, {}, std::move(flags), {}, {}};
    for (const std::string& domain : domains)
      decl.attributes.push_back({"a" + std::to_string(decl.attributes.size()), domain, {}, {}});
    program_.relations.push_back(decl);
  }
  void input(const std::string& name, std::initializer_list<std::string> domains,
             const std::string& tuples) {
    relation(name, domains, {RelationFlag::kInputTuples});
    write(name + ".tuples", tuples);
  }
  void rule(Atom head, std::vector<Literal> body = {}) {
    Rule rule{std::move(head), std::move(body), "", {}, {}};
    rule.text = "rule " + std::to_string(program_.rules.size() + 1) + " for " + rule.head.relation;
    program_.rules.push_back(std::move(rule));
  }
  Database run() { return evaluate(program_, dir_); }

  std::filesystem::path dir_;
  Program program_;
};

TEST_F(ReferenceEvaluatorTest, TransitiveClosure) {
  domain("N", 5);
  input("edge", {"N", "N"}, "# N0:3 N1:3\n0 1\n1 2\n2 3\n4 4\n");
  relation("path", {"N", "N"});
  rule(atom("path", {var("x"), var("y")}), {atom("edge", {var("x"), var("y")})});
  rule(atom("path", {var("x"), var("z")}),
       {atom("path", {var("x"), var("y")}), atom("edge", {var("y"), var("z")})});
  Database db = run();
  EXPECT_EQ(db.at("path"), (TupleSet{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {4, 4}}));
  EXPECT_EQ(db.at("edge"), (TupleSet{{0, 1}, {1, 2}, {2, 3}, {4, 4}}));
}

TEST_F(ReferenceEvaluatorTest, MutualRecursion) {
  domain("N", 6);
  input("next", {"N", "N"}, "# N0:3 N1:3\n0 1\n1 2\n2 3\n3 4\n4 5\n");
  relation("even", {"N"});
  relation("odd", {"N"});
  rule(atom("even", {num(0)}));
  rule(atom("odd", {var("y")}), {atom("even", {var("x")}), atom("next", {var("x"), var("y")})});
  rule(atom("even", {var("y")}), {atom("odd", {var("x")}), atom("next", {var("x"), var("y")})});
  Database db = run();
  EXPECT_EQ(db.at("even"), (TupleSet{{0}, {2}, {4}}));
  EXPECT_EQ(db.at("odd"), (TupleSet{{1}, {3}, {5}}));
}

TEST_F(ReferenceEvaluatorTest, NegationUsesTheCompleteLowerStratum) {
  domain("N", 4);
  input("node", {"N"}, "# N0:2\n0\n1\n2\n3\n");
  input("edge", {"N", "N"}, "# N0:2 N1:2\n0 1\n1 2\n");
  relation("unreachable", {"N", "N"});
  relation("reach", {"N", "N"});
  relation("sink", {"N"});
  relation("isolated", {"N"});
  // Declared (and written) before the relation it negates: strata, not text
  // order, decide when it runs.
  rule(
      atom("unreachable", {var("x"), var("y")}),
      {atom("node", {var("x")}), atom("node", {var("y")}), negated("reach", {var("x"), var("y")})});
  rule(atom("reach", {var("x"), var("y")}), {atom("edge", {var("x"), var("y")})});
  rule(atom("reach", {var("x"), var("z")}),
       {atom("reach", {var("x"), var("y")}), atom("edge", {var("y"), var("z")})});
  // `_` in a negated atom: no edge leaves x at all.
  rule(atom("sink", {var("x")}), {atom("node", {var("x")}), negated("edge", {var("x"), any()})});
  // A third stratum on top of the second.
  rule(atom("isolated", {var("x")}),
       {atom("sink", {var("x")}), negated("reach", {any(), var("x")})});
  Database db = run();
  EXPECT_EQ(db.at("reach"), (TupleSet{{0, 1}, {0, 2}, {1, 2}}));
  TupleSet unreachable;
  for (std::uint64_t x = 0; x < 4; ++x)
    for (std::uint64_t y = 0; y < 4; ++y)
      if (!db.at("reach").contains({x, y})) unreachable.insert({x, y});
  EXPECT_EQ(unreachable.size(), 13u);
  EXPECT_EQ(db.at("unreachable"), unreachable);
  EXPECT_EQ(db.at("sink"), (TupleSet{{2}, {3}}));
  EXPECT_EQ(db.at("isolated"), (TupleSet{{3}}));
}

TEST_F(ReferenceEvaluatorTest, ConstantsNamesWildcardsAndRepeatedVariables) {
  domain("D", 4, "D.map");
  domain("E", 3);
  write("D.map", "alpha\nbeta\ngamma\ndelta\n");
  input("edge", {"D", "D"}, "# D0:2 D1:2\n0 1\n1 1\n1 3\n2 0\n");
  input("label", {"D", "E"}, "# D0:2 E0:2\n1 2\n3 0\n");
  relation("from_beta", {"D"});
  relation("self", {"D"});
  relation("tagged", {"D", "E"});
  relation("source", {"D"});
  rule(atom("from_beta", {var("y")}), {atom("edge", {quoted("beta"), var("y")})});
  rule(atom("self", {var("x")}), {atom("edge", {var("x"), var("x")})});
  // A constant in the head, a number and a name in the body.
  rule(atom("tagged", {var("y"), num(1)}),
       {atom("edge", {num(1), var("y")}), atom("label", {var("y"), any()})});
  rule(atom("tagged", {quoted("gamma"), var("e")}), {atom("label", {quoted("delta"), var("e")})});
  rule(atom("source", {var("x")}), {atom("edge", {var("x"), any()})});
  Database db = run();
  EXPECT_EQ(db.at("from_beta"), (TupleSet{{1}, {3}}));
  EXPECT_EQ(db.at("self"), (TupleSet{{1}}));
  EXPECT_EQ(db.at("tagged"), (TupleSet{{1, 1}, {3, 1}, {2, 0}}));
  EXPECT_EQ(db.at("source"), (TupleSet{{0}, {1}, {2}}));
}

TEST_F(ReferenceEvaluatorTest, Comparisons) {
  domain("N", 8, "N.map");
  write("N.map", "n0\nn1\nn2\nn3\nn4\nn5\nn6\nn7\n");
  input("node", {"N"}, "# N0:3\n0\n1\n2\n5\n");
  relation("less", {"N", "N"});
  relation("differ", {"N", "N"});
  relation("at_least_two", {"N"});
  relation("equal", {"N"});
  relation("below_n5", {"N"});
  rule(atom("less", {var("x"), var("y")}), {atom("node", {var("x")}), atom("node", {var("y")}),
                                            cmp(var("x"), CompareOp::kLt, var("y"))});
  // The comparison comes first in the body: its variables are bound later.
  rule(atom("differ", {var("x"), var("y")}),
       {cmp(var("x"), CompareOp::kNe, var("y")), atom("node", {var("x")}), atom("node", {var("y")}),
        cmp(var("y"), CompareOp::kGe, num(2))});
  rule(atom("at_least_two", {var("x")}),
       {atom("node", {var("x")}), cmp(var("x"), CompareOp::kGe, num(2))});
  rule(atom("equal", {var("x")}),
       {atom("node", {var("x")}), cmp(var("x"), CompareOp::kEq, num(1))});
  rule(atom("below_n5", {var("x")}),
       {atom("node", {var("x")}), cmp(var("x"), CompareOp::kLt, quoted("n5"))});
  Database db = run();
  EXPECT_EQ(db.at("less"), (TupleSet{{0, 1}, {0, 2}, {0, 5}, {1, 2}, {1, 5}, {2, 5}}));
  EXPECT_EQ(db.at("differ"), (TupleSet{{0, 2}, {1, 2}, {5, 2}, {0, 5}, {1, 5}, {2, 5}}));
  EXPECT_EQ(db.at("at_least_two"), (TupleSet{{2}, {5}}));
  EXPECT_EQ(db.at("equal"), (TupleSet{{1}}));
  EXPECT_EQ(db.at("below_n5"), (TupleSet{{0}, {1}, {2}}));
}

TEST_F(ReferenceEvaluatorTest, UniverseInHeadsAndFacts) {
  domain("D", 3);
  domain("E", 2);
  input("pick", {"D"}, "# D0:2\n1\n");
  relation("spread", {"D", "E"});
  relation("fact", {"E", "D"});
  relation("everything", {"D", "D"});
  rule(atom("spread", {var("x"), all()}), {atom("pick", {var("x")})});
  rule(atom("fact", {num(1), num(2)}));
  rule(atom("fact", {all(), num(0)}));
  rule(atom("everything", {all(), all()}));
  Database db = run();
  EXPECT_EQ(db.at("spread"), (TupleSet{{1, 0}, {1, 1}}));
  EXPECT_EQ(db.at("fact"), (TupleSet{{0, 0}, {1, 0}, {1, 2}}));
  EXPECT_EQ(db.at("everything").size(), 9u);
}

TEST_F(ReferenceEvaluatorTest, TuplesFilesAcceptStarsAndRanges) {
  domain("D", 4);
  domain("E", 3);
  relation("r", {"D", "E"}, {RelationFlag::kInputTuples});
  write("r.tuples", "# D0:2 E0:2\n0 *\n\n1-3 2\n3 2\n");
  EXPECT_EQ(read_tuples_file(dir_ / "r.tuples", program_.relations[0], program_),
            (TupleSet{{0, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 2}, {3, 2}}));
  write("r.tuples", "# D0:2 E0:2\n");
  EXPECT_TRUE(read_tuples_file(dir_ / "r.tuples", program_.relations[0], program_).empty());
}

TEST_F(ReferenceEvaluatorTest, TuplesFilesRejectBadLines) {
  domain("D", 4);
  domain("E", 3);
  relation("r", {"D", "E"}, {RelationFlag::kInputTuples});
  for (const char* text : {"# D0:2\n0 1\n", "# D0:2 E0:2\n0 3\n", "# D0:2 E0:2\n0\n",
                           "# D0:2 E0:2\n2-1 0\n", "# D0:2 E0:2\n0 x\n", "# D0:2 E0:2\n0 1-9\n"}) {
    write("r.tuples", text);
    EXPECT_THROW(read_tuples_file(dir_ / "r.tuples", program_.relations[0], program_),
                 ReferenceError)
        << text;
  }
}

TEST_F(ReferenceEvaluatorTest, StrataFollowNegation) {
  domain("N", 2);
  relation("base", {"N"}, {RelationFlag::kInputTuples});
  relation("top", {"N"});
  relation("middle", {"N"});
  relation("same", {"N"});
  rule(atom("top", {var("x")}), {atom("base", {var("x")}), negated("middle", {var("x")})});
  rule(atom("middle", {var("x")}), {atom("base", {var("x")}), negated("base", {var("x")})});
  rule(atom("same", {var("x")}), {atom("middle", {var("x")})});
  rule(atom("middle", {var("x")}), {atom("same", {var("x")})});
  EXPECT_EQ(reference::stratify(program_),
            (std::vector<std::vector<std::string>>{{"base"}, {"middle", "same"}, {"top"}}));
  rule(atom("base", {var("x")}), {atom("top", {var("x")})});
  EXPECT_THROW(reference::stratify(program_), ReferenceError);
}

// bddbddb's meaning of a variable no positive atom binds: every element of its domain. One
// written only in a negated atom is quantified inside it, as `_`.
TEST_F(ReferenceEvaluatorTest, UnboundVariablesRangeOverTheirDomain) {
  domain("N", 3);
  input("base", {"N"}, "# N0:2\n0\n");
  input("pair", {"N", "N"}, "# N0:2 N1:2\n1 0\n");
  relation("notBase", {"N"});
  relation("nonZero", {"N"});
  relation("noPair", {"N"});
  relation("everyPair", {"N", "N"});
  rule(atom("notBase", {var("x")}), {negated("base", {var("x")})});
  rule(atom("nonZero", {var("x")}), {atom("base", {any()}), cmp(var("x"), CompareOp::kNe, num(0))});
  rule(atom("noPair", {var("x")}), {negated("pair", {var("x"), var("y")})});
  rule(atom("everyPair", {var("x"), var("y")}));
  const Database db = run();
  EXPECT_EQ(db.at("notBase"), (TupleSet{{1}, {2}}));
  EXPECT_EQ(db.at("nonZero"), (TupleSet{{1}, {2}}));
  EXPECT_EQ(db.at("noPair"), (TupleSet{{0}, {2}}));
  EXPECT_EQ(db.at("everyPair").size(), 9U);
  EXPECT_EQ(db.count("domain N"), 0U);  // its helper relation stays inside
}

}  // namespace
}  // namespace refract::reference
