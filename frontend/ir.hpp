// The three-address IR of one method, built from its bytecode by frontend/ir_builder.hpp.
//
// Every value the bytecode computes lives in a Variable: a local variable (one def-use web of a
// JVM slot, so a slot reused for two unrelated values is two variables), or a temporary for an
// operand-stack value. Statements read Operands (a variable or an immediate number/null) and
// define at most one variable (`dst`). A variable may have several defining statements: that is
// how values merge at control-flow joins (no phi statements). Each statement keeps the bytecode
// pc it came from and the source line of that pc.
//
// Statements are in bytecode order and their pcs never decrease: a branch to pc P (kIf, kGoto,
// kSwitch, kJsr, kRet targets are bytecode pcs) continues at the first statement whose pc is
// at least P (statement_at). `this`/parameter identity statements come first, at pc 0; a
// handler's kCatch statement is the first statement at its handler pc. Instructions that only
// move values (loads, dup, swap, constants) make no statement of their own.
//
// Member and type operands are kept in per-method tables that statements index with `payload`
// (see StatementKind for which table). Class names are binary names with dots
// ("a.Outer$Inner"); descriptors keep their JVM form.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "frontend/bytecode.hpp"
#include "frontend/class_file.hpp"
#include "frontend/descriptor.hpp"

namespace refract::frontend {

using VarId = std::uint32_t;
inline constexpr VarId kNoVar = 0xFFFFFFFF;

// The computational kinds of the JVM (JVMS 2.11.1): boolean, byte, char and short values are
// ints; long and double take two slots/words but are one value here.
enum class ValueKind : std::uint8_t {
  kInt,
  kLong,
  kFloat,
  kDouble,
  kReference,
  kReturnAddress,  // pushed by jsr, consumed by ret
};

enum class VariableOrigin : std::uint8_t {
  kLocal,            // a def-use web of JVM local slot `slot` (parameters and `this` included)
  kStack,            // an operand-stack temporary
  kCaughtException,  // the exception a handler receives, when not stored straight into a local
};

struct Variable {
  std::string name;  // LocalVariableTable name, "this", "l<slot>", "$stack<n>", "$caught<n>";
                     // unique within the method ("i#2" for a second web named i)
  JavaType type;     // declared (LocalVariableTable) or inferred type; for kReturnAddress void
  ValueKind kind = ValueKind::kInt;
  VariableOrigin origin = VariableOrigin::kStack;
  std::int32_t slot = -1;  // for kLocal
};

struct Operand {
  enum class Kind : std::uint8_t {
    kNone,    // no operand (e.g. the unknown index of a nested multianewarray store)
    kVar,     // var
    kInt,     // int_value
    kLong,    // int_value
    kFloat,   // float_value (bits of a float, kept exact)
    kDouble,  // double_value
    kNull,    // aconst_null
  };
  Kind kind = Kind::kNone;
  VarId var = kNoVar;
  std::int64_t int_value = 0;
  float float_value = 0;
  double double_value = 0;

