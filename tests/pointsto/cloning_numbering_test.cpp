// Whaley-Lam call-path numbering (pointsto/cloning_numbering.hpp): hand-checked graphs, and
// the property that makes it cloning: on random acyclic call graphs every call path from a
// root to a method gets its own context, and the contexts of a method are exactly 0..paths-1.
#include "pointsto/cloning_numbering.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

namespace refract::pointsto {
namespace {

using Edge = CallGraphIds::Edge;

const NumberedEdge& edge(const CloningNumbering& n, std::uint64_t invoke, std::uint64_t callee) {
  for (const NumberedEdge& e : n.edges)
    if (e.invoke == invoke && e.callee == callee) return e;
  throw std::runtime_error("no such edge");
}

// main(0) calls a(1) at site 10 and b(2) at 11; both call c(3) (sites 12, 13); c calls d(4)
// at 14. c and d are reached on two paths.
TEST(CloningNumberingTest, DiamondGivesTwoContextsBelowTheJoin) {
  CallGraphIds g;
  g.roots = {0};
  g.edges = {{10, 0, 1}, {11, 0, 2}, {12, 1, 3}, {13, 2, 3}, {14, 3, 4}};
  const CloningNumbering n = number_call_paths(g);
  EXPECT_EQ(n.max_paths, 2U);
  EXPECT_FALSE(n.wrapped);
  EXPECT_EQ(n.components, 5U);
  EXPECT_EQ(edge(n, 12, 3).offset, 0U);
  EXPECT_EQ(edge(n, 13, 3).offset, 1U);
  EXPECT_EQ(edge(n, 14, 4).caller_contexts, 2U);
  EXPECT_EQ(edge(n, 14, 4).offset, 0U);
  // a is reached once, from main's context 0 only.
  EXPECT_EQ(edge(n, 10, 1).caller_contexts, 1U);
  // Every method is alone in its component: each has its contexts at once.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> alone = {
      {0, 1}, {1, 1}, {2, 1}, {3, 2}, {4, 2}};
  EXPECT_EQ(n.acyclic_method_contexts, alone);
}

// [Whaley-Lam: cycles are collapsed] r and s call each other: one component, whose members
// share contexts; the edges inside it keep the context.
TEST(CloningNumberingTest, CycleMembersShareContexts) {
  CallGraphIds g;
  g.roots = {0};
  g.edges = {{10, 0, 1}, {11, 0, 1}, {12, 1, 1}, {13, 1, 2}, {14, 2, 1}};
  const CloningNumbering n = number_call_paths(g);
  EXPECT_EQ(n.components, 2U);
  EXPECT_EQ(n.max_paths, 2U);  // main calls r at two sites
  EXPECT_TRUE(edge(n, 12, 1).within_component);
  EXPECT_TRUE(edge(n, 13, 2).within_component);
  EXPECT_TRUE(edge(n, 14, 1).within_component);
  EXPECT_EQ(edge(n, 13, 2).caller_contexts, 2U);
  EXPECT_FALSE(edge(n, 10, 1).within_component);
  EXPECT_NE(edge(n, 10, 1).offset, edge(n, 11, 1).offset);
  // Only main is alone in its component: r and s get no contexts at once.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> alone = {{0, 1}};
  EXPECT_EQ(n.acyclic_method_contexts, alone);
}

// A root the program also calls keeps context 0 for the JVM's entry; a call the JVM makes
// (no caller, e.g. a finalizer) comes from context 0 alone.
TEST(CloningNumberingTest, RootsKeepContextZeroAndJvmCallsComeFromIt) {
  CallGraphIds g;
  g.roots = {0};
  g.edges = {{10, 0, 1}, {11, 1, 0}, {12, std::nullopt, 2}};
  const CloningNumbering n = number_call_paths(g);
  // 0 and 1 form a cycle entered by the JVM: one context.
  EXPECT_TRUE(edge(n, 10, 1).within_component);
  EXPECT_EQ(edge(n, 12, 2).caller_contexts, 1U);
  EXPECT_EQ(edge(n, 12, 2).offset, 0U);
}

// Past 2^62 paths the numbering wraps around (contexts shared: less precise, still sound): a
// chain of 63 diamonds has 2^63 paths to its end.
TEST(CloningNumberingTest, MoreThan2To62PathsWrapAround) {
  CallGraphIds g;
  g.roots = {0};
  std::uint64_t site = 1000;
  std::uint64_t top = 0;
  for (std::uint64_t level = 0; level < 63; ++level) {
    const std::uint64_t left = 1 + 3 * level, right = 2 + 3 * level, bottom = 3 + 3 * level;
    g.edges.push_back({site++, top, left});
    g.edges.push_back({site++, top, right});
    g.edges.push_back({site++, left, bottom});
    g.edges.push_back({site++, right, bottom});
    top = bottom;
  }
  const CloningNumbering n = number_call_paths(g);
  EXPECT_TRUE(n.wrapped);
  EXPECT_EQ(n.context_bits, 62U);
  EXPECT_EQ(n.max_paths, std::uint64_t{1} << 62);
  // A context may stand for several paths: no method gets its contexts at once.
  EXPECT_TRUE(n.acyclic_method_contexts.empty());
  for (const NumberedEdge& e : n.edges) {
    EXPECT_LE(e.caller_contexts, std::uint64_t{1} << 62);
    EXPECT_LT(e.offset, std::uint64_t{1} << 62);
  }
}

// Random call graphs with cycles: enumerate every path (through the component DAG) from the
// roots by following the numbered edges from context 0; each method's reached contexts are
// then exactly {0, ..., paths-1} with one path per context.
TEST(CloningNumberingTest, EveryPathGetsItsOwnContextOnRandomGraphs) {
  std::mt19937_64 random(7);
  for (int round = 0; round < 200; ++round) {
    const std::uint64_t methods = 2 + random() % 9;
    CallGraphIds g;
    g.roots = {0};
    std::uint64_t site = 100;
    // Every method is called from an earlier one, so all are reachable from main (as in a
    // pre-pass call graph), then more calls at random.
    for (std::uint64_t m = 1; m < methods; ++m) g.edges.push_back({site++, random() % m, m});
    for (std::uint64_t m = 0; m < methods; ++m) {
      const int calls = static_cast<int>(random() % 4);
      for (int c = 0; c < calls; ++c) {
        // Mostly forward calls (a DAG), sometimes backward (cycles).
        // Odd rounds also call backwards (cycles); even rounds stay acyclic.
        const std::uint64_t callee = round % 2 == 1 && random() % 5 == 0
                                         ? random() % methods
                                         : m + 1 + random() % (methods - m);
        if (callee < methods) g.edges.push_back({site++, m, callee});
      }
    }
    const CloningNumbering n = number_call_paths(g);
    ASSERT_FALSE(n.wrapped);
    // (method, context) pairs reached from (root, 0), following numbered edges.
    std::map<std::uint64_t, std::multiset<std::uint64_t>> reached;
    std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> work = {{0, 0}};
    std::map<std::uint64_t, std::vector<const NumberedEdge*>> out_edges;
    std::map<std::uint64_t, std::uint64_t> caller_of;
    for (const auto& e : g.edges) caller_of[e.invoke] = *e.caller;
    for (const NumberedEdge& e : n.edges) out_edges[caller_of.at(e.invoke)].push_back(&e);
    while (!work.empty()) {
      const auto [m, ctx] = work.back();
      work.pop_back();
      if (!seen.insert({m, ctx}).second) continue;
      reached[m].insert(ctx);
      for (const NumberedEdge* e : out_edges[m]) {
        ASSERT_LT(ctx, e->caller_contexts) << "round " << round;
        work.push_back({e->callee, e->within_component ? ctx : ctx + e->offset});
      }
    }
    // Each reached method's contexts are 0..k-1 without gaps: one per path into its component.
    for (const auto& [m, contexts] : reached) {
      std::uint64_t expected = 0;
      for (const std::uint64_t c : std::set<std::uint64_t>(contexts.begin(), contexts.end())) {
        EXPECT_EQ(c, expected++) << "round " << round << " method " << m;
      }
      EXPECT_LE(expected, n.max_paths);
    }
    // The methods listed with their contexts at once: exactly those on no cycle through
    // another method, each with as many contexts as the numbered edges reach.
    std::set<std::uint64_t> on_cycle;
    for (const NumberedEdge& e : n.edges)
      if (e.within_component && caller_of.at(e.invoke) != e.callee) {
        on_cycle.insert(e.callee);
        on_cycle.insert(caller_of.at(e.invoke));
      }
    std::set<std::uint64_t> listed;
    for (const auto& [m, contexts] : n.acyclic_method_contexts) {
      listed.insert(m);
      EXPECT_FALSE(on_cycle.count(m)) << "round " << round << " method " << m;
      EXPECT_EQ(contexts, std::set<std::uint64_t>(reached[m].begin(), reached[m].end()).size())
          << "round " << round << " method " << m;
    }
    for (std::uint64_t m = 0; m < methods; ++m)
      EXPECT_TRUE(listed.count(m) || on_cycle.count(m)) << "round " << round << " method " << m;
    // Acyclic rounds: as many contexts as paths from main, counted independently (edges go
    // from lower to higher methods, so one pass in method order counts them).
    if (round % 2 == 0) {
      std::vector<std::uint64_t> paths(methods, 0);
      paths[0] = 1;
      for (std::uint64_t m = 0; m < methods; ++m) {
        for (const auto& e : g.edges)
          if (*e.caller == m) paths[e.callee] += paths[m];
      }
      for (std::uint64_t m = 0; m < methods; ++m) {
        EXPECT_EQ(std::set<std::uint64_t>(reached[m].begin(), reached[m].end()).size(), paths[m])
            << "round " << round << " method " << m;
      }
    }
    // Two edges into one component from outside never overlap: the contexts they produce for
    // one callee are disjoint ranges.
    std::map<std::uint64_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> ranges;
    for (const NumberedEdge& e : n.edges) {
      if (!e.within_component) ranges[e.callee].push_back({e.offset, e.caller_contexts});
    }
    for (auto& [callee, list] : ranges) {
      std::sort(list.begin(), list.end());
      for (std::size_t i = 1; i < list.size(); ++i) {
        EXPECT_LE(list[i - 1].first + list[i - 1].second, list[i].first)
            << "round " << round << " callee " << callee;
      }
    }
  }
}

}  // namespace
}  // namespace refract::pointsto
