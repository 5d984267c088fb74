#include "solver/path_numbering.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "support/strongly_connected.hpp"

namespace refract::solver {

namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b, bool& saturated) {
  if (a > kSaturated - b) {
    saturated = true;
    return kSaturated;
  }
  return a + b;
}

// The nodes some root reaches.
std::vector<bool> reachable_from_roots(const PathGraph& graph,
                                       const std::vector<std::vector<std::size_t>>& successors) {
  std::vector<bool> reached(graph.nodes, false);
  std::vector<std::size_t> work;
  for (std::size_t root : graph.roots)
    if (!reached[root]) {
      reached[root] = true;
      work.push_back(root);
    }
  while (!work.empty()) {
    const std::size_t node = work.back();
    work.pop_back();
    for (std::size_t next : successors[node])
      if (!reached[next]) {
        reached[next] = true;
        work.push_back(next);
      }
  }
  return reached;
}

}  // namespace

PathNumbers number_paths(const PathGraph& graph) {
  const std::set<std::pair<std::size_t, std::size_t>> edges(graph.edges.begin(), graph.edges.end());
  std::vector<std::vector<std::size_t>> successors(graph.nodes);
  for (const auto& [from, to] : edges) successors[from].push_back(to);
  const std::vector<bool> reached = reachable_from_roots(graph, successors);
  // Components of the reached nodes only: an edge from elsewhere does not enter a component.
  std::vector<std::vector<std::size_t>> reached_successors(graph.nodes);
  for (const auto& [from, to] : edges)
    if (reached[from]) reached_successors[from].push_back(to);
  std::size_t count = 0;
  PathNumbers out;
  out.component = strongly_connected_components(reached_successors, count);

  // Tarjan numbers a component after those it reaches: sources before targets is the reverse.
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> entering(count);
  for (const auto& edge : edges)  // in (source, target) order: the order of the offsets
    if (reached[edge.first] && out.component[edge.first] != out.component[edge.second])
      entering[out.component[edge.second]].push_back(edge);
  std::vector<std::uint64_t> component_paths(count, 0);
  std::map<std::pair<std::size_t, std::size_t>, std::uint64_t> offset_of;
  for (std::size_t c = count; c-- > 0;) {
    std::uint64_t next = entering[c].empty() ? 1 : 0;
    for (const auto& edge : entering[c]) {
      offset_of[edge] = next;
      next = saturating_add(next, component_paths[out.component[edge.first]], out.saturated);
    }
    component_paths[c] = next;
  }

  out.paths.assign(graph.nodes, 0);
  for (std::size_t n = 0; n < graph.nodes; ++n)
    if (reached[n]) out.paths[n] = component_paths[out.component[n]];
  for (const auto& edge : graph.edges) {
    if (!reached[edge.first]) {
      out.offsets.emplace_back();
    } else if (out.component[edge.first] == out.component[edge.second]) {
      out.offsets.emplace_back(0);
    } else {
      out.offsets.emplace_back(offset_of.at(edge));
    }
  }
  return out;
}

}  // namespace refract::solver
