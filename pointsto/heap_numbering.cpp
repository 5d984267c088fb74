#include "pointsto/heap_numbering.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>
#include <stdexcept>

namespace refract::pointsto {

namespace {

constexpr std::uint64_t kUnranked = std::numeric_limits<std::uint64_t>::max();

// Each type's place in the order heaps_in_type_order groups objects by.
std::vector<std::uint64_t> type_ranks(const frontend::FactDatabase& facts) {
  const std::uint64_t types = facts.domain("T").size();
  std::set<std::uint64_t> classes;
  for (const auto& t : facts.relation("ClassType").sorted_tuples()) classes.insert(t[0]);
  // DirectSuper also lists superinterfaces: a class's one class super is its superclass.
  std::vector<std::vector<std::uint64_t>> subclasses(types);
  std::vector<bool> has_superclass(types, false);
  for (const auto& t : facts.relation("DirectSuper").sorted_tuples()) {
    if (t[0] == t[1] || classes.count(t[0]) == 0 || classes.count(t[1]) == 0) continue;
    subclasses[t[1]].push_back(t[0]);
    has_superclass[t[0]] = true;
  }
  std::vector<std::uint64_t> rank(types, kUnranked);
  std::uint64_t next = 0;
  for (const std::uint64_t root : classes) {
    if (has_superclass[root]) continue;
    std::vector<std::uint64_t> stack{root};
    while (!stack.empty()) {
      const std::uint64_t type = stack.back();
      stack.pop_back();
      if (rank[type] != kUnranked) continue;
      rank[type] = next++;
      // Reversed onto the stack: subclasses are visited in element order.
      stack.insert(stack.end(), subclasses[type].rbegin(), subclasses[type].rend());
    }
  }
  for (std::uint64_t type = 0; type < types; ++type)
    if (rank[type] == kUnranked) rank[type] = next++;
  return rank;
}

}  // namespace

HeapNumbering parse_heap_numbering(const std::string& text, const std::string& option) {
  if (text == "by-type") return HeapNumbering::kByType;
  if (text == "first-seen") return HeapNumbering::kFirstSeen;
  throw std::invalid_argument("unknown " + option + " value '" + text +
                              "' (expected by-type or first-seen)");
}

const char* to_string(HeapNumbering numbering) {
  return numbering == HeapNumbering::kByType ? "by-type" : "first-seen";
}

std::vector<std::uint64_t> heaps_in_type_order(const frontend::FactDatabase& facts) {
  const std::vector<std::uint64_t> rank = type_ranks(facts);
  std::vector<std::uint64_t> heap_rank(facts.domain("H").size(), kUnranked);
  for (const auto& t : facts.relation("HeapType").sorted_tuples())
    heap_rank[t[0]] = std::min(heap_rank[t[0]], rank[t[1]]);
  std::vector<std::uint64_t> order(heap_rank.size());
  std::iota(order.begin(), order.end(), 0);
  // The JDK's part keeps its numbers whatever the program adds: it is ordered on its own.
  const std::uint64_t jdk_part = facts.jdk_part_size("H");
  std::stable_sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) {
    const bool a_in_jdk = a < jdk_part;
    const bool b_in_jdk = b < jdk_part;
    if (a_in_jdk != b_in_jdk) return a_in_jdk;
    return heap_rank[a] < heap_rank[b];
  });
  return order;
}

}  // namespace refract::pointsto
