#include "solver/tuple_rule.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <span>
#include <string>

namespace refract::solver {

namespace {

using Values = std::vector<std::uint64_t>;

// Rows of equal width in one flat vector.
struct Table {
  std::vector<std::string> columns;  // variable names
  Values values;

  std::size_t width() const { return columns.size(); }
  std::size_t rows() const { return columns.empty() ? 0 : values.size() / width(); }
  std::span<const std::uint64_t> row(std::size_t r) const {
    return {values.data() + r * width(), width()};
  }
  std::optional<std::size_t> column(const std::string& name) const {
    const auto it = std::find(columns.begin(), columns.end(), name);
    if (it == columns.end()) return std::nullopt;
    return static_cast<std::size_t>(it - columns.begin());
  }
};

// Sorts rows lexicographically and drops repeats (a width-0 table keeps one row if it has any).
void sort_unique(Values& values, std::size_t width, std::size_t rows) {
  if (width == 0) return;
  std::vector<std::size_t> order(rows);
  for (std::size_t i = 0; i < rows; ++i) order[i] = i;
  auto less = [&](std::size_t a, std::size_t b) {
    return std::lexicographical_compare(
        values.begin() + a * width, values.begin() + (a + 1) * width, values.begin() + b * width,
        values.begin() + (b + 1) * width);
  };
  std::sort(order.begin(), order.end(), less);
  Values out;
  out.reserve(values.size());
  for (std::size_t i = 0; i < rows; ++i) {
    const auto begin = values.begin() + order[i] * width;
    if (!out.empty() && std::equal(begin, begin + width, out.end() - width)) continue;
    out.insert(out.end(), begin, begin + width);
  }
  values = std::move(out);
}

// Compares a row's key (its first `key` values) with a probe.
bool key_less(std::span<const std::uint64_t> row, std::span<const std::uint64_t> probe) {
  return std::lexicographical_compare(row.begin(), row.begin() + probe.size(), probe.begin(),
                                      probe.end());
}

class TupleEvaluator {
 public:
  TupleEvaluator(const Rule& rule,
                 const std::function<const rel::Relation&(const std::string&)>& relation,
                 const rel::DomainSpace& space, const TupleRuleLimits& limits)
      : rule_(rule), relation_(relation), space_(space), limits_(limits) {}

  std::optional<std::vector<Values>> run() {
    for (const Term& t : rule_.head.arguments)
      if (t.kind == Term::Kind::kUniverse || t.kind == Term::Kind::kWildcard) return std::nullopt;
    // Joins bind variables, filters only test them: a variable that no positive atom binds
    // (bound by `=`, ranging over its domain, or quantified inside a negation) is left to the
    // BDD plan.
    std::set<std::string> joined;
    for (const Literal& literal : rule_.body)
      if (const Atom* atom = std::get_if<Atom>(&literal); atom != nullptr && !atom->negated)
        for (const std::string& v : variables_of(literal)) joined.insert(v);
    for (const Term& t : rule_.head.arguments)
      if (t.kind == Term::Kind::kVariable && joined.count(t.text) == 0) return std::nullopt;
    for (const Literal& literal : rule_.body)
      for (const std::string& v : variables_of(literal))
        if (joined.count(v) == 0) return std::nullopt;
    for (const Literal& literal : rule_.body) {
      // A comparison of two constants has no domain to look a quoted name up in.
      const Comparison* c = std::get_if<Comparison>(&literal);
      if (c != nullptr && c->left.kind != Term::Kind::kVariable &&
          c->right.kind != Term::Kind::kVariable)
        return std::nullopt;
    }
    find_variable_domains();
    table_.values.clear();
    bool started = false;
    std::vector<bool> done(rule_.body.size(), false);
    for (std::size_t l = 0; l < rule_.body.size(); ++l) {
      const Atom* atom = std::get_if<Atom>(&rule_.body[l]);
      if (atom == nullptr || atom->negated) continue;
      if (!join(*atom, started)) return std::nullopt;
      started = true;
      done[l] = true;
      apply_ready_filters(done);
      project(done, /*deduplicate=*/!last_positive(l));
      if (row_count() == 0) return std::vector<Values>{};
    }
    if (!started) empty_body_row_ = true;  // no positive atom: one empty row to filter
    apply_ready_filters(done);
    return head_tuples();
  }

