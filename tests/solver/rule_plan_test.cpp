// Rule plans (solver/rule_plan.hpp): where a stratum atom's dropped positions are quantified,
// and where a comparison runs.
#include "solver/rule_plan.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "bdd/var_order.hpp"
#include "relations/domain_space.hpp"
#include "solver/default_order.hpp"
#include "solver/instance_layout.hpp"
#include "solver/parser.hpp"

namespace refract::solver {
namespace {

// pt stands for VarPointsTo, store for StaticStore, ctxOf for a rule that keeps the context.
constexpr const char* kRulePlanProgram = R"(
C 4
V 16
H 16
F 4
I 8
M 8
pt (ctx : C, var : V, heap : H) inputtuples
store (field : F, from : V) inputtuples
ctxOf (ctx : C, var : V) inputtuples
fieldPt (field : F, heap : H) printsize
ctxPt (ctx : C, heap : H) printsize
notPt (field : F) printsize
target (invoke : I, method : M) inputtuples
poly (invoke : I) printsize
ordered (m1 : M, m2 : M) printsize
fieldPt(f, h) :- store(f, v), pt(_, v, h).
ctxPt(c, h) :- ctxOf(c, v), pt(_, v, h).
notPt(f) :- store(f, v), !pt(0, v, 0).
poly(i) :- target(i, m1), target(i, m2), m1 != m2.
ordered(m1, m2) :- target(i, m1), target(i, m2), m1 < m2.
)";

class RulePlanTest : public ::testing::Test {
 protected:
  RulePlanTest()
      : program_(parse_program_text(kRulePlanProgram, "plan.datalog", ".")),
        space_(bdd::ManagerSettings{}) {
    const InstanceLayout layout = lay_out_instances(program_);
    for (const DomainDecl& d : program_.domains) space_.add_domain(d.name, d.size);
    space_.lay_out(
        bdd::parse_var_order(default_var_order(program_, layout).text, space_.instance_names()));
    for (std::size_t r = 0; r < program_.relations.size(); ++r) {
      PlannedRelation shape{&program_.relations[r], {}};
      for (std::size_t a = 0; a < program_.relations[r].attributes.size(); ++a) {
        const auto domain = *space_.find_domain(program_.relations[r].attributes[a].domain);
        shape.instances.push_back(*space_.find_physical(domain, layout.relation_instances[r][a]));
      }
      shapes_.push_back(std::move(shape));
    }
  }

  // The plan of rule `rule` with pt (relation 0) in the head's stratum or not, and its step 1.
  AtomStep second_step(std::size_t rule, bool pt_recursive) {
    const std::set<std::size_t> recursive =
        pt_recursive ? std::set<std::size_t>{0} : std::set<std::size_t>{};
    const RulePlan plan = plan_rule(program_.rules[rule], shapes_, space_, recursive);
    return std::get<AtomStep>(plan.steps.at(1));
  }

  Program program_;
  rel::DomainSpace space_;
  std::vector<PlannedRelation> shapes_;
};

// StaticFieldPointsTo's shape: the context of each new pt tuple is quantified in the product
// with the stores, not projected out of the whole delta first.
TEST_F(RulePlanTest, AStratumAtomDropsInTheJoinWhatTheOtherSideDoesNotHold) {
  const AtomStep step = second_step(0, true);
  EXPECT_TRUE(step.drop_in_join);
  EXPECT_FALSE(step.drop.is_one());
  EXPECT_EQ(step.quantify_after & step.drop, step.quantify_after);  // drop within it
}

TEST_F(RulePlanTest, AStaticAtomIsProjectedOnceAsBefore) {
  const AtomStep step = second_step(0, false);
  EXPECT_FALSE(step.drop_in_join);
  EXPECT_NE(step.quantify_after & step.drop, step.quantify_after);
}

// The dropped context lies on C0, where c (still needed for the head) is: it must go first.
TEST_F(RulePlanTest, ADroppedPositionOnALiveVariablesInstanceIsProjectedFirst) {
  EXPECT_FALSE(second_step(1, true).drop_in_join);
}

TEST_F(RulePlanTest, ANegatedAtomIsProjectedFirst) {
  EXPECT_FALSE(second_step(2, true).drop_in_join);
}

// PolymorphicCall's shape: m1 dies in the comparison, m2 is bound by the second atom, so the
// comparison runs between the two atoms and quantifies m1 (no pairs of targets are built).
TEST_F(RulePlanTest, AComparisonOfADyingVariableRunsBeforeTheAtomBindingTheOther) {
  const RulePlan plan = plan_rule(program_.rules[3], shapes_, space_);
  EXPECT_EQ(plan.body_literals, (std::vector<std::int64_t>{0, 2, 1}));
  const auto& comparison = std::get<ConstraintStep>(plan.steps.at(1));
  EXPECT_FALSE(comparison.quantify_after.is_one());
}

// Where both variables reach the head, the comparison waits until both atoms are joined.
TEST_F(RulePlanTest, AComparisonOfTwoLiveVariablesRunsAfterBothAtoms) {
  const RulePlan plan = plan_rule(program_.rules[4], shapes_, space_);
  EXPECT_EQ(plan.body_literals, (std::vector<std::int64_t>{0, 1, 2}));
}

}  // namespace
}  // namespace refract::solver
