// Path numbering (solver/path_numbering.hpp), the core of bddbddb's `number` rule: hand-checked
// graphs, and random graphs checked against a numbering found independently, by listing every
// path: components by mutual reachability, paths by walking the component graph, and each
// path's number by adding the offsets of its edges. Every path must end on a number of its own,
// and a component's numbers must be exactly 0..paths-1.
#include "solver/path_numbering.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

namespace refract::solver {
namespace {

// 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3, 3 -> 4: two paths to 3 and 4, side by side.
TEST(PathNumberingTest, DiamondGivesTwoNumbersBelowTheJoin) {
  PathGraph g;
  g.nodes = 5;
  g.roots = {0};
  g.edges = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}};
  const PathNumbers n = number_paths(g);
  EXPECT_EQ(n.paths, (std::vector<std::uint64_t>{1, 1, 1, 2, 2}));
  EXPECT_EQ(n.offsets[2], 0U);  // 1 -> 3 first, by source node
  EXPECT_EQ(n.offsets[3], 1U);
  EXPECT_EQ(n.offsets[4], 0U);
  EXPECT_FALSE(n.saturated);
}

// A cycle is one component: its nodes share numbers and its edges keep them. A root that
// another root reaches starts no path of its own (as in bddbddb's SCCPathNumbering); nodes no
// root reaches get no numbers, nor do edges from them.
TEST(PathNumberingTest, CyclesShareNumbersAndUnreachedNodesHaveNone) {
  PathGraph g;
  g.nodes = 6;
  g.roots = {0, 1};
  g.edges = {{0, 1}, {0, 1}, {1, 2}, {2, 3}, {3, 2}, {4, 5}, {5, 2}};
  const PathNumbers n = number_paths(g);
  EXPECT_EQ(n.paths, (std::vector<std::uint64_t>{1, 1, 1, 1, 0, 0}));
  EXPECT_EQ(n.component[2], n.component[3]);
  EXPECT_EQ(n.offsets[0], 0U);
  EXPECT_EQ(n.offsets[1], 0U);  // a repeated edge is one edge
  EXPECT_EQ(n.offsets[3], 0U);  // within the cycle
  EXPECT_EQ(n.offsets[4], 0U);
  EXPECT_FALSE(n.offsets[5].has_value());
  EXPECT_FALSE(n.offsets[6].has_value());
}

// Past 2^64 - 1 paths the count stays there and says so: 65 diamonds in a row.
TEST(PathNumberingTest, CountsPast64BitsSaturate) {
  PathGraph g;
  g.roots = {0};
  std::size_t top = 0;
  for (std::size_t level = 0; level < 65; ++level) {
    const std::size_t left = 1 + 3 * level, right = 2 + 3 * level, bottom = 3 + 3 * level;
    g.edges.insert(g.edges.end(), {{top, left}, {top, right}, {left, bottom}, {right, bottom}});
    top = bottom;
  }
  g.nodes = top + 1;
  const PathNumbers n = number_paths(g);
  EXPECT_TRUE(n.saturated);
  EXPECT_EQ(n.paths[3 * 63], std::uint64_t{1} << 63);
  EXPECT_EQ(n.paths[top], UINT64_MAX);
}

