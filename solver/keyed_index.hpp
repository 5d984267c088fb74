// The static side of a join kept a second time as tuples grouped by the variables it shares
// with the other side, so that a small other side joins only the tuples whose keys it holds.
//
// Why: a relational product walks every node of the static side that lies above the shared
// variables in the order, whatever the other side holds. Two places in the engine:
//  * a static prefix before a recursive atom: ReceiverEdge's VirtualCall(i, base, r), with I
//    and M above V, is 1.7M nodes on antlr, and each sweep joined all of it with a delta of a
//    few thousand variables (13.6 s of 107);
//  * a static atom after a delta: ActualArg(i, z, a) joined with new InstanceEdge tuples, with
//    I below Z and V as the call-site flavours order it (64 s in 20 sweeps of 1-call on antlr).
// Encoding just the tuples of the keys the other side holds costs time in those tuples instead.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "bdd/bdd.hpp"
#include "relations/domain_space.hpp"
#include "relations/relation.hpp"

namespace refract::solver {

struct KeyedIndexLimits {
  std::uint64_t max_prefix_tuples = std::uint64_t{1} << 22;  // larger sides are not indexed
  // Restrict only when the keys and selected tuples, times this, stay below the static side's
  // nodes (the cost of the plain product); 0 restricts whenever it is indexed (tests).
  std::uint64_t cost_per_tuple = 8;
};

class KeyedIndex {
 public:
  // Indexes `prefix` (the static side: a BDD over `instances`) by `keys` (a subset of
  // `instances`). `delta_only` are the other instances of the values it will be restricted to
  // (quantified to find their keys). nullopt when the static side has too many tuples.
  static std::optional<KeyedIndex> index(const rel::DomainSpace& space, const bdd::Bdd& prefix,
                                         const std::vector<rel::PhysicalId>& instances,
                                         const std::vector<rel::PhysicalId>& keys,
                                         const std::vector<rel::PhysicalId>& delta_only,
                                         const KeyedIndexLimits& limits);

  // The static tuples whose keys `delta` holds, as a BDD, or nullopt when that would cost more
  // than the product with the whole static side (see KeyedIndexLimits::cost_per_tuple).
  std::optional<bdd::Bdd> restrict_to(const bdd::Bdd& delta) const;

  std::uint64_t tuples() const { return rows_; }

 private:
  KeyedIndex(const rel::DomainSpace& space, std::vector<rel::Attribute> columns,
             std::size_t key_count, const KeyedIndexLimits& limits);
  // Rows [first, last) whose key columns equal `key`.
  std::pair<std::size_t, std::size_t> rows_with_key(const std::uint64_t* key) const;

  const rel::DomainSpace* space_;
  std::vector<rel::Attribute> columns_;  // key columns first
  std::size_t key_count_;
  KeyedIndexLimits limits_;
  std::vector<std::uint64_t> values_;  // rows of columns_.size() values, sorted by key
  std::uint64_t rows_ = 0;
  std::uint64_t prefix_nodes_ = 0;
  bdd::Bdd key_variables_;      // the cube of the key instances
  bdd::Bdd non_key_variables_;  // the cube of the delta's other instances
};

}  // namespace refract::solver
