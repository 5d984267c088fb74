// The bounds on a run's work that refract order-search compares orders under
// (EngineOptions::max_evaluations, max_nodes_produced): a bound on rule evaluations is the
// same work under every order, and a production limit stops a run at a count of nodes.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "solver/engine.hpp"
#include "solver/engine_test_folder.hpp"

namespace refract::solver {
namespace {

using Pair = std::pair<std::uint64_t, std::uint64_t>;

// Paths of a graph: a long chain (a sweep per step) with some shortcuts, and the nodes on a
// cycle, read in the same stratum.
class EngineLimitsTest : public EngineTestFolder {
 protected:
  void SetUp() override {
    EngineTestFolder::SetUp();
    std::string edges = "# N0:6 N1:6\n";
    for (std::uint64_t i = 0; i + 1 < 64; ++i)
      edges += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
    for (std::uint64_t i = 0; i < 64; i += 13)
      edges += std::to_string(i) + " " + std::to_string((i * 5) % 64) + "\n";
    write("edge.tuples", edges);
  }

  Program program() const {
    return parse(
        "N 64\n"
        "edge (from : N, to : N) inputtuples\n"
        "path (from : N, to : N)\n"
        "cyclic (node : N, other : N)\n"
        "path(x, y) :- edge(x, y).\n"
        "path(x, z) :- path(x, y), edge(y, z).\n"
        "cyclic(x, y) :- path(x, x), path(x, y).\n");
  }

  static std::set<Pair> pairs(const Engine& engine, const std::string& relation) {
    std::set<Pair> out;
    for (const auto& t : engine.tuples(relation)) out.insert({t.at(0), t.at(1)});
    return out;
  }

  // What a whole run did, read before its engine (and BDD manager) goes.
  struct WholeRun {
    std::set<Pair> path;
    std::uint64_t evaluations = 0;
    std::uint64_t nodes_produced = 0;
  };
  WholeRun run_whole(const Program& p, const std::string& order) const {
    Engine engine(p, options(order));
    engine.run();
    return {pairs(engine, "path"), engine.evaluations(), engine.bdd_stats().nodes_produced};
  }
};

const char* const kOrders[] = {"N0_N1_N2", "N0xN1xN2", "N2_N1_N0"};

TEST_F(EngineLimitsTest, EveryOrderEvaluatesAsManyRulesToTheFixpoint) {
  const Program p = program();
  std::set<std::uint64_t> counts;
  for (const char* order : kOrders) {
    Engine engine(p, options(order));
    engine.run();
    counts.insert(engine.evaluations());
  }
  ASSERT_EQ(counts.size(), 1U);
  EXPECT_GT(*counts.begin(), 10U);  // many sweeps: the bound below stops inside them
}

// Stopped after the same number of evaluations, every order holds the same tuples: the bound
// is the same work whatever the order.
TEST_F(EngineLimitsTest, AnEvaluationLimitStopsEveryOrderAtTheSameTuples) {
  const Program p = program();
  EngineOptions base;
  base.max_evaluations = 7;
  std::set<std::set<Pair>> stopped_at;
  for (const char* order : kOrders) {
    Engine engine(p, options(order, base));
    EXPECT_THROW(engine.run(), EvaluationLimitReached) << order;
    EXPECT_EQ(engine.evaluations(), 7U);
    stopped_at.insert(pairs(engine, "path"));
  }
  ASSERT_EQ(stopped_at.size(), 1U);
  EXPECT_LT(stopped_at.begin()->size(), run_whole(p, "N0_N1_N2").path.size());
}

TEST_F(EngineLimitsTest, AnEvaluationLimitAboveTheWorkChangesNothing) {
  const Program p = program();
  const WholeRun whole = run_whole(p, "N0xN1xN2");
  EngineOptions base;
  base.max_evaluations = whole.evaluations;
  Engine bounded(p, options("N0xN1xN2", base));
  bounded.run();
  EXPECT_EQ(pairs(bounded, "path"), whole.path);
}

TEST_F(EngineLimitsTest, AProductionLimitStopsTheRunOnceItsNodesArePassed) {
  const Program p = program();
  const WholeRun whole = run_whole(p, "N0_N1_N2");
  EngineOptions base;
  base.max_nodes_produced = whole.nodes_produced / 2;
  {
    Engine capped(p, options("N0_N1_N2", base));
    try {
      capped.run();
      FAIL() << "no ProductionLimitReached";
    } catch (const ProductionLimitReached& e) {
      EXPECT_NE(std::string(e.what()).find("production limit of " +
                                           std::to_string(base.max_nodes_produced)),
                std::string::npos)
          << e.what();
    }
    EXPECT_GT(capped.bdd_stats().nodes_produced, base.max_nodes_produced);
    EXPECT_LT(capped.evaluations(), whole.evaluations);
  }
  base.max_nodes_produced = whole.nodes_produced;
  Engine enough(p, options("N0_N1_N2", base));
  enough.run();
  EXPECT_EQ(pairs(enough, "path"), whole.path);
}

TEST_F(EngineLimitsTest, TheOrderLayoutHasEveryInstanceWithItsDomainAndItsSize) {
  write("one.tuples", "# Z0:1\n0\n");
  const Program p = parse(
      "N 64\nZ 1\n"
      "edge (from : N, to : N) inputtuples\n"
      "one (z : Z) inputtuples\n"
      "r (from : N, z : Z)\n"
      "r(x, z) :- edge(x, _), one(z).\n");
  Engine engine(p, options("Z0_N1xN0"));
  engine.run();
  const Engine::OrderLayout layout = engine.order_layout();
  EXPECT_EQ(layout.order.to_string(), "Z0_N1xN0");
  EXPECT_EQ(layout.elements.at("N0"), 64U);
  EXPECT_EQ(layout.elements.at("N1"), 64U);
  EXPECT_EQ(layout.elements.at("Z0"), 1U);
  EXPECT_EQ(layout.domain.at("N1"), "N");
  EXPECT_EQ(layout.domain.at("Z0"), "Z");
}

}  // namespace
}  // namespace refract::solver