// Random graphs (some with cycles): the numbering against one found by listing paths.
TEST(PathNumberingTest, EveryPathEndsOnANumberOfItsOwnOnRandomGraphs) {
  std::mt19937_64 random(11);
  for (int round = 0; round < 300; ++round) {
    PathGraph g;
    g.nodes = 2 + random() % 9;
    const std::size_t n = g.nodes;
    g.roots.push_back(random() % n);
    if (random() % 3 == 0) g.roots.push_back(random() % n);
    const std::size_t edges = random() % (2 * n + 1);
    for (std::size_t e = 0; e < edges; ++e) {
      const std::size_t from = random() % n;
      // Even rounds: forward edges only (no cycles); odd rounds: any edge.
      const std::size_t to = round % 2 == 0 ? from + 1 + random() % n : random() % n;
      if (to < n) g.edges.emplace_back(from, to);
    }
    const PathNumbers numbers = number_paths(g);
    ASSERT_FALSE(numbers.saturated);

    // Reachability from the roots and between nodes, by closure.
    std::vector<std::vector<bool>> reaches(n, std::vector<bool>(n, false));
    for (std::size_t v = 0; v < n; ++v) reaches[v][v] = true;
    for (const auto& [from, to] : g.edges) reaches[from][to] = true;
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
          if (reaches[i][k] && reaches[k][j]) reaches[i][j] = true;
    std::vector<bool> reached(n, false);
    for (std::size_t root : g.roots)
      for (std::size_t v = 0; v < n; ++v) reached[v] = reached[v] || reaches[root][v];
    auto same_component = [&](std::size_t a, std::size_t b) {
      return reaches[a][b] && reaches[b][a];
    };
    const std::set<std::pair<std::size_t, std::size_t>> distinct(g.edges.begin(), g.edges.end());
    auto offset_of = [&](std::size_t from, std::size_t to) {
      for (std::size_t e = 0; e < g.edges.size(); ++e)
        if (g.edges[e] == std::make_pair(from, to)) return numbers.offsets[e];
      return std::optional<std::uint64_t>{};
    };
    // A component is entered when an edge from another reached component comes in.
    auto entered = [&](std::size_t v) {
      for (const auto& [from, to] : distinct)
        if (reached[from] && same_component(to, v) && !same_component(from, v)) return true;
      return false;
    };
    // Every path through the component graph, from each component nothing enters, as the
    // numbers it ends on: walk cross edges, adding their offsets.
    std::map<std::size_t, std::multiset<std::uint64_t>> ends;  // lowest node of a component
    auto lowest = [&](std::size_t v) {
      std::size_t low = v;
      for (std::size_t u = 0; u < n; ++u)
        if (same_component(u, v)) low = std::min(low, u);
      return low;
    };
    std::vector<std::pair<std::size_t, std::uint64_t>> work;  // (component, number)
    for (std::size_t v = 0; v < n; ++v)
      if (reached[v] && lowest(v) == v && !entered(v)) work.emplace_back(v, 0);
    while (!work.empty()) {
      const auto [c, number] = work.back();
      work.pop_back();
      ends[c].insert(number);
      for (const auto& [from, to] : distinct) {
        if (!same_component(from, c) || same_component(to, c)) continue;
        const std::optional<std::uint64_t> offset = offset_of(from, to);
        ASSERT_TRUE(offset.has_value()) << "round " << round;
        work.emplace_back(lowest(to), number + *offset);
      }
    }
    for (std::size_t v = 0; v < n; ++v) {
      if (!reached[v]) {
        EXPECT_EQ(numbers.paths[v], 0U) << "round " << round << " node " << v;
        continue;
      }
      const std::multiset<std::uint64_t>& got = ends[lowest(v)];
      EXPECT_EQ(numbers.paths[v], got.size()) << "round " << round << " node " << v;
      std::uint64_t expected = 0;
      for (std::uint64_t number : got)
        EXPECT_EQ(number, expected++) << "round " << round << " node " << v;
    }
    // Edges within a component keep the number; edges from unreached nodes have none.
    for (std::size_t e = 0; e < g.edges.size(); ++e) {
      const auto& [from, to] = g.edges[e];
      if (!reached[from]) {
        EXPECT_FALSE(numbers.offsets[e].has_value()) << "round " << round;
      } else if (same_component(from, to)) {
        EXPECT_EQ(numbers.offsets[e], 0U) << "round " << round;
      }
    }
    // Acyclic rounds: the count is the number of paths from the roots, counted directly
    // (edges go from lower to higher nodes), a root reached from another root starting none.
    if (round % 2 == 0) {
      std::vector<std::uint64_t> paths(n, 0);
      for (std::size_t v = 0; v < n; ++v) {
        bool has_entering = false;
        for (const auto& [from, to] : distinct)
          if (to == v && reached[from]) {
            has_entering = true;
            paths[v] += paths[from];
          }
        if (!has_entering && reached[v]) paths[v] = 1;
      }
      for (std::size_t v = 0; v < n; ++v)
        EXPECT_EQ(numbers.paths[v], paths[v]) << "round " << round << " node " << v;
    }
  }
}

}  // namespace
}  // namespace refract::solver
