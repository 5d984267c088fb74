// The IR builder on hand-assembled methods (class_builder.hpp): subroutines (jsr/ret), the
// verify errors that must become ClassFormatErrors at the right offset, the dup/swap forms,
// values on the stack across joins, def-use webs without a LocalVariableTable, dead code and
// the invokedynamic/ldc forms javac rarely emits.
#include <gtest/gtest.h>

#include <string>

#include "frontend/class_builder.hpp"
#include "frontend/ir_test_util.hpp"

namespace refract::frontend {
namespace {

using testing::Bytes;
using testing::ClassBuilder;
using testing::def_count;
using testing::statements_of;
using testing::texts_of;
using testing::var;
using testing::var_named;

constexpr unsigned kPublicStatic = 0x0009;

// Adds `m` with this code to the class and parses the class.
ClassFile with_method(ClassBuilder& b, std::string_view descriptor, const Bytes& code,
                      unsigned max_stack, unsigned max_locals,
                      const std::vector<ClassBuilder::Handler>& handlers = {},
                      unsigned flags = kPublicStatic) {
  b.add_method(flags, "m", descriptor, {b.code_attribute(max_stack, max_locals, code, handlers)});
  return parse_class_file(b.build(), "Sample.class");
}

MethodIr translate(const ClassFile& cls) {
  return build_method_ir(cls, cls.methods.at(0));
}

// Expects translating `cls`'s method to fail at `pc` with a message containing `text`.
void expect_error(const ClassFile& cls, std::uint32_t pc, const std::string& text) {
  try {
    translate(cls);
    ADD_FAILURE() << "no error; expected one containing: " << text;
  } catch (const ClassFormatError& e) {
    EXPECT_EQ(e.origin(), "Sample.class");
    EXPECT_EQ(e.offset(), cls.methods[0].code->bytes_offset + pc) << e.what();
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("method m"), std::string::npos) << e.what();
  }
}

// --- subroutines ----------------------------------------------------------------------------

// The finally of old javac: both paths call the subroutine; slot 1 holds a reference at one
// jsr and an int at the other, and the subroutine never touches it, so each return point
// keeps its own kind.
TEST(IrBytecodeTest, SubroutineKeepsUnmodifiedLocalsPerCaller) {
  ClassBuilder b;
  const auto s = b.string("s");
  const auto value_of = b.methodref("java/lang/Integer", "valueOf", "(I)Ljava/lang/Integer;");
  Bytes code;
  code.u1(0x1a);               // 0: iload_0
  code.u1(0x99).u2(11);        // 1: ifeq 12
  code.u1(0x12).u1(s);         // 4: ldc "s"
  code.u1(0x4c);               // 6: astore_1
  code.u1(0xa8).u2(15);        // 7: jsr 22
  code.u1(0x2b);               // 10: aload_1
  code.u1(0xb0);               // 11: areturn
  code.u1(0x08);               // 12: iconst_5
  code.u1(0x3c);               // 13: istore_1
  code.u1(0xa8).u2(8);         // 14: jsr 22
  code.u1(0x1b);               // 17: iload_1
  code.u1(0xb8).u2(value_of);  // 18: invokestatic Integer.valueOf
  code.u1(0xb0);               // 21: areturn
  code.u1(0x4d);               // 22: astore_2
  code.u1(0xa9).u1(2);         // 23: ret 2
  const ClassFile cls = with_method(b, "(Z)Ljava/lang/Object;", code, 1, 3);
  const MethodIr ir = translate(cls);
  EXPECT_EQ(texts_of(ir, StatementKind::kJsr),
            (std::vector<std::string>{"$stack0 = jsr @22", "$stack0 = jsr @22"}));
  EXPECT_EQ(texts_of(ir, StatementKind::kRet), std::vector<std::string>{"ret l2 (@10, @17)"});
  EXPECT_EQ(var(ir, var_named(ir, "l2")).kind, ValueKind::kReturnAddress);
  EXPECT_EQ(var(ir, var_named(ir, "$stack0")).kind, ValueKind::kReturnAddress);
  // Slot 1 is two variables: a String and an int.
  const VarId ref = var_named(ir, "l1");
  const VarId num = var_named(ir, "l1#2");
  EXPECT_EQ(var(ir, ref).kind, ValueKind::kReference);
  EXPECT_EQ(var(ir, num).kind, ValueKind::kInt);
  const auto returns = statements_of(ir, StatementKind::kReturn);
  ASSERT_EQ(returns.size(), 2u);
  EXPECT_EQ(returns[0]->args[0].var, ref);
}

// A subroutine that stores to a local: after the ret, the caller sees the subroutine's value.
TEST(IrBytecodeTest, SubroutineModificationsReachTheReturnPoint) {
  ClassBuilder b;
  const auto t = b.string("t");
  Bytes code;
  code.u1(0xa8).u2(5);  // 0: jsr 5
  code.u1(0x2b);        // 3: aload_1
  code.u1(0xb0);        // 4: areturn
  code.u1(0x4b);        // 5: astore_0
  code.u1(0x12).u1(t);  // 6: ldc "t"
  code.u1(0x4c);        // 8: astore_1
  code.u1(0xa9).u1(0);  // 9: ret 0
  const MethodIr ir = translate(with_method(b, "()Ljava/lang/Object;", code, 1, 2));
  EXPECT_EQ(texts_of(ir, StatementKind::kStringConstant), std::vector<std::string>{"l1 = \"t\""});
  EXPECT_EQ(texts_of(ir, StatementKind::kReturn), std::vector<std::string>{"return l1"});
}

// What javac 1.3 made of `try { return lock.hashCode(); } finally { lock.notify(); }`: the
// normal path keeps the result in slot 2 across the subroutine, the exception path keeps the
// exception in slot 3; neither slot holds a value on the other path.
TEST(IrBytecodeTest, OldJavacFinallySubroutine) {
  ClassBuilder b;
  const auto hash = b.methodref("java/lang/Object", "hashCode", "()I");
  const auto notify = b.methodref("java/lang/Object", "notify", "()V");
  Bytes code;
  code.u1(0x2a);             // 0: aload_0
  code.u1(0xb6).u2(hash);    // 1: invokevirtual hashCode
  code.u1(0x3d);             // 4: istore_2
  code.u1(0xa8).u2(11);      // 5: jsr 16
  code.u1(0x1c);             // 8: iload_2
  code.u1(0xac);             // 9: ireturn
  code.u1(0x4e);             // 10: astore_3 (handler)
  code.u1(0xa8).u2(5);       // 11: jsr 16
  code.u1(0x2d);             // 14: aload_3
  code.u1(0xbf);             // 15: athrow
  code.u1(0x3a).u1(4);       // 16: astore 4
  code.u1(0x2a);             // 18: aload_0
  code.u1(0xb6).u2(notify);  // 19: invokevirtual notify
  code.u1(0xa9).u1(4);       // 22: ret 4
  const MethodIr ir =
      translate(with_method(b, "(Ljava/lang/Object;)I", code, 1, 5, {{0, 5, 10, 0}}));
  EXPECT_EQ(method_ir_text(ir),
            "<test.Sample: int m(java.lang.Object)> {\n"
            "  java.lang.Object l0;\n"
            "  int l2;\n"
            "  returnAddress $stack0;\n"
            "  java.lang.Throwable l3;\n"
            "  returnAddress l4;\n"
            "  ? @0: l0 := @parameter0: java.lang.Object\n"
            "  ? @1: l2 = virtualinvoke l0.<java.lang.Object: int hashCode()>()\n"
            "  ? @5: $stack0 = jsr @16\n"
            "  ? @9: return l2\n"
            "  ? @10: l3 = @caughtexception any\n"
            "  ? @11: $stack0 = jsr @16\n"
            "  ? @15: throw l3\n"
            "  ? @16: l4 = $stack0\n"
            "  ? @19: virtualinvoke l0.<java.lang.Object: void notify()>()\n"
            "  ? @22: ret l4 (@8, @14)\n"
            "  catch any [@0, @5) -> @10: l3\n"
            "}\n");
}

TEST(IrBytecodeTest, NestedSubroutines) {
  ClassBuilder b;
  Bytes code;
  code.u1(0xa8).u2(4);  // 0: jsr 4
  code.u1(0xb1);        // 3: return
  code.u1(0x4b);        // 4: astore_0
  code.u1(0xa8).u2(5);  // 5: jsr 10
  code.u1(0xa9).u1(0);  // 8: ret 0
  code.u1(0x4c);        // 10: astore_1
  code.u1(0xa9).u1(1);  // 11: ret 1
  const MethodIr ir = translate(with_method(b, "()V", code, 1, 2));
  EXPECT_EQ(texts_of(ir, StatementKind::kRet),
            (std::vector<std::string>{"ret l0 (@3)", "ret l1 (@8)"}));
}

TEST(IrBytecodeTest, RetOfANonReturnAddressIsAnError) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x03);        // 0: iconst_0
  code.u1(0x3b);        // 1: istore_0
  code.u1(0xa9).u1(0);  // 2: ret 0
  expect_error(with_method(b, "()V", code, 1, 1), 2, "not a returnAddress");
}