 private:
  void find_variable_domains() {
    for (const Literal& literal : rule_.body) {
      const Atom* atom = std::get_if<Atom>(&literal);
      if (atom == nullptr) continue;
      const rel::Relation& r = relation_(atom->relation);
      for (std::size_t i = 0; i < atom->arguments.size(); ++i)
        if (atom->arguments[i].kind == Term::Kind::kVariable)
          domain_of_[atom->arguments[i].text] = r.attributes()[i].domain;
    }
  }

  // The number a constant names in `domain`; nullopt for a quoted name its map lacks.
  std::optional<std::uint64_t> constant(const Term& t, rel::DomainId domain) const {
    if (t.kind == Term::Kind::kNumber) return t.number;
    const auto& map = space_.domain(domain).map;
    return map ? map->find(t.text) : std::nullopt;
  }

  // The atom's tuples that match its constants and repeated variables, projected onto its
  // distinct variables (first-occurrence order, returned in `vars`); nullopt when a constant
  // is absent from its map (the atom matches nothing).
  std::optional<Values> matching_tuples(const Atom& atom, std::vector<std::string>& vars) const {
    const rel::Relation& r = relation_(atom.relation);
    std::vector<std::optional<std::uint64_t>> fixed(atom.arguments.size());
    std::vector<std::size_t> first_of(atom.arguments.size());
    std::vector<std::size_t> keep;
    for (std::size_t i = 0; i < atom.arguments.size(); ++i) {
      const Term& t = atom.arguments[i];
      first_of[i] = i;
      if (t.kind == Term::Kind::kNumber || t.kind == Term::Kind::kName) {
        fixed[i] = constant(t, r.attributes()[i].domain);
        if (!fixed[i]) return std::nullopt;
      } else if (t.kind == Term::Kind::kVariable) {
        const auto it = std::find(vars.begin(), vars.end(), t.text);
        if (it == vars.end()) {
          vars.push_back(t.text);
          keep.push_back(i);
        } else {
          first_of[i] = keep[static_cast<std::size_t>(it - vars.begin())];
        }
      }
    }
    Values out;
    r.for_each_tuple([&](std::span<const std::uint64_t> tuple) {
      for (std::size_t i = 0; i < tuple.size(); ++i) {
        if (fixed[i] && tuple[i] != *fixed[i]) return;
        if (first_of[i] != i && tuple[i] != tuple[first_of[i]]) return;
      }
      for (std::size_t k : keep) out.push_back(tuple[k]);
      if (keep.empty()) out.push_back(0);  // a variable-free atom: one marker per match
    });
    if (keep.empty()) out.resize(std::min<std::size_t>(out.size(), 1));
    return out;
  }

  std::size_t row_count() const {
    return table_.width() == 0 ? (empty_body_row_ ? 1 : 0) : table_.rows();
  }

  bool too_big(std::uint64_t values) const { return values > limits_.max_values; }

  // Joins the table with a positive atom; false when the result would exceed the limit.
  bool join(const Atom& atom, bool started) {
    std::vector<std::string> vars;
    std::optional<Values> tuples = matching_tuples(atom, vars);
    if (!tuples) tuples.emplace();
    const std::size_t arity = std::max<std::size_t>(vars.size(), 1);
    const std::size_t count = tuples->size() / arity;
    if (!started) {
      if (vars.empty()) {
        table_.values.clear();
        empty_body_row_ = count > 0;
        return true;
      }
      table_.columns = vars;
      table_.values = std::move(*tuples);
      sort_unique(table_.values, table_.width(), count);
      return !too_big(table_.values.size());
    }
    if (vars.empty()) {
      if (count == 0) {
        table_.values.clear();
        empty_body_row_ = false;
      }
      return true;
    }
    // Reorder the atom's columns as (bound variables..., new variables...), sort, and probe
    // with each row's values of the bound ones.
    std::vector<std::size_t> key_from_atom, key_from_row, new_from_atom;
    std::vector<std::string> new_vars;
    for (std::size_t k = 0; k < vars.size(); ++k) {
      if (const auto c = table_.column(vars[k])) {
        key_from_atom.push_back(k);
        key_from_row.push_back(*c);
      } else {
        new_from_atom.push_back(k);
        new_vars.push_back(vars[k]);
      }
    }
    const std::size_t w = vars.size();
    Values arranged;
    arranged.reserve(tuples->size());
    for (std::size_t t = 0; t < count; ++t) {
      for (std::size_t k : key_from_atom) arranged.push_back((*tuples)[t * w + k]);
      for (std::size_t k : new_from_atom) arranged.push_back((*tuples)[t * w + k]);
    }
    tuples.reset();
    sort_unique(arranged, w, count);
    const std::size_t atom_rows = arranged.size() / w;
    std::vector<std::size_t> index(atom_rows);
    for (std::size_t i = 0; i < atom_rows; ++i) index[i] = i;
    auto atom_row = [&](std::size_t i) {
      return std::span<const std::uint64_t>(arranged.data() + i * w, w);
    };

    Table next;
    next.columns = table_.columns;
    next.columns.insert(next.columns.end(), new_vars.begin(), new_vars.end());
    const bool single_row_table = table_.width() == 0;
    const std::size_t rows = row_count();
    Values probe(key_from_row.size());
    for (std::size_t r = 0; r < rows; ++r) {
      const std::span<const std::uint64_t> row =
          single_row_table ? std::span<const std::uint64_t>() : table_.row(r);
      for (std::size_t k = 0; k < key_from_row.size(); ++k) probe[k] = row[key_from_row[k]];
      auto lo = std::lower_bound(
          index.begin(), index.end(), probe,
          [&](std::size_t i, const Values& p) { return key_less(atom_row(i), p); });
      for (auto it = lo; it != index.end(); ++it) {
        const auto candidate = atom_row(*it);
        if (!std::equal(probe.begin(), probe.end(), candidate.begin())) break;
        next.values.insert(next.values.end(), row.begin(), row.end());
        next.values.insert(next.values.end(), candidate.begin() + probe.size(), candidate.end());
      }
      if (too_big(next.values.size())) return false;
    }
    table_ = std::move(next);
    return true;
  }

