#include "pointsto/cloning_numbering.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "support/bit_width.hpp"
#include "support/strongly_connected.hpp"

namespace refract::pointsto {

namespace {

constexpr std::uint64_t kMaxContexts = std::uint64_t{1} << 62;

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return std::min(a + b, kMaxContexts);  // both are at most 2^62: no overflow
}

}  // namespace

CloningNumbering number_call_paths(const CallGraphIds& graph) {
  // Nodes: every method the graph names.
  std::map<std::uint64_t, std::size_t> node_of;
  auto node = [&](std::uint64_t method) {
    return node_of.try_emplace(method, node_of.size()).first->second;
  };
  for (const std::uint64_t m : graph.roots) node(m);
  // Distinct (invoke, callee) edges, in a fixed order so that offsets do not depend on the
  // order the pre-pass listed them in.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::optional<std::uint64_t>> edges;
  for (const auto& e : graph.edges) {
    edges.emplace(std::make_pair(e.invoke, e.callee), e.caller);
    node(e.callee);
    if (e.caller) node(*e.caller);
  }
  std::vector<std::vector<std::size_t>> successors(node_of.size());
  for (const auto& [key, caller] : edges) {
    if (caller) successors[node_of.at(*caller)].push_back(node_of.at(key.second));
  }
  std::size_t component_count = 0;
  const std::vector<std::size_t> component =
      strongly_connected_components(successors, component_count);

  // Incoming edges and roots per component.
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> incoming(component_count);
  std::vector<bool> rooted(component_count, false);
  for (const std::uint64_t m : graph.roots) rooted[component[node_of.at(m)]] = true;
  for (const auto& [key, caller] : edges)
    incoming[component[node_of.at(key.second)]].push_back(key);

  // Callers before callees: components in the reverse of Tarjan's completion order.
  CloningNumbering out;
  out.components = component_count;
  std::vector<std::uint64_t> paths(component_count, 0);
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> offset_of;
  for (std::size_t c = component_count; c-- > 0;) {
    std::uint64_t next = rooted[c] ? 1 : 0;  // context 0: entered by the JVM
    for (const auto& key : incoming[c]) {
      const auto& caller = edges.at(key);
      const std::size_t from = caller ? component[node_of.at(*caller)] : component_count;
      if (from == c) continue;  // within the cycle: same context
      offset_of[key] = next;
      const std::uint64_t caller_paths = from == component_count ? 1 : paths[from];
      if (next + caller_paths > kMaxContexts) out.wrapped = true;
      next = saturating_add(next, caller_paths);
    }
    // A method no edge from outside its cycle reaches and the JVM does not list as a root
    // still runs in some context if it runs at all: context 0.
    paths[c] = std::max<std::uint64_t>(next, 1);
    out.max_paths = std::max(out.max_paths, paths[c]);
  }
  out.context_bits = bits_for_size(out.max_paths);
  const std::uint64_t domain = std::uint64_t{1} << out.context_bits;
  if (!out.wrapped) {
    std::vector<std::size_t> members(component_count, 0);
    for (const auto& [method, n] : node_of) ++members[component[n]];
    for (const auto& [method, n] : node_of)
      if (members[component[n]] == 1)
        out.acyclic_method_contexts.emplace_back(method, paths[component[n]]);
  }
  for (const auto& [key, caller] : edges) {
    NumberedEdge e;
    e.invoke = key.first;
    e.callee = key.second;
    const std::size_t to = component[node_of.at(key.second)];
    const std::size_t from = caller ? component[node_of.at(*caller)] : component_count;
    e.caller_contexts = std::min(from == component_count ? 1 : paths[from], domain);
    e.within_component = from == to;
    e.offset = e.within_component ? 0 : offset_of.at(key) % domain;
    out.edges.push_back(e);
  }
  return out;
}

}  // namespace refract::pointsto