TEST(IrBytecodeTest, ReturnAddressCannotBeLoaded) {
  ClassBuilder b;
  Bytes code;
  code.u1(0xa8).u2(4);  // 0: jsr 4
  code.u1(0xb1);        // 3: return
  code.u1(0x4b);        // 4: astore_0
  code.u1(0x2a);        // 5: aload_0
  code.u1(0x57);        // 6: pop
  code.u1(0xa9).u1(0);  // 7: ret 0
  expect_error(with_method(b, "()V", code, 1, 1), 5, "holds returnAddress, not reference");
}

// --- verify errors ------------------------------------------------------------------------

TEST(IrBytecodeTest, StackUnderflow) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x00);  // 0: nop
  code.u1(0x57);  // 1: pop
  code.u1(0xb1);  // 2: return
  expect_error(with_method(b, "()V", code, 1, 0), 1, "pop at pc 1: operand stack underflow");
}

TEST(IrBytecodeTest, StackOverflow) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x03);  // 0: iconst_0
  code.u1(0x03);  // 1: iconst_0
  code.u1(0xb1);  // 2: return
  expect_error(with_method(b, "()V", code, 1, 0), 1, "operand stack overflow (max_stack 1)");
}

TEST(IrBytecodeTest, OperandKindMismatch) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x01);  // 0: aconst_null
  code.u1(0x04);  // 1: iconst_1
  code.u1(0x60);  // 2: iadd
  code.u1(0xb1);  // 3: return
  expect_error(with_method(b, "()V", code, 2, 0), 2,
               "expects int on the operand stack, found reference");
}

