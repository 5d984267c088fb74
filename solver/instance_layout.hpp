// Which physical instance (V0, V1, ...) each relation attribute lives on, and
// how many instances of each domain the program needs. bddbddb's convention:
// an attribute written "V1" is pinned to V1; a plain "V" takes the lowest
// instance of V not already taken in its relation, left to right.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "solver/ast.hpp"

namespace refract::solver {

struct InstanceLayout {
  // relation_instances[r][a]: instance of attribute a of Program::relations[r].
  std::vector<std::vector<unsigned>> relation_instances;
  // domain name -> instances needed, and what needs the most of them.
  std::map<std::string, unsigned> instances_needed;
  std::map<std::string, std::string> needed_by;
};

InstanceLayout lay_out_instances(const Program& program);

// The order used when neither --order nor .bddvarorder gives one: one block per
// domain in declaration order, its instances interleaved (V0xV1_H0xH1_...), so
// that renaming between instances of one domain stays cheap.
std::string default_var_order(const Program& program, const InstanceLayout& layout);

}  // namespace refract::solver
