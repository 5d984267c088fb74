#include "reference/reference_evaluator.hpp"

#include <charconv>
#include <cstddef>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>
#include <variant>

namespace refract::reference {
namespace {

using solver::Atom;
using solver::CompareOp;
using solver::Comparison;
using solver::Program;
using solver::RelationDecl;
using solver::Rule;
using solver::Term;

// Domains the reference enumerates (`*`) must stay small enough to list.
constexpr std::uint64_t kMaxEnumeratedDomain = std::uint64_t{1} << 20;

[[noreturn]] void fail(const std::string& message) {
  throw ReferenceError(message);
}

std::uint64_t domain_size(const Program& program, const std::string& domain) {
  const solver::DomainDecl* decl = program.find_domain(domain);
  if (decl == nullptr) fail("unknown domain " + domain);
  return decl->size;
}

std::uint64_t parse_number(std::string_view text, const std::string& where) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end)
    fail(where + ": bad number '" + std::string(text) + "'");
  return value;
}

// Inserts every tuple whose column i lies in ranges[i] (inclusive bounds).
void add_product(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges,
                 std::size_t column, Tuple& tuple, TupleSet& out) {
  if (column == ranges.size()) {
    out.insert(tuple);
    return;
  }
  for (std::uint64_t v = ranges[column].first; v <= ranges[column].second; ++v) {
    tuple[column] = v;
    add_product(ranges, column + 1, tuple, out);
  }
}

// One argument of a rule's atom or comparison, with names resolved.
struct Arg {
  // kLocal: a variable written only in this negated atom (`variable` names it), which only
  // its own positions share.
  enum class Kind { kVariable, kConstant, kAny, kAll, kLocal };
  Kind kind = Kind::kAny;
  std::size_t variable = 0;      // kVariable: index into a binding
  std::uint64_t value = 0;       // kConstant
  std::uint64_t all_values = 0;  // kAll (head `*`): the domain's size
};

struct CompiledAtom {
  std::string relation;
  std::vector<Arg> args;
};

struct CompiledComparison {
  Arg left;
  CompareOp op = CompareOp::kEq;
  Arg right;
};

// A negated atom or a comparison: keeps some bindings, drops the others.
struct Filter {
  std::variant<CompiledAtom, CompiledComparison> test;
  std::vector<std::size_t> variables;
};

struct CompiledRule {
  std::string text;
  CompiledAtom head;
  std::vector<CompiledAtom> positive;  // body order
  std::vector<Filter> filters;         // body order
  std::size_t variable_count = 0;
};

// A binding gives each of a rule's variables a value (0 while still unbound).
using Binding = std::vector<std::uint64_t>;
using Bindings = std::set<Binding>;

bool compare(std::uint64_t left, CompareOp op, std::uint64_t right) {
  switch (op) {
    case CompareOp::kEq:
      return left == right;
    case CompareOp::kNe:
      return left != right;
    case CompareOp::kLt:
      return left < right;
    case CompareOp::kLe:
      return left <= right;
    case CompareOp::kGt:
      return left > right;
    case CompareOp::kGe:
      return left >= right;
  }
  return false;
}

std::uint64_t value_of(const Arg& arg, const Binding& binding) {
  return arg.kind == Arg::Kind::kVariable ? binding[arg.variable] : arg.value;
}

// A filter about to run: a comparison, or a negated atom together with its
// relation projected on the positions the atom constrains.
struct ReadyFilter {
  const Filter* filter = nullptr;
  TupleSet present;
};

bool passes(const ReadyFilter& ready, const Binding& binding) {
  if (const auto* comparison = std::get_if<CompiledComparison>(&ready.filter->test))
    return compare(value_of(comparison->left, binding), comparison->op,
                   value_of(comparison->right, binding));
  const CompiledAtom& atom = std::get<CompiledAtom>(ready.filter->test);
  Tuple key;
  for (const Arg& arg : atom.args)
    if (arg.kind != Arg::Kind::kAny && arg.kind != Arg::Kind::kLocal)
      key.push_back(value_of(arg, binding));
  return !ready.present.contains(key);
}

class Evaluator {
 public:
  Evaluator(const Program& program, std::filesystem::path input_dir)
      : program_(program), input_dir_(std::move(input_dir)) {}

  Database run();

