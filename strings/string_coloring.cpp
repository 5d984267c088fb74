#include "strings/string_coloring.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/fact_extractor.hpp"
#include "frontend/names.hpp"
#include "support/atomic_file.hpp"

namespace refract::strings {

namespace {

// Per type, the string constants (indices into the constants) equal to the name of a member
// it declares, from a relation (member, declaring type).
std::vector<std::vector<std::size_t>> declared_matches(
    const frontend::FactDatabase& facts, const std::string& relation, const std::string& domain,
    const std::unordered_map<std::string, std::size_t>& constant_by_literal) {
  std::vector<std::vector<std::size_t>> out(facts.domain("T").size());
  const std::vector<std::string>& members = facts.domain(domain).names();
  for (const auto& t : facts.relation(relation).sorted_tuples()) {
    const auto it =
        constant_by_literal.find(frontend::string_literal(frontend::member_name(members[t[0]])));
    if (it != constant_by_literal.end()) out[t[1]].push_back(it->second);
  }
  return out;
}

// One clique per type: the constants naming a member the type declares or inherits (through
// SubtypeOf, which is reflexive). Types with the same members give the same clique once.
std::set<std::vector<std::size_t>> cliques(const frontend::FactDatabase& facts,
                                           const std::vector<std::vector<std::size_t>>& declared) {
  std::vector<std::vector<std::size_t>> per_type(declared.size());
  for (const auto& t : facts.relation("SubtypeOf").sorted_tuples()) {
    const std::vector<std::size_t>& inherited = declared[t[1]];
    per_type[t[0]].insert(per_type[t[0]].end(), inherited.begin(), inherited.end());
  }
  std::set<std::vector<std::size_t>> out;
  for (std::vector<std::size_t>& members : per_type) {
    std::sort(members.begin(), members.end());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    if (!members.empty()) out.insert(std::move(members));
  }
  return out;
}

// String constants allocated in methods that make a reflective call.
std::set<std::uint64_t> strings_of_reflective_methods(const frontend::FactDatabase& facts) {
  std::set<std::uint64_t> reflective_sites, methods, out;
  for (const auto& t : facts.relation("ReflectiveCall").sorted_tuples())
    reflective_sites.insert(t[0]);
  for (const auto& t : facts.relation("CallIn").sorted_tuples())
    if (reflective_sites.count(t[0]) != 0) methods.insert(t[1]);
  std::unordered_map<std::uint64_t, std::uint64_t> method_of_var;
  for (const auto& t : facts.relation("VarMethod").sorted_tuples()) method_of_var[t[0]] = t[1];
  for (const auto& t : facts.relation("Alloc").sorted_tuples()) {
    const auto m = method_of_var.find(t[0]);
    if (m != method_of_var.end() && methods.count(m->second) != 0) out.insert(t[1]);
  }
  return out;
}

}  // namespace

std::set<std::uint64_t> strings_kept_apart(const frontend::FactDatabase& facts) {
  const std::vector<std::string>& heaps = facts.domain("H").names();
  std::set<std::string> class_literals;
  for (const std::string& type : facts.domain("T").names())
    class_literals.insert(frontend::string_literal(type));
  const std::set<std::uint64_t> reflective = strings_of_reflective_methods(facts);
  std::set<std::uint64_t> out;
  for (const auto& t : facts.relation("StringConstant").sorted_tuples())
    if (class_literals.count(heaps[t[0]]) != 0 || reflective.count(t[0]) != 0) out.insert(t[0]);
  return out;
}

namespace {

// The relations coloring reads, as `facts` have them over the JDK's part alone
// (FactDatabase::jdk_part_size): the tuples whose every element is in it. Of the domains, only
// those whose names coloring reads are copied: V's and I's (400,000 names for the JDK) only
// number tuples, and copying them took longer than the coloring.
frontend::FactDatabase jdk_part_of(const frontend::FactDatabase& facts) {
  frontend::FactDatabase out;
  for (const frontend::FactDomain& d : facts.domains()) {
    frontend::FactDomain& copy = out.add_domain(d.name(), d.description());
    if (d.name() != "H" && d.name() != "T" && d.name() != "M" && d.name() != "F") continue;
    const std::uint64_t part = facts.jdk_part_size(d.name());
    for (std::uint64_t i = 0; i < part; ++i) copy.intern(d.names()[i]);
  }
  for (const char* name : {"StringConstant", "MethodDeclared", "FieldDeclared", "SubtypeOf",
                           "ReflectiveCall", "CallIn", "VarMethod", "Alloc"}) {
    const frontend::FactRelation& r = facts.relation(name);
    frontend::FactRelation& copy = out.add_relation(r.name(), r.attributes(), r.description());
    std::vector<std::uint64_t> limits;
    for (const frontend::FactAttribute& a : r.attributes())
      limits.push_back(facts.jdk_part_size(a.domain));
    const std::vector<std::uint64_t>& values = r.raw_values();
    for (std::size_t row = 0; row < values.size(); row += r.arity()) {
      bool inside = true;
      for (std::size_t a = 0; a < r.arity() && inside; ++a) inside = values[row + a] < limits[a];
      if (inside) copy.add(std::span<const std::uint64_t>(values.data() + row, r.arity()));
    }
  }
  return out;
}

// The coloring of the constants `facts` has that `colored` accepts, conflicts and kept-apart
// constants as `facts` say, each color an object named `color_name` N.
StringColoring color_constants(const frontend::FactDatabase& facts,
                               const std::function<bool(std::uint64_t)>& colored,
                               const std::string& color_name) {
  StringColoring result;
  const std::vector<std::string>& heaps = facts.domain("H").names();
  const std::set<std::uint64_t> kept_apart = strings_kept_apart(facts);

  // The constants to color, in lexicographic order of their text (the paper's total order).
  std::vector<std::uint64_t> constants;
  for (const auto& t : facts.relation("StringConstant").sorted_tuples()) {
    if (!colored(t[0])) continue;
    ++result.string_constants;
    if (kept_apart.count(t[0]) != 0) {
      ++result.kept_apart;
    } else {
      constants.push_back(t[0]);
    }
  }
  std::sort(constants.begin(), constants.end(),
            [&](std::uint64_t a, std::uint64_t b) { return heaps[a] < heaps[b]; });
  std::unordered_map<std::string, std::size_t> constant_by_literal;
  for (std::size_t i = 0; i < constants.size(); ++i) constant_by_literal[heaps[constants[i]]] = i;

  // Cliques of methods and of fields, and for each constant the cliques it is in.
  std::set<std::vector<std::size_t>> all_cliques =
      cliques(facts, declared_matches(facts, "MethodDeclared", "M", constant_by_literal));
  all_cliques.merge(
      cliques(facts, declared_matches(facts, "FieldDeclared", "F", constant_by_literal)));
  std::vector<std::vector<std::size_t>> cliques_of(constants.size());
  std::vector<std::int64_t> clique_max;  // largest color given in the clique so far
  for (const std::vector<std::size_t>& clique : all_cliques) {
    for (std::size_t s : clique) cliques_of[s].push_back(clique_max.size());
    clique_max.push_back(-1);
    result.largest_clique = std::max<std::uint64_t>(result.largest_clique, clique.size());
  }

  // In the total order every conflicting constant before s is in one of s's cliques, and the
  // largest color of each clique so far is the largest of those predecessors.
  std::set<std::int64_t> colors;
  for (std::size_t s = 0; s < constants.size(); ++s) {
    std::int64_t before = -1;
    for (std::size_t k : cliques_of[s]) before = std::max(before, clique_max[k]);
    const std::int64_t color = before + 1;
    for (std::size_t k : cliques_of[s]) clique_max[k] = std::max(clique_max[k], color);
    colors.insert(color);
    if (!cliques_of[s].empty()) ++result.member_names;
    result.merge[constants[s]] = color_name + std::to_string(color) + ">";
  }
  result.colors = colors.size();
  return result;
}

}  // namespace

StringColoring color_string_constants(const frontend::FactDatabase& facts) {
  return color_constants(
      facts, [](std::uint64_t) { return true; }, "<string constants, color ");
}

StringColoring color_string_constants_by_part(const frontend::FactDatabase& facts) {
  const std::uint64_t jdk_part = facts.jdk_part_size("H");
  const auto all = [](std::uint64_t) { return true; };
  if (jdk_part == 0) return color_string_constants(facts);
  // The JDK's constants as the JDK alone colors them, so that their objects are the same for
  // every program (issue 35's stable numbers); the program's apart, in colors of their own.
  StringColoring result = color_constants(jdk_part_of(facts), all, "<string constants, color ");
  const StringColoring program = color_constants(
      facts, [&](std::uint64_t h) { return h >= jdk_part; }, "<program string constants, color ");
  result.merge.insert(program.merge.begin(), program.merge.end());
  result.string_constants += program.string_constants;
  result.kept_apart += program.kept_apart;
  result.member_names += program.member_names;
  result.colors += program.colors;
  result.largest_clique = std::max(result.largest_clique, program.largest_clique);
  return result;
}

void write_string_colors(const std::filesystem::path& file, const StringColoring& coloring,
                         const frontend::FactDatabase& unmerged_facts) {
  const std::vector<std::string>& heaps = unmerged_facts.domain("H").names();
  std::vector<std::string> lines;
  for (const auto& [heap, object] : coloring.merge)
    lines.push_back(frontend::map_line(heaps.at(heap)) + "\t" + object + "\n");
  std::sort(lines.begin(), lines.end());
  AtomicOutputFile out(file);
  for (const std::string& line : lines) out.stream() << line;
  out.commit();
}

}  // namespace refract::strings