TEST(IrBytecodeTest, StackKindsDisagreeAtAJoin) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x1a);        // 0: iload_0
  code.u1(0x99).u2(7);  // 1: ifeq 8
  code.u1(0x04);        // 4: iconst_1
  code.u1(0xa7).u2(4);  // 5: goto 9
  code.u1(0x01);        // 8: aconst_null
  code.u1(0x57);        // 9: pop
  code.u1(0xb1);        // 10: return
  // The goto reaches pc 9 first and fixes its entry; the fall-through from pc 8 disagrees.
  expect_error(with_method(b, "(Z)V", code, 1, 1), 8,
               "aconst_null at pc 8: operand stack entry 0 is reference here but int at pc 9, "
               "where control flow joins");
}

TEST(IrBytecodeTest, StackHeightsDisagreeAtAJoin) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x1a);        // 0: iload_0
  code.u1(0x99).u2(4);  // 1: ifeq 5
  code.u1(0x04);        // 4: iconst_1
  code.u1(0xb1);        // 5: return
  expect_error(with_method(b, "(Z)V", code, 1, 1), 4, "where control flow joins");
}

TEST(IrBytecodeTest, FallingOffTheEnd) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x03);  // 0: iconst_0
  code.u1(0x57);  // 1: pop
  expect_error(with_method(b, "()V", code, 1, 0), 1, "falls off the end of the code");
}

TEST(IrBytecodeTest, ConditionalBranchFallingOffTheEnd) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x03);                  // 0: iconst_0
  code.u1(0x99).u2(-1 & 0xFFFF);  // 1: ifeq 0
  expect_error(with_method(b, "()V", code, 1, 0), 1, "falls off the end of the code");
}

TEST(IrBytecodeTest, ReturnKindMustMatchTheDescriptor) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x03);  // 0: iconst_0
  code.u1(0xac);  // 1: ireturn
  expect_error(with_method(b, "()Ljava/lang/String;", code, 1, 0), 1,
               "returns int from a method returning java.lang.String");
}

