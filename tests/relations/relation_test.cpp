// Relational operations on BDD relations against hand-computed tuple sets,
// the renamings and shapes they refuse, and exact counts past 2^53 and 2^64.
#include "relations/relation.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "relations/relations_test_util.hpp"

namespace refract::rel::test {
namespace {

// V: 8 elements (3 bits), H: 4 (2 bits); three instances of V, two of H.
class RelationTest : public ::testing::Test {
 protected:
  Space s{{{"V", 8}, {"H", 4}}, "V0xV1xV2_H0xH1"};
  // A(x, y), B(y, z) share y on H0.
  Relation a = s.relation("A", {{"x", "V0"}, {"y", "H0"}}, {{0, 0}, {1, 0}, {1, 1}, {2, 3}});
  Relation b = s.relation("B", {{"y", "H0"}, {"z", "V1"}}, {{0, 5}, {1, 6}, {3, 7}, {2, 2}});
};

// The message of the std::invalid_argument `op` throws.
template <typename Op>
std::string refusal(Op&& op) {
  try {
    op();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST_F(RelationTest, JoinOnTheSharedAttribute) {
  const Relation j = join(a, b, {});
  EXPECT_EQ(attribute_names(j), (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(tuples_of(j), (Tuples{{0, 0, 5}, {1, 0, 5}, {1, 1, 6}, {2, 3, 7}}));
  EXPECT_EQ(j.size().to_string(), "4");
}

TEST_F(RelationTest, JoinQuantifyingTheSharedAttributeComposes) {
  const Relation j = join(a, b, {"y"});
  EXPECT_EQ(attribute_names(j), (std::vector<std::string>{"x", "z"}));
  EXPECT_EQ(tuples_of(j), (Tuples{{0, 5}, {1, 5}, {1, 6}, {2, 7}}));
}

TEST_F(RelationTest, JoinMayQuantifyAnAttributeOfOneSide) {
  const Relation j = join(a, b, {"x"});
  EXPECT_EQ(attribute_names(j), (std::vector<std::string>{"y", "z"}));
  EXPECT_EQ(tuples_of(j), (Tuples{{0, 5}, {1, 6}, {3, 7}}));  // (2, 2) has no x
}

TEST_F(RelationTest, JoinWithoutSharedAttributesIsTheProduct) {
  const Relation c = s.relation("C", {{"w", "V2"}}, {{3}, {4}});
  const Relation j = join(a, c, {});
  EXPECT_EQ(attribute_names(j), (std::vector<std::string>{"x", "y", "w"}));
  EXPECT_EQ(j.size().to_string(), "8");
  EXPECT_EQ(
      tuples_of(j),
      (Tuples{
          {0, 0, 3}, {0, 0, 4}, {1, 0, 3}, {1, 0, 4}, {1, 1, 3}, {1, 1, 4}, {2, 3, 3}, {2, 3, 4}}));
}

TEST_F(RelationTest, JoinRefusesOneAttributeOnTwoInstances) {
  const Relation d = s.relation("D", {{"y", "H1"}}, {{0}});
  EXPECT_EQ(refusal([&] { join(a, d, {}); }),
            "join A with D: attribute y sits on different instances");
}

TEST_F(RelationTest, JoinRefusesTwoAttributesOnOneInstance) {
  const Relation e = s.relation("E", {{"w", "V0"}}, {{0}});
  EXPECT_NE(refusal([&] { join(a, e, {}); }).find("V0 is used twice"), std::string::npos);
}

TEST_F(RelationTest, ProjectAway) {
  const Relation p = project_away(a, {"x"});
  EXPECT_EQ(attribute_names(p), (std::vector<std::string>{"y"}));
  EXPECT_EQ(tuples_of(p), (Tuples{{0}, {1}, {3}}));
  const Relation q = project_away(join(a, b, {}), {"x", "z"});
  EXPECT_EQ(tuples_of(q), (Tuples{{0}, {1}, {3}}));
  EXPECT_EQ(tuples_of(project_away(a, {})), tuples_of(a));
}

TEST_F(RelationTest, RenameMovesAnAttributeKeepingTheTuples) {
  const Relation r = rename(a, {{"x", s.physical("V2")}});
  EXPECT_EQ(r.attribute("x").physical, s.physical("V2"));
  EXPECT_EQ(tuples_of(r), tuples_of(a));
  // Now x sits on V2, clear of B's z on V1 ... and of a relation on V0.
  const Relation on_v0 = s.relation("F", {{"v", "V0"}}, {{1}});
  EXPECT_EQ(join(r, on_v0, {}).size().to_string(), "4");
}

TEST_F(RelationTest, RenameMaySwapTwoAttributesAtOnce) {
  const Relation r = s.relation("R", {{"x", "V0"}, {"z", "V1"}}, {{1, 2}, {3, 4}, {5, 0}});
  const Relation swapped = rename(r, {{"x", s.physical("V1")}, {"z", s.physical("V0")}});
  EXPECT_EQ(swapped.attribute("x").physical, s.physical("V1"));
  EXPECT_EQ(swapped.attribute("z").physical, s.physical("V0"));
  EXPECT_EQ(tuples_of(swapped), (Tuples{{1, 2}, {3, 4}, {5, 0}}));
  EXPECT_FALSE(swapped.bdd() == r.bdd());
}

TEST_F(RelationTest, RenameRefusesAnInstanceStillInUse) {
  const Relation r = s.relation("R", {{"x", "V0"}, {"z", "V1"}}, {{1, 2}});
  EXPECT_EQ(refusal([&] {
              rename(r, {{"x", s.physical("V1")}});
            }),
            "rename R: instance V1 is still used by z");
}

TEST_F(RelationTest, RenameRefusesAnInstanceOfAnotherDomain) {
  EXPECT_EQ(refusal([&] {
              rename(a, {{"x", s.physical("H1")}});
            }),
            "rename A.x onto H1: different domain");
}

TEST_F(RelationTest, SelectEqual) {
  EXPECT_EQ(tuples_of(select_equal(a, "x", 1)), (Tuples{{1, 0}, {1, 1}}));
  EXPECT_EQ(tuples_of(select_equal(a, "y", 3)), (Tuples{{2, 3}}));
  EXPECT_TRUE(select_equal(a, "x", 7).empty());
  // Values outside the domain select nothing (and do not throw).
  EXPECT_TRUE(select_equal(a, "y", 4).empty());
  EXPECT_TRUE(select_equal(a, "x", 1000).empty());
}

TEST_F(RelationTest, UniteAndSubtract) {
  const Relation a2 = s.relation("A", {{"x", "V0"}, {"y", "H0"}}, {{1, 1}, {3, 2}});
  EXPECT_EQ(tuples_of(unite(a, a2)), (Tuples{{0, 0}, {1, 0}, {1, 1}, {2, 3}, {3, 2}}));
  EXPECT_EQ(tuples_of(subtract(a, a2)), (Tuples{{0, 0}, {1, 0}, {2, 3}}));
  EXPECT_EQ(tuples_of(subtract(a2, a)), (Tuples{{3, 2}}));
  EXPECT_TRUE(subtract(a, a).empty());
}

TEST_F(RelationTest, UniteAndSubtractRefuseDifferentShapes) {
  EXPECT_EQ(refusal([&] { unite(a, b); }), "union: attribute x differs between A and B");
  const Relation moved = rename(a, {{"x", s.physical("V1")}});
  EXPECT_EQ(refusal([&] { subtract(a, moved); }),
            "difference: attribute x differs between A and A");
  const Relation narrow = project_away(a, {"y"});
  EXPECT_EQ(refusal([&] { unite(a, narrow); }), "union: relations differ in arity");
}

TEST_F(RelationTest, ConstructorRefusesInconsistentAttributes) {
  const DomainId v = *s.space.find_domain("V");
  const DomainId h = *s.space.find_domain("H");
  EXPECT_EQ(refusal([&] {
              Relation(s.space, "R", {{"a", v, s.physical("V0")}, {"b", v, s.physical("V0")}});
            }),
            "relation R: instance V0 is used twice");
  EXPECT_EQ(refusal([&] {
              Relation(s.space, "R", {{"a", h, s.physical("V0")}});
            }),
            "relation R: attribute a is bound to an instance of another domain");
  EXPECT_EQ(refusal([&] {
              Relation(s.space, "R", {{"a", v, s.physical("V0")}, {"a", v, s.physical("V1")}});
            }),
            "relation R: attribute a repeats");
  EXPECT_EQ(refusal([&] { (void)a.attribute("nope"); }), "relation A has no attribute nope");
}

// --- Exact counts ---------------------------------------------------------------

TEST(RelationCountTest, FullProductOfThree2To20DomainsIsExactly2To60) {
  Space s({{"A", std::uint64_t{1} << 20}}, "A0_A1_A2");
  Relation r = s.relation("R", {{"a", "A0"}, {"b", "A1"}, {"c", "A2"}});
  r.set_bdd(s.space.valid_values(s.physical("A0")) & s.space.valid_values(s.physical("A1")) &
            s.space.valid_values(s.physical("A2")));
  EXPECT_EQ(r.size(), BigUint::power_of_two(60));
  EXPECT_EQ(r.size().to_string(), "1152921504606846976");

  // One tuple fewer: 2^60 - 1 has no double, so only an exact count gets it.
  bdd::Bdd one_tuple = bdd::Bdd::one();
  for (const char* p : {"A0", "A1", "A2"})
    one_tuple &= s.space.physical(s.physical(p)).block.equals_constant(12345);
  r.set_bdd(r.bdd() - one_tuple);
  EXPECT_EQ(r.size().to_string(), "1152921504606846975");
}

TEST(RelationCountTest, FullProductOfDomainsThatAreNotPowersOfTwo) {
  // 1,000,003^3 = 1,000,009,000,027,000,027: odd and far above 2^53.
  Space s({{"A", 1'000'003}}, "A0xA1xA2");
  Relation r = s.relation("R", {{"a", "A0"}, {"b", "A1"}, {"c", "A2"}});
  r.set_bdd(s.space.valid_values(s.physical("A0")) & s.space.valid_values(s.physical("A1")) &
            s.space.valid_values(s.physical("A2")));
  EXPECT_EQ(r.size().to_string(), "1000009000027000027");
}

TEST(RelationCountTest, CountsPast2To64) {
  Space s({{"A", std::uint64_t{1} << 20}}, "A0_A1_A2_A3");
  Relation r = s.relation("R", {{"a", "A0"}, {"b", "A1"}, {"c", "A2"}, {"d", "A3"}});
  r.set_bdd(bdd::Bdd::one());
  EXPECT_EQ(r.size().to_string(), "1208925819614629174706176");  // 2^80
  // Attributes the BDD does not mention still multiply the count.
  r.set_bdd(s.space.physical(s.physical("A2")).block.equals_constant(7));
  EXPECT_EQ(r.size().to_string(), "1152921504606846976");  // 2^60
}

// A relation keeps the count of its value (a deep run's report asks more than once); a new
// value, or a copy's own, is counted anew.
TEST(RelationCountTest, ACountFollowsTheValueItWasMadeFor) {
  Space s({{"A", 8}}, "A0_A1");
  Relation r = s.relation("R", {{"a", "A0"}, {"b", "A1"}}, {{1, 2}, {3, 4}});
  EXPECT_EQ(r.size().to_string(), "2");
  const Relation copy = r;
  r.set_bdd(r.bdd() | s.relation("S", {{"a", "A0"}, {"b", "A1"}}, {{5, 6}}).bdd());
  EXPECT_EQ(r.size().to_string(), "3");
  EXPECT_EQ(copy.size().to_string(), "2");
  r.set_bdd(bdd::Bdd::zero());
  EXPECT_EQ(r.size().to_string(), "0");
}

}  // namespace
}  // namespace refract::rel::test
