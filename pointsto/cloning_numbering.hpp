// Full call-path cloning as in Whaley and Lam (PLDI 2004, "Cloning-based context-sensitive
// pointer alias analysis using binary decision diagrams"): every acyclic call path to a method
// is its own context. Paths are counted over the call graph of a context-insensitive pre-pass
// with its strongly connected components collapsed (the methods of a cycle share contexts);
// a method's contexts are numbered so that each edge into it maps its caller's contexts onto
// a range of its own: callee context = caller context + the edge's offset. Counts past 2^62
// wrap around modulo the context domain: paths then share contexts, which loses precision,
// never soundness.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace refract::pointsto {

struct CallGraphIds {
  // Methods the JVM itself enters in context 0 (main, start-up methods, class initialisers).
  std::vector<std::uint64_t> roots;
  struct Edge {
    std::uint64_t invoke = 0;
    std::optional<std::uint64_t> caller;  // none: a call the JVM makes (context 0 only)
    std::uint64_t callee = 0;
  };
  std::vector<Edge> edges;
};

struct NumberedEdge {
  std::uint64_t invoke = 0;
  std::uint64_t callee = 0;
  // The caller's contexts are [0, caller_contexts); min(count, 2^context_bits).
  std::uint64_t caller_contexts = 0;
  // Callee context = (caller context + offset) mod 2^context_bits; 0 within a component.
  std::uint64_t offset = 0;
  bool within_component = false;  // caller and callee on one cycle: same context
};

struct CloningNumbering {
  unsigned context_bits = 1;        // C has 2^context_bits elements
  std::vector<NumberedEdge> edges;  // one per distinct (invoke, callee)
  std::uint64_t components = 0;
  std::uint64_t max_paths = 0;  // the most contexts of one method (capped at 2^62)
  bool wrapped = false;         // some method has more than 2^62 paths
  // (method, contexts) for each method alone in its component (on no cycle through another
  // method): its contexts are [0, contexts). Empty when the numbering wrapped, where one
  // context may stand for paths through several edges.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> acyclic_method_contexts;
};

CloningNumbering number_call_paths(const CallGraphIds& graph);

}  // namespace refract::pointsto