TEST(IrBytecodeTest, LoadOfAnUnsetLocal) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x2b);  // 0: aload_1
  code.u1(0xb0);  // 1: areturn
  expect_error(with_method(b, "(I)Ljava/lang/Object;", code, 1, 2), 0,
               "local variable 1 holds nothing, not reference");
}

TEST(IrBytecodeTest, LocalOutOfRange) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x19).u1(5);  // 0: aload 5
  code.u1(0xb0);        // 2: areturn
  expect_error(with_method(b, "()Ljava/lang/Object;", code, 1, 1), 0,
               "local variable 5 is out of range (max_locals 1)");
}

TEST(IrBytecodeTest, ParametersMustFitMaxLocals) {
  ClassBuilder b;
  Bytes code;
  code.u1(0xb1);  // 0: return
  expect_error(with_method(b, "(JI)V", code, 0, 2), 0, "parameters need more than max_locals");
}

TEST(IrBytecodeTest, MalformedMemberDescriptor) {
  ClassBuilder b;
  const auto bad = b.methodref("a/B", "m", "(X)V");
  Bytes code;
  code.u1(0xb8).u2(bad);  // 0: invokestatic a.B.m(X)V
  code.u1(0xb1);          // 3: return
  expect_error(with_method(b, "()V", code, 1, 0), 0, "invalid method descriptor \"(X)V\"");
}

TEST(IrBytecodeTest, NewOfAnArrayClass) {
  ClassBuilder b;
  const auto array = b.class_ref("[I");
  Bytes code;
  code.u1(0xbb).u2(array);  // 0: new [I
  code.u1(0xb0);            // 3: areturn
  expect_error(with_method(b, "()Ljava/lang/Object;", code, 1, 0), 0,
               "creates an instance of array class int[]");
}

// Hostile sizes are refused quickly instead of exhausting memory: 300 blocks times 65,535
// local slots is beyond the bound (javac's code stays below 13,000 over the whole JDK).
TEST(IrBytecodeTest, HostileSizesAreRefused) {
  ClassBuilder b;
  Bytes code;
  for (int i = 0; i < 300; ++i) code.u1(0xa7).u2(3);  // goto the next instruction
  code.u1(0xb1);                                      // return
  expect_error(with_method(b, "()V", code, 0, 65535), 0, "too many to translate");
}

// --- stack operations ---------------------------------------------------------------------

TEST(IrBytecodeTest, SwapAndDupForms) {
  ClassBuilder b;
  const auto a = b.string("a");
  const auto s = b.string("b");
  Bytes code;
  code.u1(0x12).u1(a);  // 0: ldc "a"
  code.u1(0x12).u1(s);  // 2: ldc "b"
  code.u1(0x5f);        // 4: swap          a b -> b a
  code.u1(0x5a);        // 5: dup_x1        b a -> a b a
  code.u1(0x57);        // 6: pop           -> a b
  code.u1(0x5f);        // 7: swap          -> b a
  code.u1(0x57);        // 8: pop           -> b
  code.u1(0xb0);        // 9: areturn
  const MethodIr ir = translate(with_method(b, "()Ljava/lang/Object;", code, 3, 0));
  EXPECT_EQ(method_ir_text(ir),
            "<test.Sample: java.lang.Object m()> {\n"
            "  java.lang.String $stack0;\n"
            "  java.lang.String $stack1;\n"
            "  ? @0: $stack0 = \"a\"\n"
            "  ? @2: $stack1 = \"b\"\n"
            "  ? @9: return $stack1\n"
            "}\n");
}

TEST(IrBytecodeTest, CategoryTwoForms) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x0a);  // 0: lconst_1
  code.u1(0x5c);  // 1: dup2           (form 2)   J J
  code.u1(0x61);  // 2: ladd
  code.u1(0x01);  // 3: aconst_null                J R
  code.u1(0x5b);  // 4: dup_x2         (form 2)   R J R
  code.u1(0x57);  // 5: pop                       R J
  code.u1(0x5d);  // 6: dup2_x1        (form 2)   J R J
  code.u1(0x58);  // 7: pop2                      J R
  code.u1(0x5e);  // 8: dup2_x2 (form 1 needs cat1 pairs; here: v1=R cat1, v2=J cat2 -> invalid)
  code.u1(0xb1);  // 9: return
  expect_error(with_method(b, "()V", code, 6, 0), 8, "expects a category 1 value");
}