 private:
  void load_maps();
  std::uint64_t constant(const Term& term, const std::string& domain,
                         const std::string& rule) const;
  CompiledRule compile(const Rule& rule) const;
  // The name under which db_ holds every element of `domain`, as unary tuples.
  std::string domain_relation(const std::string& domain) const;
  TupleSet derive(const CompiledRule& rule) const;
  ReadyFilter prepare(const Filter& filter) const;
  // Extends each binding by the matching tuples of `atom`, keeps those that
  // pass `filters`, and zeroes the variables that are not `needed` later.
  Bindings join(const Bindings& bindings, const std::vector<bool>& bound, const CompiledAtom& atom,
                const std::vector<ReadyFilter>& filters, const std::vector<bool>& needed) const;

  const Program& program_;
  std::filesystem::path input_dir_;
  std::map<std::string, std::map<std::string, std::uint64_t>> names_;  // domain -> name -> number
  Database db_;
};

void Evaluator::load_maps() {
  for (const solver::DomainDecl& domain : program_.domains) {
    if (!domain.map_file) continue;
    std::ifstream in(input_dir_ / *domain.map_file);
    if (!in) fail("cannot read map file " + (input_dir_ / *domain.map_file).string());
    std::map<std::string, std::uint64_t>& names = names_[domain.name];
    std::string line;
    for (std::uint64_t element = 0; element < domain.size && std::getline(in, line); ++element) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      names[line] = element;  // a name on several lines is the last of them, as in bddbddb
    }
  }
}

std::uint64_t Evaluator::constant(const Term& term, const std::string& domain,
                                  const std::string& rule) const {
  if (term.kind == Term::Kind::kNumber) {
    if (term.number >= domain_size(program_, domain))
      fail(rule + ": constant " + std::to_string(term.number) + " is outside domain " + domain);
    return term.number;
  }
  auto map = names_.find(domain);
  if (map == names_.end())
    fail(rule + ": domain " + domain + " has no map for \"" + term.text + "\"");
  auto element = map->second.find(term.text);
  if (element == map->second.end())
    fail(rule + ": \"" + term.text + "\" is not an element of " + domain);
  return element->second;
}

