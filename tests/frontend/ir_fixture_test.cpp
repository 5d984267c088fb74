// The IR of the Java fixtures in tests/fixtures/java/ir, compiled by javac 17: one test per
// family of bytecode the issue lists.
#include <gtest/gtest.h>

#include <algorithm>

#include "frontend/ir_test_util.hpp"

namespace refract::frontend {
namespace {

using testing::def_count;
using testing::fixture_class;
using testing::fixture_ir;
using testing::statements_of;
using testing::texts_of;
using testing::var;
using testing::var_named;

const LambdaInfo& only_lambda(const MethodIr& ir) {
  EXPECT_EQ(statements_of(ir, StatementKind::kLambda).size(), 1u) << method_ir_text(ir);
  EXPECT_EQ(ir.lambdas.size(), 1u);
  return ir.lambdas.at(0);
}

TEST(IrFixtureTest, NonCapturingLambda) {
  const MethodIr ir = fixture_ir("ir/Lambdas", "noCapture");
  const LambdaInfo& l = only_lambda(ir);
  EXPECT_TRUE(l.class_name.starts_with("ir.Lambdas$$Lambda$")) << l.class_name;
  EXPECT_EQ(l.interface_type.to_java(), "java.lang.Runnable");
  EXPECT_EQ(l.method_name, "run");
  EXPECT_EQ(l.method_descriptor, "()V");
  EXPECT_EQ(l.implementation.kind, ReferenceKind::kInvokeStatic);
  EXPECT_EQ(l.implementation.owner.to_java(), "ir.Lambdas");
  EXPECT_EQ(l.implementation.name, "lambda$noCapture$0");
  EXPECT_FALSE(l.alt);
  const Statement& s = *statements_of(ir, StatementKind::kLambda)[0];
  EXPECT_TRUE(s.args.empty());
  EXPECT_EQ(var(ir, s.dst).type.to_java(), "java.lang.Runnable");
  EXPECT_EQ(ir.counts.lambdas, 1u);
  EXPECT_EQ(ir.counts.allocations, 1u);
}

TEST(IrFixtureTest, CapturingLambdaKeepsCapturedValuesInOrder) {
  const MethodIr ir = fixture_ir("ir/Lambdas", "captureThisAndLocal");
  const LambdaInfo& l = only_lambda(ir);
  EXPECT_EQ(l.interface_type.to_java(), "java.util.function.Function");
  EXPECT_EQ(l.method_name, "apply");
  EXPECT_EQ(l.method_descriptor, "(Ljava/lang/Object;)Ljava/lang/Object;");
  EXPECT_EQ(l.instantiated_descriptor, "(Ljava/lang/String;)Ljava/lang/String;");
  EXPECT_TRUE(l.implementation.name.starts_with("lambda$captureThisAndLocal$"));
  EXPECT_EQ(l.implementation.descriptor,
            "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;");
  const Statement& s = *statements_of(ir, StatementKind::kLambda)[0];
  ASSERT_EQ(s.args.size(), 2u);
  EXPECT_EQ(s.args[0].var, ir.this_var);
  EXPECT_EQ(s.args[1].var, var_named(ir, "suffix"));
}

TEST(IrFixtureTest, MethodReferences) {
  {
    const LambdaInfo l = only_lambda(fixture_ir("ir/Lambdas", "staticRef"));
    EXPECT_EQ(l.implementation.kind, ReferenceKind::kInvokeStatic);
    EXPECT_EQ(method_handle_text(l.implementation),
              "invokestatic <java.lang.Integer: int parseInt(java.lang.String)>");
  }
  {
    const MethodIr ir = fixture_ir("ir/Lambdas", "boundRef");
    const LambdaInfo& l = only_lambda(ir);
    EXPECT_EQ(method_handle_text(l.implementation),
              "invokevirtual <java.lang.String: int length()>");
    const Statement& s = *statements_of(ir, StatementKind::kLambda)[0];
    ASSERT_EQ(s.args.size(), 1u);  // the bound receiver
    EXPECT_EQ(s.args[0].var, var_named(ir, "s"));
  }
  {
    const MethodIr ir = fixture_ir("ir/Lambdas", "unboundRef");
    EXPECT_TRUE(statements_of(ir, StatementKind::kLambda)[0]->args.empty());
    EXPECT_EQ(only_lambda(ir).interface_type.to_java(), "java.util.function.Function");
  }
  {
    const LambdaInfo l = only_lambda(fixture_ir("ir/Lambdas", "constructorRef"));
    EXPECT_EQ(l.implementation.kind, ReferenceKind::kNewInvokeSpecial);
    EXPECT_EQ(method_handle_text(l.implementation),
              "newinvokespecial <java.lang.StringBuilder: void <init>()>");
  }
}

TEST(IrFixtureTest, SerializableLambdaUsesAltMetafactory) {
  const LambdaInfo l = only_lambda(fixture_ir("ir/Lambdas", "serializable"));
  EXPECT_TRUE(l.alt);
  EXPECT_TRUE(l.serializable);
  EXPECT_EQ(l.interface_type.to_java(), "java.lang.Runnable");
}

TEST(IrFixtureTest, LambdaClassNamesAreDistinctPerBootstrap) {
  const ClassFile cls = fixture_class("ir/Lambdas");
  std::vector<std::string> names;
  for (const MethodInfo& m : cls.methods) {
    if (m.name == "$deserializeLambda$") continue;  // re-creates the serializable lambda
    for (const LambdaInfo& l : build_method_ir(cls, m).lambdas) names.push_back(l.class_name);
  }
  EXPECT_EQ(names.size(), 7u);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::unique(names.begin(), names.end()), names.end());
}

TEST(IrFixtureTest, StringConcatKeepsRecipeConstants) {
  const MethodIr ir = fixture_ir("ir/Concat", "greet");
  const auto concats = statements_of(ir, StatementKind::kStringConcat);
  ASSERT_EQ(concats.size(), 1u);
  EXPECT_EQ(statement_text(ir, *concats[0]),
            "$stack0 = concat(\"Hello, \", name, \"! You are #\", n)");
  const ConcatInfo& c = ir.concats.at(0);
  EXPECT_TRUE(c.with_constants);
  ASSERT_EQ(c.parts.size(), 4u);
  EXPECT_EQ(c.parts[0].text, "Hello, ");
  EXPECT_TRUE(c.parts[1].is_arg);
  EXPECT_EQ(c.parts[1].arg, 0u);
  EXPECT_EQ(c.parts[2].text, "! You are #");
  EXPECT_EQ(c.parts[3].arg, 1u);
  EXPECT_EQ(var(ir, concats[0]->dst).type.to_java(), "java.lang.String");
  EXPECT_EQ(ir.counts.string_concats, 1u);
  EXPECT_EQ(ir.counts.allocations, 1u);
}

TEST(IrFixtureTest, StringConcatConstantsPassedAsBootstrapArguments) {
  const MethodIr ir = fixture_ir("ir/Concat", "tagged");
  ASSERT_EQ(ir.concats.size(), 1u);
  const ConcatInfo& c = ir.concats[0];
  ASSERT_EQ(c.parts.size(), 3u);
  EXPECT_EQ(c.parts[0].text, "a\1b");
  EXPECT_TRUE(c.parts[1].is_arg);
  EXPECT_EQ(c.parts[2].text, "\2");
}

TEST(IrFixtureTest, SwitchOnString) {
  const MethodIr ir = fixture_ir("ir/Switches", "onString");
  const auto strings = texts_of(ir, StatementKind::kStringConstant);
  for (const char* s : {"alpha", "beta", "Aa", "BB"}) {
    EXPECT_NE(std::find(ir.strings.begin(), ir.strings.end(), s), ir.strings.end()) << s;
  }
  const auto switches = statements_of(ir, StatementKind::kSwitch);
  ASSERT_EQ(switches.size(), 2u);  // on hashCode(), then on the case index
  const SwitchTable& by_hash = ir.switches.at(switches[0]->payload);
  EXPECT_NE(std::find(by_hash.keys.begin(), by_hash.keys.end(), 92909918), by_hash.keys.end());
  EXPECT_NE(std::find(by_hash.keys.begin(), by_hash.keys.end(), 2112), by_hash.keys.end());
  std::size_t hash_calls = 0;
  std::size_t equals_calls = 0;
  for (const Statement* s : statements_of(ir, StatementKind::kInvoke)) {
    hash_calls += ir.methods[s->payload].name == "hashCode" ? 1 : 0;
    equals_calls += ir.methods[s->payload].name == "equals" ? 1 : 0;
  }
  EXPECT_EQ(hash_calls, 1u);
  EXPECT_EQ(equals_calls, 4u);
}

TEST(IrFixtureTest, SwitchOnEnum) {
  const MethodIr ir = fixture_ir("ir/Switches", "onEnum");
  const auto loads = texts_of(ir, StatementKind::kStaticLoad);
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_NE(loads[0].find("<ir.Switches$1: int[] $SwitchMap$ir$Switches$Color>"),
            std::string::npos);
  EXPECT_EQ(statements_of(ir, StatementKind::kArrayLoad).size(), 1u);
  EXPECT_EQ(statements_of(ir, StatementKind::kSwitch).size(), 1u);
  // The switch map's class initialiser catches NoSuchFieldError per case constant.
  const MethodIr init = fixture_ir("ir/Switches$1", "<clinit>");
  EXPECT_EQ(statements_of(init, StatementKind::kCatch).size(), 2u);
}

TEST(IrFixtureTest, CatchBindsTheHandlerVariable) {
  const MethodIr ir = fixture_ir("ir/TryCatch", "catchOne");
  ASSERT_EQ(ir.handlers.size(), 1u);
  const Handler& h = ir.handlers[0];
  ASSERT_TRUE(h.catch_type.has_value());
  EXPECT_EQ(h.catch_type->to_java(), "java.lang.NumberFormatException");
  EXPECT_EQ(h.var, var_named(ir, "e"));
  EXPECT_EQ(var(ir, h.var).type.to_java(), "java.lang.NumberFormatException");
  const auto catches = statements_of(ir, StatementKind::kCatch);
  ASSERT_EQ(catches.size(), 1u);
  EXPECT_EQ(catches[0]->dst, h.var);
  EXPECT_EQ(catches[0]->pc, h.handler_pc);
}

TEST(IrFixtureTest, MultiCatchHasOneVariableWithBothTypes) {
  const MethodIr ir = fixture_ir("ir/TryCatch", "multiCatch");
  ASSERT_EQ(ir.handlers.size(), 2u);
  EXPECT_EQ(ir.handlers[0].handler_pc, ir.handlers[1].handler_pc);
  EXPECT_EQ(ir.handlers[0].var, ir.handlers[1].var);
  const auto texts = texts_of(ir, StatementKind::kCatch);
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_EQ(texts[0],
            "e = @caughtexception java.lang.InterruptedException|"
            "java.lang.IllegalMonitorStateException");
  // javac's LocalVariableTable types a multi-catch variable as the types' common superclass.
  EXPECT_EQ(var(ir, ir.handlers[0].var).type.to_java(), "java.lang.Exception");
}

TEST(IrFixtureTest, FinallyIsACatchAll) {
  const MethodIr ir = fixture_ir("ir/TryCatch", "withFinally");
  ASSERT_EQ(ir.handlers.size(), 1u);
  EXPECT_FALSE(ir.handlers[0].catch_type.has_value());
  ASSERT_EQ(ir.catches.size(), 1u);
  EXPECT_TRUE(ir.catches[0].any);
  EXPECT_TRUE(ir.catches[0].types.empty());
  // The finally body is inlined twice by javac: setLength on both paths.
  std::size_t set_length = 0;
  for (const Statement* s : statements_of(ir, StatementKind::kInvoke)) {
    set_length += ir.methods[s->payload].name == "setLength" ? 1 : 0;
  }
  EXPECT_EQ(set_length, 2u);
  EXPECT_EQ(statements_of(ir, StatementKind::kThrow).size(), 1u);
}

TEST(IrFixtureTest, TryWithResources) {
  const MethodIr ir = fixture_ir("ir/TryCatch", "withResources");
  EXPECT_EQ(statements_of(ir, StatementKind::kCatch).size(), 2u);
  const auto news = texts_of(ir, StatementKind::kNew);
  ASSERT_EQ(news.size(), 1u);
  EXPECT_EQ(news[0], "r = new java.io.StringReader");
  std::size_t closes = 0;
  for (const Statement* s : statements_of(ir, StatementKind::kInvoke)) {
    closes += ir.methods[s->payload].name == "close" ? 1 : 0;
  }
  EXPECT_EQ(closes, 2u);
}

TEST(IrFixtureTest, NestedLocalAndAnonymousClasses) {
  const MethodIr inner = fixture_ir("ir/Nested$Inner", "get");
  const auto loads = texts_of(inner, StatementKind::kFieldLoad);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0], "$stack0 = this.<ir.Nested$Inner: ir.Nested this$0>");
  EXPECT_EQ(loads[1], "$stack1 = $stack0.<ir.Nested: int field>");

  const MethodIr anonymous = fixture_ir("ir/Nested", "anonymous");
  EXPECT_EQ(texts_of(anonymous, StatementKind::kNew),
            std::vector<std::string>{"$stack0 = new ir.Nested$1"});
  const MethodIr run = fixture_ir("ir/Nested$1", "run");
  EXPECT_EQ(statements_of(run, StatementKind::kFieldStore).size(), 1u);

  const MethodIr local = fixture_ir("ir/Nested", "local");
  EXPECT_EQ(
      texts_of(local, StatementKind::kNew),
      (std::vector<std::string>{"$stack0 = new ir.Nested$1Local", "$stack3 = new ir.Nested$Inner",
                                "$stack6 = new ir.Nested$StaticNested"}));
  EXPECT_EQ(fixture_ir("ir/Nested$1Local", "twice").signature.parameters_to_java(), "(int)");
}

