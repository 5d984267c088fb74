#include "reference/random_program.hpp"

#include <algorithm>
#include <bit>
#include <fstream>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>

namespace refract::reference {
namespace {

using solver::Atom;
using solver::CompareOp;
using solver::Comparison;
using solver::DomainDecl;
using solver::Literal;
using solver::Program;
using solver::RelationDecl;
using solver::RelationFlag;
using solver::Rule;
using solver::Term;

// No relation may hold more tuples than this, so the reference stays quick.
constexpr std::uint64_t kMaxRelationTuples = std::uint64_t{1} << 14;
constexpr std::uint64_t kMaxInputLines = 40;
constexpr std::size_t kMaxPositiveAtoms = 4;  // per rule body
constexpr std::uint64_t kMaxLineTuples = 16;  // what one line with `*` or `lo-hi` may expand to
// The largest domain a variable no positive atom binds may range over (fact and head variables,
// variables of comparisons only): the reference enumerates it for each binding.
constexpr std::uint64_t kMaxFreeDomain = 16;

// std::uniform_int_distribution differs between standard libraries; the
// modulo of a 64-bit draw is the same everywhere and its bias is negligible.
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  std::uint64_t below(std::uint64_t n) { return engine_() % n; }
  bool chance(std::uint64_t numerator, std::uint64_t denominator) {
    return below(denominator) < numerator;
  }
  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[below(items.size())];
  }
  template <class T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
  }

 private:
  std::mt19937_64 engine_;
};

Term variable_term(const std::string& name) {
  Term term;
  term.kind = Term::Kind::kVariable;
  term.text = name;
  return term;
}

Term simple_term(Term::Kind kind) {
  Term term;
  term.kind = kind;
  return term;
}

std::string term_text(const Term& term) {
  switch (term.kind) {
    case Term::Kind::kVariable:
      return term.text;
    case Term::Kind::kWildcard:
      return "_";
    case Term::Kind::kUniverse:
      return "*";
    case Term::Kind::kNumber:
      return std::to_string(term.number);
    case Term::Kind::kName:
      return "\"" + term.text + "\"";
  }
  return "?";
}

std::string atom_text(const Atom& atom) {
  std::string out = (atom.negated ? "!" : "") + atom.relation + "(";
  for (std::size_t i = 0; i < atom.arguments.size(); ++i)
    out += (i > 0 ? ", " : "") + term_text(atom.arguments[i]);
  return out + ")";
}

const char* operator_text(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "!=";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
  }
  return "?";
}

const char* flag_text(RelationFlag flag) {
  switch (flag) {
    case RelationFlag::kInput:
      return "input";
    case RelationFlag::kInputTuples:
      return "inputtuples";
    case RelationFlag::kOutput:
      return "output";
    case RelationFlag::kOutputTuples:
      return "outputtuples";
    case RelationFlag::kPrintSize:
      return "printsize";
    case RelationFlag::kPrintTuples:
      return "printtuples";
  }
  return "?";
}

// BuDDy's bit width for a domain of `size` elements (at least one bit).
int domain_bits(std::uint64_t size) {
  return std::max(1, static_cast<int>(std::bit_width(size > 0 ? size - 1 : 0)));
}

// The variables of the rule being built, with their domains.
struct RuleVariables {
  std::vector<std::pair<std::string, std::string>> all;  // name, domain
  std::set<std::string> bound;                           // in a positive body atom

  std::string fresh(const std::string& domain) {
    std::string name = "v" + std::to_string(all.size());
    all.emplace_back(name, domain);
    return name;
  }
  std::vector<std::string> bound_of(const std::string& domain) const {
    std::vector<std::string> out;
    for (const auto& [name, d] : all)
      if (d == domain && bound.contains(name)) out.push_back(name);
    return out;
  }
  const std::string& domain_of(const std::string& name) const {
    for (const auto& [n, domain] : all)
      if (n == name) return domain;
    throw std::logic_error("unknown generated variable " + name);
  }
};

