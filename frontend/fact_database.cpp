#include "frontend/fact_database.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "support/atomic_file.hpp"
#include "support/bit_width.hpp"

namespace refract::frontend {

std::uint64_t FactDomain::intern(std::string_view element) {
  if (const auto it = index_.find(element); it != index_.end()) return it->second;
  const std::uint64_t number = names_.size();
  index_.emplace(std::string(element), number);
  names_.emplace_back(element);
  return number;
}

std::uint64_t FactDomain::at(std::string_view element) const {
  const auto it = index_.find(element);
  if (it == index_.end()) {
    throw std::out_of_range("no element '" + std::string(element) + "' in domain " + name_);
  }
  return it->second;
}

void FactRelation::add(std::initializer_list<std::uint64_t> tuple) {
  add(std::span<const std::uint64_t>(tuple.begin(), tuple.size()));
}

void FactRelation::add(std::span<const std::uint64_t> tuple) {
  if (tuple.size() != arity()) {
    throw std::invalid_argument("relation " + name_ + " has arity " + std::to_string(arity()) +
                                ", not " + std::to_string(tuple.size()));
  }
  values_.insert(values_.end(), tuple.begin(), tuple.end());
}

std::vector<std::vector<std::uint64_t>> FactRelation::sorted_tuples() const {
  std::vector<std::vector<std::uint64_t>> tuples;
  tuples.reserve(raw_size());
  for (std::size_t i = 0; i < values_.size(); i += arity()) {
    tuples.emplace_back(values_.begin() + static_cast<std::ptrdiff_t>(i),
                        values_.begin() + static_cast<std::ptrdiff_t>(i + arity()));
  }
  std::sort(tuples.begin(), tuples.end());
  tuples.erase(std::unique(tuples.begin(), tuples.end()), tuples.end());
  return tuples;
}

FactDomain& FactDatabase::add_domain(std::string name, std::string description) {
  domain_index_.try_emplace(name, domains_.size());
  return domains_.emplace_back(std::move(name), std::move(description));
}

FactRelation& FactDatabase::add_relation(std::string name, std::vector<FactAttribute> attributes,
                                         std::string description) {
  for (const FactAttribute& a : attributes) domain(a.domain);  // must exist
  relation_index_.try_emplace(name, relations_.size());
  return relations_.emplace_back(std::move(name), std::move(attributes), std::move(description));
}

namespace {
template <typename Items>
auto& find_named(Items& items, const NameIndex<std::size_t>& index, std::string_view name,
                 const char* what) {
  const auto it = index.find(name);
  if (it == index.end()) {
    throw std::out_of_range(std::string("no fact ") + what + " named " + std::string(name));
  }
  return items[it->second];
}
}  // namespace

FactDomain& FactDatabase::domain(std::string_view name) {
  return find_named(domains_, domain_index_, name, "domain");
}
const FactDomain& FactDatabase::domain(std::string_view name) const {
  return find_named(domains_, domain_index_, name, "domain");
}
FactRelation& FactDatabase::relation(std::string_view name) {
  return find_named(relations_, relation_index_, name, "relation");
}
const FactRelation& FactDatabase::relation(std::string_view name) const {
  return find_named(relations_, relation_index_, name, "relation");
}

void FactDatabase::mark_jdk_part() {
  for (const FactDomain& d : domains_) jdk_part_sizes_[d.name()] = d.size();
}

void FactDatabase::set_jdk_part_size(std::string_view domain, std::uint64_t size) {
  jdk_part_sizes_[std::string(domain)] = size;
}

std::uint64_t FactDatabase::jdk_part_size(std::string_view domain) const {
  const auto found = jdk_part_sizes_.find(domain);
  return found == jdk_part_sizes_.end() ? 0 : found->second;
}

std::string map_line(std::string_view element) {
  std::string out;
  out.reserve(element.size());
  for (const char c : element) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

// A domain with no elements still gets one, so that its bit width is defined; one with room
// gets that.
std::uint64_t declared_size(const FactDomain& d, const std::map<std::string, std::uint64_t>& room) {
  const auto r = room.find(d.name());
  return std::max<std::uint64_t>({d.size(), 1, r == room.end() ? 0 : r->second});
}

void write_map(const FactDomain& d, const std::filesystem::path& directory) {
  AtomicOutputFile out(directory / (d.name() + ".map"));
  for (const std::string& name : d.names()) out.stream() << map_line(name) << '\n';
  out.commit();
}

void write_relation(const FactDatabase& facts, const FactRelation& r,
                    const std::filesystem::path& directory,
                    const std::map<std::string, std::uint64_t>& room) {
  AtomicOutputFile out(directory / (r.name() + ".tuples"));
  std::ostream& s = out.stream();
  s << '#';
  std::map<std::string, unsigned> instances;
  for (const FactAttribute& a : r.attributes()) {
    s << ' ' << a.domain << instances[a.domain]++ << ':'
      << bits_for_size(declared_size(facts.domain(a.domain), room));
  }
  s << '\n';
  for (const auto& tuple : r.sorted_tuples()) {
    for (std::size_t i = 0; i < tuple.size(); ++i) s << (i > 0 ? " " : "") << tuple[i];
    s << '\n';
  }
  out.commit();
}

void write_program(const FactDatabase& facts, const std::filesystem::path& directory,
                   const std::map<std::string, std::uint64_t>& room) {
  AtomicOutputFile out(directory / "facts.datalog");
  std::ostream& s = out.stream();
  s << "# Facts written by refract facts; the schema is frontend/FACTS.md.\n\n";
  for (const FactDomain& d : facts.domains()) {
    s << "# " << d.description() << '\n'
      << d.name() << ' ' << declared_size(d, room) << ' ' << d.name() << ".map\n";
  }
  s << '\n';
  for (const FactRelation& r : facts.relations()) {
    s << "# " << r.description() << '\n' << r.name() << " (";
    for (std::size_t i = 0; i < r.arity(); ++i) {
      s << (i > 0 ? ", " : "") << r.attributes()[i].name << " : " << r.attributes()[i].domain;
    }
    s << ") inputtuples\n";
  }
  out.commit();
}

}  // namespace

void write_fact_database(const FactDatabase& facts, const std::filesystem::path& directory,
                         const std::map<std::string, std::uint64_t>& room) {
  std::filesystem::create_directories(directory);
  for (const FactDomain& d : facts.domains()) write_map(d, directory);
  for (const FactRelation& r : facts.relations()) write_relation(facts, r, directory, room);
  write_program(facts, directory, room);
}

}  // namespace refract::frontend