TEST(IrBytecodeTest, Dup2X2Form4) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x0f);  // 0: dconst_1
  code.u1(0x0a);  // 1: lconst_1     D J
  code.u1(0x5e);  // 2: dup2_x2      J D J  (form 4)
  code.u1(0x58);  // 3: pop2         J D
  code.u1(0x58);  // 4: pop2         J
  code.u1(0xad);  // 5: lreturn
  const MethodIr ir = translate(with_method(b, "()J", code, 6, 0));
  EXPECT_EQ(texts_of(ir, StatementKind::kReturn), std::vector<std::string>{"return 1L"});
}

// A loop that swaps the two values it keeps on the stack: the copies into the loop header's
// entry variables must act in parallel.
TEST(IrBytecodeTest, StackValuesAcrossALoopAreCopiedInParallel) {
  ClassBuilder b;
  const auto a = b.string("a");
  const auto s = b.string("b");
  Bytes code;
  code.u1(0x12).u1(a);            // 0: ldc "a"
  code.u1(0x12).u1(s);            // 2: ldc "b"
  code.u1(0x1a);                  // 4: iload_0
  code.u1(0x9e).u2(10);           // 5: ifle 15
  code.u1(0x5f);                  // 8: swap
  code.u1(0x84).u1(0).u1(0xff);   // 9: iinc 0 -1
  code.u1(0xa7).u2(-8 & 0xFFFF);  // 12: goto 4
  code.u1(0x57);                  // 15: pop
  code.u1(0xb0);                  // 16: areturn
  const MethodIr ir = translate(with_method(b, "(I)Ljava/lang/Object;", code, 3, 1));
  EXPECT_EQ(method_ir_text(ir),
            "<test.Sample: java.lang.Object m(int)> {\n"
            "  int l0;\n"
            "  java.lang.String $stack0;\n"
            "  java.lang.String $stack1;\n"
            "  java.lang.String $stack2;\n"
            "  java.lang.String $stack3;\n"
            "  java.lang.String $stack4;\n"
            "  java.lang.String $stack5;\n"
            "  ? @0: l0 := @parameter0: int\n"
            "  ? @0: $stack0 = \"a\"\n"
            "  ? @2: $stack1 = \"b\"\n"
            "  ? @2: $stack2 = $stack0\n"
            "  ? @2: $stack3 = $stack1\n"
            "  ? @5: if ifle(l0) goto @15\n"
            "  ? @9: l0 = iinc(l0, -1)\n"
            // After the swap the stack is [$stack3, $stack2]; the header expects it in
            // [$stack2, $stack3], so both sources are saved before either is overwritten.
            "  ? @12: $stack4 = $stack3\n"
            "  ? @12: $stack5 = $stack2\n"
            "  ? @12: $stack2 = $stack4\n"
            "  ? @12: $stack3 = $stack5\n"
            "  ? @12: goto @4\n"
            "  ? @16: return $stack2\n"
            "}\n");
}

// A conditional expression leaves one of two values on the stack for the join.
TEST(IrBytecodeTest, ValueOnTheStackAtAJoinHasOneVariableWithTwoDefinitions) {
  ClassBuilder b;
  const auto a = b.string("a");
  Bytes code;
  code.u1(0x1a);        // 0: iload_0
  code.u1(0x99).u2(8);  // 1: ifeq 9
  code.u1(0x12).u1(a);  // 4: ldc "a"
  code.u1(0xa7).u2(4);  // 6: goto 10
  code.u1(0x01);        // 9: aconst_null
  code.u1(0xb0);        // 10: areturn
  const MethodIr ir = translate(with_method(b, "(Z)Ljava/lang/Object;", code, 1, 1));
  const auto returns = statements_of(ir, StatementKind::kReturn);
  ASSERT_EQ(returns.size(), 1u);
  const VarId merged = returns[0]->args[0].var;
  EXPECT_EQ(def_count(ir, merged), 2u);
  EXPECT_EQ(var(ir, merged).type.to_java(), "java.lang.String");  // null does not count
}

// --- def-use webs -------------------------------------------------------------------------

