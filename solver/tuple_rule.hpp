// Evaluates a rule on explicit tuples: the body's positive atoms joined in the order written
// (sort and binary search on the variables already bound), negated atoms and comparisons
// applied as soon as their variables are bound, variables no later literal needs projected
// away at once. The engine uses it for rules evaluated once (non-recursive strata) over small
// relations, where a join variable placed below the variables it connects makes the BDD
// product pair up every sub-BDD of one side with every one of the other: on antlr with the
// JDK, HeapDispatch (40k x 129k tuples in, 3.2M out) took 22.6 s as a BDD product.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "relations/domain_space.hpp"
#include "relations/relation.hpp"
#include "solver/ast.hpp"

namespace refract::solver {

struct TupleRuleLimits {
  // Values (rows x bound variables) an intermediate result may hold before the tuple path
  // gives up (and the engine takes the BDD plan instead).
  std::uint64_t max_values = std::uint64_t{1} << 25;
};

// The head tuples the rule derives, in head attribute order (unsorted, possibly repeated), or
// nullopt when the tuple path does not apply: a '*' in the head, or an intermediate result
// above the limit. `relation` gives the current contents of a relation by name. The rule must
// have passed the checker and the planner (constants are in their domains).
std::optional<std::vector<std::vector<std::uint64_t>>> evaluate_rule_on_tuples(
    const Rule& rule, const std::function<const rel::Relation&(const std::string&)>& relation,
    const rel::DomainSpace& space, const TupleRuleLimits& limits = {});

}  // namespace refract::solver
