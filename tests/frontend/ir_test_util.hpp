// Helpers for the IR tests: loading fixture classes, translating one method, and finding
// statements and variables in the result.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/class_file.hpp"
#include "frontend/ir.hpp"
#include "frontend/ir_builder.hpp"
#include "frontend/test_util.hpp"

namespace refract::frontend::testing {

// A class compiled from tests/fixtures/java, by binary name ("ir/Simple", "ir/Nested$Inner").
inline ClassFile fixture_class(const std::string& binary_name) {
  const std::filesystem::path path =
      std::filesystem::path(REFRACT_FIXTURE_CLASSES) / (binary_name + ".class");
  return parse_class_file(read_file(path), path.string());
}

// The only method of `cls` named `name` (and with `descriptor`, if given).
inline const MethodInfo& method_named(const ClassFile& cls, std::string_view name,
                                      std::string_view descriptor = {}) {
  const MethodInfo* found = nullptr;
  for (const MethodInfo& m : cls.methods) {
    if (m.name != name || (!descriptor.empty() && m.descriptor != descriptor)) continue;
    if (found != nullptr) throw std::logic_error("several methods named " + std::string(name));
    found = &m;
  }
  if (found == nullptr) throw std::logic_error("no method " + std::string(name));
  return *found;
}

inline MethodIr fixture_ir(const std::string& binary_name, std::string_view method,
                           std::string_view descriptor = {}) {
  const ClassFile cls = fixture_class(binary_name);
  return build_method_ir(cls, method_named(cls, method, descriptor));
}

inline std::vector<const Statement*> statements_of(const MethodIr& ir, StatementKind kind) {
  std::vector<const Statement*> out;
  for (const Statement& s : ir.statements) {
    if (s.kind == kind) out.push_back(&s);
  }
  return out;
}

inline std::vector<std::string> texts_of(const MethodIr& ir, StatementKind kind) {
  std::vector<std::string> out;
  for (const Statement* s : statements_of(ir, kind)) out.push_back(statement_text(ir, *s));
  return out;
}

inline const Variable& var(const MethodIr& ir, VarId v) {
  return ir.variables.at(v);
}

// The variable named `name`; fails the test if there is none.
inline VarId var_named(const MethodIr& ir, std::string_view name) {
  for (VarId v = 0; v < ir.variables.size(); ++v) {
    if (ir.variables[v].name == name) return v;
  }
  ADD_FAILURE() << "no variable " << name << " in\n" << method_ir_text(ir);
  return kNoVar;
}

// How many statements define `v`.
inline std::size_t def_count(const MethodIr& ir, VarId v) {
  std::size_t n = 0;
  for (const Statement& s : ir.statements) n += s.dst == v ? 1 : 0;
  return n;
}

}  // namespace refract::frontend::testing