TEST(IrBytecodeTest, SlotReusedWithoutLocalVariableTable) {
  ClassBuilder b;
  const auto a = b.string("a");
  const auto s = b.string("b");
  const auto use = b.methodref("test/Sample", "use", "(Ljava/lang/Object;)V");
  Bytes code;
  code.u1(0x12).u1(a);    // 0: ldc "a"
  code.u1(0x4b);          // 2: astore_0
  code.u1(0x2a);          // 3: aload_0
  code.u1(0xb8).u2(use);  // 4: invokestatic use
  code.u1(0x12).u1(s);    // 7: ldc "b"
  code.u1(0x4b);          // 9: astore_0
  code.u1(0x2a);          // 10: aload_0
  code.u1(0xb8).u2(use);  // 11: invokestatic use
  code.u1(0xb1);          // 14: return
  const MethodIr ir = translate(with_method(b, "()V", code, 1, 1));
  EXPECT_EQ(texts_of(ir, StatementKind::kStringConstant),
            (std::vector<std::string>{"l0 = \"a\"", "l0#2 = \"b\""}));
  const auto calls = statements_of(ir, StatementKind::kInvoke);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_NE(calls[0]->args[0].var, calls[1]->args[0].var);
}

TEST(IrBytecodeTest, DefinitionsMeetingAtALiveJoinShareAVariable) {
  ClassBuilder b;
  const auto a = b.string("a");
  const auto s = b.string("b");
  const auto use = b.methodref("test/Sample", "use", "(Ljava/lang/Object;)V");
  Bytes code;
  code.u1(0x1a);          // 0: iload_0
  code.u1(0x99).u2(9);    // 1: ifeq 10
  code.u1(0x12).u1(a);    // 4: ldc "a"
  code.u1(0x4c);          // 6: astore_1
  code.u1(0xa7).u2(6);    // 7: goto 13
  code.u1(0x12).u1(s);    // 10: ldc "b"
  code.u1(0x4c);          // 12: astore_1
  code.u1(0x2b);          // 13: aload_1
  code.u1(0xb8).u2(use);  // 14: invokestatic use
  code.u1(0xb1);          // 17: return
  const MethodIr ir = translate(with_method(b, "(Z)V", code, 1, 2));
  EXPECT_EQ(texts_of(ir, StatementKind::kStringConstant),
            (std::vector<std::string>{"l1 = \"a\"", "l1 = \"b\""}));
  EXPECT_EQ(def_count(ir, var_named(ir, "l1")), 2u);
}

// A stack entry loaded from a local keeps the old value when the local is then overwritten
// (x = i++ style).
TEST(IrBytecodeTest, LoadedValueSurvivesALaterStoreToItsLocal) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x1a);              // 0: iload_0
  code.u1(0x84).u1(0).u1(1);  // 1: iinc 0 1
  code.u1(0xac);              // 4: ireturn  (the old value)
  const MethodIr ir = translate(with_method(b, "(I)I", code, 1, 1));
  EXPECT_EQ(method_ir_text(ir),
            "<test.Sample: int m(int)> {\n"
            "  int l0;\n"
            "  int $stack0;\n"
            "  ? @0: l0 := @parameter0: int\n"
            "  ? @1: $stack0 = l0\n"
            "  ? @1: l0 = iinc(l0, 1)\n"
            "  ? @4: return $stack0\n"
            "}\n");
}

TEST(IrBytecodeTest, UnreachableCodeIsCountedNotTranslated) {
  ClassBuilder b;
  Bytes code;
  code.u1(0xa7).u2(5);  // 0: goto 5
  code.u1(0x57);        // 3: pop (would underflow, but is dead)
  code.u1(0x57);        // 4: pop
  code.u1(0xb1);        // 5: return
  const MethodIr ir = translate(with_method(b, "()V", code, 0, 0));
  EXPECT_EQ(ir.counts.instructions, 4u);
  EXPECT_EQ(ir.counts.unreachable_instructions, 2u);
  EXPECT_EQ(ir.statements.size(), 2u);
}

