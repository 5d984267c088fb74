// Two intra-procedural questions the reflection facts ask of a method's IR (frontend/FACTS.md,
// "Reflection"): the elements of an argument array that is known exactly (Solar's Ptp(args),
// Sec. 5.4.3 of the paper), and the casts that are the only uses of a reflective call's result
// (the post-dominating cast "(A) m.invoke(...)" of Sec. 5.4). Values are followed through plain
// copies (kAssign) whose destination has no other definition.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "frontend/ir.hpp"
#include "frontend/ir_def_use.hpp"

namespace refract::frontend {

// JVMS 4.3.3: a method has at most 255 parameters, so a longer argument array matches none.
inline constexpr std::int64_t kMaxExactArrayLength = 255;

struct ExactArrayStore {
  std::uint32_t index = 0;  // from 0, as the array store names it
  VarId value = kNoVar;
};

struct ExactArray {
  std::uint32_t length = 0;
  std::vector<ExactArrayStore> stores;  // every store of a variable, in statement order
};

// Whether an operand reading the array is one of the reflective calls it is passed to.
using ArrayUseFilter = std::function<bool(const OperandUse&)>;

// The array `argument` holds, when known element-wise: the null constant (or a cast of it),
// length 0; or a new reference array of constant length n (at most kMaxExactArrayLength) that
// every use (through copies) stores into at a constant index in [0, n) or passes to a call
// `is_call` accepts. Nothing otherwise: several definitions, a store elsewhere, a
// non-constant index, the array passed or stored anywhere else.
std::optional<ExactArray> exact_array(const MethodIr& ir, const DefUse& def_use,
                                      const Operand& argument, const ArrayUseFilter& is_call);

// The types (indices into ir.types) of the checkcasts reading `value`, when every use of it
// (through copies) is a checkcast; nothing if some use is anything else. No use gives none.
std::optional<std::vector<std::uint32_t>> cast_only_uses(const MethodIr& ir, const DefUse& def_use,
                                                         VarId value);

}  // namespace refract::frontend