TEST(IrFixtureTest, RecordMembersAndObjectMethodsBootstrap) {
  const MethodIr init = fixture_ir("ir/Point", "<init>");
  const auto stores = texts_of(init, StatementKind::kFieldStore);
  EXPECT_EQ(stores,
            (std::vector<std::string>{"this.<ir.Point: int x> = x", "this.<ir.Point: int y> = y"}));
  EXPECT_EQ(statements_of(init, StatementKind::kThrow).size(), 1u);
  for (const char* name : {"toString", "hashCode", "equals"}) {
    const MethodIr ir = fixture_ir("ir/Point", name);
    EXPECT_EQ(ir.counts.unsupported_invokedynamic, 1u) << name;
    ASSERT_EQ(ir.dynamic_sites.size(), 1u);
    const DynamicSite& site = ir.dynamic_sites[0];
    EXPECT_EQ(site.bootstrap.owner.to_java(), "java.lang.runtime.ObjectMethods");
    EXPECT_EQ(site.name, name);
    ASSERT_EQ(site.bootstrap_args.size(), 4u);
    EXPECT_EQ(site.bootstrap_args[0], "ir.Point.class");
    EXPECT_EQ(site.bootstrap_args[1], "\"x;y\"");
    const auto dyn = statements_of(ir, StatementKind::kInvokeDynamic);
    ASSERT_EQ(dyn.size(), 1u);
    EXPECT_EQ(dyn[0]->args.at(0).var, ir.this_var);
  }
  EXPECT_EQ(texts_of(fixture_ir("ir/Point", "x"), StatementKind::kFieldLoad),
            std::vector<std::string>{"$stack0 = this.<ir.Point: int x>"});
}