  static Operand variable(VarId v) { return Operand{Kind::kVar, v, 0, 0, 0}; }
  static Operand int_constant(std::int32_t value) {
    return Operand{Kind::kInt, kNoVar, value, 0, 0};
  }
  static Operand long_constant(std::int64_t value) {
    return Operand{Kind::kLong, kNoVar, value, 0, 0};
  }
  static Operand float_constant(float value) { return Operand{Kind::kFloat, kNoVar, 0, value, 0}; }
  static Operand double_constant(double value) {
    return Operand{Kind::kDouble, kNoVar, 0, 0, value};
  }
  static Operand null() { return Operand{Kind::kNull, kNoVar, 0, 0, 0}; }
  bool is_var() const { return kind == Kind::kVar; }
};

// What a statement does; `payload` indexes the table named in brackets.
enum class StatementKind : std::uint8_t {
  kThis,                  // dst := @this
  kParameter,             // dst := @parameter<payload>
  kAssign,                // dst = args[0]  (local stores, stack merges, constants)
  kStringConstant,        // dst = "text"                  [strings]
  kClassConstant,         // dst = class T                 [types]
  kMethodTypeConstant,    // dst = methodtype D       [strings: the descriptor]
  kMethodHandleConstant,  // dst = methodhandle H     [method_handles]
  kDynamicConstant,       // dst = ldc of a CONSTANT_Dynamic: unsupported [dynamic_sites]
  kNew,                   // dst = new T; one allocation site              [types: T]
  kNewArray,              // dst = new T with length args[0]; allocation  [types: the array type T]
              // multianewarray gives one kNewArray per allocated dimension (same pc, `level`
              // 0 = outermost) and array stores linking each level into the one above
  kLambda,         // dst = a lambda object capturing args (invokedynamic of
                   // LambdaMetafactory.metafactory/altMetafactory); allocation  [lambdas]
  kStringConcat,   // dst = a new String from parts (invokedynamic of StringConcatFactory);
                   // allocation                                                [concats]
  kFieldLoad,      // dst = base.f        [fields]
  kFieldStore,     // base.f = args[0]    [fields]
  kStaticLoad,     // dst = C.f           [fields]
  kStaticStore,    // C.f = args[0]       [fields]
  kArrayLoad,      // dst = base[args[0]]
  kArrayStore,     // base[args[0]] = args[1]
  kInvoke,         // [dst =] invoke; opcode says virtual/special/static/interface; base is the
                   // receiver (kNone for static); args are the arguments              [methods]
  kInvokeDynamic,  // [dst =] an invokedynamic whose bootstrap is not modelled: unsupported;
                   // args are the dynamic arguments                       [dynamic_sites]
  kReturn,         // return [args[0]]
  kThrow,          // throw args[0]
  kCatch,          // dst = the caught exception of the handler at this pc   [catches]
  kCast,           // dst = (T) args[0]                                      [types]
  kInstanceOf,     // dst = args[0] instanceof T                             [types]
  kPrimitiveOp,    // dst = opcode(args): arithmetic, conversions, comparisons, iinc,
                   // arraylength; opaque to the points-to analysis
  kIf,             // if opcode(args) goto payload (a pc)
  kGoto,           // goto payload (a pc)
  kSwitch,         // switch (args[0])                                       [switches]
  kMonitorEnter,   // entermonitor args[0]
  kMonitorExit,    // exitmonitor args[0]
  kJsr,            // dst = return address; goto payload (a pc)
  kRet,            // ret args[0]: jump to one of the return points          [switches]
};

struct Statement {
  StatementKind kind = StatementKind::kAssign;
  Opcode opcode = Opcode::kNop;  // the instruction this statement translates
  std::uint8_t level = 0;        // multianewarray: the dimension allocated (0 = outermost)
  std::uint32_t pc = 0;
  std::uint32_t line = 0;  // source line from LineNumberTable; 0 if unknown
  VarId dst = kNoVar;
  Operand base;  // receiver, object of a field access or array of an array access
  std::vector<Operand> args;
  std::uint32_t payload = 0;
};

struct FieldRef {
  JavaType owner;  // the class named by the Fieldref
  std::string name;
  std::string descriptor;
  JavaType type;
};

struct MethodRef {
  JavaType owner;  // a class, or an array type for methods invoked on arrays (clone)
  std::string name;
  std::string descriptor;
  MethodDescriptor signature;
  bool interface = false;  // an InterfaceMethodref
};

// A CONSTANT_MethodHandle, resolved to names.
struct MethodHandleInfo {
  ReferenceKind kind = ReferenceKind::kInvokeStatic;
  JavaType owner;
  std::string name;
  std::string descriptor;  // a field descriptor for the field kinds
  bool interface = false;
};

// An invokedynamic of LambdaMetafactory: a new object of a synthetic class implementing
// `interface_type`, whose method `method_name``method_descriptor` calls `implementation` with
// the captured values (the statement's args) followed by its own arguments.
struct LambdaInfo {
  std::string class_name;  // "a.B$$Lambda$<n>", n the BootstrapMethods index
  JavaType interface_type;
  std::string method_name;
  std::string method_descriptor;        // the erased interface method type (samMethodType)
  std::string instantiated_descriptor;  // instantiatedMethodType
  MethodHandleInfo implementation;
  bool alt = false;  // altMetafactory
  bool serializable = false;
  std::vector<JavaType> marker_interfaces;      // altMetafactory FLAG_MARKERS
  std::vector<std::string> bridge_descriptors;  // altMetafactory FLAG_BRIDGES
};

// One piece of a concatenation: a dynamic argument or constant text from the recipe.
struct ConcatPart {
  bool is_arg = false;
  std::uint32_t arg = 0;  // index into the statement's args
  std::string text;       // constant text (recipe text and \2 constants, already rendered)
};

struct ConcatInfo {
  std::vector<ConcatPart> parts;
  bool with_constants = false;  // makeConcatWithConstants (else makeConcat)
};

// A bootstrap the IR does not model: an invokedynamic or a dynamic constant.
struct DynamicSite {
  MethodHandleInfo bootstrap;
  std::vector<std::string> bootstrap_args;  // static arguments, rendered as text
  std::string name;
  std::string descriptor;
};

struct SwitchTable {
  std::vector<std::int32_t> keys;
  std::vector<std::uint32_t> targets;  // pcs, one per key (ret: the return points, no keys)
  std::uint32_t default_target = 0;
};

// The exception types a handler catches (all exception table entries with its handler_pc).
struct CatchClause {
  std::uint32_t handler_pc = 0;
  std::vector<JavaType> types;  // in exception table order
  bool any = false;             // a catch-all entry (finally) is among them
};

// One exception table entry.
struct Handler {
  std::uint32_t start_pc = 0;
  std::uint32_t end_pc = 0;  // exclusive
  std::uint32_t handler_pc = 0;
  std::optional<JavaType> catch_type;  // nothing: any exception
  VarId var = kNoVar;                  // the variable the handler's catch defines; kNoVar if
                                       // the handler is unreachable
};

struct IrCounts {
  std::size_t instructions = 0;
  std::size_t unreachable_instructions = 0;  // not translated
  std::size_t allocations = 0;               // kNew, kNewArray, kLambda, kStringConcat
  std::size_t invokes = 0;
  std::size_t lambdas = 0;
  std::size_t string_concats = 0;
  std::size_t unsupported_invokedynamic = 0;
  std::size_t dynamic_constants = 0;
};

struct MethodIr {
  std::string class_name;  // declaring class, binary name with dots
  std::string name;
  std::string descriptor;
  MethodDescriptor signature;
  std::uint16_t access_flags = 0;
  bool has_body = false;  // false for abstract and native methods: only `this` and parameters

