// Property test over the real JDK 17 library: every method of every class of java.base.jmod
// is parsed, decoded and translated to IR without a single error, and the IR is well formed
// (every variable a statement mentions exists, every variable has a name, unique ones).
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <unordered_set>

#include "frontend/class_file.hpp"
#include "frontend/ir.hpp"
#include "frontend/ir_builder.hpp"
#include "frontend/test_util.hpp"
#include "frontend/zip_archive.hpp"

namespace refract::frontend {
namespace {

struct Totals {
  std::size_t classes = 0;
  std::size_t methods = 0;
  IrCounts counts;
  std::size_t statements = 0;
  std::size_t variables = 0;
};

// Problems with the shape of one method's IR, as text; empty if none.
std::string check_well_formed(const MethodIr& ir) {
  const auto bad_var = [&](VarId v) { return v != kNoVar && v >= ir.variables.size(); };
  const auto bad_operand = [&](const Operand& o) { return o.is_var() && bad_var(o.var); };
  for (const Statement& s : ir.statements) {
    if (bad_var(s.dst) || bad_operand(s.base)) return "statement at pc " + std::to_string(s.pc);
    for (const Operand& a : s.args) {
      if (bad_operand(a)) return "operand at pc " + std::to_string(s.pc);
    }
  }
  std::unordered_set<std::string> names;
  for (const Variable& v : ir.variables) {
    if (v.name.empty()) return "unnamed variable";
    if (!names.insert(v.name).second) return "duplicate variable name " + v.name;
  }
  return {};
}

void add(Totals& totals, const MethodIr& ir) {
  ++totals.methods;
  totals.statements += ir.statements.size();
  totals.variables += ir.variables.size();
  IrCounts& c = totals.counts;
  c.instructions += ir.counts.instructions;
  c.unreachable_instructions += ir.counts.unreachable_instructions;
  c.allocations += ir.counts.allocations;
  c.invokes += ir.counts.invokes;
  c.lambdas += ir.counts.lambdas;
  c.string_concats += ir.counts.string_concats;
  c.unsupported_invokedynamic += ir.counts.unsupported_invokedynamic;
  c.dynamic_constants += ir.counts.dynamic_constants;
}

TEST(IrJdkTest, EveryMethodOfJavaBaseTranslates) {
  const auto home = testing::find_jdk17();
  if (!home) GTEST_SKIP() << testing::kNoJdkMessage;
  const auto start = std::chrono::steady_clock::now();
  const ZipArchive jmod = ZipArchive::open(*home / "jmods" / "java.base.jmod");
  Totals totals;
  std::size_t errors = 0;
  double translate_seconds = 0;
  for (std::size_t i = 0; i < jmod.entries().size(); ++i) {
    const std::string& entry = jmod.entries()[i];
    if (!entry.starts_with("classes/") || !entry.ends_with(".class") ||
        entry.ends_with("module-info.class")) {
      continue;
    }
    try {
      const ClassFile cls = parse_class_file(jmod.read(i), jmod.origin(i));
      ++totals.classes;
      const auto translate_start = std::chrono::steady_clock::now();
      for (const MethodInfo& method : cls.methods) {
        const MethodIr ir = build_method_ir(cls, method);
        add(totals, ir);
        const std::string problem = check_well_formed(ir);
        if (!problem.empty() && ++errors <= 10) {
          ADD_FAILURE() << cls.origin << " " << method.name << method.descriptor << ": " << problem;
        }
      }
      translate_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - translate_start).count();
    } catch (const InputError& e) {
      if (++errors <= 10) ADD_FAILURE() << e.what();
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const IrCounts& c = totals.counts;
  std::cout << "java.base IR: " << totals.classes << " classes, " << totals.methods << " methods, "
            << c.instructions << " instructions (" << c.unreachable_instructions
            << " unreachable), " << totals.statements << " statements, " << totals.variables
            << " variables, " << c.allocations << " allocations, " << c.invokes << " invokes, "
            << c.lambdas << " lambdas, " << c.string_concats << " string concats, "
            << c.unsupported_invokedynamic << " unsupported invokedynamic, " << c.dynamic_constants
            << " dynamic constants; " << seconds << " s in all, " << translate_seconds
            << " s translating\n";
  EXPECT_EQ(errors, 0u);
  EXPECT_GT(totals.classes, 5000u);
  EXPECT_GT(c.lambdas, 1000u);
  // java.base itself is compiled with inline string concatenation (StringConcatFactory
  // cannot bootstrap the classes it is made of), so concat is covered by the fixtures.
}

}  // namespace
}  // namespace refract::frontend
