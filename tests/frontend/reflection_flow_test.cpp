// The intra-procedural questions of frontend/reflection_flow.hpp on IR written by hand, for
// the shapes javac does not make from the reflfacts fixture (tests/frontend/
// reflection_facts_test.cpp has those): bounds on the length, primitive arrays, loops of copies.
#include "frontend/reflection_flow.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace refract::frontend {
namespace {

// A method body built statement by statement; variables are references unless said otherwise.
class IrSketch {
 public:
  VarId variable(const std::string& name, ValueKind kind = ValueKind::kReference) {
    ir_.variables.push_back(
        Variable{name, JavaType::object("java.lang.Object"), kind, VariableOrigin::kLocal, 0});
    return static_cast<VarId>(ir_.variables.size() - 1);
  }
  // dst = new TYPE[length]
  void new_array(VarId dst, const JavaType& type, Operand length) {
    ir_.types.push_back(type);
    Statement s;
    s.kind = StatementKind::kNewArray;
    s.dst = dst;
    s.args = {length};
    s.payload = static_cast<std::uint32_t>(ir_.types.size() - 1);
    add(s);
  }
  void assign(VarId dst, Operand from) {
    Statement s;
    s.kind = StatementKind::kAssign;
    s.dst = dst;
    s.args = {from};
    add(s);
  }
  void array_store(VarId array, Operand index, Operand value) {
    Statement s;
    s.kind = StatementKind::kArrayStore;
    s.base = Operand::variable(array);
    s.args = {index, value};
    add(s);
  }
  // A call passing `argument` as its only argument; returns the statement index.
  std::uint32_t call(Operand argument) {
    Statement s;
    s.kind = StatementKind::kInvoke;
    s.args = {argument};
    add(s);
    return static_cast<std::uint32_t>(ir_.statements.size() - 1);
  }
  const MethodIr& ir() const { return ir_; }

 private:
  void add(Statement s) {
    s.pc = static_cast<std::uint32_t>(ir_.statements.size());
    ir_.statements.push_back(std::move(s));
  }
  MethodIr ir_;
};

const JavaType kObjectArray = JavaType::array_of(JavaType::object("java.lang.Object"));

// The array passed to the call at `call` (its argument 0), with that call as the only one.
std::optional<ExactArray> passed_array(const IrSketch& sketch, std::uint32_t call) {
  const DefUse def_use(sketch.ir());
  return exact_array(sketch.ir(), def_use, sketch.ir().statements[call].args[0],
                     [&](const OperandUse& use) { return use.statement == call && use.slot == 0; });
}

TEST(ReflectionFlowTest, ArrayOfTheLargestArityIsExact) {
  IrSketch sketch;
  const VarId array = sketch.variable("array");
  const VarId value = sketch.variable("value");
  sketch.new_array(array, kObjectArray, Operand::int_constant(255));
  sketch.array_store(array, Operand::int_constant(254), Operand::variable(value));
  const auto exact = passed_array(sketch, sketch.call(Operand::variable(array)));
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->length, 255U);
  ASSERT_EQ(exact->stores.size(), 1U);
  EXPECT_EQ(exact->stores[0].index, 254U);
  EXPECT_EQ(exact->stores[0].value, value);
}

// JVMS 4.3.3: no method has 256 parameters, so such an array matches no target.
TEST(ReflectionFlowTest, ArrayLongerThanAnyParameterListIsNotExact) {
  IrSketch sketch;
  const VarId array = sketch.variable("array");
  sketch.new_array(array, kObjectArray, Operand::int_constant(256));
  EXPECT_FALSE(passed_array(sketch, sketch.call(Operand::variable(array))));
}

TEST(ReflectionFlowTest, PrimitiveArrayIsNotAnArgumentArray) {
  IrSketch sketch;
  const VarId array = sketch.variable("array");
  sketch.new_array(array, JavaType::array_of(JavaType::primitive(BaseKind::kInt)),
                   Operand::int_constant(1));
  EXPECT_FALSE(passed_array(sketch, sketch.call(Operand::variable(array))));
}

// An array of arrays is an array of references: new Object[2][] passed as the arguments.
TEST(ReflectionFlowTest, ArrayOfArraysIsAnArgumentArray) {
  IrSketch sketch;
  const VarId array = sketch.variable("array");
  sketch.new_array(array, JavaType::array_of(kObjectArray), Operand::int_constant(2));
  const auto exact = passed_array(sketch, sketch.call(Operand::variable(array)));
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->length, 2U);
}

// A multianewarray links its inner arrays with stores at no known index.
TEST(ReflectionFlowTest, StoreAtAnUnknownIndexIsNotExact) {
  IrSketch sketch;
  const VarId array = sketch.variable("array");
  const VarId inner = sketch.variable("inner");
  sketch.new_array(array, JavaType::array_of(kObjectArray), Operand::int_constant(1));
  sketch.new_array(inner, kObjectArray, Operand::int_constant(1));
  sketch.array_store(array, Operand{}, Operand::variable(inner));
  EXPECT_FALSE(passed_array(sketch, sketch.call(Operand::variable(array))));
}

TEST(ReflectionFlowTest, CopiesThatOnlyDefineEachOtherHaveNoSource) {
  IrSketch sketch;
  const VarId a = sketch.variable("a");
  const VarId b = sketch.variable("b");
  sketch.assign(a, Operand::variable(b));
  sketch.assign(b, Operand::variable(a));
  EXPECT_FALSE(passed_array(sketch, sketch.call(Operand::variable(a))));
}

TEST(ReflectionFlowTest, NullConstantArgumentIsAnEmptyArray) {
  IrSketch sketch;
  const auto exact = passed_array(sketch, sketch.call(Operand::null()));
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->length, 0U);
  EXPECT_TRUE(exact->stores.empty());
}

// A value nothing reads has no cast: the answer is "no casts", not "some other use".
TEST(ReflectionFlowTest, UnusedValueHasNoCasts) {
  IrSketch sketch;
  const VarId value = sketch.variable("value");
  sketch.assign(value, Operand::null());
  const DefUse def_use(sketch.ir());
  const auto casts = cast_only_uses(sketch.ir(), def_use, value);
  ASSERT_TRUE(casts);
  EXPECT_TRUE(casts->empty());
}

TEST(ReflectionFlowTest, ValuePassedToACallIsNotOnlyCast) {
  IrSketch sketch;
  const VarId value = sketch.variable("value");
  sketch.assign(value, Operand::null());
  sketch.call(Operand::variable(value));
  const DefUse def_use(sketch.ir());
  EXPECT_FALSE(cast_only_uses(sketch.ir(), def_use, value));
}

}  // namespace
}  // namespace refract::frontend
