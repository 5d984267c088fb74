// Where each variable of a method's IR is defined and read, for intra-procedural questions
// about single values (frontend/reflection_flow.hpp): which statements define it, and each
// operand that reads it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "frontend/ir.hpp"

namespace refract::frontend {

// One operand reading a variable: statement `statement`'s base (slot kBaseSlot) or args[slot].
struct OperandUse {
  static constexpr int kBaseSlot = -1;
  std::uint32_t statement = 0;
  int slot = kBaseSlot;
};

class DefUse {
 public:
  explicit DefUse(const MethodIr& ir);

  // The index of the only statement defining `v`; nothing if none or several do.
  std::optional<std::uint32_t> single_definition(VarId v) const;
  // Every operand reading `v`, in statement order.
  const std::vector<OperandUse>& uses(VarId v) const { return uses_[v]; }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;
  static constexpr std::uint32_t kSeveral = 0xFFFFFFFE;
  std::vector<std::uint32_t> definition_;  // by VarId: a statement index, kNone or kSeveral
  std::vector<std::vector<OperandUse>> uses_;
};

}  // namespace refract::frontend