CompiledRule Evaluator::compile(const Rule& rule) const {
  const std::string& text = rule.text;
  std::map<std::string, std::string> domain_of;  // variable -> its domain
  std::map<std::string, std::size_t> index_of;   // variable -> binding index
  std::set<std::string> positively_bound;

  auto declaration = [&](const Atom& atom) -> const RelationDecl& {
    const RelationDecl* decl = program_.find_relation(atom.relation);
    if (decl == nullptr) fail(text + ": unknown relation " + atom.relation);
    if (decl->attributes.size() != atom.arguments.size())
      fail(text + ": " + atom.relation + " takes " + std::to_string(decl->attributes.size()) +
           " arguments");
    return *decl;
  };
  // Pass 1: every variable gets the domain of the attributes it fills.
  auto collect = [&](const Atom& atom) {
    const RelationDecl& decl = declaration(atom);
    for (std::size_t i = 0; i < atom.arguments.size(); ++i) {
      const Term& term = atom.arguments[i];
      if (term.kind != Term::Kind::kVariable) continue;
      const std::string& domain = decl.attributes[i].domain;
      auto [it, inserted] = domain_of.emplace(term.text, domain);
      if (!inserted && it->second != domain)
        fail(text + ": variable " + term.text + " is used as " + it->second + " and as " + domain);
      index_of.emplace(term.text, index_of.size());
    }
  };
  collect(rule.head);
  std::map<std::string, int> literals_using;  // the head counts as one
  std::set<std::string> in_negated;           // written in a negated atom
  for (const Term& term : rule.head.arguments)
    if (term.kind == Term::Kind::kVariable) literals_using[term.text] = 1;
  for (const solver::Literal& literal : rule.body) {
    std::set<std::string> here;
    if (const Atom* atom = std::get_if<Atom>(&literal)) {
      collect(*atom);
      for (const Term& term : atom->arguments)
        if (term.kind == Term::Kind::kVariable) here.insert(term.text);
      if (!atom->negated) positively_bound.insert(here.begin(), here.end());
      if (atom->negated) in_negated.insert(here.begin(), here.end());
    } else {
      const Comparison& comparison = std::get<Comparison>(literal);
      for (const Term* side : {&comparison.left, &comparison.right})
        if (side->kind == Term::Kind::kVariable) here.insert(side->text);
    }
    for (const std::string& v : here) ++literals_using[v];
  }
  // A variable seen only in comparisons has the domain of what it is compared with.
  for (bool changed = true; changed;) {
    changed = false;
    for (const solver::Literal& literal : rule.body) {
      const Comparison* c = std::get_if<Comparison>(&literal);
      if (c == nullptr || c->left.kind != Term::Kind::kVariable ||
          c->right.kind != Term::Kind::kVariable)
        continue;
      for (const auto& [a, b] : {std::pair{&c->left, &c->right}, {&c->right, &c->left}}) {
        if (domain_of.contains(a->text) || !domain_of.contains(b->text)) continue;
        domain_of[a->text] = domain_of.at(b->text);
        index_of.emplace(a->text, index_of.size());
        changed = true;
      }
    }
  }
  // Written in one negated atom only: `_` there, i.e. !s(x, y) holds when no y has s(x, y).
  auto negation_local = [&](const Term& term) {
    return term.kind == Term::Kind::kVariable && in_negated.contains(term.text) &&
           literals_using[term.text] == 1;
  };

  // Pass 2: resolve every argument.
  auto compile_atom = [&](const Atom& atom, bool head) {
    const RelationDecl& decl = declaration(atom);
    CompiledAtom out{atom.relation, {}};
    for (std::size_t i = 0; i < atom.arguments.size(); ++i) {
      const Term& term = atom.arguments[i];
      const std::string& domain = decl.attributes[i].domain;
      Arg arg;
      switch (term.kind) {
        case Term::Kind::kVariable:
          arg.kind = Arg::Kind::kVariable;
          arg.variable = index_of.at(term.text);
          break;
        case Term::Kind::kWildcard:
        case Term::Kind::kUniverse:
          // In a head, every element of the domain (bddbddb reads `_` there so too); in a
          // body, any element.
          arg.kind = head ? Arg::Kind::kAll : Arg::Kind::kAny;
          arg.all_values = domain_size(program_, domain);
          if (head && arg.all_values > kMaxEnumeratedDomain)
            fail(text + ": * over " + domain + " is too large for the reference");
          break;
        case Term::Kind::kNumber:
        case Term::Kind::kName:
          arg.kind = Arg::Kind::kConstant;
          arg.value = constant(term, domain, text);
          break;
      }
      out.args.push_back(arg);
    }
    return out;
  };
  auto variables_of = [](const std::vector<Arg>& args) {
    std::vector<std::size_t> out;
    for (const Arg& arg : args)
      if (arg.kind == Arg::Kind::kVariable) out.push_back(arg.variable);
    return out;
  };

  CompiledRule out;
  out.text = text;
  out.head = compile_atom(rule.head, /*head=*/true);
  for (const solver::Literal& literal : rule.body) {
    if (const Atom* atom = std::get_if<Atom>(&literal)) {
      if (!atom->negated) {
        out.positive.push_back(compile_atom(*atom, false));
        continue;
      }
      CompiledAtom negated = compile_atom(*atom, false);
      for (std::size_t i = 0; i < atom->arguments.size(); ++i)
        if (negation_local(atom->arguments[i])) negated.args[i].kind = Arg::Kind::kLocal;
      std::vector<std::size_t> variables = variables_of(negated.args);
      out.filters.push_back(Filter{std::move(negated), std::move(variables)});
      continue;
    }
    const Comparison& comparison = std::get<Comparison>(literal);
    // A constant takes the domain of the variable it is compared with.
    std::string domain;
    for (const Term* side : {&comparison.left, &comparison.right})
      if (side->kind == Term::Kind::kVariable) domain = domain_of.at(side->text);
    auto compile_side = [&](const Term& term) {
      Arg arg;
      if (term.kind == Term::Kind::kVariable) {
        arg.kind = Arg::Kind::kVariable;
        arg.variable = index_of.at(term.text);
      } else if (term.kind == Term::Kind::kNumber) {
        arg.kind = Arg::Kind::kConstant;
        arg.value = domain.empty() ? term.number : constant(term, domain, text);
      } else if (term.kind == Term::Kind::kName && !domain.empty()) {
        arg.kind = Arg::Kind::kConstant;
        arg.value = constant(term, domain, text);
      } else {
        fail(text + ": unsupported comparison operand");
      }
      return arg;
    };
    CompiledComparison compiled{compile_side(comparison.left), comparison.op,
                                compile_side(comparison.right)};
    std::vector<std::size_t> variables = variables_of({compiled.left, compiled.right});
    out.filters.push_back(Filter{compiled, std::move(variables)});
  }
  // Every other variable no positive atom binds ranges over its whole domain (bddbddb's
  // meaning): it joins with the domain's elements as if with an atom.
  std::set<std::string> enumerated;
  auto enumerate = [&](const Term& term) {
    if (term.kind != Term::Kind::kVariable || positively_bound.contains(term.text) ||
        negation_local(term) || !enumerated.insert(term.text).second)
      return;
    const std::string& domain = domain_of.at(term.text);
    Arg arg;
    arg.kind = Arg::Kind::kVariable;
    arg.variable = index_of.at(term.text);
    out.positive.push_back(CompiledAtom{domain_relation(domain), {arg}});
  };
  for (const Term& term : rule.head.arguments) enumerate(term);
  for (const solver::Literal& literal : rule.body) {
    if (const Atom* atom = std::get_if<Atom>(&literal)) {
      for (const Term& term : atom->arguments) enumerate(term);
    } else {
      enumerate(std::get<Comparison>(literal).left);
      enumerate(std::get<Comparison>(literal).right);
    }
  }
  out.variable_count = index_of.size();
  return out;
}

