// bddbddb's own constructs, each on a small program with the tuples bddbddb's meaning gives:
// evaluation hints, repeated attribute names and declarations, comparisons, variables no
// positive atom binds, `number` rules, relation order constraints, orders that miss or name
// extra instances, maps that repeat a name, and quoted names a map lacks (both ways).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "solver/engine.hpp"
#include "solver/engine_test_folder.hpp"

namespace refract::solver {
namespace {

using Tuples = std::set<std::vector<std::uint64_t>>;

class DialectTest : public EngineTestFolder {
 protected:
  // Runs `text` (no --order: the program's or the default order) as `refract solve` reads it.
  void run(const std::string& text, bool as_bddbddb = true) {
    engine_.reset();  // it refers to program_
    program_ = parse(text);
    EngineOptions base;
    base.complete_var_order = as_bddbddb;
    base.new_elements_for_missing_names = as_bddbddb;
    base.progress = &progress_;
    EngineOptions options = this->options("", base);
    options.var_order.reset();
    engine_ = std::make_unique<Engine>(program_, options);
    engine_->run();
  }
  Tuples tuples(const std::string& relation) const {
    const auto listed = engine_->tuples(relation);
    return Tuples(listed.begin(), listed.end());
  }
  bool progress_has(const std::string& text) const {
    return progress_.str().find(text) != std::string::npos;
  }
  std::size_t warnings_with(const std::string& text) const {
    std::size_t n = 0;
    for (const std::string& w : program_.warnings) n += w.find(text) != std::string::npos;
    return n;
  }
  // The InputError message running `text` gives.
  std::string error_of(const std::string& text, bool as_bddbddb = true) {
    try {
      run(text, as_bddbddb);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  }

  Program program_;
  std::ostringstream progress_;
  std::unique_ptr<Engine> engine_;
};

// [bddbddb: split, pri, cacheafterrename, trace change how a rule runs] The same tuples as
// without them; each hint is named once among the warnings. Comparisons as bddbddb builds
// them: unsigned order of element numbers.
TEST_F(DialectTest, HintsChangeNothingAndComparisonsCompareNumbers) {
  write("e.tuples", "# D0:3 D1:3\n1 2\n2 2\n3 1\n5 7\n0 0\n");
  run("D 8\n"
      "e (a : D0, b : D1) inputtuples\n"
      "lt (a : D0, b : D1)\nle (a : D0, b : D1)\ngt (a : D0, b : D1)\nge (a : D0, b : D1)\n"
      "small (a : D0)\nabove (a : D0)\n"
      "lt(x, y) :- e(x, y), x < y. split\n"
      "le(x, y) :- e(x, y), x <= y. pri=-10\n"
      "gt(x, y) :- e(x, y), x > y. cacheafterrename split\n"
      "ge(x, y) :- e(x, y), x >= y. trace pri = 3\n"
      "small(x) :- e(x, _), x < 3.\n"
      "above(y) :- e(_, y), 2 <= y.\n");
  EXPECT_EQ(tuples("lt"), (Tuples{{1, 2}, {5, 7}}));
  EXPECT_EQ(tuples("le"), (Tuples{{0, 0}, {1, 2}, {2, 2}, {5, 7}}));
  EXPECT_EQ(tuples("gt"), (Tuples{{3, 1}}));
  EXPECT_EQ(tuples("ge"), (Tuples{{0, 0}, {2, 2}, {3, 1}}));
  EXPECT_EQ(tuples("small"), (Tuples{{0}, {1}, {2}}));
  EXPECT_EQ(tuples("above"), (Tuples{{2}, {7}}));
  for (const char* hint : {"'split'", "'pri'", "'cacheafterrename'", "'trace'"})
    EXPECT_EQ(warnings_with(std::string("rule option ") + hint), 1U) << hint;
}

// [genericroots: aT (type:T0, type:T1); extlockci: mSync declared twice] Attributes are
// matched by position; a repeated declaration that says the same is a warning, a repeated
// domain keeps the first declaration.
TEST_F(DialectTest, RepeatedAttributeNamesAndDeclarations) {
  write("aT.tuples", "# T0:2 T1:2\n0 1\n1 1\n2 0\n");
  run("T 4\nT 4\n"
      "aT (type : T0, type : T1) inputtuples\n"
      "aT (type : T0, type : T1) inputtuples\n"
      "strict (type : T0, type : T1) outputtuples\n"
      "strict(a, b) :- aT(a, b), a != b.\n");
  EXPECT_EQ(tuples("strict"), (Tuples{{0, 1}, {2, 0}}));
  EXPECT_EQ(warnings_with("domain 'T' is declared again"), 1U);
  EXPECT_EQ(warnings_with("relation 'aT' is declared again ("), 1U);
  engine_->write_outputs();  // two columns of one name still make a .tuples header
  EXPECT_TRUE(std::filesystem::exists(dir_ / "strict.tuples"));
}

// [typerefine: varSuperTypes(v,t) :- !notVarType(v,t), !nullType(t), mV(_,v).] A variable no
// positive atom binds ranges over its whole domain, in a head, a fact, a negated atom or a
// comparison; `_` in a head is such a variable. One written only in a negated atom is
// quantified inside the negation, as `_` there.
TEST_F(DialectTest, VariablesNoAtomBindsRangeOverTheirDomain) {
  write("p.tuples", "# D0:2\n1\n2\n");
  write("m.tuples", "# D0:2\n0\n1\n");
  write("nt.tuples", "# D0:2 E0:2\n0 0\n1 1\n");
  write("nullt.tuples", "# E0:2\n2\n");
  write("s.tuples", "# D0:2 D1:2\n1 0\n1 3\n");
  run("D 4\nE 3\n"
      "p (d : D) inputtuples\nm (d : D) inputtuples\n"
      "nt (d : D, e : E) inputtuples\nnullt (e : E) inputtuples\ns (a : D0, b : D1) inputtuples\n"
      "all (d : D, e : E)\nunder (d : D, e : E)\nnotIn (d : D)\nfact (d : D, e : E)\n"
      "diag (a : D0, b : D1)\nbelow (d : D)\nvs (d : D, e : E)\nnoS (d : D)\n"
      "all(x, y) :- p(x).\n"
      "under(x, _) :- p(x).\n"
      "notIn(x) :- !p(x).\n"
      "fact(x, 1).\n"
      "diag(x, x).\n"
      "below(x) :- p(y), y < x.\n"
      "vs(v, t) :- !nt(v, t), !nullt(t), m(v).\n"
      "noS(x) :- p(x), !s(x, y).\n");
  const Tuples every_e = {{1, 0}, {1, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}};
  EXPECT_EQ(tuples("all"), every_e);
  EXPECT_EQ(tuples("under"), every_e);
  EXPECT_EQ(tuples("notIn"), (Tuples{{0}, {3}}));
  EXPECT_EQ(tuples("fact"), (Tuples{{0, 1}, {1, 1}, {2, 1}, {3, 1}}));
  EXPECT_EQ(tuples("diag"), (Tuples{{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
  EXPECT_EQ(tuples("below"), (Tuples{{2}, {3}}));
  EXPECT_EQ(tuples("vs"), (Tuples{{0, 1}, {1, 0}}));
  EXPECT_EQ(tuples("noS"), (Tuples{{2}}));  // 1 has s(1, y) for some y
}

const char* const kNumberingProgram =
    "M 8\nI 8\nC CSIZE\n"
    "roots (m : M) inputtuples\nmI (m : M, i : I) inputtuples\nIE (i : I, m : M) inputtuples\n"
    "IEnum (i : I, m : M, caller : C1, callee : C0) outputtuples\n"
    "reached (m : M, c : C)\n"
    "IEnum(i, m, c1, c0) :- roots(m), mI(m, i), IE(i, m). number\n"
    "reached(m, c) :- IEnum(_, m, _, c).\n";

// [pacs2.datalog] Method 0 (a root) calls method 1 at invokes 0 and 1: two paths, the
// second shifted by one. Method 1 calls method 2 at invoke 2, and method 2 calls itself at
// invoke 3: one component, whose two paths the recursive edge keeps. Method 4 calls method 3
// but no root reaches 4: none of its edges is numbered.
TEST_F(DialectTest, NumberingRuleNumbersEachPathFromTheRoots) {
  write("roots.tuples", "# M0:3\n0\n");
  write("mI.tuples", "# M0:3 I0:3\n0 0\n0 1\n1 2\n2 3\n4 6\n");
  write("IE.tuples", "# I0:3 M0:3\n0 1\n1 1\n2 2\n3 2\n6 3\n5 3\n");
  std::string text = kNumberingProgram;
  text.replace(text.find("CSIZE"), 5, "16");
  run(text);
  EXPECT_EQ(
      tuples("IEnum"),
      (Tuples{{0, 1, 0, 0}, {1, 1, 0, 1}, {2, 2, 0, 0}, {2, 2, 1, 1}, {3, 2, 0, 0}, {3, 2, 1, 1}}));
  EXPECT_EQ(tuples("reached"), (Tuples{{1, 0}, {1, 1}, {2, 0}, {2, 1}}));
}

TEST_F(DialectTest, NumberingRuleStopsWhenNumbersOutgrowTheDomain) {
  write("roots.tuples", "# M0:3\n0\n");
  write("mI.tuples", "# M0:3 I0:3\n0 0\n0 1\n");
  write("IE.tuples", "# I0:3 M0:3\n0 1\n1 1\n");
  std::string text = kNumberingProgram;
  text.replace(text.find("CSIZE"), 5, "1");
  EXPECT_NE(error_of(text).find("p.datalog:9:1: numbering rule: the paths to m = 1 need more "
                                "numbers than domain C has (1)"),
            std::string::npos)
      << error_of(text);
}

// [pac.datalog: vP0 (v:V0, h:H0) input v<h; A (dest:V0, source:V1) input dest=source] With no
// order given, refract's own order puts H above V as asked and keeps V0 and V1 interleaved;
// a constraint the others contradict is named in the progress.
TEST_F(DialectTest, DefaultOrderHonoursRelationOrderConstraints) {
  write("vP0.tuples", "# V0:2 H0:2\n1 2\n");
  write("A.tuples", "# V0:2 V1:2\n0 1\n");
  run("V 4\nH 4\n"
      "vP0 (v : V0, h : H0) inputtuples h<v\n"
      "A (dest : V0, source : V1) inputtuples dest=source\n"
      "vP (v : V0, h : H0) outputtuples\n"
      "vP(v, h) :- vP0(v, h).\n"
      "vP(d, h) :- A(d, s), vP(s, h).\n");
  EXPECT_EQ(engine_->var_order(), "H0_V0xV1");
  EXPECT_EQ(tuples("vP"), (Tuples{{0, 2}, {1, 2}}));

  run("V 4\nH 4\n"
      "vP0 (v : V0, h : H0) inputtuples h<v\n"
      "vP (v : V0, h : H0) outputtuples v<h\n"
      "vP(v, h) :- vP0(v, h).\n");
  EXPECT_EQ(engine_->var_order(), "V0_H0");  // the cycle loses the constraint into V0
  EXPECT_TRUE(progress_has("order constraint 'h<v' of relation vP0 (")) << progress_.str();
  EXPECT_TRUE(progress_has("is not honoured: the constraints form a cycle")) << progress_.str();

  // A given order is used as it is; the constraints are named once as unused.
  run("V 4\nH 4\n.bddvarorder V0_H0\n"
      "vP0 (v : V0, h : H0) inputtuples h<v\n"
      "vP (v : V0, h : H0) outputtuples h<v\n"
      "vP(v, h) :- vP0(v, h).\n");
  EXPECT_EQ(engine_->var_order(), "V0_H0");
  EXPECT_TRUE(
      progress_has("p.datalog:4:34: relation order constraints are a bddbddb hint that "
                   "refract does not use when the order is given"))
      << progress_.str();
}

// [c_pa.datalog: its order names FD0-FD4, its rules need FD5; BDDSolver.fixVarOrder] A missing
// instance goes in front of the last of its domain, joined as that one is; names of instances
// the program does not use, or of no declared domain, are dropped; the progress says so.
TEST_F(DialectTest, OrderThatMissesOrNamesExtraInstancesIsCompleted) {
  write("e.tuples", "# V0:2 V1:2\n0 1\n1 2\n");
  run("V 4\nH 4\n"
      ".bddvarorder H0xH1_V0_Q0xV2\n"
      "e (a : V0, b : V1) inputtuples\n"
      "f (a : V0, b : V1, c : V2) outputtuples\n"
      "g (h : H0)\n"
      "f(x, y, z) :- e(x, y), e(y, z).\n"
      "g(1).\n");
  EXPECT_EQ(engine_->var_order(), "H0_V0_V1xV2");
  EXPECT_EQ(tuples("f"), (Tuples{{0, 1, 2}}));
  EXPECT_TRUE(progress_has("added V1 in front of V2")) << progress_.str();
  EXPECT_TRUE(progress_has("dropped H1, an instance the program does not use"));
  EXPECT_TRUE(progress_has("dropped Q0, which names no instance of a declared domain"));
}

// [c_pa.enscript: "sprintf" is on two lines of procModel.map] Every line is an element; a
// quoted name stands for the last line with it, with one warning per name.
TEST_F(DialectTest, NameOnSeveralMapLinesIsTheLast) {
  write("D.map", "a\nb\na\n");
  write("p.tuples", "# D0:2\n0\n1\n2\n");
  run("D 4 D.map\n"
      "p (d : D) inputtuples\nr (d : D)\ns (d : D)\n"
      "r(x) :- p(x), x = \"a\".\n"
      "s(x) :- p(x), x != \"a\".\n");
  EXPECT_EQ(tuples("r"), (Tuples{{2}}));
  EXPECT_EQ(tuples("s"), (Tuples{{0}, {1}}));
  const std::string out = progress_.str();
  EXPECT_NE(out.find("p.datalog:5:19: warning: \"a\" is on 2 lines of the map of domain D (first "
                     "element 0); it stands for the last, element 2, as in bddbddb"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("\"a\" is on 2 lines", out.find("\"a\" is on 2 lines") + 1),
            std::string::npos);
}

const char* const kMissingNames =
    "D 4 D.map\n"
    "p (d : D) inputtuples\nr (d : D)\ns (d : D)\nt (d : D)\n"
    "s(x) :- p(x), x != \"d\".\n"
    "t(x) :- p(x), x = \"c\".\n";

// [bddbddb's Domain.namedConstant] A quoted name the map lacks is a new element, numbered
// after the map's lines in the order the program first writes such names, in a head as in a
// body.
TEST_F(DialectTest, NameTheMapLacksIsANewElementForBddbddbPrograms) {
  write("D.map", "a\nb\n");
  write("p.tuples", "# D0:2\n0\n1\n2\n3\n");
  run(std::string(kMissingNames) + "r(\"c\").\n");
  EXPECT_EQ(tuples("s"), (Tuples{{0}, {1}, {3}}));  // "d" is 2: first written
  EXPECT_EQ(tuples("t"), (Tuples{{3}}));            // "c" is 3
  EXPECT_EQ(tuples("r"), (Tuples{{3}}));
  EXPECT_TRUE(progress_has("\"d\" is not in the map of domain D; it is a new element, 2"));
  EXPECT_TRUE(progress_has("\"c\" is not in the map of domain D; it is a new element, 3"));
}

// refract's own analyses (analyze) keep the names absent: a body's never matches (x != absent
// always holds), a head's is an error.
TEST_F(DialectTest, NameTheMapLacksMatchesNothingInRefractsOwnPrograms) {
  write("D.map", "a\nb\n");
  write("p.tuples", "# D0:2\n0\n1\n2\n3\n");
  run(kMissingNames, /*as_bddbddb=*/false);
  EXPECT_EQ(tuples("s"), (Tuples{{0}, {1}, {2}, {3}}));
  EXPECT_EQ(tuples("t"), Tuples{});
  EXPECT_EQ(error_of(std::string(kMissingNames) + "r(\"c\").\n", /*as_bddbddb=*/false),
            (dir_ / "p.datalog").string() + ":8:3: \"c\" is not an element of domain D");
}

// A map that names every element of its domain (refract's own facts do) leaves no new element
// to give: the name stays absent, as in refract's own programs.
TEST_F(DialectTest, NameTheMapLacksStaysAbsentWhereTheDomainHasNoRoom) {
  write("D.map", "a\nb\nx\ny\n");
  write("p.tuples", "# D0:2\n0\n1\n2\n3\n");
  run(kMissingNames);
  EXPECT_EQ(tuples("s"), (Tuples{{0}, {1}, {2}, {3}}));
  EXPECT_EQ(tuples("t"), Tuples{});
  EXPECT_TRUE(
      progress_has("p.datalog:6:20: warning: \"d\" is not an element of domain D; it "
                   "matches nothing"))
      << progress_.str();
  EXPECT_EQ(error_of(std::string(kMissingNames) + "r(\"c\").\n"),
            (dir_ / "p.datalog").string() + ":8:3: \"c\" is not an element of domain D");
}

}  // namespace
}  // namespace refract::solver