TEST(IrFixtureTest, InterfaceDefaultStaticAndPrivateMethods) {
  const MethodIr describe = fixture_ir("ir/Shape", "describe");
  bool calls_private = false;
  bool calls_area = false;
  for (const Statement* s : statements_of(describe, StatementKind::kInvoke)) {
    const MethodRef& m = describe.methods[s->payload];
    if (m.name == "name") {
      calls_private = true;
      EXPECT_TRUE(m.interface);
      EXPECT_EQ(s->base.var, describe.this_var);
    }
    if (m.name == "area") {
      calls_area = true;
      EXPECT_EQ(s->opcode, Opcode::kInvokeinterface);
    }
  }
  EXPECT_TRUE(calls_private);
  EXPECT_TRUE(calls_area);
  const LambdaInfo l = only_lambda(fixture_ir("ir/Shape", "unit"));
  EXPECT_EQ(l.interface_type.to_java(), "ir.Shape");
  EXPECT_EQ(l.method_name, "area");
  EXPECT_EQ(l.method_descriptor, "()D");
  EXPECT_EQ(l.class_name.substr(0, 17), "ir.Shape$$Lambda$");
}

TEST(IrFixtureTest, BridgeMethodCastsAndCalls) {
  const ClassFile cls = fixture_class("ir/Bridge");
  const MethodInfo& bridge = testing::method_named(cls, "compareTo", "(Ljava/lang/Object;)I");
  EXPECT_NE(bridge.access_flags & access::kBridge, 0);
  const MethodIr ir = build_method_ir(cls, bridge);
  EXPECT_EQ(texts_of(ir, StatementKind::kCast),
            std::vector<std::string>{"$stack0 = (ir.Bridge) l1"});
  EXPECT_EQ(texts_of(ir, StatementKind::kInvoke),
            std::vector<std::string>{
                "$stack1 = virtualinvoke this.<ir.Bridge: int compareTo(ir.Bridge)>($stack0)"});
}

