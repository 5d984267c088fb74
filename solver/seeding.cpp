#include "solver/seeding.hpp"

#include <vector>

namespace refract::solver {

namespace {

std::string where(const Rule& rule) {
  return "the rule at line " + std::to_string(rule.where.line);
}

}  // namespace

// Relations that may hold more tuples than in the seed's solve: inputs that changed, and
// every derived relation that reads one, through any number of rules.
std::set<std::string> may_have_grown(const Program& program,
                                     const std::map<std::string, InputChange>& inputs) {
  std::set<std::string> grown;
  for (const auto& [name, change] : inputs)
    if (change != InputChange::kSame) grown.insert(name);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Rule& rule : program.rules) {
      if (grown.count(rule.head.relation) != 0) continue;
      for (const Literal& literal : rule.body) {
        const Atom* atom = std::get_if<Atom>(&literal);
        if (atom != nullptr && grown.count(atom->relation) != 0) {
          grown.insert(rule.head.relation);
          changed = true;
          break;
        }
      }
    }
  }
  return grown;
}

std::string seed_unsafe_because(const Rule& rule, const SeedQuestions& questions) {
  for (const Literal& literal : rule.body) {
    const Atom* atom = std::get_if<Atom>(&literal);
    if (atom == nullptr) continue;
    const std::string& body = atom->relation;
    if (rule.numbering && questions.may_have_grown(body))
      return where(rule) + " numbers the paths of " + body + ", which may have grown";
    if (atom->negated && questions.negation_may_fail(rule, *atom))
      return where(rule) + " negates " + body +
             ", which may have gained tuples on values the seed had";
    if (questions.input_change(body) == InputChange::kOther)
      return where(rule) + " reads input " + body + ", which lost tuples or has no seed";
    if (body != rule.head.relation && questions.recomputed(body))
      return where(rule) + " reads " + body + ", which is recomputed";
  }
  return "";
}

}  // namespace refract::solver
