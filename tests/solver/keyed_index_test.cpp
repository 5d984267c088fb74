// The static side of a join restricted to the other side's keys (solver/keyed_index.hpp): the
// restriction is exactly the tuples the other side can join, the limits send large cases back to
// the plain product, and the engine takes the path (for a static prefix before a delta, and for a
// static atom after one) only where the order makes the product walk the static side.
#include "solver/keyed_index.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bdd/var_order.hpp"
#include "relations/tuple_io.hpp"
#include "solver/engine.hpp"
#include "solver/engine_test_folder.hpp"

namespace refract::solver {
namespace {

using TupleList = std::vector<std::vector<std::uint64_t>>;

// VirtualCall(i, base, r) on I0, V0, M0 with I and M above V, and a delta over (base, h) on
// V0, H0: the shape of ReceiverEdge's first join.
class KeyedIndexTest : public ::testing::Test {
 protected:
  KeyedIndexTest() : space_(bdd::ManagerSettings{20'000, 5'000}) {
    space_.add_domain("I", 16);
    space_.add_domain("V", 16);
    space_.add_domain("M", 8);
    space_.add_domain("H", 8);
    space_.lay_out(bdd::parse_var_order("I0_M0_V0_H0", space_.instance_names()));
    site_ = *space_.find_physical("I0");
    base_ = *space_.find_physical("V0");
    method_ = *space_.find_physical("M0");
    heap_ = *space_.find_physical("H0");
  }

  bdd::Bdd encode(const std::vector<rel::PhysicalId>& instances, TupleList tuples) const {
    std::vector<rel::Attribute> attributes;
    for (const rel::PhysicalId p : instances)
      attributes.push_back({"a" + std::to_string(attributes.size()), space_.physical(p).domain, p});
    return rel::bdd_from_tuples(rel::Relation(space_, "", attributes), std::move(tuples));
  }

  bdd::Bdd calls() const {  // (site, base, method)
    return encode({site_, base_, method_},
                  {{0, 1, 2}, {1, 1, 3}, {2, 4, 2}, {3, 5, 7}, {4, 5, 1}, {5, 9, 0}, {6, 9, 0}});
  }

  std::optional<KeyedIndex> index(const KeyedIndexLimits& limits) const {
    return KeyedIndex::index(space_, calls(), {site_, base_, method_}, {base_}, {heap_}, limits);
  }

  rel::DomainSpace space_;
  rel::PhysicalId site_ = 0, base_ = 0, method_ = 0, heap_ = 0;
};

TEST_F(KeyedIndexTest, RestrictionHoldsExactlyThePrefixTuplesOfTheDeltasKeys) {
  const auto keyed = index({.max_prefix_tuples = 100, .cost_per_tuple = 0});
  ASSERT_TRUE(keyed);
  EXPECT_EQ(keyed->tuples(), 7u);
  // Bases 1 and 9 (two heaps each) and 12, which no call uses.
  const bdd::Bdd delta = encode({base_, heap_}, {{1, 0}, {1, 3}, {9, 2}, {12, 1}, {9, 5}});
  const std::optional<bdd::Bdd> restricted = keyed->restrict_to(delta);
  ASSERT_TRUE(restricted);
  EXPECT_TRUE(*restricted ==
              encode({site_, base_, method_}, {{0, 1, 2}, {1, 1, 3}, {5, 9, 0}, {6, 9, 0}}));
  // The product the engine computes is the same with either prefix.
  const bdd::Bdd drop = space_.variable_set({base_});
  EXPECT_TRUE(restricted->and_exists(delta, drop) == calls().and_exists(delta, drop));
}

TEST_F(KeyedIndexTest, DeltaWithoutMatchingKeysSelectsNothing) {
  const auto keyed = index({.max_prefix_tuples = 100, .cost_per_tuple = 0});
  ASSERT_TRUE(keyed);
  const std::optional<bdd::Bdd> restricted = keyed->restrict_to(encode({base_, heap_}, {{15, 1}}));
  ASSERT_TRUE(restricted);
  EXPECT_TRUE(restricted->is_zero());
}

TEST_F(KeyedIndexTest, PrefixAboveTheTupleLimitIsNotIndexed) {
  EXPECT_FALSE(index({.max_prefix_tuples = 6, .cost_per_tuple = 0}));
  EXPECT_TRUE(index({.max_prefix_tuples = 7, .cost_per_tuple = 0}));
}

TEST_F(KeyedIndexTest, RestrictionCostlierThanTheProductIsDeclined) {
  // A budget of prefix nodes / cost_per_tuple: one tuple already costs more than the product.
  const auto keyed = index({.max_prefix_tuples = 100, .cost_per_tuple = 1'000'000});
  ASSERT_TRUE(keyed);
  EXPECT_FALSE(keyed->restrict_to(encode({base_, heap_}, {{1, 0}})));
}

// In a recursive stratum: edge(i, h, m) :- call(i, v, m), vpt(v, h) reads vpt's delta after the
// static prefix call, and vpt grows through edge again.
constexpr const char* kKeyedIndexProgram = R"(
I 16
V 16
M 8
H 8
call (site : I, base : V, method : M) inputtuples
result (site : I, to : V) inputtuples
alloc (v : V, heap : H) inputtuples
vpt (v : V, heap : H) printsize
edge (site : I, heap : H, method : M) printsize
vpt(v, h) :- alloc(v, h).
edge(i, h, m) :- call(i, v, m), vpt(v, h).
vpt(r, h) :- edge(i, h, _), result(i, r).
)";

class KeyedIndexEngineTest : public EngineTestFolder {
 protected:
  void SetUp() override {
    EngineTestFolder::SetUp();
    write("call.tuples", "# I0:4 V0:4 M0:3\n0 1 2\n1 2 3\n2 3 1\n3 7 4\n4 8 5\n");
    write("result.tuples", "# I0:4 V0:4\n0 2\n1 3\n2 7\n3 8\n");
    write("alloc.tuples", "# V0:4 H0:3\n1 0\n8 1\n");
    write("assign.tuples", "# V0:4 V1:4\n2 1\n3 2\n4 3\n9 8\n");
  }

