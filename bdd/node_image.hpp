// A set of BDDs as one binary image of their nodes, each shared node once, children before
// parents: the cached JDK fixpoint (issue 35) placed into a fresh node table in one pass.
//
// Reading a BDD node by node costs one unique-table lookup per node, at random in a table that
// may be gigabytes. Placing writes the nodes into free slots in file order and lets one
// collection link the unique table, with no lookup (the example's 2-obj+H seed: 26M nodes in
// 3 s). That is sound only in a table holding nothing but BuDDy's variable nodes (a placed node
// that equalled one already there would break canonicity), with the writer's variable order.
//
// Layout, native byte order (a cache is written and read on one machine): the magic
// "RFNODES1"; u32 variable count; u32 level of each variable; per node u32 variable, u32 low
// id, u32 high id; then u32 id per root, u64 node count, u32 root count (last, since the nodes
// stream out before they are counted). Ids 0 and 1 are the constants, id k + 2 the k-th node;
// a node's children come before it.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "bdd/bdd.hpp"

namespace refract::bdd {

class Manager;

// A malformed image: what is wrong, at which byte.
class NodeImageError : public std::runtime_error {
 public:
  NodeImageError(std::uint64_t offset, const std::string& what)
      : std::runtime_error(what), offset_(offset) {}
  std::uint64_t offset() const { return offset_; }

 private:
  std::uint64_t offset_;
};

class NodeImage {
 public:
  // The image of `roots` under the manager's variables and order.
  static void write(std::ostream& out, std::span<const Bdd> roots);

  // The image's roots, placed into `manager`'s table; or why it cannot be placed there (not
  // an error: the caller reads its BDDs another way): another variable count or order, a
  // table holding more than the variables' nodes, a node table of another layout than libbdd
  // 2.4's. Throws NodeImageError where `bytes` is not an image.
  static std::variant<std::vector<Bdd>, std::string> place(Manager& manager,
                                                           std::string_view bytes);
};

}  // namespace refract::bdd