class Generator {
 public:
  Generator(std::uint64_t seed, std::filesystem::path directory)
      : random_(seed), directory_(std::move(directory)) {
    out_.seed = seed;
  }

  GeneratedProgram run();

 private:
  const DomainDecl& domain(const std::string& name) const {
    return *out_.program.find_domain(name);
  }
  const RelationDecl& relation(const std::string& name) const {
    return *out_.program.find_relation(name);
  }
  void make_domains();
  RelationDecl make_relation(const std::string& name, const std::string* first_domain);
  void make_relations();
  Term constant(const std::string& domain);
  Rule make_fact(const std::string& head);
  Rule make_rule(const std::string& head, bool recursive);
  Atom body_atom(const std::string& relation, RuleVariables& variables,
                 std::vector<std::string>& unbound_head, const std::string* first = nullptr);
  std::vector<std::string> relations_below(int level, bool inclusive) const;
  void count_instances();
  void make_var_orders();
  std::string program_text() const;
  void write_files() const;
  void write_inputs();

  Random random_;
  std::filesystem::path directory_;
  GeneratedProgram out_;
  std::string mapped_domain_;
  std::map<std::string, int> level_;  // derived relation -> its stratum
};

void Generator::make_domains() {
  static const char* const kNames[] = {"D", "E", "F"};
  const std::uint64_t count = 1 + random_.below(3);
  for (std::uint64_t i = 0; i < count; ++i) {
    DomainDecl domain;
    domain.name = kNames[i];
    domain.size =
        random_.chance(1, 2) ? std::uint64_t{1} << random_.below(7) : 1 + random_.below(64);
    out_.program.domains.push_back(domain);
  }
  DomainDecl& mapped = out_.program.domains[random_.below(count)];
  mapped.map_file = mapped.name + ".map";
  mapped_domain_ = mapped.name;
}

// Arity 1-4, shortened when the domains' product would pass kMaxRelationTuples.
RelationDecl Generator::make_relation(const std::string& name, const std::string* first_domain) {
  RelationDecl out;
  out.name = name;
  const std::uint64_t arity = 1 + random_.below(4);
  std::uint64_t capacity = 1;
  for (std::uint64_t i = 0; i < arity; ++i) {
    const DomainDecl* chosen = i == 0 && first_domain != nullptr
                                   ? &domain(*first_domain)
                                   : &random_.pick(out_.program.domains);
    if (capacity * chosen->size > kMaxRelationTuples) {
      for (const DomainDecl& d : out_.program.domains)
        if (d.size < chosen->size) chosen = &d;
      if (capacity * chosen->size > kMaxRelationTuples) break;
    }
    capacity *= chosen->size;
    solver::AttributeDecl attribute;
    // bddbddb allows repeated attribute names (`aT (type:T0, type:T1)`).
    attribute.name = "a" + std::to_string(random_.chance(1, 4) ? 0 : i);
    attribute.domain = chosen->name;
    out.attributes.push_back(attribute);
  }
  return out;
}

void Generator::make_relations() {
  Program& program = out_.program;
  // Each domain is the first attribute of some input, so a rule can always
  // bind a variable of any domain through an input.
  const std::uint64_t inputs =
      std::max<std::uint64_t>(program.domains.size(), 2 + random_.below(3));
  for (std::uint64_t i = 0; i < inputs; ++i) {
    const std::string* first = i < program.domains.size() ? &program.domains[i].name : nullptr;
    RelationDecl relation = make_relation("p" + std::to_string(i), first);
    relation.flags = {RelationFlag::kInputTuples};
    out_.inputs.push_back(relation.name);
    program.relations.push_back(relation);
  }
  const std::uint64_t derived = 2 + random_.below(4);
  for (std::uint64_t i = 0; i < derived; ++i) {
    RelationDecl relation = make_relation("q" + std::to_string(i), nullptr);
    relation.flags = {RelationFlag::kPrintSize};
    if (random_.chance(1, 2)) relation.flags.push_back(RelationFlag::kOutputTuples);
    level_[relation.name] = static_cast<int>(random_.below(3));
    out_.derived.push_back(relation.name);
    program.relations.push_back(relation);
  }
  random_.shuffle(program.relations);  // declaration order says nothing about strata
}

