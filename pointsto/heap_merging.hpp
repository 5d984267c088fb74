// Heap abstraction before the heap domain is encoded: which allocation sites become one abstract
// object. Merged sites never reach a BDD; the facts are renumbered (DESIGN.md, "Strings before
// encoding": the same step string merging takes).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "frontend/fact_database.hpp"

namespace refract::pointsto {

// H elements to merge: element number -> name of the abstract object it becomes. Elements not
// listed stay as they are.
using HeapMerge = std::map<std::uint64_t, std::string>;

// How the allocation sites of one kind of object (exceptions: --exception-objects; string
// builders: --string-builders; ...) are abstracted.
enum class SiteMerging {
  kPerType,  // one object per type, named `<KIND T>`
  kPerSite,  // one object per allocation site, like every other object
};

// Parses `per-type` / `per-site`, the value of `option`; std::invalid_argument names the option
// and the value otherwise.
SiteMerging parse_site_merging(const std::string& text, const std::string& option);

// `per-type` or `per-site`.
const char* to_string(SiteMerging merging);

// Every allocation site of the program whose type is Throwable or a subtype, merged into one
// object per type. The JVM's own objects (`<jvm>/...`, which rules name) are left alone.
HeapMerge exception_objects_by_type(const frontend::FactDatabase& facts);

// Every allocation site of the program whose type is StringBuilder or StringBuffer, merged into
// one object per type; the JVM's own objects are left alone. A builder holds characters, not
// references, but every append() returns `this`: per site, each builder reached thousands of
// variables (37% of antlr's insensitive VarPointsTo) and, as a receiver, made contexts of its
// own. Soot's Spark has the same switch (its `merge-stringbuffer` option: all StringBuffer
// sites as one object).
HeapMerge string_builders_by_type(const frontend::FactDatabase& facts);

// Every allocation site of the program whose type is an array of a primitive type (byte[],
// int[][], ...), merged into one object per type; the JVM's own objects are left alone. Such an
// array holds no reference (int[][] only the merged int[] object), so its site decides no call
// and no other points-to set, but under heap contexts each site multiplies: at 240 s of antlr's
// 2-obj+H, a third of the VarPointsTo tuples (16.7M of 49.8M) pointed to primitive arrays, most
// of them the byte[] values of strings inside String's own methods.
HeapMerge primitive_arrays_by_type(const frontend::FactDatabase& facts);

// Every allocation site of the program whose type is java.lang.String (`new String`,
// StringBuilder.toString(), ...), merged into one object. String constants (ldc, which
// --string-merging abstracts), concatenations (whose parts the facts hold) and the JVM's own
// objects are left alone. String is final and its one reference
// field holds a byte[] (a primitive array), so a string's site decides no call; but under
// object-sensitive flavours each site, times its heap contexts, was a receiver that made
// contexts of its own: substring() of each string object made another.
HeapMerge allocated_strings_by_type(const frontend::FactDatabase& facts);

// The objects whose heap context is always the empty one, as element numbers of `facts` (the
// facts after merge_heaps): string constants, which ldc hands out as one interned instance
// whatever the method's context (JVMS 5.1), and the objects of `merged_by_type` (exceptions,
// string builders, primitive arrays, allocated strings), which already stand for allocations in
// every context. Doop's rules (Bravenboer and Smaragdakis) give some common "special objects" a
// context-insensitive heap abstraction for the same reason: extra heap contexts there cost more
// than they separate. Sorted.
std::vector<std::uint64_t> context_free_heaps(const frontend::FactDatabase& facts,
                                              const HeapMerge& merged_by_type);

// The facts with the H domain renumbered after `merge`: the elements taken in `order` (a
// permutation of H's element numbers; empty: first-seen order), each kept one numbered as met
// and each merged name once, where its first site is met (with the type of the sites it stands
// for); every relation over H mapped and its duplicates left to the writer
// (FactRelation::sorted_tuples).
frontend::FactDatabase merge_heaps(const frontend::FactDatabase& facts, const HeapMerge& merge,
                                   const std::vector<std::uint64_t>& order = {});

}  // namespace refract::pointsto
