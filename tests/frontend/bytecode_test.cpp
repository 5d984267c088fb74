// The bytecode decoder on hand-assembled method bodies: operand layouts, wide forms, switch
// padding at every alignment, subroutines, invokedynamic, and malformed code.
#include "frontend/bytecode.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "frontend/class_builder.hpp"

namespace refract::frontend {
namespace {

using testing::Bytes;
using testing::ClassBuilder;

constexpr const char* kAppOrigin = "app.jar!test/Sample.class";

// Builds a class with one static method m()V whose code is made by `make_code` (which may add
// constants), parses it and decodes the method.
struct DecodedMethod {
  ClassFile cls;
  std::vector<std::uint8_t> bytes;

  explicit DecodedMethod(const std::function<Bytes(ClassBuilder&)>& make_code,
                         std::vector<ClassBuilder::Handler> handlers = {}, std::uint16_t major = 61,
                         const std::function<void(ClassBuilder&)>& extra = {}) {
    ClassBuilder b;
    b.major = major;
    const Bytes code = make_code(b);
    if (extra) extra(b);
    b.add_method(access::kStatic, "m", "()V", {b.code_attribute(10, 10, code, handlers)});
    bytes = b.build();
    cls = parse_class_file(bytes, kAppOrigin);
  }
  const MethodInfo& method() const { return cls.methods.at(0); }
  DecodedCode decode() const { return decode_code(cls, method()); }
  std::string error() const {
    try {
      decode();
    } catch (const ClassFormatError& e) {
      return e.what();
    }
    return "";
  }
  // The file offset of pc 0, for expected messages.
  std::string at(std::uint32_t pc) const {
    return std::string(kAppOrigin) + ":" + std::to_string(method().code->bytes_offset + pc) + ": ";
  }
};

TEST(BytecodeTest, OpcodeNames) {
  EXPECT_EQ(opcode_name(Opcode::kNop), "nop");
  EXPECT_EQ(opcode_name(Opcode::kIfIcmpeq), "if_icmpeq");
  EXPECT_EQ(opcode_name(Opcode::kInvokedynamic), "invokedynamic");
  EXPECT_EQ(opcode_name(Opcode::kJsrW), "jsr_w");
  EXPECT_EQ(static_cast<int>(Opcode::kJsrW), 0xc9);
  EXPECT_EQ(static_cast<int>(Opcode::kMultianewarray), 0xc5);
  EXPECT_EQ(static_cast<int>(Opcode::kReturn), 0xb1);
}

TEST(BytecodeTest, SimpleOperandsAndImplicitOperands) {
  std::uint16_t field = 0;
  std::uint16_t cls_index = 0;
  const DecodedMethod f([&](ClassBuilder& b) {
    field = b.fieldref("test/Sample", "x", "I");
    cls_index = b.class_ref("java/lang/String");
    Bytes c;
    c.u1(0x02);                 // 0 iconst_m1
    c.u1(0x10).u1(0xF6);        // 1 bipush -10
    c.u1(0x11).u2(0x8000);      // 3 sipush -32768
    c.u1(0x36).u1(200);         // 6 istore 200
    c.u1(0x2c);                 // 8 aload_2
    c.u1(0x4b);                 // 9 astore_0
    c.u1(0x84).u1(3).u1(0xFF);  // 10 iinc 3 -1
    c.u1(0xb2).u2(field);       // 13 getstatic
    c.u1(0xbc).u1(10);          // 16 newarray int
    c.u1(0xbd).u2(cls_index);   // 18 anewarray
    c.u1(0x0d);                 // 21 fconst_2
    c.u1(0xb1);                 // 22 return
    return c;
  });
  const DecodedCode code = f.decode();
  const auto& ins = code.instructions();
  ASSERT_EQ(ins.size(), 12u);
  EXPECT_EQ(ins[0].opcode, Opcode::kIconstM1);
  EXPECT_EQ(ins[0].immediate, -1);
  EXPECT_EQ(ins[1].opcode, Opcode::kBipush);
  EXPECT_EQ(ins[1].immediate, -10);
  EXPECT_EQ(ins[1].pc, 1u);
  EXPECT_EQ(ins[1].length, 2u);
  EXPECT_EQ(ins[2].immediate, -32768);
  EXPECT_EQ(ins[3].opcode, Opcode::kIstore);
  EXPECT_EQ(ins[3].local, 200);
  EXPECT_FALSE(ins[3].wide);
  EXPECT_EQ(ins[4].opcode, Opcode::kAload2);
  EXPECT_EQ(ins[4].local, 2);
  EXPECT_EQ(ins[5].opcode, Opcode::kAstore0);
  EXPECT_EQ(ins[5].local, 0);
  EXPECT_EQ(ins[6].opcode, Opcode::kIinc);
  EXPECT_EQ(ins[6].local, 3);
  EXPECT_EQ(ins[6].immediate, -1);
  EXPECT_EQ(ins[7].opcode, Opcode::kGetstatic);
  EXPECT_EQ(ins[7].constant, field);
  EXPECT_EQ(f.cls.constant_pool.member_ref(ins[7].constant).name, "x");
  EXPECT_EQ(ins[8].immediate, 10);
  EXPECT_EQ(ins[9].constant, cls_index);
  EXPECT_EQ(ins[10].immediate, 2);
  EXPECT_EQ(ins[11].opcode, Opcode::kReturn);
  EXPECT_EQ(code.index_at(13), 7u);
  EXPECT_FALSE(code.index_at(14).has_value());
  EXPECT_FALSE(code.index_at(1000).has_value());
}

TEST(BytecodeTest, WideForms) {
  const DecodedMethod f([](ClassBuilder&) {
    Bytes c;
    c.u1(0xc4).u1(0x15).u2(300);             // 0 wide iload 300
    c.u1(0xc4).u1(0x84).u2(301).u2(0xFFFE);  // 4 wide iinc 301 -2
    c.u1(0xc4).u1(0x3a).u2(65535);           // 10 wide astore 65535
    c.u1(0xa8).u2(7);                        // 14 jsr +7 -> 21
    c.u1(0xb1);                              // 17 return
    c.u1(0x00).u1(0x00).u1(0x00);            // 18 nop x3
    c.u1(0x4c);                              // 21 astore_1
    c.u1(0xc4).u1(0xa9).u2(1);               // 22 wide ret 1
    return c;
  });
  const auto ins = f.decode().instructions();
  ASSERT_EQ(ins.size(), 10u);
  EXPECT_EQ(ins[0].opcode, Opcode::kIload);
  EXPECT_TRUE(ins[0].wide);
  EXPECT_EQ(ins[0].local, 300);
  EXPECT_EQ(ins[0].length, 4u);
  EXPECT_EQ(ins[1].opcode, Opcode::kIinc);
  EXPECT_TRUE(ins[1].wide);
  EXPECT_EQ(ins[1].local, 301);
  EXPECT_EQ(ins[1].immediate, -2);
  EXPECT_EQ(ins[1].length, 6u);
  EXPECT_EQ(ins[2].local, 65535);
  EXPECT_EQ(ins[3].opcode, Opcode::kJsr);
  EXPECT_EQ(ins[3].target, 21u);
  EXPECT_EQ(ins[9].opcode, Opcode::kRet);
  EXPECT_TRUE(ins[9].wide);
  EXPECT_EQ(ins[9].local, 1);
}

TEST(BytecodeTest, WideOfAnOpcodeWithoutWideForm) {
  const DecodedMethod f(
      [](ClassBuilder&) { return Bytes().u1(0xc4).u1(0x60).u1(0).u1(0).u1(0xb1); });
  EXPECT_EQ(f.error(), f.at(0) + "method m()V: wide at pc 0 modifies iadd, which has no wide form");
}

// 0 iconst_0; 1 ifeq -> 9; 4 jsr_w -> 13; 9 return; 10 goto -> 9; 13 astore_1; 14 ret 1;
// 16 goto_w with the given offset.
Bytes subroutine_code(std::int32_t goto_w_offset) {
  Bytes c;
  c.u1(0x03);
  c.u1(0x99).u2(8);
  c.u1(0xc9).u4(9);
  c.u1(0xb1);
  c.u1(0xa7).u2(0xFFFF);
  c.u1(0x4c);
  c.u1(0xa9).u1(1);
  c.u1(0xc8).u4(static_cast<std::uint32_t>(goto_w_offset));
  return c;
}

TEST(BytecodeTest, BranchesAndSubroutines) {
  const DecodedMethod g([](ClassBuilder&) { return subroutine_code(-15); });
  const auto ins = g.decode().instructions();
  ASSERT_EQ(ins.size(), 8u);
  EXPECT_EQ(ins[1].opcode, Opcode::kIfeq);
  EXPECT_EQ(ins[1].target, 9u);
  EXPECT_EQ(ins[2].opcode, Opcode::kJsrW);
  EXPECT_EQ(ins[2].target, 13u);
  EXPECT_EQ(ins[2].length, 5u);
  EXPECT_EQ(ins[4].opcode, Opcode::kGoto);
  EXPECT_EQ(ins[4].target, 9u);
  EXPECT_EQ(ins[6].opcode, Opcode::kRet);
  EXPECT_EQ(ins[6].local, 1);
  EXPECT_EQ(ins[7].opcode, Opcode::kGotoW);
  EXPECT_EQ(ins[7].target, 1u);

  const DecodedMethod before([](ClassBuilder&) { return subroutine_code(-17); });
  EXPECT_EQ(before.error(), before.at(16) +
                                "method m()V: goto_w at pc 16 branches to -1, outside "
                                "the code (length 21)");
  const DecodedMethod after([](ClassBuilder&) { return subroutine_code(5); });
  EXPECT_EQ(after.error(), after.at(16) +
                               "method m()V: goto_w at pc 16 branches to 21, outside "
                               "the code (length 21)");
}

TEST(BytecodeTest, BranchIntoTheMiddleOfAnInstruction) {
  const DecodedMethod f([](ClassBuilder&) {
    return Bytes().u1(0x11).u2(5).u1(0xa7).u2(0xFFFE).u1(0xb1);  // goto -2 -> pc 1
  });
  EXPECT_EQ(f.error(), f.at(3) +
                           "method m()V: goto at pc 3 branches to pc 1, which is not the "
                           "start of an instruction");
}

// tableswitch after `nops` nops: its operands start at the next multiple of 4 from the start
// of the code, so padding is 3, 2, 1, 0 bytes for nops = 0, 1, 2, 3.
Bytes tableswitch_code(unsigned nops) {
  Bytes c;
  for (unsigned i = 0; i < nops; ++i) c.u1(0x00);
  const unsigned pc = nops;
  c.u1(0xaa);
  while (c.size() % 4 != 0) c.u1(0);
  const unsigned after = static_cast<unsigned>(c.size()) + 12 + 3 * 4;  // first byte after
  c.u4(after - pc).u4(static_cast<std::uint32_t>(-1)).u4(1);            // default, low, high
  c.u4(after - pc).u4(after + 1 - pc).u4(after + 2 - pc);
  c.u1(0xb1).u1(0xb1).u1(0xb1);
  return c;
}

TEST(BytecodeTest, TableswitchPaddingAtEveryAlignment) {
  for (unsigned nops = 0; nops < 4; ++nops) {
    SCOPED_TRACE("nops=" + std::to_string(nops));
    const DecodedMethod f([&](ClassBuilder&) { return tableswitch_code(nops); });
    const auto ins = f.decode().instructions();
    ASSERT_EQ(ins.size(), nops + 4);
    const Instruction& sw = ins[nops];
    EXPECT_EQ(sw.opcode, Opcode::kTableswitch);
    EXPECT_EQ(sw.pc, nops);
    const unsigned padding = 3 - nops;
    EXPECT_EQ(sw.length, 1 + padding + 12 + 12);
    const unsigned after = nops + sw.length;
    EXPECT_EQ(sw.target, after);
    ASSERT_EQ(sw.cases.size(), 3u);
    EXPECT_EQ(sw.cases[0].key, -1);
    EXPECT_EQ(sw.cases[0].target, after);
    EXPECT_EQ(sw.cases[2].key, 1);
    EXPECT_EQ(sw.cases[2].target, after + 2);
  }
}

Bytes lookupswitch_code(unsigned nops, std::int32_t first_key, std::int32_t second_key) {
  Bytes c;
  for (unsigned i = 0; i < nops; ++i) c.u1(0x00);
  const unsigned pc = nops;
  c.u1(0xab);
  while (c.size() % 4 != 0) c.u1(0);
  const unsigned after = static_cast<unsigned>(c.size()) + 8 + 2 * 8;
  c.u4(after - pc).u4(2);
  c.u4(static_cast<std::uint32_t>(first_key)).u4(after + 1 - pc);
  c.u4(static_cast<std::uint32_t>(second_key)).u4(after - pc);
  c.u1(0xb1).u1(0xb1);
  return c;
}

TEST(BytecodeTest, LookupswitchPaddingAtEveryAlignment) {
  for (unsigned nops = 0; nops < 4; ++nops) {
    SCOPED_TRACE("nops=" + std::to_string(nops));
    const DecodedMethod f([&](ClassBuilder&) { return lookupswitch_code(nops, -5, 1000000); });
    const auto ins = f.decode().instructions();
    ASSERT_EQ(ins.size(), nops + 3);
    const Instruction& sw = ins[nops];
    EXPECT_EQ(sw.opcode, Opcode::kLookupswitch);
    EXPECT_EQ(sw.length, 1 + (3 - nops) + 8 + 16);
    const unsigned after = nops + sw.length;
    EXPECT_EQ(sw.target, after);
    ASSERT_EQ(sw.cases.size(), 2u);
    EXPECT_EQ(sw.cases[0].key, -5);
    EXPECT_EQ(sw.cases[0].target, after + 1);
    EXPECT_EQ(sw.cases[1].key, 1000000);
    EXPECT_EQ(sw.cases[1].target, after);
  }
}

TEST(BytecodeTest, SwitchErrors) {
  const DecodedMethod unsorted([](ClassBuilder&) { return lookupswitch_code(1, 7, 7); });
  EXPECT_EQ(unsorted.error(), unsorted.at(1) +
                                  "method m()V: lookupswitch at pc 1 has keys out of "
                                  "order (7 then 7)");
  const DecodedMethod low_high([](ClassBuilder&) {
    Bytes c;
    c.u1(0xaa).u1(0).u1(0).u1(0).u4(16).u4(5).u4(4).u1(0xb1);
    return c;
  });
  EXPECT_EQ(low_high.error(),
            low_high.at(0) + "method m()V: tableswitch at pc 0 has low 5 > high 4");
  const DecodedMethod huge([](ClassBuilder&) {
    Bytes c;  // a table of 2^32 entries cannot fit: truncated, without allocating it
    c.u1(0xaa).u1(0).u1(0).u1(0).u4(16).u4(0x80000000).u4(0x7FFFFFFF).u1(0xb1);
    return c;
  });
  EXPECT_NE(huge.error().find("truncated tableswitch at pc 0"), std::string::npos);
  const DecodedMethod negative([](ClassBuilder&) {
    Bytes c;
    c.u1(0xab).u1(0).u1(0).u1(0).u4(8).u4(0xFFFFFFFF).u1(0xb1);
    return c;
  });
  EXPECT_NE(negative.error().find("has negative npairs -1"), std::string::npos);
}

TEST(BytecodeTest, InvokesAndConstants) {
  std::uint16_t indy = 0;
  std::uint16_t iface = 0;
  std::uint16_t cls_index = 0;
  std::uint16_t dyn_long = 0;
  std::uint16_t dyn_int = 0;
  std::uint16_t wide_index = 0;
  const DecodedMethod f(
      [&](ClassBuilder& b) {
        indy = b.invoke_dynamic(0, "run", "()Ljava/lang/Runnable;");
        dyn_long = b.dynamic(0, "big", "J");
        dyn_int = b.dynamic(0, "small", "I");
        iface = b.interface_methodref("java/lang/Runnable", "run", "()V");
        cls_index = b.class_ref("[[I");
        const auto s = b.string("hi");
        const auto l = b.long_value(1);
        const auto mh = b.method_handle(6, b.methodref("a/B", "m", "()V"));
        const auto mt = b.method_type("()V");
        // Push the ldc_w operand past 255 to need the wide index.
        for (int i = 0; i < 300; ++i) b.integer(1000 + i);
        wide_index = b.integer(424242);
        Bytes c;
        c.u1(0xba).u2(indy).u2(0);                                // 0 invokedynamic
        c.u1(0xb9).u2(iface).u1(1).u1(0);                         // 5 invokeinterface count 1
        c.u1(0x05).u1(0x05);                                      // 10 iconst_2 x2
        c.u1(0xc5).u2(cls_index).u1(2);                           // 12 multianewarray [[I 2
        c.u1(0x12).u1(static_cast<std::uint8_t>(s));              // 16 ldc "hi"
        c.u1(0x14).u2(l);                                         // 18 ldc2_w 1L
        c.u1(0x14).u2(dyn_long);                                  // 21 ldc2_w dynamic J
        c.u1(0x13).u2(dyn_int);                                   // 24 ldc_w dynamic I
        c.u1(0x13).u2(mh);                                        // 27 ldc_w method handle
        c.u1(0x13).u2(mt);                                        // 30 ldc_w method type
        c.u1(0x13).u2(wide_index);                                // 33 ldc_w
        c.u1(0xb8).u2(b.interface_methodref("a/I", "s", "()V"));  // 36 invokestatic iface
        c.u1(0xb1);                                               // 39 return
        return c;
      },
      {}, 61,
      [](ClassBuilder& b) {
        const auto bsm = b.method_handle(6, b.methodref("a/B", "bsm", "()V"));
        b.add_class_attribute(b.attribute("BootstrapMethods", Bytes().u2(1).u2(bsm).u2(0)));
      });
  const auto ins = f.decode().instructions();
  ASSERT_EQ(ins.size(), 14u);
  EXPECT_EQ(ins[0].opcode, Opcode::kInvokedynamic);
  EXPECT_EQ(ins[0].constant, indy);
  EXPECT_EQ(f.cls.constant_pool.dynamic(ins[0].constant).name, "run");
  EXPECT_EQ(ins[1].opcode, Opcode::kInvokeinterface);
  EXPECT_EQ(ins[1].immediate, 1);
  EXPECT_EQ(ins[1].length, 5u);
  EXPECT_EQ(ins[4].opcode, Opcode::kMultianewarray);
  EXPECT_EQ(ins[4].constant, cls_index);
  EXPECT_EQ(ins[4].immediate, 2);
  EXPECT_EQ(ins[5].opcode, Opcode::kLdc);
  EXPECT_EQ(ins[7].constant, dyn_long);
  EXPECT_EQ(ins[11].opcode, Opcode::kLdcW);
  EXPECT_EQ(f.cls.constant_pool.integer(ins[11].constant), 424242);
  EXPECT_EQ(ins[12].opcode, Opcode::kInvokestatic);
}

TEST(BytecodeTest, ConstantPoolOperandsAreChecked) {
  std::uint16_t field = 0;
  const DecodedMethod wrong_tag([&](ClassBuilder& b) {
    field = b.fieldref("a/B", "x", "I");
    return Bytes().u1(0xb6).u2(field).u1(0xb1);  // invokevirtual of a Fieldref
  });
  EXPECT_EQ(wrong_tag.error(), wrong_tag.at(0) +
                                   "method m()V: invokevirtual at pc 0: constant pool index " +
                                   std::to_string(field) + " is a Fieldref, expected Methodref");
  const DecodedMethod out_of_range([](ClassBuilder&) { return Bytes().u1(0xbb).u2(999).u1(0xb1); });
  EXPECT_NE(out_of_range.error().find("new at pc 0: constant pool index 999 is out of range"),
            std::string::npos);
  const DecodedMethod ldc_long([](ClassBuilder& b) {
    return Bytes().u1(0x12).u1(static_cast<std::uint8_t>(b.long_value(3))).u1(0x57).u1(0xb1);
  });
  EXPECT_NE(ldc_long.error().find("ldc at pc 0: constant pool index 1 is a Long, expected"),
            std::string::npos);
  const DecodedMethod old_interface_static(
      [](ClassBuilder& b) {
        return Bytes().u1(0xb8).u2(b.interface_methodref("a/I", "s", "()V")).u1(0xb1);
      },
      {}, 51);
  EXPECT_NE(old_interface_static.error().find("is an InterfaceMethodref, expected Methodref"),
            std::string::npos);
  const DecodedMethod ldc_dynamic_long(
      [](ClassBuilder& b) { return Bytes().u1(0x13).u2(b.dynamic(0, "v", "D")).u1(0xb1); }, {}, 61,
      [](ClassBuilder& b) {
        const auto bsm = b.method_handle(6, b.methodref("a/B", "bsm", "()V"));
        b.add_class_attribute(b.attribute("BootstrapMethods", Bytes().u2(1).u2(bsm).u2(0)));
      });
  EXPECT_NE(ldc_dynamic_long.error().find("ldc_w at pc 0 loads a long or double dynamic constant"),
            std::string::npos);
}

TEST(BytecodeTest, OperandRules) {
  const DecodedMethod count([](ClassBuilder& b) {
    return Bytes().u1(0xb9).u2(b.interface_methodref("a/I", "m", "()V")).u1(0).u1(0).u1(0xb1);
  });
  EXPECT_NE(count.error().find("invokeinterface at pc 0 has count 0"), std::string::npos);
  const DecodedMethod atype([](ClassBuilder&) { return Bytes().u1(0x03).u1(0xbc).u1(3).u1(0xb1); });
  EXPECT_EQ(atype.error(), atype.at(1) + "method m()V: newarray at pc 1 has invalid atype 3");
  const DecodedMethod dims(
      [](ClassBuilder& b) { return Bytes().u1(0xc5).u2(b.class_ref("[I")).u1(0).u1(0xb1); });
  EXPECT_NE(dims.error().find("multianewarray at pc 0 has 0 dimensions"), std::string::npos);
}

TEST(BytecodeTest, InvalidOpcodes) {
  for (const unsigned opcode : {0xcau, 0xcbu, 0xfeu, 0xffu}) {
    const DecodedMethod f([&](ClassBuilder&) { return Bytes().u1(0x00).u1(opcode); });
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", opcode);
    EXPECT_EQ(f.error(), f.at(1) + "method m()V: invalid opcode " + hex + " at pc 1");
  }
}

TEST(BytecodeTest, TruncatedOperands) {
  const DecodedMethod f([](ClassBuilder&) { return Bytes().u1(0x00).u1(0x11).u1(0x01); });
  EXPECT_EQ(f.error(),
            f.at(1) + "method m()V: truncated sipush at pc 1: needs 3 bytes, 2 left in the code");
  const DecodedMethod wide([](ClassBuilder&) { return Bytes().u1(0xc4).u1(0x84).u2(1).u1(0); });
  EXPECT_NE(wide.error().find("truncated iinc at pc 0: needs 6 bytes, 5 left"), std::string::npos);
  const DecodedMethod padding([](ClassBuilder&) { return Bytes().u1(0xab).u1(0).u1(0); });
  EXPECT_NE(padding.error().find("truncated lookupswitch at pc 0"), std::string::npos);
}

TEST(BytecodeTest, ExceptionHandlersMustBeOnInstructionBoundaries) {
  const auto code = [](ClassBuilder&) { return Bytes().u1(0x11).u2(1).u1(0x57).u1(0xb1); };
  EXPECT_EQ(DecodedMethod(code, {{0, 3, 4, 0}}).decode().instructions().size(), 3u);
  EXPECT_EQ(DecodedMethod(code, {{0, 5, 4, 0}}).error(), "");  // end_pc may be the code length
  const DecodedMethod f(code, {{1, 3, 4, 0}});
  const auto handler_offset = f.method().code->exception_table[0].offset;
  EXPECT_EQ(f.error(), std::string(kAppOrigin) + ":" + std::to_string(handler_offset) +
                           ": method m()V: exception handler [1, 3) -> 4 is not on instruction "
                           "boundaries");
}

TEST(BytecodeTest, MethodWithoutCode) {
  ClassBuilder b;
  b.add_method(access::kAbstract, "m", "()V");
  const ClassFile cls = parse_class_file(b.build(), kAppOrigin);
  EXPECT_THROW(decode_code(cls, cls.methods[0]), std::invalid_argument);
}

}  // namespace
}  // namespace refract::frontend