// Inputs and the derived relations below `level` (or at it, if inclusive).
std::vector<std::string> Generator::relations_below(int level, bool inclusive) const {
  std::vector<std::string> out = out_.inputs;
  for (const std::string& name : out_.derived)
    if (level_.at(name) < level || (inclusive && level_.at(name) == level)) out.push_back(name);
  return out;
}

Term Generator::constant(const std::string& domain_name) {
  const std::uint64_t element = random_.below(domain(domain_name).size);
  if (domain_name == mapped_domain_ && random_.chance(1, 2)) {
    Term term = simple_term(Term::Kind::kName);
    term.text = "e" + std::to_string(element);
    return term;
  }
  Term term = simple_term(Term::Kind::kNumber);
  term.number = element;
  return term;
}

// A fact: constants, `*`, and variables, which no body binds: each stands for every element
// of its domain (a variable written twice, for the pairs of equal elements).
Rule Generator::make_fact(const std::string& head) {
  Rule rule;
  rule.head.relation = head;
  RuleVariables variables;
  for (const solver::AttributeDecl& attribute : relation(head).attributes) {
    const std::uint64_t roll = random_.below(12);
    std::vector<std::string> same_domain;
    for (const auto& [name, domain] : variables.all)
      if (domain == attribute.domain) same_domain.push_back(name);
    const bool small = domain(attribute.domain).size <= kMaxFreeDomain;
    if (roll < 3) {
      rule.head.arguments.push_back(simple_term(Term::Kind::kUniverse));
    } else if (roll < 4 && !same_domain.empty()) {
      rule.head.arguments.push_back(variable_term(random_.pick(same_domain)));
    } else if (roll < 5 && small) {
      rule.head.arguments.push_back(variable_term(variables.fresh(attribute.domain)));
    } else {
      rule.head.arguments.push_back(constant(attribute.domain));
    }
  }
  rule.text = rule_text(rule);
  return rule;
}

// A positive atom of `relation`: binds waiting head variables where the
// domains fit, otherwise joins on bound variables (or repeats one within the
// atom), or uses `_`, a constant or a new variable. `first`, if given, is the
// first argument.
Atom Generator::body_atom(const std::string& relation_name, RuleVariables& variables,
                          std::vector<std::string>& unbound_head, const std::string* first) {
  Atom atom;
  atom.relation = relation_name;
  std::vector<std::string> in_atom;
  if (first != nullptr) {
    in_atom.push_back(*first);
    atom.arguments.push_back(variable_term(*first));
    std::erase(unbound_head, *first);
  }
  const std::vector<solver::AttributeDecl>& attributes = relation(relation_name).attributes;
  // Mostly join with the atoms before (cross products stay possible).
  std::vector<std::size_t> joinable;
  for (std::size_t i = atom.arguments.size(); i < attributes.size(); ++i)
    if (!variables.bound_of(attributes[i].domain).empty()) joinable.push_back(i);
  const std::size_t join_at =
      !joinable.empty() && random_.chance(4, 5) ? random_.pick(joinable) : attributes.size();
  for (std::size_t i = atom.arguments.size(); i < attributes.size(); ++i) {
    const std::string& domain = attributes[i].domain;
    if (i == join_at) {
      const std::string name = random_.pick(variables.bound_of(domain));
      in_atom.push_back(name);
      atom.arguments.push_back(variable_term(name));
      continue;
    }
    std::vector<std::string> waiting;
    for (const std::string& name : unbound_head)
      if (variables.domain_of(name) == domain) waiting.push_back(name);
    const std::vector<std::string> known = variables.bound_of(domain);
    std::vector<std::string> repeatable;
    for (const std::string& name : in_atom)
      if (variables.domain_of(name) == domain) repeatable.push_back(name);

    std::string name;
    const std::uint64_t roll = random_.below(20);
    if (!waiting.empty() && random_.chance(2, 3)) {
      name = random_.pick(waiting);
      std::erase(unbound_head, name);
    } else if (roll < 2) {
      atom.arguments.push_back(simple_term(Term::Kind::kWildcard));
      continue;
    } else if (roll < 4) {
      atom.arguments.push_back(constant(domain));
      continue;
    } else if (roll < 5 && !repeatable.empty()) {
      name = random_.pick(repeatable);
    } else if (roll < 10 && !known.empty()) {
      name = random_.pick(known);
    } else {
      name = variables.fresh(domain);
    }
    in_atom.push_back(name);
    atom.arguments.push_back(variable_term(name));
  }
  for (const std::string& name : in_atom) variables.bound.insert(name);
  return atom;
}

