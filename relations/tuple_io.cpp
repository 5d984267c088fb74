#include "relations/tuple_io.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <numeric>

#include "support/atomic_file.hpp"
#include "support/error.hpp"

namespace refract::rel {

namespace {

struct Field {
  std::string_view text;
  std::size_t column;  // 1-based
};

std::vector<Field> split_fields(std::string_view line) {
  std::vector<Field> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    fields.push_back({line.substr(start, i - start), start + 1});
  }
  return fields;
}

bool parse_number(std::string_view text, std::uint64_t& out) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// Header "# V0:16 H0:14": one column per attribute, each of the attribute's domain.
void check_header(const std::filesystem::path& file, std::string_view line, const Relation& r) {
  if (line.size() < 2 || line[0] != '#' || line[1] != ' ') {
    throw InputError({file.string(), 1, 1}, "expected a header line like '# V0:16 H0:14'");
  }
  const std::vector<Field> fields = split_fields(line.substr(1));
  if (fields.size() != r.arity()) {
    throw InputError({file.string(), 1, 1}, "header names " + std::to_string(fields.size()) +
                                                " columns but relation " + r.name() + " has " +
                                                std::to_string(r.arity()));
  }
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string_view f = fields[i].text;
    const std::size_t column = fields[i].column + 1;
    const std::size_t colon = f.rfind(':');
    std::uint64_t bits = 0;
    if (colon == std::string_view::npos || !parse_number(f.substr(colon + 1), bits)) {
      throw InputError({file.string(), 1, column},
                       "header column '" + std::string(f) + "' is not NAME:BITS");
    }
    const std::string& domain = r.space().domain(r.attributes()[i].domain).name;
    const std::string_view name = f.substr(0, colon);
    const bool same_domain =
        name.substr(0, domain.size()) == domain &&
        std::all_of(
            name.begin() + static_cast<std::ptrdiff_t>(std::min(domain.size(), name.size())),
            name.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!same_domain) {
      throw InputError({file.string(), 1, column},
                       "header column '" + std::string(name) + "' is not of domain " + domain +
                           " (attribute " + r.attributes()[i].name + " of " + r.name() + ")");
    }
  }
}

// Bit position p of the relation's sorted variables -> (attribute, bit weight).
struct BitRole {
  std::size_t attribute;
  unsigned weight;
};

std::vector<BitRole> bit_roles(const Relation& r, std::vector<int>& vars) {
  vars = r.space().sorted_variables(r.physicals());
  std::map<int, BitRole> role;
  for (std::size_t a = 0; a < r.arity(); ++a) {
    const auto& block = r.space().physical(r.attributes()[a].physical).block;
    for (unsigned bit = 0; bit < block.width(); ++bit)
      role[block.vars[bit]] = {a, block.width() - 1 - bit};
  }
  std::vector<BitRole> out;
  for (int v : vars) out.push_back(role.at(v));
  return out;
}

class TreeBuilder {
 public:
  TreeBuilder(const std::vector<int>& vars, std::size_t words,
              const std::vector<std::uint64_t>& keys)
      : vars_(vars), words_(words), keys_(keys) {}

  bool bit(std::size_t tuple, std::size_t position) const {
    return ((keys_[tuple * words_ + position / 64] >> (63 - position % 64)) & 1) != 0;
  }

  // Tuples [lo, hi) share their first `position` bits and are sorted.
  bdd::Bdd build(std::size_t lo, std::size_t hi, std::size_t position) const {
    if (lo == hi) return bdd::Bdd::zero();
    if (position == vars_.size()) return bdd::Bdd::one();
    std::size_t a = lo, b = hi;  // first tuple with bit set
    while (a < b) {
      const std::size_t m = a + (b - a) / 2;
      if (bit(m, position))
        b = m;
      else
        a = m + 1;
    }
    bdd::Bdd low = build(lo, a, position + 1);
    bdd::Bdd high = build(a, hi, position + 1);
    return bdd::Bdd::node(vars_[position], low, high);
  }

 private:
  const std::vector<int>& vars_;
  std::size_t words_;
  const std::vector<std::uint64_t>& keys_;
};

