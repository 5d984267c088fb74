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
// allocates (the JVM's own, a Class object).
std::vector<std::pair<std::uint64_t, std::uint64_t>> heap_classes(
    const frontend::FactDatabase& facts);

}  // namespace refract::pointsto
