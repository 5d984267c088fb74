// Strongly connected components of a directed graph given as successor lists.
#pragma once

#include <cstddef>
#include <vector>

namespace refract {

// Tarjan's algorithm without recursion (call chains are deep). Returns each node's component
// and sets `count`; components are numbered in the order Tarjan completes them, i.e. every
// component after all the components it reaches (callees before callers).
std::vector<std::size_t> strongly_connected_components(
    const std::vector<std::vector<std::size_t>>& successors, std::size_t& count);

}  // namespace refract
