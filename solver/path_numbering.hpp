// Path numbering of a directed graph from a set of roots, as Whaley and Lam number call paths
// ("Cloning-based context-sensitive pointer alias analysis using binary decision diagrams",
// PLDI 2004) and bddbddb's `number` rule computes it (its NumberingRule over jwutil's
// SCCPathNumbering): nodes no root reaches are left out; the strongly connected components of
// the others are collapsed; a component no other component's edge enters (it holds a root)
// starts one path, and every other component has as many paths as the components its
// entering edges come from, one edge at a time. A component's paths are numbered 0..paths-1:
// each edge entering it maps its source's numbers onto a range of its own, target number =
// source number + the edge's offset, the ranges of its entering edges side by side. An edge
// within a component keeps the number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace refract::solver {

struct PathGraph {
  std::size_t nodes = 0;
  std::vector<std::size_t> roots;
  // Repeated edges are one edge. Offsets go to a component's entering edges in the order
  // of their (source, target) node numbers.
  std::vector<std::pair<std::size_t, std::size_t>> edges;
};

struct PathNumbers {
  // Per node: how many paths reach its component (0: no root reaches it); past 2^64 it stays
  // at 2^64 - 1 and `saturated` is set.
  std::vector<std::uint64_t> paths;
  std::vector<std::size_t> component;  // per node; meaningless where paths is 0
  // Per edge of PathGraph::edges: the offset its target's numbers have over its source's
  // (0 within a component); nullopt when no root reaches its source.
  std::vector<std::optional<std::uint64_t>> offsets;
  bool saturated = false;
};

PathNumbers number_paths(const PathGraph& graph);

}  // namespace refract::solver
