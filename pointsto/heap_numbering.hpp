// The order in which the heap domain H numbers its objects, chosen before the domain is encoded
// (DESIGN.md, "Strings before encoding": the step that merges sites also renumbers). The answer
// does not depend on it; the size of every BDD over H does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/fact_database.hpp"

namespace refract::pointsto {

// --heap-numbering.
enum class HeapNumbering {
  kByType,     // objects grouped by type, the types in class-hierarchy preorder
  kFirstSeen,  // as the front end met the allocation sites: method by method
};

// Parses `by-type` / `first-seen`, the value of `option`; std::invalid_argument names the
// option and the value otherwise.
HeapNumbering parse_heap_numbering(const std::string& text, const std::string& option);

// `by-type` or `first-seen`.
const char* to_string(HeapNumbering numbering);

// The H elements of `facts` in the order to number them: grouped by their HeapType, the types
// in a depth-first preorder over superclass edges (each class before its subclasses, a class's
// subtree one run; a class whose superclass the facts lack roots a tree of its own), then every
// other type (interfaces, arrays, classes on a superclass cycle) in element order; within one type,
// and for objects without a HeapType (after all others), the first-seen order. The objects of a
// class and of all its subclasses are then one range of numbers, so a set such as "the receivers
// this call dispatches to m" or "the objects a cast to C accepts" is a few ranges: a few BDD nodes
// per bit, not one path per object. The JDK's part of the facts (FactDatabase::jdk_part_size)
// is ordered so apart from the rest and before it, so that its objects' numbers do not depend
// on the program.
std::vector<std::uint64_t> heaps_in_type_order(const frontend::FactDatabase& facts);

}  // namespace refract::pointsto