// Normal control flow falling into an exception handler: the handler's variable then has two
// definitions, the catch and the copy.
TEST(IrBytecodeTest, HandlerAlsoReachedByNormalFlow) {
  ClassBuilder b;
  Bytes code;
  code.u1(0x01);  // 0: aconst_null
  code.u1(0xbf);  // 1: athrow
  const MethodIr ir = translate(with_method(b, "()V", code, 1, 0, {{0, 1, 1, 0}}));
  const auto catches = statements_of(ir, StatementKind::kCatch);
  ASSERT_EQ(catches.size(), 1u);
  EXPECT_EQ(def_count(ir, catches[0]->dst), 2u);
  EXPECT_EQ(var(ir, catches[0]->dst).origin, VariableOrigin::kCaughtException);
  EXPECT_EQ(ir.handlers.at(0).var, catches[0]->dst);
}

// A handler whose range covers only dead code is never entered by an exception, even if
// normal control flow runs its code: no catch statement, no handler variable.
TEST(IrBytecodeTest, HandlerOverDeadCodeCatchesNothing) {
  ClassBuilder b;
  Bytes code;
  code.u1(0xa7).u2(4);  // 0: goto 4
  code.u1(0x00);        // 3: nop (dead, covered)
  code.u1(0xb1);        // 4: return (the handler)
  const MethodIr ir = translate(with_method(b, "()V", code, 1, 0, {{3, 4, 4, 0}}));
  EXPECT_TRUE(statements_of(ir, StatementKind::kCatch).empty());
  ASSERT_EQ(ir.handlers.size(), 1u);
  EXPECT_EQ(ir.handlers[0].var, kNoVar);
  EXPECT_NE(method_ir_text(ir).find("catch any [@3, @4) -> @4: unreachable"), std::string::npos);
}

// Locals stored inside a try range reach the handler from the instruction after the store.
TEST(IrBytecodeTest, HandlerSeesEveryDefinitionInItsRange) {
  ClassBuilder b;
  const auto a = b.string("a");
  const auto s = b.string("b");
  const auto use = b.methodref("test/Sample", "use", "(Ljava/lang/Object;)V");
  Bytes code;
  code.u1(0x12).u1(a);    // 0: ldc "a"
  code.u1(0x4b);          // 2: astore_0
  code.u1(0x2a);          // 3: aload_0
  code.u1(0xb8).u2(use);  // 4: invokestatic use
  code.u1(0x12).u1(s);    // 7: ldc "b"
  code.u1(0x4b);          // 9: astore_0
  code.u1(0x2a);          // 10: aload_0
  code.u1(0xb8).u2(use);  // 11: invokestatic use
  code.u1(0xb1);          // 14: return
  code.u1(0x57);          // 15: pop (the exception)
  code.u1(0x2a);          // 16: aload_0
  code.u1(0xb8).u2(use);  // 17: invokestatic use
  code.u1(0xb1);          // 20: return
  const MethodIr ir = translate(with_method(b, "()V", code, 1, 1, {{3, 14, 15, 0}}));
  // Both values may be in slot 0 when the handler runs: one web.
  EXPECT_EQ(texts_of(ir, StatementKind::kStringConstant),
            (std::vector<std::string>{"l0 = \"a\"", "l0 = \"b\""}));
}

// --- constants and invokedynamic ----------------------------------------------------------

Bytes bootstrap_methods(
    const std::vector<std::pair<std::uint16_t, std::vector<std::uint16_t>>>& m) {
  Bytes body;
  body.u2(static_cast<unsigned>(m.size()));
  for (const auto& [handle, args] : m) {
    body.u2(handle).u2(static_cast<unsigned>(args.size()));
    for (const auto arg : args) body.u2(arg);
  }
  return body;
}

