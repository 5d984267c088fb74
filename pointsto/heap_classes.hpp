// The context element of an object under K-type sensitivity: the class that allocates it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "frontend/fact_database.hpp"

namespace refract::pointsto {

// (heap, class) pairs, one per object, sorted: the class declaring the method whose `new`
// made it. An object several classes allocate (a string constant, a merged exception object)
// gets its own type instead: one element per allocating class would run every call on it in
// as many contexts, for no precision a single class could give. So does an object no method
// allocates (the JVM's own, a Class object), and every object of `context_free` (sorted; the
// objects without heap context, heap_merging.hpp: string constants, objects merged by type),
// which no one method allocates either: a string constant the JDK's cached part allocates in
// one class and a program in another would otherwise change class between the part and the
// program, and the part's Merge would not seed the program's (solver/seeding.hpp).
std::vector<std::pair<std::uint64_t, std::uint64_t>> heap_classes(
    const frontend::FactDatabase& facts, const std::vector<std::uint64_t>& context_free);

}  // namespace refract::pointsto
