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

// The instances the program uses ("V0", "V1", ...), domains in declaration order.
std::vector<std::string> needed_instance_names(const Program& program,
                                               const InstanceLayout& layout);
// Every name an order may give an instance of a declared domain (V0..V63), with its domain.
std::map<std::string, std::string> instance_domains(const Program& program);

}  // namespace refract::solver