TEST(IrBytecodeTest, MethodTypeMethodHandleAndDynamicConstants) {
  ClassBuilder b;
  const auto type = b.method_type("(I)V");
  const auto handle = b.method_handle(6, b.methodref("a/B", "f", "(I)V"));
  const auto bsm =
      b.method_handle(6, b.methodref("a/Boot", "constant",
                                     "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
                                     "Ljava/lang/Class;)Ljava/lang/Object;"));
  const auto dynamic = b.dynamic(0, "NAME", "Ljava/lang/String;");
  b.add_class_attribute(b.attribute("BootstrapMethods", bootstrap_methods({{bsm, {}}})));
  Bytes code;
  code.u1(0x12).u1(type);     // 0: ldc MethodType
  code.u1(0x57);              // 2: pop
  code.u1(0x12).u1(handle);   // 3: ldc MethodHandle
  code.u1(0x57);              // 5: pop
  code.u1(0x12).u1(dynamic);  // 6: ldc Dynamic
  code.u1(0xb0);              // 8: areturn
  const MethodIr ir = translate(with_method(b, "()Ljava/lang/Object;", code, 1, 0));
  EXPECT_EQ(texts_of(ir, StatementKind::kMethodTypeConstant),
            std::vector<std::string>{"$stack0 = methodtype (I)V"});
  EXPECT_EQ(texts_of(ir, StatementKind::kMethodHandleConstant),
            std::vector<std::string>{"$stack1 = methodhandle invokestatic <a.B: void f(int)>"});
  const auto dyn = texts_of(ir, StatementKind::kDynamicConstant);
  ASSERT_EQ(dyn.size(), 1u);
  EXPECT_NE(dyn[0].find("dynamicconstant \"NAME\" Ljava/lang/String; bootstrap invokestatic "
                        "<a.Boot: java.lang.Object constant("),
            std::string::npos)
      << dyn[0];
  EXPECT_NE(dyn[0].find("[unsupported]"), std::string::npos);
  EXPECT_EQ(ir.counts.dynamic_constants, 1u);
  EXPECT_EQ(var(ir, statements_of(ir, StatementKind::kDynamicConstant)[0]->dst).type.to_java(),
            "java.lang.String");
}

TEST(IrBytecodeTest, UnknownBootstrapIsAnUnsupportedInvokedynamic) {
  ClassBuilder b;
  const auto bsm = b.method_handle(6, b.methodref("a/Boot", "link", "()Ljava/lang/Object;"));
  const auto site = b.invoke_dynamic(0, "go", "(I)Ljava/lang/Runnable;");
  // LambdaMetafactory with arguments that break its contract is unsupported as well.
  const auto lmf =
      b.method_handle(6, b.methodref("java/lang/invoke/LambdaMetafactory", "metafactory", "()V"));
  const auto bad_lambda = b.invoke_dynamic(1, "run", "()Ljava/lang/Runnable;");
  b.add_class_attribute(b.attribute(
      "BootstrapMethods", bootstrap_methods({{bsm, {b.integer(7)}}, {lmf, {b.integer(1)}}})));
  Bytes code;
  code.u1(0x04);                             // 0: iconst_1
  code.u1(0xba).u2(site).u1(0).u1(0);        // 1: invokedynamic go
  code.u1(0x57);                             // 6: pop
  code.u1(0xba).u2(bad_lambda).u1(0).u1(0);  // 7: invokedynamic run
  code.u1(0xb0);                             // 12: areturn
  const MethodIr ir = translate(with_method(b, "()Ljava/lang/Object;", code, 1, 0));
  EXPECT_EQ(ir.counts.unsupported_invokedynamic, 2u);
  EXPECT_EQ(ir.counts.lambdas, 0u);
  const auto texts = texts_of(ir, StatementKind::kInvokeDynamic);
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_EQ(texts[0],
            "$stack0 = dynamicinvoke \"go\" (I)Ljava/lang/Runnable; bootstrap invokestatic "
            "<a.Boot: java.lang.Object link()>[7](1) [unsupported]");
}

// --- methods without code -------------------------------------------------------------------

TEST(IrBytecodeTest, AbstractMethodHasParametersOnly) {
  ClassBuilder b;
  b.add_method(0x0401, "m", "(Ljava/lang/String;J)I");  // public abstract
  const ClassFile cls = parse_class_file(b.build(), "Sample.class");
  const MethodIr ir = translate(cls);
  EXPECT_FALSE(ir.has_body);
  EXPECT_EQ(ir.parameters.size(), 2u);
  EXPECT_NE(ir.this_var, kNoVar);
  EXPECT_EQ(var(ir, ir.this_var).name, "this");
  EXPECT_EQ(var(ir, ir.parameters[1]).slot, 2);
  EXPECT_EQ(method_ir_text(ir),
            "<test.Sample: int m(java.lang.String,long)> // no code {\n"
            "  test.Sample this;\n"
            "  java.lang.String l1;\n"
            "  long l2;\n"
            "  ? @0: this := @this: test.Sample\n"
            "  ? @0: l1 := @parameter0: java.lang.String\n"
            "  ? @0: l2 := @parameter1: long\n"
            "}\n");
}

}  // namespace
}  // namespace refract::frontend