std::string Evaluator::domain_relation(const std::string& domain) const {
  return "domain " + domain;  // no relation name has a space
}

ReadyFilter Evaluator::prepare(const Filter& filter) const {
  ReadyFilter out{&filter, {}};
  if (const auto* atom = std::get_if<CompiledAtom>(&filter.test)) {
    for (const Tuple& tuple : db_.at(atom->relation)) {
      // A local variable written twice holds one value: ∃y s(x, y, y) needs equal columns.
      bool agrees = true;
      for (std::size_t i = 0; i < atom->args.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (atom->args[i].kind == Arg::Kind::kLocal && atom->args[j].kind == Arg::Kind::kLocal &&
              atom->args[i].variable == atom->args[j].variable && tuple[i] != tuple[j])
            agrees = false;
      if (!agrees) continue;
      Tuple key;
      for (std::size_t i = 0; i < atom->args.size(); ++i)
        if (atom->args[i].kind != Arg::Kind::kAny && atom->args[i].kind != Arg::Kind::kLocal)
          key.push_back(tuple[i]);
      out.present.insert(std::move(key));
    }
  }
  return out;
}

Bindings Evaluator::join(const Bindings& bindings, const std::vector<bool>& bound,
                         const CompiledAtom& atom, const std::vector<ReadyFilter>& filters,
                         const std::vector<bool>& needed) const {
  // Index the relation by the values in the positions of already bound
  // variables, so each binding meets only the tuples that agree with it.
  auto key_of = [&](auto value_at) {
    Binding key;
    for (std::size_t i = 0; i < atom.args.size(); ++i)
      if (atom.args[i].kind == Arg::Kind::kVariable && bound[atom.args[i].variable])
        key.push_back(value_at(i));
    return key;
  };
  std::map<Binding, std::vector<const Tuple*>> index;
  for (const Tuple& tuple : db_.at(atom.relation))
    index[key_of([&](std::size_t i) { return tuple[i]; })].push_back(&tuple);

  Bindings out;
  for (const Binding& binding : bindings) {
    auto candidates =
        index.find(key_of([&](std::size_t i) { return binding[atom.args[i].variable]; }));
    if (candidates == index.end()) continue;
    for (const Tuple* tuple : candidates->second) {
      Binding extended = binding;
      std::vector<bool> assigned = bound;
      bool match = true;
      for (std::size_t i = 0; i < atom.args.size() && match; ++i) {
        const Arg& arg = atom.args[i];
        if (arg.kind == Arg::Kind::kConstant) {
          match = (*tuple)[i] == arg.value;
        } else if (arg.kind == Arg::Kind::kVariable) {
          if (assigned[arg.variable]) {
            match = extended[arg.variable] == (*tuple)[i];
          } else {
            extended[arg.variable] = (*tuple)[i];
            assigned[arg.variable] = true;
          }
        }
      }
      for (std::size_t f = 0; f < filters.size() && match; ++f)
        match = passes(filters[f], extended);
      if (!match) continue;
      // Forget variables nothing later reads (exists v. ...), so bindings that
      // differ only there merge instead of multiplying through later atoms.
      for (std::size_t v = 0; v < extended.size(); ++v)
        if (!needed[v]) extended[v] = 0;
      out.insert(std::move(extended));
    }
  }
  return out;
}

TupleSet Evaluator::derive(const CompiledRule& rule) const {
  std::vector<bool> bound(rule.variable_count, false);
  std::vector<bool> applied(rule.filters.size(), false);
  // Filters run as soon as all their variables are bound; safety makes sure
  // that happens by the last positive atom.
  auto take_ready_filters = [&](const std::vector<bool>& bound_now) {
    std::vector<ReadyFilter> ready;
    for (std::size_t f = 0; f < rule.filters.size(); ++f) {
      if (applied[f]) continue;
      bool all_bound = true;
      for (std::size_t v : rule.filters[f].variables) all_bound = all_bound && bound_now[v];
      if (!all_bound) continue;
      ready.push_back(prepare(rule.filters[f]));
      applied[f] = true;
    }
    return ready;
  };
  Bindings bindings;
  {
    Binding empty(rule.variable_count, 0);
    bool keep = true;
    for (const ReadyFilter& ready : take_ready_filters(bound)) keep = keep && passes(ready, empty);
    if (keep) bindings.insert(empty);
  }

  // Atoms join in body order, except that an atom sharing a variable with
  // those joined so far goes before one that does not: a conjunction's order
  // does not matter, and this keeps cross products to the last moment.
  std::vector<bool> joined(rule.positive.size(), false);
  auto shares_bound_variable = [&](const CompiledAtom& atom) {
    for (const Arg& arg : atom.args)
      if (arg.kind == Arg::Kind::kVariable && bound[arg.variable]) return true;
    return false;
  };
  for (std::size_t step = 0; step < rule.positive.size(); ++step) {
    std::size_t next = rule.positive.size();
    for (std::size_t a = 0; a < rule.positive.size(); ++a) {
      if (joined[a]) continue;
      if (next == rule.positive.size()) next = a;
      if (shares_bound_variable(rule.positive[a])) {
        next = a;
        break;
      }
    }
    const CompiledAtom& atom = rule.positive[next];
    joined[next] = true;
    std::vector<bool> bound_after = bound;
    for (const Arg& arg : atom.args)
      if (arg.kind == Arg::Kind::kVariable) bound_after[arg.variable] = true;
    const std::vector<ReadyFilter> ready = take_ready_filters(bound_after);

    std::vector<bool> needed(rule.variable_count, false);
    auto need = [&](const std::vector<Arg>& args) {
      for (const Arg& arg : args)
        if (arg.kind == Arg::Kind::kVariable) needed[arg.variable] = true;
    };
    need(rule.head.args);
    for (std::size_t a = 0; a < rule.positive.size(); ++a)
      if (!joined[a]) need(rule.positive[a].args);
    for (std::size_t f = 0; f < rule.filters.size(); ++f)
      if (!applied[f])
        for (std::size_t v : rule.filters[f].variables) needed[v] = true;

    bindings = join(bindings, bound, atom, ready, needed);
    bound = std::move(bound_after);
  }
  for (bool done : applied)
    if (!done) fail(rule.text + ": a filter never had its variables bound");

  TupleSet out;
  for (const Binding& binding : bindings) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    for (const Arg& arg : rule.head.args) {
      if (arg.kind == Arg::Kind::kAll) {
        if (arg.all_values == 0) return out;
        ranges.emplace_back(0, arg.all_values - 1);
      } else {
        std::uint64_t value = value_of(arg, binding);
        ranges.emplace_back(value, value);
      }
    }
    Tuple tuple(ranges.size());
    add_product(ranges, 0, tuple, out);
  }
  return out;
}

