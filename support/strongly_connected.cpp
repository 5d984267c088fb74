#include "support/strongly_connected.hpp"

#include <algorithm>
#include <utility>

namespace refract {

std::vector<std::size_t> strongly_connected_components(
    const std::vector<std::vector<std::size_t>>& successors, std::size_t& count) {
  const std::size_t n = successors.size();
  constexpr std::size_t kUnvisited = static_cast<std::size_t>(-1);
  std::vector<std::size_t> index(n, kUnvisited), low(n, 0), component(n, kUnvisited);
  std::vector<bool> on_stack(n, false);
  std::vector<std::size_t> stack;
  std::vector<std::pair<std::size_t, std::size_t>> frames;  // (node, next successor)
  std::size_t next_index = 0;
  count = 0;
  for (std::size_t start = 0; start < n; ++start) {
    if (index[start] != kUnvisited) continue;
    frames.emplace_back(start, 0);
    index[start] = low[start] = next_index++;
    stack.push_back(start);
    on_stack[start] = true;
    while (!frames.empty()) {
      auto& [node, next] = frames.back();
      if (next < successors[node].size()) {
        const std::size_t s = successors[node][next++];
        if (index[s] == kUnvisited) {
          index[s] = low[s] = next_index++;
          stack.push_back(s);
          on_stack[s] = true;
          frames.emplace_back(s, 0);
        } else if (on_stack[s]) {
          low[node] = std::min(low[node], index[s]);
        }
        continue;
      }
      const std::size_t done = node;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[done]);
      if (low[done] == index[done]) {
        std::size_t member;
        do {
          member = stack.back();
          stack.pop_back();
          on_stack[member] = false;
          component[member] = count;
        } while (member != done);
        ++count;
      }
    }
  }
  return component;
}

}  // namespace refract