Rule Generator::make_rule(const std::string& head, bool recursive) {
  const int level = level_.at(head);
  RuleVariables variables;
  Rule rule;
  rule.head.relation = head;
  std::vector<std::string> unbound_head;
  for (const solver::AttributeDecl& attribute : relation(head).attributes) {
    const std::uint64_t roll = random_.below(20);
    std::vector<std::string> repeatable;
    for (const std::string& name : unbound_head)
      if (variables.domain_of(name) == attribute.domain) repeatable.push_back(name);
    if (roll < 2) {
      rule.head.arguments.push_back(constant(attribute.domain));
    } else if (roll < 3) {
      // `_` in a head is bddbddb's variable that nothing binds: every element, as `*`.
      rule.head.arguments.push_back(
          simple_term(random_.chance(1, 3) ? Term::Kind::kWildcard : Term::Kind::kUniverse));
    } else if (roll < 5 && !repeatable.empty()) {
      rule.head.arguments.push_back(variable_term(random_.pick(repeatable)));
    } else {
      std::string name = variables.fresh(attribute.domain);
      unbound_head.push_back(name);
      rule.head.arguments.push_back(variable_term(name));
    }
  }

  // Some head variables stay unbound: each ranges over its whole domain (bddbddb's meaning),
  // and negations and comparisons may use them.
  // Only small domains, so that the reference's cross products with them stay cheap.
  std::vector<std::string> free_head;
  for (const std::string& name : unbound_head)
    if (domain(variables.domain_of(name)).size <= kMaxFreeDomain && random_.chance(1, 8))
      free_head.push_back(name);
  for (const std::string& name : free_head) std::erase(unbound_head, name);
  auto free_of = [&](const std::string& domain) {
    std::vector<std::string> out;
    for (const std::string& name : free_head)
      if (variables.domain_of(name) == domain) out.push_back(name);
    return out;
  };

  // Positive atoms: a first rule uses only lower strata and inputs; others may
  // use the head's own stratum, which makes recursion (mutual if the level
  // holds several relations).
  std::vector<Literal> positive;
  const std::vector<std::string> candidates = relations_below(level, recursive);
  std::vector<std::string> same_level;
  for (const std::string& name : out_.derived)
    if (level_.at(name) == level) same_level.push_back(name);
  const std::uint64_t atoms = 1 + random_.below(3);
  // The stratum atom usually leads; sometimes it follows atoms of lower strata, as in
  // ReceiverEdge :- VirtualCall, VarPointsTo (the engine's keyed static prefixes).
  const std::uint64_t recursive_at = random_.chance(1, 2) ? atoms - 1 : 0;
  for (std::uint64_t i = 0; i < atoms; ++i) {
    const std::string& relation_name = recursive && i == recursive_at && random_.chance(2, 3)
                                           ? random_.pick(same_level)
                                           : random_.pick(candidates);
    positive.push_back(body_atom(relation_name, variables, unbound_head));
  }
  // Bind what the head still needs through inputs (each domain heads one); a
  // body already long enough gets a constant in the head instead.
  while (!unbound_head.empty()) {
    const std::string name = unbound_head.front();
    if (positive.size() >= kMaxPositiveAtoms) {
      const Term replacement = constant(variables.domain_of(name));
      for (Term& term : rule.head.arguments)
        if (term.kind == Term::Kind::kVariable && term.text == name) term = replacement;
      std::erase(unbound_head, name);
      continue;
    }
    std::vector<std::string> fitting;
    for (const std::string& input : out_.inputs)
      if (relation(input).attributes.front().domain == variables.domain_of(name))
        fitting.push_back(input);
    positive.push_back(body_atom(random_.pick(fitting), variables, unbound_head, &name));
  }

  // Filters: negated atoms of lower strata and comparisons, over bound variables, the free
  // head variables, and variables of their own: one written only in a negated atom is
  // quantified inside the negation (as `_`), one written only in a comparison ranges over its
  // domain.
  std::vector<Literal> filters;
  const std::vector<std::string> negatable = relations_below(level, false);
  const std::uint64_t negations = random_.chance(2, 5) + random_.chance(1, 10);
  for (std::uint64_t i = 0; i < negations; ++i) {
    Atom atom;
    atom.negated = true;
    atom.relation = random_.pick(negatable);
    std::vector<std::string> local;  // of this atom only
    for (const solver::AttributeDecl& attribute : relation(atom.relation).attributes) {
      std::vector<std::string> known = variables.bound_of(attribute.domain);
      const std::vector<std::string> free = free_of(attribute.domain);
      if (!free.empty() && random_.chance(1, 3)) {
        atom.arguments.push_back(variable_term(random_.pick(free)));
      } else if (!known.empty() && random_.chance(3, 4)) {
        atom.arguments.push_back(variable_term(random_.pick(known)));
      } else if (random_.chance(1, 4)) {
        std::vector<std::string> reusable;
        for (const std::string& name : local)
          if (variables.domain_of(name) == attribute.domain) reusable.push_back(name);
        if (reusable.empty() || random_.chance(1, 2))
          reusable.assign(1, local.emplace_back(variables.fresh(attribute.domain)));
        atom.arguments.push_back(variable_term(random_.pick(reusable)));
      } else if (random_.chance(2, 3)) {
        atom.arguments.push_back(simple_term(Term::Kind::kWildcard));
      } else {
        atom.arguments.push_back(constant(attribute.domain));
      }
    }
    filters.emplace_back(std::move(atom));
  }
  std::vector<std::string> comparable(variables.bound.begin(), variables.bound.end());
  comparable.insert(comparable.end(), free_head.begin(), free_head.end());
  const std::uint64_t comparisons =
      comparable.empty() ? 0 : random_.chance(1, 3) + random_.chance(1, 6);
  for (std::uint64_t i = 0; i < comparisons; ++i) {
    static const CompareOp kOps[] = {CompareOp::kNe, CompareOp::kNe, CompareOp::kNe,
                                     CompareOp::kEq, CompareOp::kEq, CompareOp::kLt,
                                     CompareOp::kLe, CompareOp::kGt, CompareOp::kGe};
    Comparison comparison;
    const std::string& left = random_.pick(comparable);
    const std::string& domain = variables.domain_of(left);
    comparison.left = variable_term(left);
    comparison.op = kOps[random_.below(std::size(kOps))];
    std::vector<std::string> others = variables.bound_of(domain);
    const std::vector<std::string> free = free_of(domain);
    others.insert(others.end(), free.begin(), free.end());
    std::erase(others, left);
    const std::uint64_t roll = random_.below(8);
    if (roll < 4 && !others.empty()) {
      comparison.right = variable_term(random_.pick(others));
    } else if (roll < 5 && this->domain(domain).size <= kMaxFreeDomain) {
      comparison.right = variable_term(variables.fresh(domain));
    } else {
      comparison.right = constant(domain);
    }
    if (random_.chance(1, 4)) std::swap(comparison.left, comparison.right);
    filters.emplace_back(std::move(comparison));
  }

  // Usually filters follow the atoms that bind them; sometimes the body is
  // shuffled so a filter comes before its variables' atoms.
  rule.body = std::move(positive);
  rule.body.insert(rule.body.end(), filters.begin(), filters.end());
  if (random_.chance(1, 4)) random_.shuffle(rule.body);
  rule.text = rule_text(rule);
  return rule;
}

