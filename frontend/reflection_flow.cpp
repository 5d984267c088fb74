#include "frontend/reflection_flow.hpp"

#include <algorithm>

namespace refract::frontend {

namespace {

// The variables holding the value of `root`: itself and the destinations of copies of them that
// no other statement defines. `visit` sees every other use; it returns false to give up.
template <typename Visit>
bool for_each_use_through_copies(const MethodIr& ir, const DefUse& def_use, VarId root,
                                 Visit&& visit) {
  std::vector<VarId> web = {root};
  for (std::size_t next = 0; next < web.size(); ++next) {
    for (const OperandUse& use : def_use.uses(web[next])) {
      const Statement& s = ir.statements[use.statement];
      if (s.kind == StatementKind::kAssign && use.slot == 0 && s.dst != kNoVar) {
        if (def_use.single_definition(s.dst) != use.statement) return false;  // a merge
        if (std::find(web.begin(), web.end(), s.dst) == web.end()) web.push_back(s.dst);
        continue;
      }
      if (!visit(use)) return false;
    }
  }
  return true;
}

bool is_reference_array(const JavaType& t) {
  return t.is_array() && t.element().is_reference();
}

// The new array an argument comes from, following copies back; for the null constant (or a
// cast of it) the statement is kNoStatement.
constexpr std::uint32_t kNullConstant = 0xFFFFFFFF;

std::optional<std::uint32_t> array_source(const MethodIr& ir, const DefUse& def_use,
                                          Operand operand) {
  // Each step moves to another variable's only definition: a chain is never longer than
  // the method has variables (a cycle of copies has no other definition to start from).
  for (std::size_t steps = 0; steps <= ir.variables.size(); ++steps) {
    if (operand.kind == Operand::Kind::kNull) return kNullConstant;
    if (!operand.is_var()) return std::nullopt;
    const std::optional<std::uint32_t> def = def_use.single_definition(operand.var);
    if (!def) return std::nullopt;
    const Statement& s = ir.statements[*def];
    switch (s.kind) {
      case StatementKind::kAssign:
        operand = s.args.at(0);
        break;
      case StatementKind::kCast:
        if (s.args.at(0).kind != Operand::Kind::kNull) return std::nullopt;
        return kNullConstant;
      case StatementKind::kNewArray:
        return *def;
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<ExactArray> exact_array(const MethodIr& ir, const DefUse& def_use,
                                      const Operand& argument, const ArrayUseFilter& is_call) {
  const std::optional<std::uint32_t> source = array_source(ir, def_use, argument);
  if (!source) return std::nullopt;
  if (*source == kNullConstant) return ExactArray{};
  const Statement& allocation = ir.statements[*source];
  if (!is_reference_array(ir.types[allocation.payload])) return std::nullopt;
  const Operand& length = allocation.args.at(0);
  if (length.kind != Operand::Kind::kInt || length.int_value < 0 ||
      length.int_value > kMaxExactArrayLength)
    return std::nullopt;
  ExactArray array;
  array.length = static_cast<std::uint32_t>(length.int_value);
  const bool exact =
      for_each_use_through_copies(ir, def_use, allocation.dst, [&](const OperandUse& use) {
        if (is_call(use)) return true;
        const Statement& s = ir.statements[use.statement];
        if (s.kind != StatementKind::kArrayStore || use.slot != OperandUse::kBaseSlot) return false;
        const Operand& index = s.args.at(0);
        if (index.kind != Operand::Kind::kInt || index.int_value < 0 ||
            index.int_value >= length.int_value)
          return false;
        const Operand& value = s.args.at(1);
        if (value.is_var()) {
          array.stores.push_back({static_cast<std::uint32_t>(index.int_value), value.var});
        }
        return value.is_var() || value.kind == Operand::Kind::kNull;
      });
  if (!exact) return std::nullopt;
  return array;
}

std::optional<std::vector<std::uint32_t>> cast_only_uses(const MethodIr& ir, const DefUse& def_use,
                                                         VarId value) {
  std::vector<std::uint32_t> casts;
  const bool only_casts =
      for_each_use_through_copies(ir, def_use, value, [&](const OperandUse& use) {
        const Statement& s = ir.statements[use.statement];
        if (s.kind != StatementKind::kCast || use.slot != 0) return false;
        casts.push_back(s.payload);
        return true;
      });
  if (!only_casts) return std::nullopt;
  return casts;
}

}  // namespace refract::frontend
