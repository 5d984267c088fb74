// The Datalog parser: a golden parse of a realistic bddbddb program (with
// includes, .basedir and line continuations), then one test per syntax error
// with its exact FILE:LINE:COL and message.
#include "solver/parser.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <variant>

#include "solver/checker.hpp"
#include "solver/lexer.hpp"
#include "solver/stratify.hpp"
#include "support/text_mutation.hpp"

namespace refract::solver {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(REFRACT_TEST_DATA) / "solver";

Program parse(const std::string& text) {
  return parse_program_text(text, "t.dl", kData);
}

// The full message ("FILE:LINE:COL: message") of the InputError `run` throws.
std::string error_of(const std::function<void()>& run) {
  try {
    run();
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

std::string parse_error(const std::string& text) {
  return error_of([&] { parse(text); });
}

void expect_at(const SourceLocation& where, const std::string& file, std::uint64_t line,
               std::uint64_t column) {
  EXPECT_EQ(where.file, file);
  EXPECT_EQ(where.line, line);
  EXPECT_EQ(where.column, column);
}

const Atom& atom_at(const Rule& rule, std::size_t i) {
  return std::get<Atom>(rule.body.at(i));
}
const Comparison& comparison_at(const Rule& rule, std::size_t i) {
  return std::get<Comparison>(rule.body.at(i));
}

TEST(ParserTest, GoldenProgram) {
  const fs::path file = kData / "golden" / "main.datalog";
  const Program program = parse_program_file(file);
  const std::string main = file.string();
  const std::string common = (kData / "golden" / "common.datalog").lexically_normal().string();
  const std::string extra =
      (kData / "golden" / "facts" / "extra.datalog").lexically_normal().string();

  EXPECT_EQ(program.file, main);
  EXPECT_TRUE(program.warnings.empty());

  ASSERT_EQ(program.domains.size(), 4u);
  EXPECT_EQ(program.domains[0].name, "V");
  EXPECT_EQ(program.domains[0].size, 64u);
  EXPECT_EQ(program.domains[0].map_file, "variable.map");
  expect_at(program.domains[0].where, main, 4, 1);
  EXPECT_EQ(program.domains[1].name, "H");
  EXPECT_EQ(program.domains[1].size, 32u);
  EXPECT_EQ(program.domains[1].map_file, "heap names.map");
  EXPECT_EQ(program.domains[2].name, "F");
  EXPECT_FALSE(program.domains[2].map_file.has_value());
  EXPECT_EQ(program.domains[3].name, "H2");
  EXPECT_EQ(program.domains[3].size, 8u);

  EXPECT_EQ(program.base_dir, (kData / "golden" / "facts").lexically_normal().string());
  EXPECT_EQ(program.var_order, "F0_V0xV1_H0_H2");
  ASSERT_TRUE(program.var_order_where.has_value());
  expect_at(*program.var_order_where, main, 12, 14);
  EXPECT_EQ(program.bdd_nodes, 1000000u);
  EXPECT_EQ(program.bdd_cache, 100000u);

  // Included declarations come in place, before the ones after the .include.
  ASSERT_EQ(program.relations.size(), 8u);
  const char* names[] = {"store", "isNull", "vP0", "assign", "vP", "hP", "special", "notNull"};
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(program.relations[i].name, names[i]);
  expect_at(program.relations[0].where, common, 2, 1);
  expect_at(program.relations[1].where, extra, 2, 1);
  EXPECT_EQ(program.relations[0].flags, std::vector{RelationFlag::kInputTuples});
  EXPECT_EQ(program.relations[1].flags, std::vector{RelationFlag::kInput});

  const RelationDecl& assign = program.relations[3];
  ASSERT_EQ(assign.attributes.size(), 2u);
  EXPECT_EQ(assign.attributes[0].name, "dest");
  EXPECT_EQ(assign.attributes[0].domain, "V");
  EXPECT_EQ(assign.attributes[0].instance, 0);
  EXPECT_EQ(assign.attributes[1].domain, "V");
  EXPECT_EQ(assign.attributes[1].instance, 1);
  expect_at(assign.attributes[1].where, main, 17, 29);

  const RelationDecl& vp = program.relations[4];
  EXPECT_EQ(vp.attributes[0].domain, "V");
  EXPECT_FALSE(vp.attributes[0].instance.has_value());
  EXPECT_EQ(vp.flags, (std::vector{RelationFlag::kOutput, RelationFlag::kPrintSize}));

  const RelationDecl& hp = program.relations[5];
  ASSERT_EQ(hp.attributes.size(), 3u);
  EXPECT_EQ(hp.attributes[0].domain, "H");
  EXPECT_EQ(hp.attributes[0].instance, 0);
  EXPECT_EQ(hp.attributes[1].domain, "F");
  EXPECT_EQ(hp.attributes[2].domain, "H");
  EXPECT_EQ(hp.attributes[2].instance, 1);
  EXPECT_EQ(hp.flags, (std::vector{RelationFlag::kOutputTuples, RelationFlag::kPrintTuples}));

  // A domain named H2 is that domain, not instance 2 of H.
  const RelationDecl& special = program.relations[6];
  EXPECT_EQ(special.attributes[0].domain, "H2");
  EXPECT_FALSE(special.attributes[0].instance.has_value());
  EXPECT_EQ(special.attributes[1].domain, "H2");

  // The declaration continued by a backslash.
  const RelationDecl& not_null = program.relations[7];
  ASSERT_EQ(not_null.attributes.size(), 2u);
  EXPECT_EQ(not_null.attributes[1].name, "heap");
  expect_at(not_null.attributes[1].where, main, 22, 17);
  EXPECT_EQ(not_null.flags, std::vector{RelationFlag::kOutput});

  ASSERT_EQ(program.rules.size(), 6u);
  EXPECT_EQ(program.rules[0].text, "vP(v, h) :- vP0(v, h).");
  EXPECT_EQ(program.rules[1].text, "vP(v1, h) :- assign(v1, v2), vP(v2, h).");
  EXPECT_EQ(program.rules[2].text, "hP(b, f, t) :- store(v1, f, v2), vP(v1, b), vP(v2, t).");
  EXPECT_EQ(program.rules[3].text, "special(*, 3).");
  EXPECT_EQ(program.rules[4].text, "special(1, 2).");
  EXPECT_EQ(program.rules[5].text,
            "notNull(v, h) :- vP(v, h), !isNull(v), h != 0, h < \"obj\", v = w, w >= 1.");

  const Rule& stores = program.rules[2];
  expect_at(stores.where, main, 26, 1);
  EXPECT_EQ(stores.head.relation, "hP");
  ASSERT_EQ(stores.body.size(), 3u);
  expect_at(atom_at(stores, 2).where, main, 29, 16);
  EXPECT_EQ(atom_at(stores, 2).arguments[1].text, "t");
  expect_at(atom_at(stores, 2).arguments[1].where, main, 29, 23);

  const Rule& fact = program.rules[3];
  EXPECT_TRUE(fact.body.empty());
  ASSERT_EQ(fact.head.arguments.size(), 2u);
  EXPECT_EQ(fact.head.arguments[0].kind, Term::Kind::kUniverse);
  EXPECT_EQ(fact.head.arguments[1].kind, Term::Kind::kNumber);
  EXPECT_EQ(fact.head.arguments[1].number, 3u);

  const Rule& rule = program.rules[5];
  ASSERT_EQ(rule.body.size(), 6u);
  EXPECT_FALSE(atom_at(rule, 0).negated);
  EXPECT_TRUE(atom_at(rule, 1).negated);
  EXPECT_EQ(atom_at(rule, 1).relation, "isNull");
  expect_at(atom_at(rule, 1).where, main, 32, 29);
  const Comparison& nonzero = comparison_at(rule, 2);
  EXPECT_EQ(nonzero.op, CompareOp::kNe);
  EXPECT_EQ(nonzero.left.kind, Term::Kind::kVariable);
  EXPECT_EQ(nonzero.right.kind, Term::Kind::kNumber);
  expect_at(nonzero.where, main, 32, 40);
  const Comparison& named = comparison_at(rule, 3);
  EXPECT_EQ(named.op, CompareOp::kLt);
  EXPECT_EQ(named.right.kind, Term::Kind::kName);
  EXPECT_EQ(named.right.text, "obj");
  expect_at(named.right.where, main, 32, 52);
  const Comparison& copy = comparison_at(rule, 4);
  EXPECT_EQ(copy.op, CompareOp::kEq);
  expect_at(copy.where, main, 33, 18);
  EXPECT_EQ(comparison_at(rule, 5).op, CompareOp::kGe);
  expect_at(comparison_at(rule, 5).right.where, main, 33, 30);
}

TEST(ParserTest, AllComparisonOperatorsAndTerms) {
  const Program program = parse(
      "D 10\n"
      "r (a : D, b : D) output\n"
      "r(x, y) :- r(x, _), r(_, y), x = y, x != y, x < y, x <= y, x > y, x >= y, x = 3.\n");
  const Rule& rule = program.rules.at(0);
  ASSERT_EQ(rule.body.size(), 9u);
  EXPECT_EQ(atom_at(rule, 0).arguments[1].kind, Term::Kind::kWildcard);
  const CompareOp ops[] = {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt,
                           CompareOp::kLe, CompareOp::kGt, CompareOp::kGe};
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(comparison_at(rule, i + 2).op, ops[i]);
  EXPECT_EQ(comparison_at(rule, 8).right.number, 3u);
}

TEST(ParserTest, ContinuationJoinsLinesLikeBddbddb) {
  // The backslash, the line break and the next line's indentation vanish.
  const Program program = parse(
      "D 4\n"
      "r (a : D) out\\\n"
      "    put\n"
      "r(x) :- \\\n"
      "   r(x).\n");
  EXPECT_EQ(program.relations.at(0).flags, std::vector{RelationFlag::kOutput});
  EXPECT_EQ(program.rules.at(0).text, "r(x) :- r(x).");
  expect_at(atom_at(program.rules[0], 0).where, "t.dl", 5, 4);
}

TEST(ParserTest, CommentsAndBlankLines) {
  const Program program = parse(
      "   # indented hash comment\n"
      "\n"
      "D 4 // domain\n"
      "r (a : D) output // relation\n"
      "r(1). // fact\n"
      "r(x) :- // the body follows\n"
      "  r(x) // still the body\n"
      "  .\n");
  EXPECT_EQ(program.domains.size(), 1u);
  EXPECT_FALSE(program.domains[0].map_file.has_value());
  ASSERT_EQ(program.rules.size(), 2u);
  EXPECT_EQ(program.rules[1].text, "r(x) :- r(x) .");
}

TEST(ParserTest, DomainSizeLimits) {
  EXPECT_EQ(parse("D 4611686018427387904\n").domains.at(0).size, std::uint64_t{1} << 62);
  EXPECT_EQ(parse("D 1").domains.at(0).size, 1u);
  EXPECT_EQ(parse_error("D 4611686018427387905\n"),
            "t.dl:1:3: size 4611686018427387905 of domain 'D' is out of range; it must be between "
            "1 and 2^62 (4611686018427387904)");
  EXPECT_EQ(parse_error("\nDom 0\n"),
            "t.dl:2:5: size 0 of domain 'Dom' is out of range; it must be between 1 and 2^62 "
            "(4611686018427387904)");
  EXPECT_EQ(parse_error("D 99999999999999999999999\n"),
            "t.dl:1:3: size 99999999999999999999999 of domain 'D' is out of range; it must be "
            "between 1 and 2^62 (4611686018427387904)");
  EXPECT_EQ(parse_error("D 12x\n"),
            "t.dl:1:3: invalid size '12x' of domain 'D'; expected a decimal number");
}

TEST(ParserTest, DomainErrors) {
  EXPECT_EQ(parse_error("D 4 d.map extra\n"),
            "t.dl:1:11: unexpected 'extra' after the declaration of domain 'D'");
}

// bddbddb reports a repeated domain and keeps the first declaration: refract warns.
TEST(ParserTest, RepeatedDomainKeepsTheFirst) {
  const Program program = parse("D 4\nD 8 d.map\nD 4\n");
  ASSERT_EQ(program.domains.size(), 1U);
  EXPECT_EQ(program.domains[0].size, 4U);
  EXPECT_EQ(program.warnings,
            (std::vector<std::string>{
                "t.dl:2:1: warning: domain 'D' is declared again (first at t.dl:1:1) "
                "differently; the first declaration holds, as in bddbddb",
                "t.dl:3:1: warning: domain 'D' is declared again (first at t.dl:1:1); the first "
                "declaration holds, as in bddbddb"}));
}

TEST(ParserTest, DomainInstanceNames) {
  const Program program = parse("V 4\nV1 4\nr (a : V1, b : V2, c : V10, d : X3) output\n");
  const auto& attributes = program.relations.at(0).attributes;
  EXPECT_EQ(attributes[0].domain, "V1");
  EXPECT_FALSE(attributes[0].instance.has_value());
  EXPECT_EQ(attributes[1].domain, "V");
  EXPECT_EQ(attributes[1].instance, 2);
  EXPECT_EQ(attributes[2].domain, "V");  // all trailing digits are the instance, as in bddbddb
  EXPECT_EQ(attributes[2].instance, 10);
  EXPECT_EQ(attributes[3].domain, "X");  // unknown: left for the checker
  EXPECT_EQ(attributes[3].instance, 3);
  EXPECT_EQ(parse_error("V 4\nr (a : V99999999999) output\n"),
            "t.dl:2:8: domain instance number in 'V99999999999' is too large");
}

TEST(ParserTest, RelationErrors) {
  EXPECT_EQ(parse_error("D 4\nr (a : D) { code }\n"),
            "t.dl:2:11: relation code blocks '{ ... }' are not supported by refract (bddbddb runs "
            "their Java code whenever the relation changes)");
  EXPECT_EQ(parse_error("D 4\nr (a : D) a<b\n"),
            "t.dl:2:11: order constraint 'a<b' names 'b', not an attribute of relation 'r'");
  EXPECT_EQ(parse_error("D 4\nr (a : D) pri=x\n"),
            "t.dl:2:11: relation option 'pri=x' needs a whole number after 'pri='");
  EXPECT_EQ(parse_error("D 4\nr (a : D) fast\n"), "t.dl:2:11: unsupported relation option 'fast'");
  EXPECT_EQ(parse_error("D 4\nr (a : D)\nr (b : D)\n"),
            "t.dl:3:1: relation 'r' is declared twice with different attributes (first at "
            "t.dl:2:1)");
  EXPECT_EQ(parse_error("D 4\nr (a D) output\n"),
            "t.dl:2:6: expected ':' after attribute 'a', found 'D'");
  EXPECT_EQ(parse_error("D 4\nr (a : D, b D)\n"),
            "t.dl:2:13: expected ':' after attribute 'b', found 'D'");
  EXPECT_EQ(parse_error("D 4\nr (a : D b : D)\n"),
            "t.dl:2:10: expected ',' or ')' in the declaration of relation 'r', found 'b'");
  EXPECT_EQ(parse_error("D 4\nr (a : D,\n b : D)\n"),
            "t.dl:2:10: expected an attribute name in the declaration of relation 'r', found end "
            "of line");
  EXPECT_EQ(parse_error("D 4\nr (a : 5)\n"),
            "t.dl:2:8: expected a domain name for attribute 'a', found '5'");
  EXPECT_EQ(parse_error("r () output\n"),
            "t.dl:1:4: relation 'r' must have at least one attribute");
}

// [pac.datalog, extlockci.datalog, extlockhybrid.datalog] bddbddb's relation options beyond the
// flags: `pri=N` (a hint, named once), order constraints between attributes (the last
// attribute of a repeated name); a repeated declaration with the same attributes is a warning,
// and the first declaration holds, options and all.
TEST(ParserTest, RelationOptionsAndRepeatedDeclarations) {
  const Program program = parse(
      "V 4\nH 4\n"
      "vP (v : V0, h : H0) output v<h pri=5\n"
      "A (dest : V0, source : V1) input dest=source pri=-2\n"
      "aT (type : V0, type : V1, x : H0) x<type\n"
      "A (dest : V0, source : V1) input dest=source pri=-2\n"
      "vP (v : V0, h : H0)\n");
  ASSERT_EQ(program.relations.size(), 3U);
  EXPECT_TRUE(program.relations[0].has(RelationFlag::kOutput));  // the first holds
  const std::vector<OrderConstraint>& vp = program.relations[0].order_constraints;
  ASSERT_EQ(vp.size(), 1U);
  EXPECT_EQ(vp[0].left, 0U);
  EXPECT_EQ(vp[0].right, 1U);
  EXPECT_FALSE(vp[0].interleaved);
  expect_at(vp[0].where, "t.dl", 3, 28);
  EXPECT_TRUE(program.relations[1].order_constraints.at(0).interleaved);
  EXPECT_EQ(program.relations[2].order_constraints.at(0).right, 1U);  // the last 'type'
  EXPECT_EQ(program.warnings,
            (std::vector<std::string>{
                "t.dl:3:32: warning: relation option 'pri' is a bddbddb evaluation hint that "
                "refract does not use",
                "t.dl:6:1: warning: relation 'A' is declared again (first at t.dl:4:1); the first "
                "declaration holds, as in bddbddb",
                "t.dl:7:1: warning: relation 'vP' is declared again (first at t.dl:3:1); the first "
                "declaration holds, with its options, as in bddbddb"}));
}

// [paos.datalog: reachable(m,c) :- IE(_,m,_,c). with no declaration of reachable] Without
// .strict, a relation's first use declares it, after its variables' domains; with .strict, or
// where an argument does not say its domain, it stays an error.
TEST(ParserTest, UndeclaredRelationIsDeclaredByItsFirstUse) {
  const std::string header = "M 4\nH 8\nIE (i : M, m : M, c : H)\n";
  const Program program =
      parse(header + "reachable(m, c) :- IE(_, m, c).\nreachable(m, 0) :- IE(m, _, _).\n");
  const RelationDecl* reachable = program.find_relation("reachable");
  ASSERT_NE(reachable, nullptr);
  ASSERT_EQ(reachable->attributes.size(), 2U);
  EXPECT_EQ(reachable->attributes[0].name, "m");
  EXPECT_EQ(reachable->attributes[0].domain, "M");
  EXPECT_EQ(reachable->attributes[1].domain, "H");
  EXPECT_EQ(program.warnings.at(0),
            "t.dl:4:1: warning: relation 'reachable' is not declared; its first use declares "
            "it, as in bddbddb: reachable (m : M, c : H)");
  Program strict = parse(".strict\n" + header + "reachable(m, c) :- IE(_, m, c).\n");
  EXPECT_EQ(strict.find_relation("reachable"), nullptr);
  EXPECT_EQ(parse_error(header + "reachable(m, 1) :- IE(_, m, _).\n"),
            "t.dl:4:14: relation 'reachable' is not declared, and this argument does not say the "
            "domain of its attribute (a variable of a declared relation's atom would)");
}

TEST(ParserTest, StatementErrors) {
  EXPECT_EQ(parse_error("vP x\n"), "t.dl:1:4: expected '(' after relation name 'vP', found 'x'");
  EXPECT_EQ(parse_error("vP\n"),
            "t.dl:1:3: expected '(' after relation name 'vP', found end of line");
  EXPECT_EQ(parse_error("  %foo\n"), "t.dl:1:3: unexpected character '%'");
  EXPECT_EQ(parse_error("r(x) :- q(x) % s(x).\n"), "t.dl:1:14: unexpected character '%'");
  EXPECT_EQ(parse_error("x # y\n"), "t.dl:1:3: unexpected character '#'");
  EXPECT_EQ(parse_error("\"name\"\n"),
            "t.dl:1:1: expected a domain, relation, rule or directive, found \"name\"");
  EXPECT_EQ(parse_error("r(\"abc) :- q(x).\n"), "t.dl:1:3: unterminated quoted name");
  EXPECT_EQ(parse_error("D 4 \"d.map\nr (a : D)\n"), "t.dl:1:5: unterminated quoted name");
}

TEST(ParserTest, RuleErrors) {
  EXPECT_EQ(parse_error("!p(x) :- q(x).\n"), "t.dl:1:1: the head of a rule cannot be negated");
  EXPECT_EQ(parse_error("p(x) :- q(x)\n"),
            "t.dl:2:1: unexpected end of file in the rule that starts at t.dl:1:1; a rule ends "
            "with '.'");
  EXPECT_EQ(parse_error("p(x) :- q(x)\nr(x) :- s(x).\n"),
            "t.dl:2:1: expected ',' or '.' after a literal, found 'r'");
  EXPECT_EQ(parse_error("p(x) q(x).\n"),
            "t.dl:1:6: expected ':-' or '.' after the rule head, found 'q'");
  EXPECT_EQ(parse_error("p(x y) :- q(x).\n"),
            "t.dl:1:5: expected ',' or ')' in the arguments of 'p', found 'y'");
  EXPECT_EQ(parse_error("p(x) :- q(x), ! 5.\n"),
            "t.dl:1:17: expected a relation name after '!', found '5'");
  EXPECT_EQ(parse_error("p(x) :- q(x), x.\n"),
            "t.dl:1:16: expected '(' or a comparison operator after 'x', found '.'");
  EXPECT_EQ(parse_error("p(x) :- q(x), 3 q.\n"),
            "t.dl:1:17: expected a comparison operator, found 'q'");
  EXPECT_EQ(parse_error("p(x) :- q(x), x == 3.\n"),
            "t.dl:1:18: expected a variable, '_', '*', a number or a quoted name, found '='");
  EXPECT_EQ(parse_error("p(x, 18446744073709551616) :- q(x).\n"),
            "t.dl:1:6: number 18446744073709551616 is too large");
  EXPECT_EQ(parse_error("p(x) :- q(x), -1 < x.\n"), "t.dl:1:15: unexpected character '-'");
}

// bddbddb's rule options: hints on how to evaluate a rule are accepted and each named once;
// `number` makes a numbering rule; options that change what a rule derives are errors.
TEST(ParserTest, RuleOptions) {
  const Program program = parse(
      "r (a : D) output\nq (a : D) input\nD 4\n"
      "r(x) :- q(x). split\n"
      "r(x) :- q(x).   pri=3 split\n"
      "r(x) :- q(x). pri = -10 cacheafterrename findbestorder\n"
      "r(x) :- q(x). trace tracefull pri 4\n"
      "r(x) :- q(x). modifies (q, r) modifies q\n"
      "r(x) :- q(x). number\n");
  ASSERT_EQ(program.rules.size(), 6U);
  EXPECT_FALSE(program.rules[4].numbering.has_value());
  ASSERT_TRUE(program.rules[5].numbering.has_value());
  expect_at(*program.rules[5].numbering, "t.dl", 9, 15);
  auto hint = [](const std::string& where, const std::string& name) {
    return "t.dl:" + where + ": warning: rule option '" + name +
           "' is a bddbddb evaluation hint that refract does not use";
  };
  EXPECT_EQ(program.warnings,
            (std::vector<std::string>{hint("4:15", "split"), hint("5:17", "pri"),
                                      hint("6:25", "cacheafterrename"),
                                      hint("6:42", "findbestorder"), hint("7:15", "trace"),
                                      hint("7:21", "tracefull"), hint("8:15", "modifies")}));
}

TEST(ParserTest, RuleOptionErrors) {
  EXPECT_EQ(parse_error("p(1). single\n"),
            "t.dl:1:7: rule option 'single' is not supported by refract (bddbddb then keeps one "
            "tuple of the rule's result, whichever the BDD yields first)");
  EXPECT_EQ(parse_error("p(1). pre { print(); }\n"),
            "t.dl:1:7: rule option 'pre' is not supported by refract (bddbddb runs its Java code "
            "block around the rule)");
  EXPECT_EQ(parse_error("p(1). { print(); }\n"),
            "t.dl:1:7: rule code blocks '{ ... }' are not supported by refract (bddbddb runs "
            "their Java code around the rule)");
  EXPECT_EQ(parse_error("p(x) :- q(x). modifies(r)\n"),
            "t.dl:1:24: rule option 'modifies' names relation 'r', which is not declared before "
            "it");
  EXPECT_EQ(parse_error("p(1). pri x\n"),
            "t.dl:1:11: expected a number after rule option 'pri', found 'x'");
  EXPECT_EQ(parse_error("p(1). fast\n"), "t.dl:1:7: unknown rule option 'fast'");
  EXPECT_EQ(parse_error("p(1). (\n"), "t.dl:1:7: unexpected '(' after the end of the rule");
}

// [testMap.datalog: location2typevar(v,tv) :- v => tv.] bddbddb's domain map operator and its
// queries are named errors.
TEST(ParserTest, MapOperatorAndQueriesAreRejectedByName) {
  EXPECT_EQ(parse_error("r(v, t) :- v => t.\n"),
            "t.dl:1:14: the domain map operator '=>' is not supported by refract (bddbddb grows "
            "the right-hand domain by the elements of the left-hand one, at offsets that depend "
            "on the order its hash table lists such maps)");
  EXPECT_EQ(parse_error("q(x), r(x, y)?\n"),
            "t.dl:1:1: bddbddb queries ('...?') are not supported by refract; write a rule into a "
            "printtuples relation instead");
  EXPECT_EQ(parse_error("p(x) :- q(x), r(x, y)?\n"),
            "t.dl:1:1: bddbddb queries ('...?') are not supported by refract; write a rule into a "
            "printtuples relation instead");
  EXPECT_EQ(parse_error("p(x) :- x = > 3.\n"),
            "t.dl:1:13: expected a variable, '_', '*', a number or a quoted name, found '>'");
}

TEST(ParserTest, Directives) {
  const Program program = parse(
      ".bddnodes 5000\n"
      ".bddcache 700 // cache entries\n"
      ".bddvarorder  A_BxC  \n"
      ".noisy\n"
      ".trace yes\n"
      ".report_stats\n"
      ".strict\n"
      ".singleignore\n"
      "  .frobnicate 3\n"
      ".split_all_rules\n"
      ".findbestorder\n"
      ".learnbestorder\n"
      ".incremental\n"
      ".bddminfree .2\n");
  EXPECT_EQ(program.bdd_nodes, 5000u);
  EXPECT_EQ(program.bdd_cache, 700u);
  EXPECT_EQ(program.var_order, "A_BxC");
  EXPECT_TRUE(program.strict_declarations);
  expect_at(*program.var_order_where, "t.dl", 3, 15);
  EXPECT_EQ(program.warnings,
            (std::vector<std::string>{
                "t.dl:4:1: warning: directive '.noisy' has no effect in refract",
                "t.dl:5:1: warning: directive '.trace' has no effect in refract",
                "t.dl:6:1: warning: directive '.report_stats' has no effect in refract",
                "t.dl:8:1: warning: directive '.singleignore' has no effect in refract",
                "t.dl:9:3: warning: unknown directive '.frobnicate' is ignored",
                "t.dl:10:1: warning: directive '.split_all_rules' has no effect in refract",
                "t.dl:11:1: warning: directive '.findbestorder' has no effect in refract",
                "t.dl:12:1: warning: directive '.learnbestorder' has no effect in refract",
                "t.dl:13:1: warning: directive '.incremental' has no effect in refract",
                "t.dl:14:1: warning: directive '.bddminfree' has no effect in refract",
            }));
}

TEST(ParserTest, DirectiveErrors) {
  EXPECT_EQ(parse_error("\n.dot graph.dot\n"),
            "t.dl:2:1: directive '.dot' is not supported by refract (bddbddb writes .dot graphs "
            "of relations, which refract does not)");
  EXPECT_EQ(parse_error(".bddnodes lots\n"),
            "t.dl:1:11: directive '.bddnodes' needs a positive number, found 'lots'");
  EXPECT_EQ(parse_error(".bddcache 0\n"),
            "t.dl:1:11: directive '.bddcache' needs a positive number, found '0'");
  EXPECT_EQ(parse_error(".bddnodes\n"), "t.dl:1:10: directive '.bddnodes' needs a number");
  EXPECT_EQ(parse_error(".bddnodes 10 20\n"),
            "t.dl:1:14: unexpected '20' after directive '.bddnodes'");
  EXPECT_EQ(parse_error(".bddvarorder // none\n"),
            "t.dl:1:21: directive '.bddvarorder' needs a variable order");
  EXPECT_EQ(parse_error(". include \"x\"\n"),
            "t.dl:1:3: expected a directive name after '.', found 'include'");
  EXPECT_EQ(parse_error(".basedir\n"), "t.dl:1:9: directive '.basedir' needs a directory");
}

TEST(ParserTest, BaseDirIsRelativeToTheProgram) {
  EXPECT_EQ(parse_program_text(".basedir \"facts/\"\n", "t.dl", "progs").base_dir, "progs/facts");
  EXPECT_EQ(parse_program_text(".basedir facts\n", "t.dl", "").base_dir, "facts");
  EXPECT_EQ(parse_program_text(".basedir \"/abs/dir\"\n", "t.dl", "progs").base_dir, "/abs/dir");
}

TEST(ParserTest, IncludeErrors) {
  const std::string missing = (kData / "no-such-file.datalog").lexically_normal().string();
  EXPECT_EQ(
      parse_error("D 4\n.include \"no-such-file.datalog\"\n"),
      "t.dl:2:10: cannot find included file 'no-such-file.datalog' (tried '" + missing + "')");
  const fs::path a = kData / "include" / "cycle_a.datalog";
  const std::string b = (kData / "include" / "cycle_b.datalog").lexically_normal().string();
  EXPECT_EQ(error_of([&] { parse_program_file(a); }),
            b + ":2:1: include cycle: " + a.string() + " -> " + b + " -> " + a.string());
  EXPECT_EQ(parse_error(".include \"include/cycle_b.datalog\" again\n"),
            "t.dl:1:36: unexpected 'again' after directive '.include'");
  EXPECT_EQ(error_of([&] { parse_program_file(kData / "absent.datalog"); }),
            (kData / "absent.datalog").string() + ": cannot read the program file");
}

TEST(ParserTest, UsedButUndefinedRelationsAndSingletonsWarn) {
  const Program program = parse(
      "D 4\n"
      "in (a : D) input\n"
      "empty (a : D)\n"
      "out (a : D, b : D) output\n"
      "out(x, y) :- in(x), empty(y), in(z), empty(y).\n");
  EXPECT_EQ(program.warnings,
            (std::vector<std::string>{
                "t.dl:5:21: warning: relation 'empty' is never defined by a rule nor an input, "
                "so it is empty",
                "t.dl:5:34: warning: variable 'z' occurs only once in the rule; write '_' if that "
                "is intended",
            }));
}

// Hostile text gets an InputError or parses, never anything else: edits of
// the golden program, checked and stratified when they still parse.
TEST(ParserTest, MutatedProgramsFailCleanly) {
  const fs::path directory = kData / "golden";
  std::ifstream in(directory / "main.datalog", std::ios::binary);
  const std::string original((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  ASSERT_FALSE(original.empty());
  const std::string alphabet = "()\",.:-!=<>\\\n#/_*019aZ% \t{";
  std::mt19937 random(20240611);
  int parsed = 0;
  for (int round = 0; round < 800; ++round) {
    const std::string text = refract::test::mutated(original, random, alphabet);
    try {
      const Program program = parse_program_text(text, "m.dl", directory);
      ++parsed;
      check_program(program);
      stratify(program);
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(':'), std::string::npos);
    }
  }
  EXPECT_GT(parsed, 0);
}

TEST(LexerTest, TokensAndLocations) {
  Lexer lexer("a :- b(x, \"y z\"), !c(1) != <= >= < > = * _ .\n$q", "f");
  std::vector<std::pair<TokenKind, std::string>> tokens;
  for (Token t = lexer.next(); t.kind != TokenKind::kEnd; t = lexer.next())
    tokens.emplace_back(t.kind, t.text);
  const std::vector<std::pair<TokenKind, std::string>> expected = {
      {TokenKind::kIdentifier, "a"},  {TokenKind::kImplies, ":-"},   {TokenKind::kIdentifier, "b"},
      {TokenKind::kLParen, "("},      {TokenKind::kIdentifier, "x"}, {TokenKind::kComma, ","},
      {TokenKind::kString, "y z"},    {TokenKind::kRParen, ")"},     {TokenKind::kComma, ","},
      {TokenKind::kBang, "!"},        {TokenKind::kIdentifier, "c"}, {TokenKind::kLParen, "("},
      {TokenKind::kNumber, "1"},      {TokenKind::kRParen, ")"},     {TokenKind::kNe, "!="},
      {TokenKind::kLe, "<="},         {TokenKind::kGe, ">="},        {TokenKind::kLt, "<"},
      {TokenKind::kGt, ">"},          {TokenKind::kEq, "="},         {TokenKind::kStar, "*"},
      {TokenKind::kIdentifier, "_"},  {TokenKind::kDot, "."},        {TokenKind::kNewline, ""},
      {TokenKind::kIdentifier, "$q"},
  };
  EXPECT_EQ(tokens, expected);
}

}  // namespace
}  // namespace refract::solver
