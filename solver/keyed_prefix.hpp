// A static join prefix kept a second time as tuples grouped by the variables it shares with
// the next step, so that a delta joins only the prefix tuples whose keys it holds.
//
// Why: a relational product walks every node of the prefix that lies above the shared
// variables in the order, whatever the delta. ReceiverEdge's prefix VirtualCall(i, base, r),
// with I and M above V, is 1.7M nodes on antlr; each sweep joined all of it with a delta of a
// few thousand variables (13.6 s of 107). Encoding just the call sites of those variables costs
// time in their tuples instead.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "bdd/bdd.hpp"
#include "relations/domain_space.hpp"
#include "relations/relation.hpp"

namespace refract::solver {

struct KeyedPrefixLimits {
  std::uint64_t max_prefix_tuples = std::uint64_t{1} << 22;  // larger prefixes are not indexed
  // Restrict only when the keys and selected tuples, times this, stay below the prefix's
  // nodes (the cost of the plain product); 0 restricts whenever the prefix is indexed (tests).
  std::uint64_t cost_per_tuple = 8;
};

class KeyedPrefix {
 public:
  // Indexes `prefix` (a BDD over `instances`) by `keys` (a subset of `instances`). `delta_only`
  // are the other instances of the deltas it will be restricted to (quantified to find their
  // keys). nullopt when the prefix has too many tuples.
  static std::optional<KeyedPrefix> index(const rel::DomainSpace& space, const bdd::Bdd& prefix,
                                          const std::vector<rel::PhysicalId>& instances,
                                          const std::vector<rel::PhysicalId>& keys,
                                          const std::vector<rel::PhysicalId>& delta_only,
                                          const KeyedPrefixLimits& limits);

  // The prefix tuples whose keys `delta` holds, as a BDD, or nullopt when that would cost more
  // than the product with the whole prefix (see KeyedPrefixLimits::cost_per_tuple).
  std::optional<bdd::Bdd> restrict_to(const bdd::Bdd& delta) const;

  std::uint64_t tuples() const { return rows_; }

 private:
  KeyedPrefix(const rel::DomainSpace& space, std::vector<rel::Attribute> columns,
              std::size_t key_count, const KeyedPrefixLimits& limits);
  // Rows [first, last) whose key columns equal `key`.
  std::pair<std::size_t, std::size_t> rows_with_key(const std::uint64_t* key) const;

  const rel::DomainSpace* space_;
  std::vector<rel::Attribute> columns_;  // key columns first
  std::size_t key_count_;
  KeyedPrefixLimits limits_;
  std::vector<std::uint64_t> values_;  // rows of columns_.size() values, sorted by key
  std::uint64_t rows_ = 0;
  std::uint64_t prefix_nodes_ = 0;
  bdd::Bdd key_variables_;      // the cube of the key instances
  bdd::Bdd non_key_variables_;  // the cube of the delta's other instances
};

}  // namespace refract::solver