struct TupleTree {
  bdd::Bdd bdd;
  std::uint64_t distinct = 0;  // tuples after duplicates are dropped
};

TupleTree build_tuple_tree(const Relation& shape, std::vector<std::vector<std::uint64_t>> tuples) {
  std::vector<int> vars;
  const std::vector<BitRole> roles = bit_roles(shape, vars);
  const std::size_t words = std::max<std::size_t>(1, (vars.size() + 63) / 64);
  const std::size_t n = tuples.size();
  std::vector<std::uint64_t> raw(n * words, 0);
  for (std::size_t t = 0; t < n; ++t) {
    for (std::size_t p = 0; p < roles.size(); ++p) {
      if ((tuples[t][roles[p].attribute] >> roles[p].weight) & 1) {
        raw[t * words + p / 64] |= std::uint64_t{1} << (63 - p % 64);
      }
    }
  }
  tuples.clear();
  tuples.shrink_to_fit();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::lexicographical_compare(raw.begin() + x * words, raw.begin() + (x + 1) * words,
                                        raw.begin() + y * words, raw.begin() + (y + 1) * words);
  });
  std::vector<std::uint64_t> keys;
  keys.reserve(raw.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto begin = raw.begin() + order[i] * words;
    if (!keys.empty() && std::equal(begin, begin + words, keys.end() - words)) continue;
    keys.insert(keys.end(), begin, begin + words);
  }
  return {TreeBuilder(vars, words, keys).build(0, keys.size() / words, 0), keys.size() / words};
}

}  // namespace

bdd::Bdd bdd_from_tuples(const Relation& shape, std::vector<std::vector<std::uint64_t>> tuples) {
  return build_tuple_tree(shape, std::move(tuples)).bdd;
}

namespace {

// Reads a tuples file of `r`'s shape: each plain line (numbers only) to `on_plain`, the lines
// with '*' or lo-hi fields into the BDD returned. Errors name file, line, column.
template <typename OnPlain>
bdd::Bdd parse_tuples(const std::filesystem::path& file, const Relation& r, OnPlain&& on_plain) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError({file.string()}, "cannot open tuples file for relation " + r.name());
  std::string line;
  if (!std::getline(in, line))
    throw InputError({file.string(), 1, 1}, "empty tuples file: no header");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  check_header(file, line, r);

  bdd::Bdd ranged = bdd::Bdd::zero();
  std::uint64_t line_number = 1;
  std::vector<std::uint64_t> tuple(r.arity()), tuple_hi(r.arity());
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::vector<Field> fields = split_fields(line);
    if (fields.empty() || fields[0].text[0] == '#') continue;
    if (fields.size() != r.arity()) {
      throw InputError({file.string(), line_number,
                        fields.size() > r.arity() ? fields[r.arity()].column : line.size() + 1},
                       "expected " + std::to_string(r.arity()) + " fields, found " +
                           std::to_string(fields.size()));
    }
    bool has_range = false;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const Attribute& a = r.attributes()[i];
      const LogicalDomain& domain = r.space().domain(a.domain);
      const std::string_view f = fields[i].text;
      const SourceLocation where{file.string(), line_number, fields[i].column};
      std::uint64_t lo = 0, hi = 0;
      if (f == "*") {
        hi = domain.size - 1;
        has_range = true;
      } else if (const std::size_t dash = f.find('-'); dash != std::string_view::npos && dash > 0) {
        if (!parse_number(f.substr(0, dash), lo) || !parse_number(f.substr(dash + 1), hi)) {
          throw InputError(where, "malformed range '" + std::string(f) + "'");
        }
        if (lo > hi) throw InputError(where, "empty range '" + std::string(f) + "'");
        has_range = true;
      } else if (parse_number(f, lo)) {
        hi = lo;
      } else {
        throw InputError(where,
                         "expected a number, '*' or 'lo-hi', found '" + std::string(f) + "'");
      }
      if (hi >= domain.size) {
        throw InputError(where, "value " + std::to_string(hi) + " is outside domain " +
                                    domain.name + " (size " + std::to_string(domain.size) + ")");
      }
      tuple[i] = lo;
      tuple_hi[i] = hi;
    }
    if (has_range) {
      // Only lines with '*' or lo-hi become BDDs here; plain tuples are
      // built all at once, bottom-up, by bdd_from_tuples.
      bdd::Bdd line_bdd = bdd::Bdd::one();
      for (std::size_t i = 0; i < fields.size(); ++i) {
        const bdd::BitBlock& block = r.space().physical(r.attributes()[i].physical).block;
        line_bdd &= block.in_range(tuple[i], tuple_hi[i]);
      }
      ranged |= line_bdd;
    } else {
      on_plain(tuple);
    }
  }
  if (in.bad()) throw InputError({file.string(), line_number + 1, 1}, "read error");
  return ranged;
}