Database Evaluator::run() {
  load_maps();
  for (const solver::DomainDecl& domain : program_.domains) {
    if (domain.size > kMaxEnumeratedDomain) continue;  // a rule needing it fails in join
    TupleSet& all = db_[domain_relation(domain.name)];
    for (std::uint64_t v = 0; v < domain.size; ++v) all.insert(Tuple{v});
  }
  for (const RelationDecl& relation : program_.relations) {
    TupleSet& tuples = db_[relation.name];
    if (relation.has(solver::RelationFlag::kInput))
      fail(relation.name + ": BuDDy .bdd inputs are not supported by the reference");
    if (relation.has(solver::RelationFlag::kInputTuples))
      tuples = read_tuples_file(input_dir_ / (relation.name + ".tuples"), relation, program_);
  }
  std::map<std::string, std::vector<CompiledRule>> rules_of;  // head relation -> its rules
  for (const Rule& rule : program_.rules) rules_of[rule.head.relation].push_back(compile(rule));

  for (const std::vector<std::string>& stratum : reference::stratify(program_)) {
    // Naive iteration: run every rule of the stratum on the current database
    // until a whole round adds nothing. Negated relations are complete: they
    // belong to lower strata.
    bool changed = true;
    while (changed) {
      changed = false;
      for (const std::string& relation : stratum) {
        for (const CompiledRule& rule : rules_of[relation]) {
          TupleSet& tuples = db_.at(relation);
          for (const Tuple& tuple : derive(rule)) changed = tuples.insert(tuple).second || changed;
        }
      }
    }
  }
  for (const solver::DomainDecl& domain : program_.domains) db_.erase(domain_relation(domain.name));
  return db_;
}

}  // namespace