TEST(IrFixtureTest, MultiDimensionalArraysAreNestedAllocations) {
  const MethodIr ir = fixture_ir("ir/Arrays", "cube");
  const auto arrays = statements_of(ir, StatementKind::kNewArray);
  ASSERT_EQ(arrays.size(), 3u);
  const std::vector<std::string> types = {"int[][][]", "int[][]", "int[]"};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ir.types[arrays[i]->payload].to_java(), types[i]);
    EXPECT_EQ(arrays[i]->level, i);
    EXPECT_EQ(arrays[i]->pc, arrays[0]->pc);
    EXPECT_EQ(arrays[i]->opcode, Opcode::kMultianewarray);
  }
  const auto links = statements_of(ir, StatementKind::kArrayStore);
  ASSERT_EQ(links.size(), 2u);
  EXPECT_EQ(links[0]->base.var, arrays[0]->dst);
  EXPECT_EQ(links[0]->args[1].var, arrays[1]->dst);
  EXPECT_EQ(links[0]->args[0].kind, Operand::Kind::kNone);
  EXPECT_EQ(links[1]->base.var, arrays[1]->dst);
  EXPECT_EQ(links[1]->args[1].var, arrays[2]->dst);
  EXPECT_EQ(ir.counts.allocations, 3u);

  const MethodIr partial = fixture_ir("ir/Arrays", "partial");
  EXPECT_EQ(texts_of(partial, StatementKind::kNewArray),
            std::vector<std::string>{"$stack0 = newarray (java.lang.String[])[n]"});

  const MethodIr init = fixture_ir("ir/Arrays", "init");
  EXPECT_EQ(texts_of(init, StatementKind::kArrayStore),
            (std::vector<std::string>{"$stack0[0] = $stack1", "$stack0[1] = $stack2",
                                      "$stack0[2] = null"}));
}

