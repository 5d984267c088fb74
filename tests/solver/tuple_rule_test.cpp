// Rules evaluated once on explicit tuples (solver/tuple_rule.hpp): when the engine takes that
// path, and that it gives the BDD products' answer, including when it gives up part-way.
#include "solver/tuple_rule.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "solver/engine.hpp"
#include "solver/engine_test_folder.hpp"

namespace refract::solver {
namespace {

using Tuples = std::set<std::vector<std::uint64_t>>;

// The shape of HeapDispatch(h, r, m) :- HeapType(h, t), Dispatch(t, r, m), with a negation,
// a comparison and a quoted constant besides.
constexpr const char* kTupleRuleProgram = R"(
H 8
T 4 T.map
M 8
heapType (heap : H, type : T) inputtuples
dispatch (type : T, resolved : M0, selected : M1) inputtuples
hidden (method : M) inputtuples
heapDispatch (heap : H, resolved : M0, selected : M1) printsize
ofA (heap : H) printsize
everyHeap (heap : H, type : T) printsize
heapDispatch(h, r, m) :- heapType(h, t), dispatch(t, r, m), !hidden(m), r != 7.
ofA(h) :- heapType(h, t), t = "A", dispatch(t, _, _).
everyHeap(h, *) :- heapType(h, t), dispatch(t, _, _).
)";

class TupleRuleTest : public EngineTestFolder {
 protected:
  void SetUp() override {
    EngineTestFolder::SetUp();
    write("T.map", "A\nB\nC\nD\n");
    write("heapType.tuples", "# H0:3 T0:2\n0 0\n1 0\n2 1\n3 2\n4 3\n");
    write("dispatch.tuples", "# T0:2 M0:3 M1:3\n0 1 1\n0 2 3\n1 1 4\n1 7 5\n2 2 2\n");
    write("hidden.tuples", "# M0:3\n3\n");
  }

  struct Run {
    Tuples heap_dispatch, of_a;
    std::uint64_t tuple_rules = 0;
  };

  Run run(const std::string& order, const EngineOptions& base = {}) {
    const Program program = parse(kTupleRuleProgram);
    const EngineOptions options = this->options(order, base);
    Engine engine(program, options);
    engine.run();
    Run out;
    for (const auto& t : engine.tuples("heapDispatch")) out.heap_dispatch.insert(t);
    for (const auto& t : engine.tuples("ofA")) out.of_a.insert(t);
    EXPECT_EQ(engine.relation_size("everyHeap").to_string(), "16");  // 4 heaps x 4 types
    out.tuple_rules = engine.engine_profile().tuple_rules;
    return out;
  }
};

const Tuples kHeapDispatch = {{0, 1, 1}, {1, 1, 1}, {2, 1, 4}, {3, 2, 2}};  // 3 hidden, r 7 out
const Tuples kOfA = {{0}, {1}};

TEST_F(TupleRuleTest, JoinVariableBelowTheHeadRunsOnTuples) {
  // T last: the join variable t lies below h, r and m.
  const Run r = run("H0_M0xM1_T0");
  EXPECT_EQ(r.heap_dispatch, kHeapDispatch);
  EXPECT_EQ(r.of_a, kOfA);
  // heapDispatch and ofA; everyHeap has '*' in its head, which stays on BDD products.
  EXPECT_EQ(r.tuple_rules, 2u);
}

TEST_F(TupleRuleTest, JoinVariableAboveTheHeadStaysOnBddProducts) {
  const Run r = run("T0_H0_M0xM1");
  EXPECT_EQ(r.heap_dispatch, kHeapDispatch);
  EXPECT_EQ(r.of_a, kOfA);
  EXPECT_EQ(r.tuple_rules, 0u);
}

TEST_F(TupleRuleTest, OffWhenTheInputLimitIsZero) {
  EngineOptions options;
  options.tuple_join_max_input = 0;
  const Run r = run("H0_M0xM1_T0", options);
  EXPECT_EQ(r.heap_dispatch, kHeapDispatch);
  EXPECT_EQ(r.tuple_rules, 0u);
}

TEST_F(TupleRuleTest, RelationsAboveTheInputLimitStayOnBddProducts) {
  EngineOptions options;
  options.tuple_join_max_input = 4;  // dispatch has 5 tuples
  const Run r = run("H0_M0xM1_T0", options);
  EXPECT_EQ(r.heap_dispatch, kHeapDispatch);
  EXPECT_EQ(r.tuple_rules, 0u);
}

TEST_F(TupleRuleTest, AnIntermediateResultPastTheLimitFallsBackToBddProducts) {
  EngineOptions options;
  options.tuple_limits.max_values = 3;  // heapType alone holds 10 values
  const Run r = run("H0_M0xM1_T0", options);
  EXPECT_EQ(r.heap_dispatch, kHeapDispatch);
  EXPECT_EQ(r.of_a, kOfA);
  EXPECT_EQ(r.tuple_rules, 0u);
}

// MethodStaticCall's shape: the join variable i is in the head, but each atom has a whole block
// of another variable (M) above it, so the product pairs every caller's sub-BDD with every
// callee's (58 s on antlr under 1-call's order).
constexpr const char* kCallProgram = R"(
I 8
M 8
callIn (site : I, caller : M0) inputtuples
staticCall (site : I, callee : M1) inputtuples
calls (caller : M0, site : I, callee : M1) printsize
calls(c, i, m) :- callIn(i, c), staticCall(i, m).
)";

