// The local search of refract order-search: first-improvement hill climbing over variable
// orders (bdd/order_neighbours.hpp), each candidate measured by the BDD nodes its solve of a
// bounded part of the work produces. Systematic, so the same measures give the same search.
// bddbddb's .findbestorder learned orders from timed rule runs; this is a plainer search on a
// count that does not drift with the machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bdd/order_neighbours.hpp"
#include "bdd/var_order.hpp"

namespace refract::bdd {

// How a candidate's bounded solve ended, best first.
enum class RunEnd {
  kBound,      // it did all the bounded work (or solved the whole program)
  kNodeCap,    // it produced more nodes than the cap before the bound
  kTimeLimit,  // it took more seconds than it was given before the bound
  kFailed,     // anything else (out of memory, a crash)
  kCutShort,   // the search's budget ran out first: not measured
};

std::string to_string(RunEnd end);

struct OrderRun {
  RunEnd end = RunEnd::kFailed;
  std::uint64_t nodes_produced = 0;  // up to the bound, or up to where it stopped
  double seconds = 0;
  std::string detail;  // where a run that did not reach the bound stopped, or why it failed
};

struct TriedOrder {
  VarOrder order;
  OrderRun run;
  std::size_t number = 0;  // 1 for the start, then in the sequence tried
};

// Whether `a` ranks before `b`: first the runs that reached the bound, fewest nodes first,
// then those that stopped (by how they ended, then nodes); ties go to the order tried first,
// so the start keeps its place against an order no better.
bool ranks_before(const TriedOrder& a, const TriedOrder& b);

// Where a candidate stands in the search, for progress lines.
struct CandidatePlace {
  std::size_t number = 0;      // the candidate's number (the start is 1)
  std::size_t neighbour = 0;   // its place among the current order's neighbours (1-based)
  std::size_t neighbours = 0;  // how many neighbours the current order has
};

using MeasureOrder = std::function<OrderRun(const VarOrder&, const CandidatePlace&)>;

// Hill climbing from `start` (measured by the caller): the neighbours of the current order are
// measured in their sequence; the first that reaches the bound with fewer nodes than the
// current one becomes current, and its neighbours are tried next (those tried before are not
// measured again). Ends when every neighbour of the current order has been tried (a local
// optimum), when `keep_going` says no before a candidate, or when a candidate is cut short
// (which is left out). Returns every order tried, ranked.
std::vector<TriedOrder> climb(TriedOrder start, const NeighbourChoices& choices,
                              const MeasureOrder& measure, const std::function<bool()>& keep_going);

}  // namespace refract::bdd
