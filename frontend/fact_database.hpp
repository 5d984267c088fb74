// The facts of a program as plain tables, before any BDD exists: domains that number element
// names in first-seen order, and relations of number tuples over them. write_fact_database()
// puts them on disk as refract solve reads them (NAME.map, NAME.tuples, facts.datalog), so the
// front end never depends on the BDD layers.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace refract::frontend {

// Hashes std::string keys and std::string_view probes alike, so that looking a name up does not
// copy it into a std::string first (a malloc and a free per fact under perf).
struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view name) const {
    return std::hash<std::string_view>{}(name);
  }
};
template <typename Value>
using NameIndex = std::unordered_map<std::string, Value, NameHash, std::equal_to<>>;

class FactDomain {
 public:
  FactDomain(std::string name, std::string description)
      : name_(std::move(name)), description_(std::move(description)) {}

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  // The number of `element`, adding it at the end when new.
  std::uint64_t intern(std::string_view element);
  // The number of an element already interned; std::out_of_range otherwise.
  std::uint64_t at(std::string_view element) const;
  bool contains(std::string_view element) const { return index_.find(element) != index_.end(); }
  // Room for `count` elements in all, so that interning them does not rehash on the way.
  void reserve(std::uint64_t count) {
    index_.reserve(count);
    names_.reserve(count);
  }
  std::uint64_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::string name_;
  std::string description_;
  NameIndex<std::uint64_t> index_;
  std::vector<std::string> names_;
};

struct FactAttribute {
  std::string name;
  std::string domain;
};

class FactRelation {
 public:
  FactRelation(std::string name, std::vector<FactAttribute> attributes, std::string description)
      : name_(std::move(name)),
        attributes_(std::move(attributes)),
        description_(std::move(description)) {}

  const std::string& name() const { return name_; }
  const std::vector<FactAttribute>& attributes() const { return attributes_; }
  const std::string& description() const { return description_; }
  std::size_t arity() const { return attributes_.size(); }

  // Adds one tuple; its length must be the arity (std::invalid_argument otherwise).
  void add(std::initializer_list<std::uint64_t> tuple);
  void add(std::span<const std::uint64_t> tuple);
  // The tuples sorted and without duplicates.
  std::vector<std::vector<std::uint64_t>> sorted_tuples() const;
  std::size_t raw_size() const { return values_.size() / arity(); }
  // The tuples as added (repeats included), row-major.
  const std::vector<std::uint64_t>& raw_values() const { return values_; }

 private:
  std::string name_;
  std::vector<FactAttribute> attributes_;
  std::string description_;
  std::vector<std::uint64_t> values_;  // row-major
};

class FactDatabase {
 public:
  FactDomain& add_domain(std::string name, std::string description);
  FactRelation& add_relation(std::string name, std::vector<FactAttribute> attributes,
                             std::string description);

  bool has_domain(std::string_view name) const { return domain_index_.contains(name); }
  bool has_relation(std::string_view name) const { return relation_index_.contains(name); }
  FactDomain& domain(std::string_view name);
  const FactDomain& domain(std::string_view name) const;
  FactRelation& relation(std::string_view name);
  const FactRelation& relation(std::string_view name) const;
  const std::deque<FactDomain>& domains() const { return domains_; }
  const std::deque<FactRelation>& relations() const { return relations_; }

  // The JDK's part: the elements numbered before the program's classes were read (the JDK's
  // start-up classes and what they reach, cli/program_facts.cpp), the same numbers in every
  // program's facts against that JDK. mark_jdk_part records every domain's size now.
  void mark_jdk_part();
  void set_jdk_part_size(std::string_view domain, std::uint64_t size);
  // 0 when no part was marked.
  std::uint64_t jdk_part_size(std::string_view domain) const;

 private:
  // Deques: references handed out by add_* stay valid as more are added.
  std::deque<FactDomain> domains_;
  std::deque<FactRelation> relations_;
  // Positions in the deques by name, the first added of a name: the extractor looks a relation
  // up for every fact it adds.
  NameIndex<std::size_t> domain_index_;
  NameIndex<std::size_t> relation_index_;
  NameIndex<std::uint64_t> jdk_part_sizes_;
};

// An element name as one line of a .map file: control characters and backslashes are escaped
// Java-style (\n, \t, \\, \uXXXX), so a hostile class cannot split or forge map lines.
std::string map_line(std::string_view element);

// Writes NAME.map per domain, NAME.tuples per relation (header "# V0:bits ...", the instance
// number counting repeats of a domain within the relation) and facts.datalog declaring them
// all as inputtuples. Every file is written atomically; `directory` is created if missing.
// A domain named in `room` is declared with at least that many elements (a layout fixed
// beforehand: a JDK cache entry's, cli/jdk_cache.hpp), its map naming only its own.
void write_fact_database(const FactDatabase& facts, const std::filesystem::path& directory,
                         const std::map<std::string, std::uint64_t>& room = {});

}  // namespace refract::frontend
