// Which derived relations a solve may start from a seed: their values in an earlier solve of
// the same rules on fewer input tuples (the JDK's start-up fixpoint, issue 35). A seed is sound
// where it is a subset of the relation's new least fixpoint; it then only spares the work of
// deriving it again. That holds for a relation whose every rule keeps each derivation it made
// in the seed's solve. A rule may lose one where it negates a relation that gained a tuple on
// values the seed's solve had (the engine checks the gain once the negated relation is solved;
// gains only on elements the seed's domains lacked, as the program's are, lose nothing), numbers
// the paths of a graph that grew, or reads an input that lost tuples: such a relation, and
// every relation that reads it, is solved from nothing.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "solver/ast.hpp"

namespace refract::solver {

// How an input relation compares with its value in the seed's solve.
enum class InputChange {
  kSame,
  kGrew,   // a strict superset
  kOther,  // lost tuples, or the seed does not have it: anything may differ
};

struct SeedPlan {
  std::set<std::string> seeded;                   // derived relations started from their seed
  std::map<std::string, std::string> recomputed;  // derived relation -> why it is not seeded
  // How the seed was read: "image: N nodes placed" or, from its .bdd files, "files: WHY" (why
  // the image could not be placed).
  std::string read;
};

// Relations that may hold more tuples than in the seed's solve: inputs that changed, and every
// derived relation that reads one, through any number of rules.
std::set<std::string> may_have_grown(const Program& program,
                                     const std::map<std::string, InputChange>& inputs);

// What the check of a rule asks about the relations it reads. The engine answers from the
// seed and the strata solved so far.
struct SeedQuestions {
  // How an input changed; nothing for a derived relation.
  std::function<std::optional<InputChange>(const std::string&)> input_change;
  // A derived relation that does not start from its seed, and may lack tuples the seed had.
  std::function<bool(const std::string&)> recomputed;
  // The relation may hold tuples now that it did not hold in the seed's solve.
  std::function<bool(const std::string&)> may_have_grown;
  // The negated atom of the rule may fail now where it held in the seed's solve: on a tuple the
  // relation gained whose values at the rule's bound positions the seed's solve had.
  std::function<bool(const Rule&, const Atom&)> negation_may_fail;
};

// Why a tuple that `rule` derived in the seed's solve might not hold now, or "" when every
// such tuple still does (given what its body reads still holds): a negation that may fail, a
// numbering of a graph that may have grown, an input that lost tuples, a body relation
// recomputed.
std::string seed_unsafe_because(const Rule& rule, const SeedQuestions& questions);

}  // namespace refract::solver