void Generator::count_instances() {
  std::map<std::string, int>& instances = out_.instances;
  for (const DomainDecl& domain : out_.program.domains) instances[domain.name] = 0;
  for (const RelationDecl& relation : out_.program.relations) {
    std::map<std::string, int> count;
    for (const solver::AttributeDecl& attribute : relation.attributes)
      instances[attribute.domain] =
          std::max(instances[attribute.domain], ++count[attribute.domain]);
  }
  for (const Rule& rule : out_.program.rules) {
    std::map<std::string, std::set<std::string>> distinct;  // domain -> variables
    auto note = [&](const Term& term, const std::string& domain) {
      if (term.kind == Term::Kind::kVariable) distinct[domain].insert(term.text);
    };
    auto note_atom = [&](const Atom& atom) {
      const RelationDecl& decl = relation(atom.relation);
      for (std::size_t i = 0; i < atom.arguments.size(); ++i)
        note(atom.arguments[i], decl.attributes[i].domain);
    };
    note_atom(rule.head);
    for (const Literal& literal : rule.body)
      if (const Atom* atom = std::get_if<Atom>(&literal)) note_atom(*atom);
    // A variable written only in comparisons is in its partner's domain.
    for (bool changed = true; changed;) {
      changed = false;
      for (const Literal& literal : rule.body) {
        const Comparison* c = std::get_if<Comparison>(&literal);
        if (c == nullptr || c->left.kind != Term::Kind::kVariable ||
            c->right.kind != Term::Kind::kVariable)
          continue;
        for (const auto& [a, b] : {std::pair{&c->left, &c->right}, {&c->right, &c->left}})
          for (auto& [domain, names] : distinct)
            if (names.contains(b->text) &&
                !std::any_of(distinct.begin(), distinct.end(),
                             [&](const auto& entry) { return entry.second.contains(a->text); })) {
              names.insert(a->text);
              changed = true;
            }
      }
    }
    for (const auto& [domain, names] : distinct)
      instances[domain] = std::max(instances[domain], static_cast<int>(names.size()));
  }
}

