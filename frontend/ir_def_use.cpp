#include "frontend/ir_def_use.hpp"

namespace refract::frontend {

DefUse::DefUse(const MethodIr& ir)
    : definition_(ir.variables.size(), kNone), uses_(ir.variables.size()) {
  for (std::uint32_t i = 0; i < ir.statements.size(); ++i) {
    const Statement& s = ir.statements[i];
    if (s.dst != kNoVar) {
      std::uint32_t& d = definition_[s.dst];
      d = d == kNone ? i : kSeveral;
    }
    if (s.base.is_var()) uses_[s.base.var].push_back({i, OperandUse::kBaseSlot});
    for (std::size_t k = 0; k < s.args.size(); ++k) {
      if (s.args[k].is_var()) uses_[s.args[k].var].push_back({i, static_cast<int>(k)});
    }
  }
}

std::optional<std::uint32_t> DefUse::single_definition(VarId v) const {
  const std::uint32_t d = definition_[v];
  if (d == kNone || d == kSeveral) return std::nullopt;
  return d;
}

}  // namespace refract::frontend
