// bddbddb's `number` rule: `IEnum(i, m, c, d) :- roots(m), mI0(m, i), IE0(i, m). number`
// (pacs2.datalog, Whaley-Lam cloning in Datalog). Its body is a graph, not a join: the nodes
// are (variable, value) pairs, the first atom's one variable names the roots, every other
// atom an edge from the node of its first variable to the node of its second for each of its
// tuples. The paths from the roots are numbered (solver/path_numbering.hpp), and the head gets,
// for each tuple (a, b) of the edge atoms with the head's first two variables whose source a
// root reaches, (a, b, n, n + offset) for every number n of its source: the numbers of a
// caller's contexts paired with those of the callee's contexts they become.
#pragma once

#include <functional>
#include <string>

#include "bdd/bdd.hpp"
#include "relations/relation.hpp"
#include "solver/ast.hpp"

namespace refract::solver {

// The head's tuples for `rule` (checked by check_program), over `head`'s instances, from the
// current contents of the body relations. Throws InputError at the rule when a number does
// not fit the head's number domain.
bdd::Bdd evaluate_numbering_rule(
    const Rule& rule, const std::function<const rel::Relation&(const std::string&)>& relation,
    const rel::Relation& head);

}  // namespace refract::solver