void Generator::make_var_orders() {
  std::vector<std::string> each;  // every instance, domains in declaration order
  for (const DomainDecl& domain : out_.program.domains)
    for (int k = 0; k < out_.instances.at(domain.name); ++k)
      each.push_back(domain.name + std::to_string(k));
  auto join = [](const std::vector<std::string>& parts, const char* separator) {
    std::string out;
    for (const std::string& part : parts) out += (out.empty() ? "" : separator) + part;
    return out;
  };
  out_.var_orders.push_back(join(each, "_"));
  std::reverse(each.begin(), each.end());
  out_.var_orders.push_back(join(each, "_"));

  // Domains in random order, one or two to a block; a block interleaves its
  // domains' instances round-robin (D0xE0xD1xE1xD2).
  std::vector<std::string> domains;
  for (const DomainDecl& domain : out_.program.domains) domains.push_back(domain.name);
  random_.shuffle(domains);
  std::vector<std::string> blocks;
  for (std::size_t i = 0; i < domains.size();) {
    const std::size_t width = domains.size() - i >= 2 && (i == 0 || random_.chance(1, 2)) ? 2 : 1;
    std::vector<std::string> block;
    int deepest = 0;
    for (std::size_t d = i; d < i + width; ++d)
      deepest = std::max(deepest, out_.instances.at(domains[d]));
    for (int k = 0; k < deepest; ++k)
      for (std::size_t d = i; d < i + width; ++d)
        if (k < out_.instances.at(domains[d])) block.push_back(domains[d] + std::to_string(k));
    blocks.push_back(join(block, "x"));
    i += width;
  }
  out_.var_orders.push_back(join(blocks, "_"));
}

