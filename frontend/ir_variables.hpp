// Internal to the IR builder: the last step of a translation. Gives each variable its final
// type and a unique name (LocalVariableTable names matched by slot and pc range, else "this",
// "l<slot>", "$stack<n>", "$caught<n>"), and drops the temporaries the builder made redundant,
// renumbering the rest.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/class_file.hpp"
#include "frontend/ir.hpp"

namespace refract::frontend::ir_detail {

// What the builder learnt about one variable while emitting statements.
struct VariableFacts {
  // Locals: where a definition's value becomes available (the pc after a store, 0 for a
  // parameter) and where the variable is read.
  std::vector<std::uint32_t> def_pcs;
  std::vector<std::uint32_t> use_pcs;
  JavaType type;  // the type of the first non-null definition
  bool has_type = false;
  bool conflict = false;  // definitions of different types
  bool removed = false;   // a temporary no statement refers to any more
};

// Finalises `ir.variables` (index-aligned with `facts`) and renumbers every VarId in `ir`.
// `code` may be null (methods without a body).
void finish_variables(MethodIr& ir, std::vector<VariableFacts>& facts, const Code* code);

}  // namespace refract::frontend::ir_detail
