// Streams the satisfying assignments of a BDD one at a time, so a relation of
// 10^9 tuples is written without ever being materialised.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "bdd/bdd.hpp"

namespace refract::bdd {

// Calls visit(bits) once per assignment of `vars` (ascending = level order)
// satisfying f; bits[i] is the value of vars[i]. Memory is O(vars.size()).
void for_each_assignment(const Bdd& f, std::span<const int> vars,
                         const std::function<void(const std::vector<std::uint8_t>&)>& visit);

}  // namespace refract::bdd