  bool bound(const std::vector<std::string>& vars) const {
    for (const std::string& v : vars)
      if (!table_.column(v)) return false;
    return true;
  }

  void apply_ready_filters(std::vector<bool>& done) {
    for (std::size_t l = 0; l < rule_.body.size(); ++l) {
      if (done[l] || !bound(variables_of(rule_.body[l]))) continue;
      const Atom* atom = std::get_if<Atom>(&rule_.body[l]);
      if (atom != nullptr && !atom->negated) continue;  // positive atoms join in order
      if (atom != nullptr) {
        subtract(*atom);
      } else {
        compare(std::get<Comparison>(rule_.body[l]));
      }
      done[l] = true;
    }
  }

  // Keeps the rows for which `keep(row)` holds (the single empty row included).
  template <class Keep>
  void filter(Keep&& keep) {
    if (table_.width() == 0) {
      if (empty_body_row_ && !keep(std::span<const std::uint64_t>())) empty_body_row_ = false;
      return;
    }
    Values out;
    for (std::size_t r = 0; r < table_.rows(); ++r) {
      const auto row = table_.row(r);
      if (keep(row)) out.insert(out.end(), row.begin(), row.end());
    }
    table_.values = std::move(out);
  }

  void subtract(const Atom& atom) {
    std::vector<std::string> vars;
    std::optional<Values> tuples = matching_tuples(atom, vars);
    if (!tuples || tuples->empty()) return;  // nothing to subtract
    const std::size_t w = std::max<std::size_t>(vars.size(), 1);
    if (vars.empty()) {
      filter([](std::span<const std::uint64_t>) { return false; });
      return;
    }
    sort_unique(*tuples, w, tuples->size() / w);
    std::vector<std::size_t> columns;
    for (const std::string& v : vars) columns.push_back(*table_.column(v));
    const std::size_t n = tuples->size() / w;
    Values probe(w);
    filter([&](std::span<const std::uint64_t> row) {
      for (std::size_t k = 0; k < w; ++k) probe[k] = row[columns[k]];
      std::size_t lo = 0, hi = n;
      while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (std::lexicographical_compare(tuples->begin() + mid * w, tuples->begin() + (mid + 1) * w,
                                         probe.begin(), probe.end())) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return !(lo < n && std::equal(probe.begin(), probe.end(), tuples->begin() + lo * w));
    });
  }

