// The variable orders one step away from an order: the neighbourhood of refract order-search's
// local search (bdd/order_search.hpp). Each step keeps every name and changes where a block,
// or a single name, stands, or which names share a block (interleave bit by bit).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "bdd/var_order.hpp"

namespace refract::bdd {

struct NeighbourChoices {
  // Names whose place the search ignores (instances of a domain of one element, whose one bit
  // is always 0): orders that differ only in where they stand count as one order.
  std::set<std::string> ignored;
  // Names moved one at a time besides whole blocks: the instances of context domains, whose
  // place among the others shapes the points-to relations.
  std::set<std::string> single;
};

// The neighbours of `order`, each once and none the same as it in effect, in this sequence:
//  1. each two adjacent blocks swapped;
//  2. each single name moved one step: out of the block it shares, just above or below it;
//     a block of its own one block up or down; or interleaved with (appended to) the block
//     above or below;
//  3. each block of several names split into one block per name, in the same sequence;
//  4. each two adjacent blocks merged into one, interleaved;
//  5. each block moved two or more places up or down.
// The cheap, local changes come first, so that a search with a small budget tries them.
std::vector<VarOrder> order_neighbours(const VarOrder& order, const NeighbourChoices& choices);

// `order` without its ignored names (and blocks left empty): the key under which orders count
// as one.
std::string effective_order(const VarOrder& order, const std::set<std::string>& ignored);

}  // namespace refract::bdd