TEST(IrFixtureTest, ArrayLoadsTakeTheElementType) {
  const MethodIr ir = fixture_ir("ir/Arrays", "sum");
  EXPECT_EQ(var(ir, var_named(ir, "row")).type.to_java(), "int[]");
  EXPECT_EQ(var(ir, var_named(ir, "v")).type.to_java(), "int");
  EXPECT_EQ(var(ir, var_named(ir, "l2")).type.to_java(), "int[][]");
}

TEST(IrFixtureTest, StaticInitialiser) {
  const MethodIr ir = fixture_ir("ir/StaticInit", "<clinit>");
  EXPECT_TRUE(ir.is_static());
  EXPECT_EQ(ir.this_var, kNoVar);
  EXPECT_EQ(texts_of(ir, StatementKind::kNew),
            std::vector<std::string>{"$stack0 = new java.util.HashMap"});
  std::vector<std::string> stored;
  for (const Statement* s : statements_of(ir, StatementKind::kStaticStore)) {
    stored.push_back(ir.fields[s->payload].name);
  }
  EXPECT_EQ(stored, (std::vector<std::string>{"TABLE", "NAMES", "counter"}));
  EXPECT_EQ(ir.strings, (std::vector<std::string>{"one", "two"}));
}

TEST(IrFixtureTest, ReusedSlotBecomesSeparateVariables) {
  const MethodIr ir = fixture_ir("ir/SlotReuse", "reuse");
  const VarId a = var_named(ir, "a");
  const VarId b = var_named(ir, "b");
  const VarId c = var_named(ir, "c");
  ASSERT_NE(a, kNoVar);
  EXPECT_NE(a, b);
  EXPECT_NE(b, c);
  EXPECT_EQ(var(ir, a).slot, var(ir, b).slot);  // javac gives all three slot 1
  EXPECT_EQ(var(ir, b).slot, var(ir, c).slot);
  EXPECT_EQ(var(ir, a).type.to_java(), "java.lang.String");
  EXPECT_EQ(var(ir, b).type.to_java(), "java.lang.StringBuilder");
  EXPECT_EQ(var(ir, c).type.to_java(), "java.lang.Object");
  for (const VarId v : {a, b, c}) EXPECT_EQ(def_count(ir, v), 1u) << var(ir, v).name;
  EXPECT_EQ(texts_of(ir, StatementKind::kNew),
            (std::vector<std::string>{"a = new java.lang.String", "b = new java.lang.StringBuilder",
                                      "c = new java.lang.Object"}));
}

