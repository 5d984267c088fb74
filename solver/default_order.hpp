// The variable order refract chooses when neither --order nor .bddvarorder gives one: one
// block per domain in declaration order, its instances interleaved (V0xV1_H0xH1_...), so that
// renaming between instances of one domain stays cheap; bent to honour the relations' order
// constraints (bddbddb's `v<h`: v's instance in a block above h's; `dest=source`: one block,
// interleaved).
#pragma once

#include <string>
#include <vector>

#include "solver/ast.hpp"
#include "solver/instance_layout.hpp"

namespace refract::solver {

struct DefaultOrder {
  std::string text;
  // One line per constraint that cannot be honoured with the others (a '<' between
  // instances another constraint interleaves, or a cycle), and per domain whose instances
  // a constraint keeps apart.
  std::vector<std::string> notes;
};

// Blocks keep the declaration order wherever the constraints leave a choice. A domain's
// instances stay interleaved unless a '<' constraint, directly or through others, orders
// two of them.
DefaultOrder default_var_order(const Program& program, const InstanceLayout& layout);

}  // namespace refract::solver