std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

void TupleFingerprint::add(std::span<const std::uint64_t> tuple) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull;
  for (const std::uint64_t v : tuple) h = mix(h ^ v) + 0x9E3779B97F4A7C15ull;
  ++lines;
  sum_a += h;
  sum_b += mix(h ^ 0xD6E8FEB86659FD93ull);
}

std::optional<std::uint64_t> read_tuples(const std::filesystem::path& file, Relation& r,
                                         TupleFingerprint* fingerprint) {
  std::vector<std::vector<std::uint64_t>> plain;
  const bdd::Bdd ranged = parse_tuples(file, r, [&](const std::vector<std::uint64_t>& tuple) {
    if (fingerprint) fingerprint->add(tuple);
    plain.push_back(tuple);
  });
  TupleTree tree = build_tuple_tree(r, std::move(plain));
  r.set_bdd(tree.bdd | ranged);
  if (!ranged.is_zero()) return std::nullopt;
  return tree.distinct;
}

std::optional<TuplesBeyond> read_tuples_beyond(const std::filesystem::path& file, const Relation& r,
                                               const std::vector<std::uint64_t>& limits,
                                               const TupleFingerprint& within) {
  std::vector<std::vector<std::uint64_t>> beyond;
  TupleFingerprint found;
  const bdd::Bdd ranged = parse_tuples(file, r, [&](const std::vector<std::uint64_t>& tuple) {
    for (std::size_t i = 0; i < tuple.size(); ++i) {
      if (tuple[i] >= limits[i]) {
        beyond.push_back(tuple);
        return;
      }
    }
    found.add(tuple);
  });
  if (!ranged.is_zero() || !(found == within)) return std::nullopt;
  const std::uint64_t lines = beyond.size();
  return TuplesBeyond{build_tuple_tree(r, std::move(beyond)).bdd, lines};
}

namespace {
template <typename WriteField>
void write_lines(const std::filesystem::path& file, const Relation& r, const std::string& header,
                 char separator, WriteField&& write_field) {
  AtomicOutputFile out(file);
  std::ostream& os = out.stream();
  if (!header.empty()) os << header << '\n';
  std::string buffer;
  r.for_each_tuple([&](std::span<const std::uint64_t> tuple) {
    buffer.clear();
    for (std::size_t i = 0; i < tuple.size(); ++i) {
      if (i > 0) buffer += separator;
      write_field(buffer, i, tuple[i]);
    }
    buffer += '\n';
    os.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  });
  out.commit();
}
}  // namespace

void write_tuples(const std::filesystem::path& file, const Relation& r) {
  std::string header = "#";
  for (const Attribute& a : r.attributes()) {
    const PhysicalDomain& p = r.space().physical(a.physical);
    header += " " + p.name + ":" + std::to_string(p.block.width());
  }
  write_lines(file, r, header, ' ', [](std::string& buffer, std::size_t, std::uint64_t v) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    buffer.append(digits, end);
  });
}

void write_tsv(const std::filesystem::path& file, const Relation& r) {
  std::vector<const ElementMap*> maps;
  for (const Attribute& a : r.attributes()) {
    const auto& m = r.space().domain(a.domain).map;
    maps.push_back(m ? &*m : nullptr);
  }
  write_lines(file, r, "", '\t', [&](std::string& buffer, std::size_t i, std::uint64_t v) {
    buffer += maps[i] != nullptr ? maps[i]->label(v) : std::to_string(v);
  });
}

}  // namespace refract::rel