  std::vector<Variable> variables;
  VarId this_var = kNoVar;            // instance methods
  std::vector<VarId> parameters;      // one per declared parameter
  std::vector<Statement> statements;  // reachable code in pc order
  std::vector<Handler> handlers;      // the exception table, in order

  std::vector<FieldRef> fields;
  std::vector<MethodRef> methods;
  std::vector<JavaType> types;
  std::vector<std::string> strings;
  std::vector<MethodHandleInfo> method_handles;
  std::vector<LambdaInfo> lambdas;
  std::vector<ConcatInfo> concats;
  std::vector<DynamicSite> dynamic_sites;
  std::vector<SwitchTable> switches;
  std::vector<CatchClause> catches;

  IrCounts counts;

  bool is_static() const { return (access_flags & access::kStatic) != 0; }
};

// The index of the first statement whose pc is at least `pc` (statements.size() if none): where
// a branch to `pc` continues.
std::size_t statement_at(const MethodIr& ir, std::uint32_t pc);

// "int", "long", "float", "double", "reference", "returnAddress".
std::string_view value_kind_name(ValueKind kind);
// The kind a value of this type has on the operand stack.
ValueKind value_kind_of(const JavaType& type);

// `<a.B: int f>` and `<a.B: void m(int,java.lang.String)>`: Soot-like, without quoting.
std::string field_text(const FieldRef& field);
std::string method_text(const JavaType& owner, std::string_view name,
                        const MethodDescriptor& signature);
std::string method_handle_text(const MethodHandleInfo& handle);

// One statement without its line and pc prefix, e.g.
// `$stack3 = virtualinvoke r1.<java.io.PrintStream: void println(java.lang.String)>(r2)`.
std::string statement_text(const MethodIr& ir, const Statement& statement);
// The whole method: a header, the variable declarations, every statement as
// `  LINE @PC: TEXT` (LINE `?` if unknown), then the exception table.
void print_method_ir(std::ostream& out, const MethodIr& ir);
std::string method_ir_text(const MethodIr& ir);

}  // namespace refract::frontend