TEST(IrFixtureTest, LongAndDoubleLocals) {
  const MethodIr ir = fixture_ir("ir/Wide", "mix");
  const auto check = [&](const char* name, ValueKind kind, int slot, const char* type) {
    const VarId v = var_named(ir, name);
    ASSERT_NE(v, kNoVar);
    EXPECT_EQ(var(ir, v).kind, kind) << name;
    EXPECT_EQ(var(ir, v).slot, slot) << name;
    EXPECT_EQ(var(ir, v).type.to_java(), type) << name;
  };
  check("a", ValueKind::kLong, 0, "long");
  check("b", ValueKind::kDouble, 2, "double");
  check("c", ValueKind::kInt, 4, "int");
  check("x", ValueKind::kLong, 5, "long");
  check("y", ValueKind::kDouble, 7, "double");
  check("z", ValueKind::kInt, 9, "int");
  EXPECT_EQ(texts_of(ir, StatementKind::kPrimitiveOp).front(), "x = lmul(a, 2L)");
}

// Properties of every method of every fixture class under ir/.
TEST(IrFixtureTest, EveryFixtureMethodIsWellFormed) {
  const std::filesystem::path dir = std::filesystem::path(REFRACT_FIXTURE_CLASSES) / "ir";
  std::size_t methods = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const ClassFile cls = parse_class_file(testing::read_file(entry.path()), entry.path().string());
    for (const MethodInfo& m : cls.methods) {
      const MethodIr ir = build_method_ir(cls, m);
      ++methods;
      const std::string where = cls.this_class + "." + m.name + m.descriptor;
      EXPECT_EQ(ir.has_body, m.code.has_value()) << where;
      std::uint32_t pc = 0;
      for (const Statement& s : ir.statements) {
        // Statements are in pc order, so a branch to pc P continues at the first statement
        // whose pc is at least P.
        EXPECT_GE(s.pc, pc) << where;
        pc = s.pc;
        if (ir.has_body) {
          EXPECT_GT(s.line, 0u) << where << " @" << s.pc;
        }
        if (s.dst != kNoVar) {
          ASSERT_LT(s.dst, ir.variables.size()) << where;
        }
        for (const Operand& a : s.args) {
          if (a.is_var()) {
            ASSERT_LT(a.var, ir.variables.size()) << where;
          }
        }
      }
      for (const Variable& v : ir.variables) {
        EXPECT_EQ(v.kind == ValueKind::kReference, v.type.is_reference()) << where << " " << v.name;
        EXPECT_FALSE(v.name.empty());
      }
      for (const Statement& s : ir.statements) {
        if (s.kind == StatementKind::kIf || s.kind == StatementKind::kGoto) {
          const std::size_t target = statement_at(ir, s.payload);
          ASSERT_LT(target, ir.statements.size()) << where;
          EXPECT_GE(ir.statements[target].pc, s.payload) << where;
        }
      }
      ASSERT_EQ(ir.parameters.size(), ir.signature.parameters.size());
      for (std::size_t i = 0; i < ir.parameters.size(); ++i) {
        EXPECT_EQ(var(ir, ir.parameters[i]).type, ir.signature.parameters[i]) << where;
      }
    }
  }
  EXPECT_GT(methods, 50u);
}

}  // namespace
}  // namespace refract::frontend
