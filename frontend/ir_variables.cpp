#include "frontend/ir_variables.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace refract::frontend::ir_detail {
namespace {

// Drops removed variables and renumbers the rest in every place a VarId occurs.
void compact(MethodIr& ir, std::vector<VariableFacts>& facts) {
  if (std::none_of(facts.begin(), facts.end(), [](const VariableFacts& f) { return f.removed; })) {
    return;
  }
  std::vector<VarId> remap(ir.variables.size(), kNoVar);
  std::vector<Variable> variables;
  std::vector<VariableFacts> kept;
  for (std::size_t v = 0; v < ir.variables.size(); ++v) {
    if (facts[v].removed) continue;
    remap[v] = static_cast<VarId>(variables.size());
    variables.push_back(std::move(ir.variables[v]));
    kept.push_back(std::move(facts[v]));
  }
  const auto map = [&](VarId& v) {
    if (v != kNoVar) v = remap[v];
  };
  const auto map_operand = [&](Operand& o) {
    if (o.is_var()) map(o.var);
  };
  for (Statement& s : ir.statements) {
    map(s.dst);
    map_operand(s.base);
    for (Operand& a : s.args) map_operand(a);
  }
  for (Handler& h : ir.handlers) map(h.var);
  map(ir.this_var);
  for (VarId& p : ir.parameters) map(p);
  ir.variables = std::move(variables);
  facts = std::move(kept);
}

bool fits(const JavaType& type, ValueKind kind) {
  return !type.is_void() && value_kind_of(type) == kind;
}

JavaType default_type(ValueKind kind) {
  switch (kind) {
    case ValueKind::kInt:
      return JavaType::primitive(BaseKind::kInt);
    case ValueKind::kLong:
      return JavaType::primitive(BaseKind::kLong);
    case ValueKind::kFloat:
      return JavaType::primitive(BaseKind::kFloat);
    case ValueKind::kDouble:
      return JavaType::primitive(BaseKind::kDouble);
    case ValueKind::kReference:
      return JavaType::object("java/lang/Object");
    case ValueKind::kReturnAddress:
      return JavaType::primitive(BaseKind::kVoid);
  }
  return JavaType::primitive(BaseKind::kVoid);
}

// The type inferred from the definitions: their common type, else the widest type of the
// kind that surely holds them (no class hierarchy is at hand to find a closer supertype).
JavaType inferred_type(const VariableFacts& f, ValueKind kind) {
  if (f.has_type && !f.conflict && fits(f.type, kind)) return f.type;
  return default_type(kind);
}

// The LocalVariableTable entry describing a local web: the first entry of its slot whose range
// holds one of its definitions (javac starts a variable's range right after its first store,
// and a never-read variable may have an empty range) or else one of its uses.
const LocalVariable* table_entry(const std::vector<const LocalVariable*>& entries,
                                 const VariableFacts& f) {
  std::vector<std::uint32_t> defs = f.def_pcs;
  std::sort(defs.begin(), defs.end());
  for (const std::uint32_t pc : defs) {
    for (const LocalVariable* e : entries) {
      if (pc >= e->start_pc && pc <= std::uint32_t{e->start_pc} + e->length) return e;
    }
  }
  std::vector<std::uint32_t> uses = f.use_pcs;
  std::sort(uses.begin(), uses.end());
  for (const std::uint32_t pc : uses) {
    for (const LocalVariable* e : entries) {
      if (pc >= e->start_pc && pc < std::uint32_t{e->start_pc} + e->length) return e;
    }
  }
  return nullptr;
}

}  // namespace

void finish_variables(MethodIr& ir, std::vector<VariableFacts>& facts, const Code* code) {
  compact(ir, facts);
  std::unordered_map<std::int32_t, std::vector<const LocalVariable*>> by_slot;
  if (code != nullptr) {
    for (const LocalVariable& e : code->local_variables) by_slot[e.slot].push_back(&e);
  }
  std::unordered_set<std::string> taken;
  std::size_t stack_count = 0;
  std::size_t caught_count = 0;
  for (std::size_t v = 0; v < ir.variables.size(); ++v) {
    Variable& var = ir.variables[v];
    const VariableFacts& f = facts[v];
    std::string name;
    var.type = inferred_type(f, var.kind);
    switch (var.origin) {
      case VariableOrigin::kLocal: {
        const auto it = by_slot.find(var.slot);
        const LocalVariable* entry = it == by_slot.end() ? nullptr : table_entry(it->second, f);
        if (entry != nullptr && !entry->name.empty()) {
          name = entry->name;
          if (const auto type = try_parse_field_descriptor(entry->descriptor);
              type && fits(*type, var.kind)) {
            var.type = *type;
          }
        } else if (v == ir.this_var) {
          name = "this";
        } else {
          name = "l" + std::to_string(var.slot);
        }
        break;
      }
      case VariableOrigin::kStack:
        name = "$stack" + std::to_string(stack_count++);
        break;
      case VariableOrigin::kCaughtException:
        name = "$caught" + std::to_string(caught_count++);
        break;
    }
    if (!taken.insert(name).second) {
      for (std::size_t n = 2;; ++n) {
        std::string candidate = name + "#" + std::to_string(n);
        if (taken.insert(candidate).second) {
          name = std::move(candidate);
          break;
        }
      }
    }
    var.name = std::move(name);
  }
}

}  // namespace refract::frontend::ir_detail