class TupleRuleBranchTest : public EngineTestFolder {
 protected:
  void SetUp() override {
    EngineTestFolder::SetUp();
    write("callIn.tuples", "# I0:3 M0:3\n0 1\n1 1\n2 5\n3 6\n");
    write("staticCall.tuples", "# I0:3 M1:3\n0 2\n2 3\n3 3\n4 7\n");
  }
  std::pair<Tuples, std::uint64_t> run(const std::string& order) {
    const Program program = parse(kCallProgram);  // the engine keeps a reference
    Engine engine(program, options(order));
    engine.run();
    const auto listed = engine.tuples("calls");
    return {Tuples(listed.begin(), listed.end()), engine.engine_profile().tuple_rules};
  }
};

TEST_F(TupleRuleBranchTest, BothAtomsBranchingAboveTheJoinVariableRunsOnTuples) {
  const Tuples expected = {{1, 0, 2}, {5, 2, 3}, {6, 3, 3}};
  const auto [below, below_tuple_rules] = run("M0xM1_I0");
  EXPECT_EQ(below, expected);
  EXPECT_EQ(below_tuple_rules, 1u);
  // I on top: the product descends on the join variable first and stays.
  const auto [above, above_tuple_rules] = run("I0_M0xM1");
  EXPECT_EQ(above, expected);
  EXPECT_EQ(above_tuple_rules, 0u);
}

// MethodCallsMethod's shape inside a recursive component: callerCallee reads the component
// through reachedEdge alone and joins the static callIn on the site, which the order puts below
// both methods; what it derives feeds reach again, so each sweep's new edges are a delta.
constexpr const char* kRecursiveCallProgram = R"(
I 8
M 8
start (method : M) inputtuples
callIn (site : I, caller : M) inputtuples
siteTarget (site : I, callee : M) inputtuples
reach (method : M) printsize
reachedEdge (site : I, callee : M) printsize
callerCallee (caller : M0, callee : M1) printsize
reach(m) :- start(m).
reachedEdge(i, m) :- reach(c), callIn(i, c), siteTarget(i, m).
callerCallee(c, m) :- reachedEdge(i, m), callIn(i, c).
reach(m) :- callerCallee(_, m).
)";

class TupleDeltaTest : public EngineTestFolder {
 protected:
  void SetUp() override {
    EngineTestFolder::SetUp();
    write("start.tuples", "# M0:3\n0\n");
    // a chain 0 -> 1 -> 2 -> 3 -> 4 (two sites in method 1), and method 6 never reached
    write("callIn.tuples", "# I0:3 M0:3\n0 0\n1 1\n2 1\n3 2\n4 3\n5 6\n");
    write("siteTarget.tuples", "# I0:3 M0:3\n0 1\n1 2\n2 3\n3 3\n4 4\n5 7\n");
  }
  struct Run {
    Tuples caller_callee;
    std::uint64_t tuple_deltas = 0;
    std::uint64_t caller_callee_steps = 0;  // the callerCallee rule's own, as --stats lists them
  };
  // The tuple path wherever it applies, whatever it costs (not chosen by timing).
  static EngineOptions tuples_wherever_they_apply() {
    EngineOptions options;
    options.tuple_joins_where_bdd_is_slow = false;
    return options;
  }
  Run run(const std::string& order, const EngineOptions& base) {
    const Program program = parse(kRecursiveCallProgram);
    Engine engine(program, options(order, base));
    engine.run();
    const auto listed = engine.tuples("callerCallee");
    Run out{Tuples(listed.begin(), listed.end()), engine.engine_profile().tuple_deltas, 0};
    for (const RuleProfile& rule : engine.rule_profiles())
      if (rule.rule_text.rfind("callerCallee", 0) == 0) out.caller_callee_steps += rule.tuple_steps;
    return out;
  }
};

const Tuples kCallerCallee = {{0, 1}, {1, 2}, {1, 3}, {2, 3}, {3, 4}};

TEST_F(TupleDeltaTest, SemiNaiveStepsOnTuplesGiveTheProductsAnswer) {
  EngineOptions products;
  products.tuple_delta_max = 0;
  const Run by_products = run("M0xM1_I0", products);
  EXPECT_EQ(by_products.caller_callee, kCallerCallee);
  EXPECT_EQ(by_products.tuple_deltas, 0u);

  const Run on_tuples = run("M0xM1_I0", tuples_wherever_they_apply());
  EXPECT_EQ(on_tuples.caller_callee, kCallerCallee);
  EXPECT_GT(on_tuples.caller_callee_steps, 0u);
  EXPECT_GE(on_tuples.tuple_deltas, on_tuples.caller_callee_steps);
}

TEST_F(TupleDeltaTest, ADeltaAboveTheLimitStaysOnProducts) {
  EngineOptions options = tuples_wherever_they_apply();
  options.tuple_delta_max = 1;  // the chain's sweeps add more than one edge at a time
  const Run r = run("M0xM1_I0", options);
  EXPECT_EQ(r.caller_callee, kCallerCallee);
  const Run unlimited = run("M0xM1_I0", tuples_wherever_they_apply());
  EXPECT_LT(r.tuple_deltas, unlimited.tuple_deltas);
}

TEST_F(TupleDeltaTest, QuickProductsAreNotRedoneOnTuples) {
  // By measurement: steps of a few microseconds never reach the tuple path.
  const Run r = run("M0xM1_I0", EngineOptions{});
  EXPECT_EQ(r.caller_callee, kCallerCallee);
  EXPECT_EQ(r.tuple_deltas, 0u);
}

}  // namespace
}  // namespace refract::solver
