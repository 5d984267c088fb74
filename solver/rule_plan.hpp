// A rule compiled to a sequence of BDD steps. How the plan is chosen:
//  * Join order: positive atoms in the order written (as bddbddb does); each
//    negated atom and comparison runs as soon as all its variables are bound, except that
//    a comparison of a variable that dies there with one a later atom binds runs before that
//    atom, quantifying the first (no pairs of the two are built). A variable
//    no positive atom binds (nor '=') is bounded to its domain's elements by a step of its
//    own, just before the first literal that needs it (bddbddb's meaning: every element).
//  * Early quantification: a variable not in the head is quantified in the
//    relational product of the last step that uses it; a variable used by one
//    atom only is dropped before that atom is renamed; an atom of the rule's
//    recursive stratum that needs no rename drops it in its join instead, when
//    the other side of the join holds nothing on those instances
//    (AtomStep::drop_in_join).
//  * Instances: each rule variable gets its own instance of its domain, chosen
//    greedily by how many atom positions (head included) already hold it
//    there, so that most atoms need no replace at all; positions in atoms of
//    the rule's own recursive stratum (read through a delta every round)
//    count first.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "bdd/bdd.hpp"
#include "relations/domain_space.hpp"
#include "relations/relation.hpp"
#include "solver/ast.hpp"

namespace refract::solver {

// A body atom brought into the rule's variable space:
// value = replace(exists drop. (relation & select), rename), or relation & select when the
// drop is left to the join (drop_in_join).
struct AtomStep {
  std::size_t relation = 0;  // index into the engine's relations
  bool negated = false;
  bdd::Bdd select;  // constants and repeated variables, on the relation's instances
  bdd::Bdd drop;    // variable set quantified before renaming
  std::shared_ptr<bdd::VarPermutation> rename;       // null when already in place
  std::shared_ptr<bdd::VarPermutation> rename_back;  // its inverse: the rule's instances back
  // Per kept attribute: (its instance in the relation, the rule variable's instance).
  std::vector<std::pair<rel::PhysicalId, rel::PhysicalId>> moves;
  bool rename_keeps_order = true;  // the rename keeps the relative order of all kept variables
  bdd::Bdd quantify_after;         // rule variables that die at this step
  // A stratum atom whose dropped attributes lie on instances the join's other side does not
  // use: they are quantified in the join (quantify_after holds them too) instead of out of each
  // new delta first. StaticStore(f, from), VarPointsTo(_, from, hc, h) then joins the delta
  // with the few stores as it is, where projecting the contexts out of every delta cost 3-4.5 s
  // of a 300-s 2-obj+H, 2-type+H or 3-obj+2H run on antlr.
  bool drop_in_join = false;
  std::vector<rel::PhysicalId> dropped;  // the instances `drop` holds
};

// A comparison: acc & constraint, or acc - constraint for "!=".
struct ConstraintStep {
  bdd::Bdd constraint;
  bool subtract = false;
  bdd::Bdd quantify_after;
};

using PlanStep = std::variant<AtomStep, ConstraintStep>;

struct RulePlan {
  const Rule* rule = nullptr;
  std::size_t head = 0;  // relation index
  std::vector<PlanStep> steps;
  std::shared_ptr<bdd::VarPermutation> head_rename;  // rule instances -> head instances
  bdd::Bdd head_extra;                               // head constants, repeated head variables, '*'
  std::vector<std::string> variable_instances;       // "x:V1" per variable, for --stats
  std::map<std::string, rel::PhysicalId> instance_of;  // the instance each variable is on
  // Per step: the variables it keeps (an atom's, after dropping those used nowhere else), and
  // the variables bound after it and still needed (the support of the result so far).
  std::vector<std::vector<std::string>> step_variables;
  std::vector<std::vector<std::string>> live_after;
  // Per step: the index of its literal in rule->body, or -1 for a step that ranges a variable
  // no literal binds over its domain.
  std::vector<std::int64_t> body_literals;
  // "FILE:LINE:COL: warning: ..." for each quoted body constant absent from its domain's map:
  // such an atom matches nothing (a model of a method the program never names is harmless).
  std::vector<std::string> absent_constants;
};

struct PlannedRelation {
  const RelationDecl* decl;
  std::vector<rel::PhysicalId> instances;  // per attribute
};

// Throws InputError (at the rule) when the order lacks an instance the rule
// needs or a quoted constant of the head is not in its domain's map. A quoted
// constant of the body that is not in the map makes its atom or equality
// match nothing (an extension of bddbddb's language, noted in absent_constants).
// `recursive` holds the relations (indices) of the rule head's own stratum:
// atoms over them are read through a new delta every round, so their
// positions weigh more when instances are chosen.
RulePlan plan_rule(const Rule& rule, const std::vector<PlannedRelation>& relations,
                   const rel::DomainSpace& space, const std::set<std::size_t>& recursive = {});

}  // namespace refract::solver