TupleSet read_tuples_file(const std::filesystem::path& file, const RelationDecl& relation,
                          const Program& program) {
  std::ifstream in(file);
  if (!in) fail("cannot read " + file.string());
  std::vector<std::uint64_t> sizes;
  for (const solver::AttributeDecl& attribute : relation.attributes)
    sizes.push_back(domain_size(program, attribute.domain));

  TupleSet out;
  std::string line;
  for (std::uint64_t line_number = 1; std::getline(in, line); ++line_number) {
    const std::string where = file.string() + ":" + std::to_string(line_number);
    if (!line.empty() && line[0] == '#') {
      if (line_number == 1) {  // "# D0:6 E0:3": one column per attribute
        std::istringstream columns(line.substr(1));
        std::size_t count = 0;
        for (std::string column; columns >> column;) ++count;
        if (count != sizes.size())
          fail(where + ": header names " + std::to_string(count) + " columns, " + relation.name +
               " has " + std::to_string(sizes.size()));
      }
      continue;
    }
    std::istringstream words(line);
    std::vector<std::string> fields;
    for (std::string field; words >> field;) fields.push_back(field);
    if (fields.empty()) continue;
    if (fields.size() != sizes.size())
      fail(where + ": expected " + std::to_string(sizes.size()) + " fields");
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const std::string& field = fields[i];
      std::uint64_t lo = 0;
      std::uint64_t hi = 0;
      if (field == "*") {
        if (sizes[i] == 0) return out;
        if (sizes[i] > kMaxEnumeratedDomain) fail(where + ": * is too large for the reference");
        hi = sizes[i] - 1;
      } else if (std::size_t dash = field.find('-'); dash != std::string::npos) {
        lo = parse_number(std::string_view(field).substr(0, dash), where);
        hi = parse_number(std::string_view(field).substr(dash + 1), where);
        if (lo > hi) fail(where + ": empty range " + field);
        if (hi - lo >= kMaxEnumeratedDomain)
          fail(where + ": range " + field + " is too large for the reference");
      } else {
        lo = hi = parse_number(field, where);
      }
      if (hi >= sizes[i])
        fail(where + ": " + field + " is outside domain " + relation.attributes[i].domain);
      ranges.emplace_back(lo, hi);
    }
    Tuple tuple(ranges.size());
    add_product(ranges, 0, tuple, out);
  }
  return out;
}

std::vector<std::vector<std::string>> stratify(const Program& program) {
  std::map<std::string, std::size_t> level;
  for (const RelationDecl& relation : program.relations) level[relation.name] = 0;
  auto level_of = [&](const Atom& atom) -> std::size_t& {
    auto it = level.find(atom.relation);
    if (it == level.end()) fail("unknown relation " + atom.relation);
    return it->second;
  };
  // Raise heads until every rule's constraint holds. Without a cycle through
  // negation no level exceeds the number of relations.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Rule& rule : program.rules) {
      std::size_t& head = level_of(rule.head);
      for (const solver::Literal& literal : rule.body) {
        const Atom* atom = std::get_if<Atom>(&literal);
        if (atom == nullptr) continue;
        std::size_t needed = level_of(*atom) + (atom->negated ? 1 : 0);
        if (head >= needed) continue;
        head = needed;
        changed = true;
        if (head > program.relations.size())
          fail(rule.text + ": " + rule.head.relation + " depends on itself through negation");
      }
    }
  }
  std::map<std::size_t, std::vector<std::string>> by_level;
  for (const RelationDecl& relation : program.relations)
    by_level[level.at(relation.name)].push_back(relation.name);
  std::vector<std::vector<std::string>> strata;
  for (auto& [unused, names] : by_level) strata.push_back(std::move(names));
  return strata;
}

Database evaluate(const Program& program, const std::filesystem::path& input_dir) {
  return Evaluator(program, input_dir).run();
}

}  // namespace refract::reference