  void compare(const Comparison& c) {
    // Resolve each side to a column or a constant of the variable side's domain.
    const Term* var_side = c.left.kind == Term::Kind::kVariable    ? &c.left
                           : c.right.kind == Term::Kind::kVariable ? &c.right
                                                                   : nullptr;
    auto side =
        [&](const Term& t) -> std::pair<std::optional<std::size_t>, std::optional<std::uint64_t>> {
      if (t.kind == Term::Kind::kVariable) return {table_.column(t.text), std::nullopt};
      if (t.kind == Term::Kind::kNumber) return {std::nullopt, t.number};
      return {std::nullopt, constant(t, domain_of_.at(var_side->text))};
    };
    const auto [left_column, left_value] = side(c.left);
    const auto [right_column, right_value] = side(c.right);
    const bool left_absent = !left_column && !left_value;
    const bool right_absent = !right_column && !right_value;
    if (left_absent || right_absent) {
      // A quoted name its map lacks equals nothing: "=" never holds, "!=" always does.
      const bool holds = c.op == CompareOp::kNe;
      if (!holds) filter([](std::span<const std::uint64_t>) { return false; });
      return;
    }
    filter([&](std::span<const std::uint64_t> row) {
      const std::uint64_t a = left_column ? row[*left_column] : *left_value;
      const std::uint64_t b = right_column ? row[*right_column] : *right_value;
      switch (c.op) {
        case CompareOp::kEq:
          return a == b;
        case CompareOp::kNe:
          return a != b;
        case CompareOp::kLt:
          return a < b;
        case CompareOp::kLe:
          return a <= b;
        case CompareOp::kGt:
          return a > b;
        case CompareOp::kGe:
          return a >= b;
      }
      return false;
    });
  }

  bool last_positive(std::size_t literal) const {
    for (std::size_t l = literal + 1; l < rule_.body.size(); ++l) {
      const Atom* atom = std::get_if<Atom>(&rule_.body[l]);
      if (atom != nullptr && !atom->negated) return false;
    }
    return true;
  }

  // Drops the columns no literal still to come and no head argument reads; repeats are dropped
  // too unless the caller leaves that to the encoding of the head (bdd_from_tuples sorts).
  void project(const std::vector<bool>& done, bool deduplicate) {
    std::set<std::string> needed;
    for (const Term& t : rule_.head.arguments)
      if (t.kind == Term::Kind::kVariable) needed.insert(t.text);
    for (std::size_t l = 0; l < rule_.body.size(); ++l)
      if (!done[l])
        for (const std::string& v : variables_of(rule_.body[l])) needed.insert(v);
    std::vector<std::size_t> kept;
    for (std::size_t c = 0; c < table_.width(); ++c)
      if (needed.count(table_.columns[c]) != 0) kept.push_back(c);
    if (kept.size() == table_.width()) return;
    const std::size_t rows = table_.rows();
    if (kept.empty()) {
      empty_body_row_ = rows > 0;
      table_.columns.clear();
      table_.values.clear();
      return;
    }
    Table next;
    for (std::size_t c : kept) next.columns.push_back(table_.columns[c]);
    next.values.reserve(rows * kept.size());
    for (std::size_t r = 0; r < rows; ++r) {
      const auto row = table_.row(r);
      for (std::size_t c : kept) next.values.push_back(row[c]);
    }
    if (deduplicate) sort_unique(next.values, kept.size(), rows);
    table_ = std::move(next);
  }

  std::vector<Values> head_tuples() const {
    const rel::Relation& head = relation_(rule_.head.relation);
    std::vector<std::optional<std::size_t>> columns;
    Values constants(rule_.head.arguments.size(), 0);
    for (std::size_t i = 0; i < rule_.head.arguments.size(); ++i) {
      const Term& t = rule_.head.arguments[i];
      if (t.kind == Term::Kind::kVariable) {
        columns.push_back(table_.column(t.text));
      } else {
        columns.push_back(std::nullopt);
        constants[i] = *constant(t, head.attributes()[i].domain);  // the planner checked it
      }
    }
    std::vector<Values> out;
    const std::size_t rows = row_count();
    out.reserve(rows);
    for (std::size_t r = 0; r < rows; ++r) {
      Values tuple = constants;
      if (table_.width() != 0) {
        const auto row = table_.row(r);
        for (std::size_t i = 0; i < columns.size(); ++i)
          if (columns[i]) tuple[i] = row[*columns[i]];
      }
      out.push_back(std::move(tuple));
    }
    return out;
  }

  const Rule& rule_;
  const std::function<const rel::Relation&(const std::string&)>& relation_;
  const rel::DomainSpace& space_;
  TupleRuleLimits limits_;
  std::map<std::string, rel::DomainId> domain_of_;
  Table table_;
  // With no bound variable the table is one empty row or none: the body so far holds or not.
  bool empty_body_row_ = false;
};

}  // namespace

std::optional<std::vector<std::vector<std::uint64_t>>> evaluate_rule_on_tuples(
    const Rule& rule, const std::function<const rel::Relation&(const std::string&)>& relation,
    const rel::DomainSpace& space, const TupleRuleLimits& limits) {
  return TupleEvaluator(rule, relation, space, limits).run();
}

}  // namespace refract::solver