  struct Run {
    std::set<std::vector<std::uint64_t>> edges, points_to;
    std::uint64_t keyed_joins = 0;
    std::map<std::string, std::uint64_t> keyed_by_head;  // per rule, by its head relation
  };

  Run run(const std::string& order, bool keyed, const char* text = kKeyedIndexProgram) {
    const Program program = parse(text);
    EngineOptions options = this->options(order);
    options.keyed_indexes = keyed;
    options.keyed_limits.cost_per_tuple = 0;  // the order alone decides on this small input
    Engine engine(program, options);
    engine.run();
    Run out;
    if (program.find_relation("edge") != nullptr)
      for (const auto& t : engine.tuples("edge")) out.edges.insert(t);
    for (const auto& t : engine.tuples("vpt")) out.points_to.insert(t);
    out.keyed_joins = engine.engine_profile().keyed_joins;
    for (const RuleProfile& rule : engine.rule_profiles())
      out.keyed_by_head[rule.rule_text.substr(0, rule.rule_text.find('('))] += rule.keyed_joins;
    return out;
  }
};

TEST_F(KeyedIndexEngineTest, SharedVariableBelowThePrefixJoinsOnKeyedTuples) {
  const Run keyed = run("I0_M0_V0_H0", true);
  const Run plain = run("I0_M0_V0_H0", false);
  EXPECT_GT(keyed.keyed_by_head.at("edge"), 0u);
  // vpt(r, h) :- edge(i, h, _), result(i, r): the key i is on top of result, no need.
  EXPECT_EQ(keyed.keyed_by_head.at("vpt"), 0u);
  EXPECT_EQ(plain.keyed_joins, 0u);
  EXPECT_EQ(keyed.edges, plain.edges);
  EXPECT_EQ(keyed.points_to, plain.points_to);
  // Heap 0 flows 1 -> (site 0) 2 -> (site 1) 3 -> (site 2) 7 -> (site 3) 8 -> site 4.
  const std::set<std::vector<std::uint64_t>> expected = {{0, 0, 2}, {1, 0, 3}, {2, 0, 1},
                                                         {3, 0, 4}, {4, 0, 5}, {4, 1, 5}};
  EXPECT_EQ(keyed.edges, expected);
}

TEST_F(KeyedIndexEngineTest, SharedVariableOnTopKeepsThePlainProduct) {
  const Run r = run("V0_I0_M0_H0", true);
  EXPECT_EQ(r.keyed_by_head.at("edge"), 0u);
  EXPECT_EQ(r.edges, run("I0_M0_V0_H0", false).edges);
}

// A static atom after the delta: vpt(r, h) :- edge(i, h, _), result(i, r) with V above I puts
// all of result's r above the key i, so new edge tuples join only the result tuples of their
// sites.
TEST_F(KeyedIndexEngineTest, StaticAtomWithTheKeyBelowJoinsOnKeyedTuples) {
  const Run keyed = run("V0_I0_M0_H0", true);
  const Run plain = run("V0_I0_M0_H0", false);
  EXPECT_GT(keyed.keyed_by_head.at("vpt"), 0u);
  EXPECT_EQ(plain.keyed_joins, 0u);
  EXPECT_EQ(keyed.edges, plain.edges);
  EXPECT_EQ(keyed.points_to, plain.points_to);
}

// vpt(t, h) :- assign(t, f), vpt(f, h) with V0xV1: the other block is interleaved with the key,
// so the product prunes it bit by bit and stays.
constexpr const char* kAssignProgram = R"(
V 16
H 8
alloc (v : V, heap : H) inputtuples
assign (to : V, from : V) inputtuples
vpt (v : V, heap : H) printsize
vpt(v, h) :- alloc(v, h).
vpt(t, h) :- assign(t, f), vpt(f, h).
)";

TEST_F(KeyedIndexEngineTest, InterleavedSharedVariableKeepsThePlainProduct) {
  const Run r = run("V0xV1_H0", true, kAssignProgram);
  EXPECT_EQ(r.keyed_joins, 0u);
  const std::set<std::vector<std::uint64_t>> expected = {{1, 0}, {2, 0}, {3, 0},
                                                         {4, 0}, {8, 1}, {9, 1}};
  EXPECT_EQ(r.points_to, expected);
  // Blocks apart: the same answer whichever instance the planner gives each variable.
  const Run apart = run("V1_V0_H0", true, kAssignProgram);
  EXPECT_EQ(apart.points_to, expected);
}

}  // namespace
}  // namespace refract::solver