std::string Generator::program_text() const {
  const Program& program = out_.program;
  std::string out;
  for (const DomainDecl& domain : program.domains)
    out += domain.name + " " + std::to_string(domain.size) +
           (domain.map_file ? " " + *domain.map_file : "") + "\n";
  out += "\n";
  for (const RelationDecl& relation : program.relations) {
    out += relation.name + " (";
    for (std::size_t i = 0; i < relation.attributes.size(); ++i)
      out +=
          (i > 0 ? ", " : "") + relation.attributes[i].name + " : " + relation.attributes[i].domain;
    out += ")";
    for (RelationFlag flag : relation.flags) out += std::string(" ") + flag_text(flag);
    out += "\n";
  }
  out += "\n";
  for (const Rule& rule : program.rules) out += rule.text + "\n";
  return out;
}

void Generator::write_files() const {
  std::ofstream(directory_ / "program.datalog") << out_.text;
  const DomainDecl& mapped = domain(mapped_domain_);
  std::ofstream map(directory_ / *mapped.map_file);
  for (std::uint64_t i = 0; i < mapped.size; ++i) map << "e" << i << "\n";
  if (!map) throw std::runtime_error("cannot write " + (directory_ / *mapped.map_file).string());
}

// Up to kMaxInputLines random lines per input; a quarter of the files also
// use `*` and `lo-hi` fields.
void Generator::write_inputs() {
  for (const std::string& name : out_.inputs) {
    const RelationDecl& decl = relation(name);
    std::string text = "#";
    std::map<std::string, int> instance;
    for (const solver::AttributeDecl& attribute : decl.attributes)
      text += " " + attribute.domain + std::to_string(instance[attribute.domain]++) + ":" +
              std::to_string(domain_bits(domain(attribute.domain).size));
    text += "\n";
    const bool ranges = random_.chance(1, 4);
    const std::uint64_t lines = random_.below(kMaxInputLines + 1);
    for (std::uint64_t line = 0; line < lines; ++line) {
      std::uint64_t expansion = 1;  // tuples this line stands for so far
      for (std::size_t i = 0; i < decl.attributes.size(); ++i) {
        const std::uint64_t size = domain(decl.attributes[i].domain).size;
        if (i > 0) text += " ";
        if (ranges && expansion * size <= kMaxLineTuples && random_.chance(1, 6)) {
          text += "*";
          expansion *= size;
        } else if (ranges && random_.chance(1, 6)) {
          const std::uint64_t lo = random_.below(size);
          const std::uint64_t span =
              1 + random_.below(std::min(size - lo, kMaxLineTuples / expansion));
          text += std::to_string(lo) + "-" + std::to_string(lo + span - 1);
          expansion *= span;
        } else {
          text += std::to_string(random_.below(size));
        }
      }
      text += "\n";
    }
    std::ofstream file(directory_ / (name + ".tuples"));
    file << text;
    if (!file)
      throw std::runtime_error("cannot write " + (directory_ / (name + ".tuples")).string());
  }
}

GeneratedProgram Generator::run() {
  make_domains();
  make_relations();
  Program& program = out_.program;
  program.file = (directory_ / "program.datalog").string();
  for (const std::string& head : out_.derived) {
    const std::uint64_t rules = 1 + random_.below(3);
    for (std::uint64_t i = 0; i < rules; ++i) program.rules.push_back(make_rule(head, i > 0));
    if (random_.chance(1, 5)) program.rules.push_back(make_fact(head));
  }
  random_.shuffle(program.rules);
  count_instances();
  make_var_orders();
  out_.text = program_text();
  write_files();
  write_inputs();
  return std::move(out_);
}

}  // namespace

std::string rule_text(const Rule& rule) {
  std::string out = atom_text(rule.head);
  for (std::size_t i = 0; i < rule.body.size(); ++i) {
    out += i == 0 ? " :- " : ", ";
    if (const Atom* atom = std::get_if<Atom>(&rule.body[i])) {
      out += atom_text(*atom);
    } else {
      const Comparison& comparison = std::get<Comparison>(rule.body[i]);
      out += term_text(comparison.left) + " " + operator_text(comparison.op) + " " +
             term_text(comparison.right);
    }
  }
  return out + ".";
}

GeneratedProgram generate_random_program(std::uint64_t seed,
                                         const std::filesystem::path& directory) {
  return Generator(seed, directory).run();
}

}  // namespace refract::reference
