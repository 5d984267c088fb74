#include "solver/named_constants.hpp"

#include <map>
#include <set>
#include <utility>
#include <variant>

namespace refract::solver {

namespace {

class NameResolver {
 public:
  NameResolver(const Program& program, std::vector<std::optional<rel::ElementMap>>& maps,
               bool add_missing)
      : program_(program), maps_(maps), add_missing_(add_missing) {}

  std::vector<std::string> run() {
    for (const Rule& rule : program_.rules) {
      const std::map<std::string, std::string> domains = variable_domains(program_, rule);
      visit_atom(rule.head);
      for (const Literal& literal : rule.body) {
        if (const Atom* atom = std::get_if<Atom>(&literal)) {
          visit_atom(*atom);
          continue;
        }
        const Comparison& c = std::get<Comparison>(literal);
        // A constant compared with a variable is in the variable's domain.
        for (const auto& [side, other] : {std::pair{&c.left, &c.right}, {&c.right, &c.left}}) {
          if (other->kind != Term::Kind::kVariable) continue;
          if (const auto d = domains.find(other->text); d != domains.end())
            visit_term(*side, d->second);
        }
      }
    }
    return std::move(warnings_);
  }

 private:
  void visit_atom(const Atom& atom) {
    const RelationDecl* relation = program_.find_relation(atom.relation);
    if (relation == nullptr) return;
    for (std::size_t i = 0; i < atom.arguments.size() && i < relation->attributes.size(); ++i)
      visit_term(atom.arguments[i], relation->attributes[i].domain);
  }

  void visit_term(const Term& term, const std::string& domain_name) {
    if (term.kind != Term::Kind::kName) return;
    std::size_t d = 0;
    while (d < program_.domains.size() && program_.domains[d].name != domain_name) ++d;
    if (d == program_.domains.size() || !maps_[d]) return;
    if (!seen_.insert({domain_name, term.text}).second) return;
    rel::ElementMap& map = *maps_[d];
    const DomainDecl& domain = program_.domains[d];
    if (map.is_repeated(term.text)) {
      const std::vector<std::uint64_t> elements = map.elements_named(term.text);
      warn(term, "\"" + term.text + "\" is on " + std::to_string(elements.size()) +
                     " lines of the map of domain " + domain_name + " (first element " +
                     std::to_string(elements.front()) + "); it stands for the last, element " +
                     std::to_string(elements.back()) + ", as in bddbddb");
    }
    // A map that names every element of its domain (refract's own facts) leaves no room: the
    // name stays absent, for the planner.
    if (map.find(term.text) || !add_missing_ || map.size() >= domain.size) return;
    const std::uint64_t element = map.add(term.text);
    warn(term, "\"" + term.text + "\" is not in the map of domain " + domain_name +
                   "; it is a new element, " + std::to_string(element) + ", as in bddbddb");
  }

  void warn(const Term& term, const std::string& message) {
    warnings_.push_back(term.where.to_string() + ": warning: " + message);
  }

  const Program& program_;
  std::vector<std::optional<rel::ElementMap>>& maps_;
  bool add_missing_;
  std::set<std::pair<std::string, std::string>> seen_;  // (domain, name) already resolved
  std::vector<std::string> warnings_;
};

}  // namespace

std::vector<std::string> resolve_named_constants(const Program& program,
                                                 std::vector<std::optional<rel::ElementMap>>& maps,
                                                 bool add_missing) {
  return NameResolver(program, maps, add_missing).run();
}

}  // namespace refract::solver
