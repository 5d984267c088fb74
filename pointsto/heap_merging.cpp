#include "pointsto/heap_merging.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace refract::pointsto {

namespace {

constexpr const char* kThrowable = "java.lang.Throwable";
constexpr const char* kString = "java.lang.String";

// Both are final classes; AbstractStringBuilder, their superclass, is abstract.
constexpr const char* kStringBuilderTypes[] = {"java.lang.StringBuilder", "java.lang.StringBuffer"};

constexpr const char* kPrimitiveTypes[] = {"boolean", "byte", "char",  "short",
                                           "int",     "long", "float", "double"};

// byte[], int[][], ...: arrays whose elements, at the innermost level, are not references.
bool is_primitive_array_type(std::string_view type) {
  if (!type.ends_with("[]")) return false;
  while (type.ends_with("[]")) type.remove_suffix(2);
  return std::find(std::begin(kPrimitiveTypes), std::end(kPrimitiveTypes), type) !=
         std::end(kPrimitiveTypes);
}

bool is_jvm_object(const std::string& heap_name) {
  return heap_name.rfind("<jvm>/", 0) == 0;
}

// The program's allocation sites of `types` (not the JVM's own objects, which rules name), one
// object per type: `<KIND T>`.
HeapMerge allocations_by_type(const frontend::FactDatabase& facts,
                              const std::set<std::uint64_t>& types, const std::string& kind) {
  if (types.empty()) return {};
  std::set<std::uint64_t> allocated;
  for (const auto& t : facts.relation("Alloc").sorted_tuples()) allocated.insert(t[1]);
  const std::vector<std::string>& heaps = facts.domain("H").names();
  const std::vector<std::string>& type_names = facts.domain("T").names();
  HeapMerge merge;
  for (const auto& t : facts.relation("HeapType").sorted_tuples()) {
    const std::uint64_t heap = t[0];
    if (allocated.count(heap) == 0 || types.count(t[1]) == 0) continue;
    if (is_jvm_object(heaps[heap])) continue;
    merge[heap] = "<" + kind + " " + type_names[t[1]] + ">";
  }
  return merge;
}

// The relation with every H column renumbered.
frontend::FactRelation renumbered(const frontend::FactRelation& relation,
                                  const std::vector<std::uint64_t>& new_heap) {
  frontend::FactRelation out(relation.name(), relation.attributes(), relation.description());
  std::vector<bool> is_heap;
  for (const frontend::FactAttribute& a : relation.attributes()) is_heap.push_back(a.domain == "H");
  const std::vector<std::uint64_t>& values = relation.raw_values();
  std::vector<std::uint64_t> tuple(relation.arity());
  for (std::size_t row = 0; row < values.size(); row += relation.arity()) {
    for (std::size_t a = 0; a < relation.arity(); ++a) {
      const std::uint64_t v = values[row + a];
      tuple[a] = is_heap[a] ? new_heap.at(v) : v;
    }
    out.add(tuple);
  }
  return out;
}

}  // namespace

SiteMerging parse_site_merging(const std::string& text, const std::string& option) {
  if (text == "per-type") return SiteMerging::kPerType;
  if (text == "per-site") return SiteMerging::kPerSite;
  throw std::invalid_argument("unknown " + option + " value '" + text +
                              "' (expected per-type or per-site)");
}

const char* to_string(SiteMerging merging) {
  return merging == SiteMerging::kPerType ? "per-type" : "per-site";
}

HeapMerge exception_objects_by_type(const frontend::FactDatabase& facts) {
  const frontend::FactDomain& types = facts.domain("T");
  if (!types.contains(kThrowable)) return {};
  const std::uint64_t throwable = types.at(kThrowable);
  std::set<std::uint64_t> exception_types;
  for (const auto& t : facts.relation("SubtypeOf").sorted_tuples()) {
    if (t[1] == throwable) exception_types.insert(t[0]);
  }
  return allocations_by_type(facts, exception_types, "exception");
}

