#include "bdd/order_neighbours.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace refract::bdd {

namespace {

using Blocks = std::vector<std::vector<std::string>>;

// Collects neighbours, dropping those equal in effect to the order or to one already kept.
class NeighbourList {
 public:
  NeighbourList(const VarOrder& order, const std::set<std::string>& ignored) : ignored_(ignored) {
    seen_.insert(effective_order(order, ignored_));
  }
  void add(Blocks blocks) {
    VarOrder candidate{std::move(blocks)};
    if (seen_.insert(effective_order(candidate, ignored_)).second)
      out_.push_back(std::move(candidate));
  }
  std::vector<VarOrder> take() { return std::move(out_); }

 private:
  const std::set<std::string>& ignored_;
  std::set<std::string> seen_;
  std::vector<VarOrder> out_;
};

void swap_adjacent(const Blocks& blocks, NeighbourList& out) {
  for (std::size_t b = 0; b + 1 < blocks.size(); ++b) {
    Blocks next = blocks;
    std::swap(next[b], next[b + 1]);
    out.add(std::move(next));
  }
}

// `name` out of block `from`: the blocks without it, and where the block it leaves now stands
// (the block is gone when `name` was its only name).
struct Taken {
  Blocks blocks;
  std::size_t at = 0;
  bool block_left = false;
};

Taken take_out(const Blocks& blocks, std::size_t from, const std::string& name) {
  Taken taken{blocks, from, true};
  std::vector<std::string>& block = taken.blocks[from];
  block.erase(std::find(block.begin(), block.end(), name));
  if (block.empty()) {
    taken.blocks.erase(taken.blocks.begin() + static_cast<std::ptrdiff_t>(from));
    taken.block_left = false;
  }
  return taken;
}

void move_single_names(const Blocks& blocks, const std::set<std::string>& single,
                       NeighbourList& out) {
  for (std::size_t from = 0; from < blocks.size(); ++from) {
    for (const std::string& name : blocks[from]) {
      if (single.count(name) == 0) continue;
      const Taken t = take_out(blocks, from, name);
      auto alone_at = [&](std::size_t position) {
        Blocks next = t.blocks;
        next.insert(next.begin() + static_cast<std::ptrdiff_t>(position), {name});
        out.add(std::move(next));
      };
      auto joining = [&](std::size_t block) {
        Blocks next = t.blocks;
        next[block].push_back(name);
        out.add(std::move(next));
      };
      if (t.block_left) {  // t.at is the block it shared
        alone_at(t.at);
        alone_at(t.at + 1);
        if (t.at > 0) joining(t.at - 1);
        if (t.at + 1 < t.blocks.size()) joining(t.at + 1);
      } else {  // it was a block of its own at t.at
        if (t.at > 0) {
          alone_at(t.at - 1);
          joining(t.at - 1);
        }
        if (t.at < t.blocks.size()) {
          alone_at(t.at + 1);
          joining(t.at);
        }
      }
    }
  }
}

void split_blocks(const Blocks& blocks, NeighbourList& out) {
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (blocks[b].size() < 2) continue;
    Blocks next(blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(b));
    for (const std::string& name : blocks[b]) next.push_back({name});
    next.insert(next.end(), blocks.begin() + static_cast<std::ptrdiff_t>(b + 1), blocks.end());
    out.add(std::move(next));
  }
}

void merge_adjacent(const Blocks& blocks, NeighbourList& out) {
  for (std::size_t b = 0; b + 1 < blocks.size(); ++b) {
    Blocks next = blocks;
    next[b].insert(next[b].end(), next[b + 1].begin(), next[b + 1].end());
    next.erase(next.begin() + static_cast<std::ptrdiff_t>(b + 1));
    out.add(std::move(next));
  }
}

void move_blocks_far(const Blocks& blocks, NeighbourList& out) {
  for (std::size_t from = 0; from < blocks.size(); ++from) {
    for (std::size_t to = 0; to < blocks.size(); ++to) {
      if ((from > to ? from - to : to - from) < 2) continue;
      Blocks next = blocks;
      std::vector<std::string> moved = std::move(next[from]);
      next.erase(next.begin() + static_cast<std::ptrdiff_t>(from));
      next.insert(next.begin() + static_cast<std::ptrdiff_t>(to), std::move(moved));
      out.add(std::move(next));
    }
  }
}

}  // namespace

std::vector<VarOrder> order_neighbours(const VarOrder& order, const NeighbourChoices& choices) {
  NeighbourList out(order, choices.ignored);
  swap_adjacent(order.blocks, out);
  move_single_names(order.blocks, choices.single, out);
  split_blocks(order.blocks, out);
  merge_adjacent(order.blocks, out);
  move_blocks_far(order.blocks, out);
  return out.take();
}

std::string effective_order(const VarOrder& order, const std::set<std::string>& ignored) {
  VarOrder effective;
  for (const std::vector<std::string>& block : order.blocks) {
    std::vector<std::string> kept;
    for (const std::string& name : block)
      if (ignored.count(name) == 0) kept.push_back(name);
    if (!kept.empty()) effective.blocks.push_back(std::move(kept));
  }
  return effective.to_string();
}

}  // namespace refract::bdd
