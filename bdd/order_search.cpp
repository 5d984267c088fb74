#include "bdd/order_search.hpp"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

namespace refract::bdd {

std::string to_string(RunEnd end) {
  switch (end) {
    case RunEnd::kBound:
      return "bound";
    case RunEnd::kNodeCap:
      return "node cap";
    case RunEnd::kTimeLimit:
      return "time limit";
    case RunEnd::kCutShort:
      return "cut short";
    case RunEnd::kFailed:
      break;
  }
  return "failed";
}

bool ranks_before(const TriedOrder& a, const TriedOrder& b) {
  return std::tuple(static_cast<int>(a.run.end), a.run.nodes_produced, a.number) <
         std::tuple(static_cast<int>(b.run.end), b.run.nodes_produced, b.number);
}

namespace {

std::vector<TriedOrder> ranked(std::vector<TriedOrder> tried) {
  std::sort(tried.begin(), tried.end(), ranks_before);
  return tried;
}

}  // namespace

std::vector<TriedOrder> climb(TriedOrder start, const NeighbourChoices& choices,
                              const MeasureOrder& measure,
                              const std::function<bool()>& keep_going) {
  std::vector<TriedOrder> tried = {std::move(start)};
  std::set<std::string> seen = {effective_order(tried.front().order, choices.ignored)};
  std::size_t current = 0;
  bool improved = tried.front().run.end == RunEnd::kBound;  // else no neighbour can beat it
  while (improved) {
    improved = false;
    const std::vector<VarOrder> neighbours = order_neighbours(tried[current].order, choices);
    for (std::size_t n = 0; n < neighbours.size(); ++n) {
      if (!seen.insert(effective_order(neighbours[n], choices.ignored)).second) continue;
      if (!keep_going()) return ranked(std::move(tried));
      const CandidatePlace place{tried.size() + 1, n + 1, neighbours.size()};
      tried.push_back({neighbours[n], measure(neighbours[n], place), place.number});
      const OrderRun& run = tried.back().run;
      if (run.end == RunEnd::kCutShort) {
        tried.pop_back();
        return ranked(std::move(tried));
      }
      if (run.end == RunEnd::kBound && run.nodes_produced < tried[current].run.nodes_produced) {
        current = tried.size() - 1;
        improved = true;
        break;
      }
    }
  }
  return ranked(std::move(tried));
}

}  // namespace refract::bdd