HeapMerge string_builders_by_type(const frontend::FactDatabase& facts) {
  const frontend::FactDomain& types = facts.domain("T");
  std::set<std::uint64_t> builder_types;
  for (const char* name : kStringBuilderTypes) {
    if (types.contains(name)) builder_types.insert(types.at(name));
  }
  return allocations_by_type(facts, builder_types, "string builder");
}

HeapMerge allocated_strings_by_type(const frontend::FactDatabase& facts) {
  const frontend::FactDomain& types = facts.domain("T");
  if (!types.contains(kString)) return {};
  HeapMerge merge = allocations_by_type(facts, {types.at(kString)}, "allocated string");
  // Constants (--string-merging's) and concatenations (ConcatArg, ConcatText) are strings whose
  // text the facts know in part: reflection resolves names from them, so each stays apart.
  for (const auto& t : facts.relation("StringConstant").sorted_tuples()) merge.erase(t[0]);
  for (const char* parts : {"ConcatArg", "ConcatText"}) {
    for (const auto& t : facts.relation(parts).sorted_tuples()) merge.erase(t[0]);
  }
  return merge;
}

std::vector<std::uint64_t> context_free_heaps(const frontend::FactDatabase& facts,
                                              const HeapMerge& merged_by_type) {
  std::set<std::uint64_t> heaps;
  for (const auto& t : facts.relation("StringConstant").sorted_tuples()) heaps.insert(t[0]);
  const frontend::FactDomain& domain = facts.domain("H");
  for (const auto& [site, object] : merged_by_type) heaps.insert(domain.at(object));
  return {heaps.begin(), heaps.end()};
}

frontend::FactDatabase merge_heaps(const frontend::FactDatabase& facts, const HeapMerge& merge,
                                   const std::vector<std::uint64_t>& order) {
  frontend::FactDatabase out = facts;
  if (merge.empty() && order.empty()) return out;
  const frontend::FactDomain& old_heaps = facts.domain("H");
  frontend::FactDomain& heaps = out.domain("H");
  heaps = frontend::FactDomain(old_heaps.name(), old_heaps.description());
  constexpr std::uint64_t kUnset = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> new_heap(old_heaps.size(), kUnset);
  if (!order.empty() && order.size() != old_heaps.size())
    throw std::invalid_argument("a heap order of " + std::to_string(order.size()) +
                                " elements for " + std::to_string(old_heaps.size()) + " heaps");
  // The JDK's part stays a prefix when the order puts it first: then its objects, merged or
  // not, are the elements numbered before the order reaches the program's.
  const std::uint64_t jdk_part = facts.jdk_part_size("H");
  bool jdk_part_first = true;
  for (std::uint64_t k = 0; k < old_heaps.size(); ++k) {
    const std::uint64_t h = order.empty() ? k : order[k];
    if (h >= old_heaps.size() || new_heap[h] != kUnset)
      throw std::invalid_argument("the heap order repeats or exceeds element " + std::to_string(h));
    if (k < jdk_part && h >= jdk_part) jdk_part_first = false;
    if (k == jdk_part) out.set_jdk_part_size("H", jdk_part_first ? heaps.size() : 0);
    const auto merged = merge.find(h);
    new_heap[h] = heaps.intern(merged == merge.end() ? old_heaps.names()[h] : merged->second);
  }
  if (jdk_part == old_heaps.size()) out.set_jdk_part_size("H", jdk_part_first ? heaps.size() : 0);
  for (const frontend::FactRelation& relation : facts.relations()) {
    bool over_heaps = false;
    for (const frontend::FactAttribute& a : relation.attributes()) over_heaps |= a.domain == "H";
    if (over_heaps) out.relation(relation.name()) = renumbered(relation, new_heap);
  }
  return out;
}

HeapMerge primitive_arrays_by_type(const frontend::FactDatabase& facts) {
  const std::vector<std::string>& type_names = facts.domain("T").names();
  std::set<std::uint64_t> array_types;
  for (std::uint64_t t = 0; t < type_names.size(); ++t) {
    if (is_primitive_array_type(type_names[t])) array_types.insert(t);
  }
  return allocations_by_type(facts, array_types, "primitive array");
}

}  // namespace refract::pointsto
