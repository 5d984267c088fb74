// The class file parser on hand-assembled class files: every constant pool tag, the
// attributes the front end reads, modified UTF-8, and malformed input.
#include "frontend/class_file.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "frontend/class_builder.hpp"

namespace refract::frontend {
namespace {

using testing::Bytes;
using testing::ClassBuilder;

constexpr const char* kFixtureOrigin = "fixture.jar!test/Sample.class";

ClassFile parse(const std::vector<std::uint8_t>& bytes) {
  return parse_class_file(bytes, kFixtureOrigin);
}

// The message of the ClassFormatError that parsing throws, or "" if it parses.
std::string parse_error(const std::vector<std::uint8_t>& bytes) {
  try {
    parse(bytes);
  } catch (const ClassFormatError& e) {
    return e.what();
  }
  return "";
}

// A minimal valid method body: `return`.
Bytes return_code() {
  return Bytes().u1(0xb1);
}

TEST(ClassFileTest, MinimalClass) {
  ClassBuilder b;
  b.interfaces = {"java/io/Serializable", "java/lang/Runnable"};
  const ClassFile cf = parse(b.build());
  EXPECT_EQ(cf.origin, kFixtureOrigin);
  EXPECT_EQ(cf.major_version, 61);
  EXPECT_EQ(cf.minor_version, 0);
  EXPECT_EQ(cf.access_flags, 0x0021);
  EXPECT_EQ(cf.this_class, "test/Sample");
  ASSERT_TRUE(cf.super_class.has_value());
  EXPECT_EQ(*cf.super_class, "java/lang/Object");
  EXPECT_EQ(cf.interfaces,
            (std::vector<std::string>{"java/io/Serializable", "java/lang/Runnable"}));
  EXPECT_TRUE(cf.fields.empty());
  EXPECT_TRUE(cf.methods.empty());
  EXPECT_FALSE(cf.is_interface());
}

TEST(ClassFileTest, EveryConstantPoolTag) {
  ClassBuilder b;
  const auto i = b.integer(-123456);
  const auto f = b.float_value(2.5f);
  const auto l = b.long_value(-0x123456789ABCDEFll);
  const auto d = b.double_value(-0.125);
  const auto s = b.string("hello");
  const auto c = b.class_ref("java/lang/String");
  const auto fr = b.fieldref("test/Sample", "count", "I");
  const auto mr = b.methodref("java/lang/Object", "hashCode", "()I");
  const auto imr = b.interface_methodref("java/util/List", "size", "()I");
  const auto nat = b.name_and_type("run", "()V");
  const auto bsm_target = b.methodref("test/Boot", "bootstrap",
                                      "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/"
                                      "String;Ljava/lang/invoke/MethodType;)Ljava/lang/Object;");
  const auto mh = b.method_handle(6, bsm_target);
  const auto field_handle = b.method_handle(2, fr);
  const auto iface_handle = b.method_handle(9, imr);
  const auto mt = b.method_type("(I)V");
  const auto dyn = b.dynamic(0, "constant", "J");
  const auto indy = b.invoke_dynamic(0, "apply", "()Ljava/lang/Runnable;");
  b.add_class_attribute(b.attribute(
      "BootstrapMethods", Bytes().u2(1).u2(mh).u2(4).u2(i).u2(c).u2(mt).u2(field_handle)));
  const ClassFile cf = parse(b.build());
  const ConstantPool& pool = cf.constant_pool;

  EXPECT_EQ(pool.tag(0), ConstantTag::kUnusable);
  EXPECT_EQ(pool.integer(i), -123456);
  EXPECT_EQ(pool.float_value(f), 2.5f);
  EXPECT_EQ(pool.long_value(l), -0x123456789ABCDEFll);
  EXPECT_EQ(pool.tag(l + 1), ConstantTag::kUnusable);  // a Long takes two slots
  EXPECT_EQ(pool.double_value(d), -0.125);
  EXPECT_EQ(pool.tag(d + 1), ConstantTag::kUnusable);
  EXPECT_EQ(pool.string(s), "hello");
  EXPECT_EQ(pool.class_name(c), "java/lang/String");

  const MemberRef field = pool.member_ref(fr);
  EXPECT_EQ(field.tag, ConstantTag::kFieldref);
  EXPECT_EQ(field.owner, "test/Sample");
  EXPECT_EQ(field.name, "count");
  EXPECT_EQ(field.descriptor, "I");
  const MemberRef method = pool.member_ref(mr);
  EXPECT_EQ(method.tag, ConstantTag::kMethodref);
  EXPECT_EQ(method.owner, "java/lang/Object");
  EXPECT_EQ(method.name, "hashCode");
  const MemberRef imethod = pool.member_ref(imr);
  EXPECT_EQ(imethod.tag, ConstantTag::kInterfaceMethodref);
  EXPECT_EQ(imethod.owner, "java/util/List");

  EXPECT_EQ(pool.name_and_type(nat).name, "run");
  EXPECT_EQ(pool.name_and_type(nat).descriptor, "()V");
  EXPECT_EQ(pool.method_handle(mh).kind, ReferenceKind::kInvokeStatic);
  EXPECT_EQ(pool.method_handle(mh).reference_index, bsm_target);
  EXPECT_EQ(pool.method_handle(field_handle).kind, ReferenceKind::kGetStatic);
  EXPECT_EQ(pool.method_handle(iface_handle).kind, ReferenceKind::kInvokeInterface);
  EXPECT_EQ(pool.method_type(mt), "(I)V");
  EXPECT_EQ(pool.tag(dyn), ConstantTag::kDynamic);
  EXPECT_EQ(pool.dynamic(dyn).bootstrap_method, 0);
  EXPECT_EQ(pool.dynamic(dyn).name, "constant");
  EXPECT_EQ(pool.dynamic(dyn).descriptor, "J");
  EXPECT_EQ(pool.tag(indy), ConstantTag::kInvokeDynamic);
  EXPECT_EQ(pool.dynamic(indy).name, "apply");

  ASSERT_EQ(cf.bootstrap_methods.size(), 1u);
  EXPECT_EQ(cf.bootstrap_methods[0].method_handle_index, mh);
  EXPECT_EQ(cf.bootstrap_methods[0].arguments,
            (std::vector<std::uint16_t>{i, c, mt, field_handle}));

  // Accessors used with the wrong tag are programming errors, not input errors.
  EXPECT_THROW(static_cast<void>(pool.utf8(i)), std::logic_error);
  EXPECT_THROW(static_cast<void>(pool.class_name(60000)), std::logic_error);
}

TEST(ClassFileTest, NaNFloatBitsArePreserved) {
  ClassBuilder b;
  const auto f = b.raw_constant(Bytes().u1(4).u4(0x7fc00001));
  const ClassFile cf = parse(b.build());
  EXPECT_TRUE(std::isnan(cf.constant_pool.float_value(f)));
  EXPECT_EQ(cf.constant_pool.at(f).bits, 0x7fc00001u);
}

// A module-info class: no superclass, ACC_MODULE.
ClassBuilder module_info_builder() {
  ClassBuilder b;
  b.this_class = "module-info";
  b.super_class = "";
  b.access_flags = access::kModule;
  return b;
}

TEST(ClassFileTest, ModuleInfoWithModuleAndPackageConstants) {
  ClassBuilder b = module_info_builder();
  const auto m = b.module("java.base");
  const auto p = b.package("java/lang");
  b.add_class_attribute(
      b.attribute("Module", Bytes().u2(m).u2(0).u2(0).u2(0).u2(0).u2(0).u2(0).u2(0)));
  b.add_class_attribute(b.attribute("ModulePackages", Bytes().u2(1).u2(p)));
  const ClassFile cf = parse(b.build());
  EXPECT_TRUE(cf.is_module());
  EXPECT_FALSE(cf.super_class.has_value());
  EXPECT_EQ(cf.constant_pool.module_name(m), "java.base");
  EXPECT_EQ(cf.constant_pool.package_name(p), "java/lang");
  ASSERT_TRUE(cf.module.has_value());
  EXPECT_EQ(cf.module->name, "java.base");
  EXPECT_TRUE(cf.module->exports.empty());
}

// JVMS 4.7.25: requires, exports (one to all, one qualified), opens, uses and provides.
TEST(ClassFileTest, ModuleAttributeExportsAndOpens) {
  ClassBuilder b = module_info_builder();
  const auto self = b.module("a.mod");
  const auto base = b.module("java.base");
  const auto friend_module = b.module("b.friend");
  b.add_class_attribute(b.attribute("Module", Bytes()
                                                  .u2(self)
                                                  .u2(0)
                                                  .u2(0)
                                                  .u2(1)  // requires java.base
                                                  .u2(base)
                                                  .u2(0x8000)
                                                  .u2(0)
                                                  .u2(2)  // exports
                                                  .u2(b.package("a/api"))
                                                  .u2(0)
                                                  .u2(0)
                                                  .u2(b.package("a/internal"))
                                                  .u2(0)
                                                  .u2(1)
                                                  .u2(friend_module)
                                                  .u2(1)  // opens
                                                  .u2(b.package("a/beans"))
                                                  .u2(0)
                                                  .u2(0)
                                                  .u2(1)  // uses
                                                  .u2(b.class_ref("a/api/Service"))
                                                  .u2(1)  // provides
                                                  .u2(b.class_ref("a/api/Service"))
                                                  .u2(1)
                                                  .u2(b.class_ref("a/internal/Impl"))));
  const ClassFile cf = parse(b.build());
  ASSERT_TRUE(cf.module.has_value());
  EXPECT_EQ(cf.module->name, "a.mod");
  EXPECT_FALSE(cf.module->open);
  ASSERT_EQ(cf.module->exports.size(), 2u);
  EXPECT_EQ(cf.module->exports[0].package, "a/api");
  EXPECT_TRUE(cf.module->exports[0].to.empty());
  EXPECT_EQ(cf.module->exports[1].package, "a/internal");
  EXPECT_EQ(cf.module->exports[1].to, std::vector<std::string>{"b.friend"});
  ASSERT_EQ(cf.module->opens.size(), 1u);
  EXPECT_EQ(cf.module->opens[0].package, "a/beans");
  ASSERT_EQ(cf.module->provides.size(), 1u);
  EXPECT_EQ(cf.module->provides[0].service, "a/api/Service");
  EXPECT_EQ(cf.module->provides[0].with, std::vector<std::string>{"a/internal/Impl"});
}

TEST(ClassFileTest, ModuleAttributeNamingAClassWhereAPackageBelongsIsAnError) {
  ClassBuilder b = module_info_builder();
  const auto self = b.module("a.mod");
  const auto wrong = b.class_ref("a/api");
  b.add_class_attribute(b.attribute(
      "Module", Bytes().u2(self).u2(0).u2(0).u2(0).u2(1).u2(wrong).u2(0).u2(0).u2(0).u2(0).u2(0)));
  EXPECT_NE(parse_error(b.build()).find("exports_index"), std::string::npos);
}

TEST(ClassFileTest, TruncatedModuleAttributeIsAnError) {
  ClassBuilder b = module_info_builder();
  const auto self = b.module("a.mod");
  // exports_count says 1 and the attribute ends
  b.add_class_attribute(b.attribute("Module", Bytes().u2(self).u2(0).u2(0).u2(0).u2(1)));
  EXPECT_NE(parse_error(b.build()).find("unexpected end of Module attribute"), std::string::npos);
}

TEST(ClassFileTest, ModuleAttributeOutsideModuleInfoIsAnError) {
  ClassBuilder b;
  b.add_class_attribute(
      b.attribute("Module", Bytes().u2(0).u2(0).u2(0).u2(0).u2(0).u2(0).u2(0).u2(0)));
  EXPECT_NE(
      parse_error(b.build()).find("a Module attribute is only allowed in a module-info class"),
      std::string::npos);
}

TEST(ClassFileTest, ModuleConstantOutsideModuleInfoIsAnError) {
  ClassBuilder b;
  b.module("java.base");
  EXPECT_NE(parse_error(b.build()).find("is only allowed in a module-info class"),
            std::string::npos);
}

TEST(ClassFileTest, FieldsMethodsAndAttributes) {
  ClassBuilder b;
  const auto seven = b.integer(7);
  const auto text = b.string("text");
  b.add_field(access::kPrivate | access::kStatic | access::kFinal, "SEVEN", "I",
              {b.attribute("ConstantValue", Bytes().u2(seven))});
  b.add_field(access::kStatic | access::kFinal, "TEXT", "Ljava/lang/String;",
              {b.attribute("ConstantValue", Bytes().u2(text))});
  b.add_field(access::kPrivate, "items", "Ljava/util/List;",
              {b.attribute("Signature", Bytes().u2(b.utf8("Ljava/util/List<Ljava/lang/String;>;"))),
               b.attribute("Deprecated", Bytes())});

  const auto exception = b.class_ref("java/io/IOException");
  // 0: aload_0  1: invokespecial Object.<init>  4: return  5: astore_1  6: return
  const auto init = b.methodref("java/lang/Object", "<init>", "()V");
  Bytes code;
  code.u1(0x2a).u1(0xb7).u2(init).u1(0xb1).u1(0x4c).u1(0xb1);
  const Bytes lines = Bytes().u2(2).u2(0).u2(10).u2(4).u2(11);
  const Bytes more_lines = Bytes().u2(1).u2(5).u2(12);
  const Bytes locals =
      Bytes().u2(1).u2(0).u2(7).u2(b.utf8("this")).u2(b.utf8("Ltest/Sample;")).u2(0);
  b.add_method(
      access::kPublic, "<init>", "()V",
      {b.code_attribute(
           1, 2, code, {{0, 4, 5, exception}, {0, 4, 5, 0}},
           {b.attribute("LineNumberTable", lines), b.attribute("StackMapTable", Bytes().u2(0)),
            b.attribute("LineNumberTable", more_lines), b.attribute("LocalVariableTable", locals)}),
       b.attribute("Exceptions", Bytes().u2(1).u2(exception)),
       b.attribute("Signature", Bytes().u2(b.utf8("()V")))});
  b.add_method(access::kPublic | access::kAbstract, "run", "()V");

  b.add_class_attribute(b.attribute("SourceFile", Bytes().u2(b.utf8("Sample.java"))));
  b.add_class_attribute(b.attribute("Signature", Bytes().u2(b.utf8("Ljava/lang/Object;"))));
  b.add_class_attribute(b.attribute("InnerClasses", Bytes()
                                                        .u2(2)
                                                        .u2(b.class_ref("test/Sample$Inner"))
                                                        .u2(b.class_ref("test/Sample"))
                                                        .u2(b.utf8("Inner"))
                                                        .u2(access::kPrivate | access::kStatic)
                                                        .u2(b.class_ref("test/Sample$1"))
                                                        .u2(0)
                                                        .u2(0)
                                                        .u2(0)));
  b.add_class_attribute(b.attribute(
      "NestMembers",
      Bytes().u2(2).u2(b.class_ref("test/Sample$Inner")).u2(b.class_ref("test/Sample$1"))));
  b.add_class_attribute(
      b.attribute("PermittedSubclasses", Bytes().u2(1).u2(b.class_ref("test/Sub"))));
  b.add_class_attribute(b.attribute(
      "Record", Bytes()
                    .u2(2)
                    .u2(b.utf8("x"))
                    .u2(b.utf8("I"))
                    .u2(0)
                    .u2(b.utf8("names"))
                    .u2(b.utf8("Ljava/util/List;"))
                    .u2(1)
                    .append(b.attribute(
                        "Signature", Bytes().u2(b.utf8("Ljava/util/List<Ljava/lang/String;>;"))))));
  b.add_class_attribute(b.attribute("SomeToolAttribute", Bytes().u4(0xdeadbeef).u1(1)));

  const ClassFile cf = parse(b.build());
  ASSERT_EQ(cf.fields.size(), 3u);
  EXPECT_EQ(cf.fields[0].name, "SEVEN");
  EXPECT_EQ(cf.fields[0].access_flags, access::kPrivate | access::kStatic | access::kFinal);
  EXPECT_EQ(cf.constant_pool.integer(cf.fields[0].constant_value_index), 7);
  EXPECT_EQ(cf.constant_pool.string(cf.fields[1].constant_value_index), "text");
  EXPECT_EQ(cf.fields[2].constant_value_index, 0);
  EXPECT_EQ(cf.fields[2].signature, "Ljava/util/List<Ljava/lang/String;>;");

  ASSERT_EQ(cf.methods.size(), 2u);
  const MethodInfo& ctor = cf.methods[0];
  EXPECT_EQ(ctor.name, "<init>");
  EXPECT_EQ(ctor.descriptor, "()V");
  EXPECT_EQ(ctor.exceptions, std::vector<std::string>{"java/io/IOException"});
  EXPECT_EQ(ctor.signature, "()V");
  ASSERT_TRUE(ctor.code.has_value());
  const Code& body = *ctor.code;
  EXPECT_EQ(body.max_stack, 1);
  EXPECT_EQ(body.max_locals, 2);
  EXPECT_EQ(body.bytes, code.data());
  ASSERT_EQ(body.exception_table.size(), 2u);
  EXPECT_EQ(body.exception_table[0].catch_type, "java/io/IOException");
  EXPECT_EQ(body.exception_table[0].handler_pc, 5);
  EXPECT_FALSE(body.exception_table[1].catch_type.has_value());
  ASSERT_EQ(body.line_numbers.size(), 3u);  // two LineNumberTable attributes
  EXPECT_EQ(body.line_numbers[2].start_pc, 5);
  EXPECT_EQ(body.line_numbers[2].line, 12);
  ASSERT_EQ(body.local_variables.size(), 1u);
  EXPECT_EQ(body.local_variables[0].name, "this");
  EXPECT_EQ(body.local_variables[0].descriptor, "Ltest/Sample;");
  EXPECT_EQ(body.local_variables[0].length, 7);
  const auto built = b.build();
  EXPECT_EQ(built[body.bytes_offset], 0x2a);  // bytes_offset locates the code in the file
  EXPECT_FALSE(cf.methods[1].code.has_value());

  EXPECT_EQ(cf.source_file, "Sample.java");
  EXPECT_EQ(cf.signature, "Ljava/lang/Object;");
  ASSERT_EQ(cf.inner_classes.size(), 2u);
  EXPECT_EQ(cf.inner_classes[0].inner_class, "test/Sample$Inner");
  EXPECT_EQ(cf.inner_classes[0].outer_class, "test/Sample");
  EXPECT_EQ(cf.inner_classes[0].inner_name, "Inner");
  EXPECT_FALSE(cf.inner_classes[1].outer_class.has_value());
  EXPECT_FALSE(cf.inner_classes[1].inner_name.has_value());
  EXPECT_EQ(cf.nest_members, (std::vector<std::string>{"test/Sample$Inner", "test/Sample$1"}));
  ASSERT_TRUE(cf.permitted_subclasses.has_value());
  EXPECT_EQ(*cf.permitted_subclasses, std::vector<std::string>{"test/Sub"});
  ASSERT_TRUE(cf.record.has_value());
  ASSERT_EQ(cf.record->size(), 2u);
  EXPECT_EQ((*cf.record)[0].name, "x");
  EXPECT_FALSE((*cf.record)[0].signature.has_value());
  EXPECT_EQ((*cf.record)[1].signature, "Ljava/util/List<Ljava/lang/String;>;");
}

TEST(ClassFileTest, NestHost) {
  ClassBuilder b;
  b.this_class = "test/Sample$Inner";
  b.add_class_attribute(b.attribute("NestHost", Bytes().u2(b.class_ref("test/Sample"))));
  EXPECT_EQ(parse(b.build()).nest_host, "test/Sample");
}

TEST(ClassFileTest, AttributesOfLaterVersionsAreSkippedInOlderClassFiles) {
  // JVMS 4.7: Record is defined from version 60 on; in a version 52 class file it is an
  // attribute like any unknown one, whatever it contains.
  ClassBuilder b;
  b.major = 52;
  b.add_class_attribute(b.attribute("Record", Bytes().u2(5)));
  const ClassFile cf = parse(b.build());
  EXPECT_FALSE(cf.record.has_value());
}

TEST(ClassFileTest, AcceptsEveryVersionFrom45To69) {
  for (unsigned major = 45; major <= 69; ++major) {
    ClassBuilder b;
    b.major = static_cast<std::uint16_t>(major);
    EXPECT_EQ(parse(b.build()).major_version, major);
  }
  ClassBuilder preview;
  preview.major = 61;
  preview.minor = 0xFFFF;
  EXPECT_EQ(parse(preview.build()).minor_version, 0xFFFF);
  ClassBuilder old;
  old.major = 45;
  old.minor = 3;
  EXPECT_EQ(parse(old.build()).minor_version, 3);
}

TEST(ClassFileTest, UnsupportedVersions) {
  ClassBuilder too_new;
  too_new.major = 70;
  EXPECT_EQ(parse_error(too_new.build()),
            std::string(kFixtureOrigin) + ":4: unsupported class file version 70.0");
  ClassBuilder too_old;
  too_old.major = 44;
  EXPECT_EQ(parse_error(too_old.build()),
            std::string(kFixtureOrigin) + ":4: unsupported class file version 44.0");
  ClassBuilder bad_minor;  // JVMS 4.1: from version 56 on, minor is 0 or 65535
  bad_minor.major = 61;
  bad_minor.minor = 3;
  EXPECT_EQ(parse_error(bad_minor.build()),
            std::string(kFixtureOrigin) + ":4: unsupported class file version 61.3");
}

TEST(ClassFileTest, ModifiedUtf8) {
  const std::string origin = "x";
  const auto decode = [&](std::vector<std::uint8_t> bytes) {
    return parse_modified_utf8(bytes, origin, 100);
  };
  EXPECT_EQ(decode({'a', 'b'}), "ab");
  EXPECT_EQ(decode({'a', 0xC0, 0x80, 'b'}), std::string("a\0b", 3));  // encoded null
  EXPECT_EQ(decode({0xC3, 0xA9}), "\xC3\xA9");                        // e acute
  EXPECT_EQ(decode({0xE2, 0x82, 0xAC}), "\xE2\x82\xAC");              // euro sign
  // U+1F600 as the surrogate pair D83D DE00, each in three bytes -> one 4-byte sequence.
  EXPECT_EQ(decode({0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}), "\xF0\x9F\x98\x80");
  // An unpaired surrogate stays as its three bytes.
  EXPECT_EQ(decode({0xED, 0xA0, 0xBD, 'x'}), "\xED\xA0\xBDx");
  EXPECT_EQ(decode({}), "");

  const auto error = [&](std::vector<std::uint8_t> bytes) -> std::string {
    try {
      decode(bytes);
    } catch (const ClassFormatError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error({'a', 0x00}),
            "x:101: invalid modified UTF-8 in CONSTANT_Utf8: byte 0x00 cannot appear in modified "
            "UTF-8");
  EXPECT_EQ(error({0xF0, 0x9F, 0x98, 0x80}),
            "x:100: invalid modified UTF-8 in CONSTANT_Utf8: byte 0xf0 cannot appear in modified "
            "UTF-8");
  EXPECT_EQ(error({'a', 'b', 0xC3}),
            "x:102: invalid modified UTF-8 in CONSTANT_Utf8: byte 0xc3 is not followed by a "
            "continuation byte");
  EXPECT_EQ(error({0xE2, 0x82}),
            "x:100: invalid modified UTF-8 in CONSTANT_Utf8: byte 0xe2 does not start a complete "
            "3-byte sequence");
  EXPECT_EQ(error({0x80}),
            "x:100: invalid modified UTF-8 in CONSTANT_Utf8: byte 0x80 cannot appear in modified "
            "UTF-8");
}

TEST(ClassFileTest, Utf8ConstantsAreDecoded) {
  ClassBuilder b;
  const auto u = b.utf8_raw("caf\xC3\xA9\xC0\x80");
  EXPECT_EQ(parse(b.build()).constant_pool.utf8(u), std::string("caf\xC3\xA9\0", 6));
}

// --- malformed class files -----------------------------------------------------------------

TEST(ClassFileTest, BadMagic) {
  ClassBuilder b;
  auto bytes = b.build();
  bytes[3] = 0xBF;
  EXPECT_EQ(parse_error(bytes),
            std::string(kFixtureOrigin) + ":0: bad magic 0xcafebabf (not a class file)");
}

TEST(ClassFileTest, TruncatedAnywhereIsAnError) {
  ClassBuilder b;
  b.add_method(access::kPublic | access::kStatic, "m", "()V",
               {b.code_attribute(0, 0, return_code())});
  const auto bytes = b.build();
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    const std::vector<std::uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<long>(size));
    try {
      parse(prefix);
      ADD_FAILURE() << "a class file truncated to " << size << " bytes parsed";
    } catch (const ClassFormatError& e) {
      EXPECT_LE(e.offset(), size);
      EXPECT_EQ(e.origin(), kFixtureOrigin);
    }
  }
  EXPECT_EQ(parse_error({0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0}),
            std::string(kFixtureOrigin) +
                ":8: unexpected end of class file reading constant_pool_count (needs 2 bytes, 1 "
                "left)");
}

TEST(ClassFileTest, TrailingBytes) {
  ClassBuilder b;
  auto bytes = b.build();
  const auto size = bytes.size();
  bytes.push_back(0);
  EXPECT_EQ(parse_error(bytes), std::string(kFixtureOrigin) + ":" + std::to_string(size) +
                                    ": 1 unexpected bytes after the end of the class file");
}

TEST(ClassFileTest, LongInTheLastSlot) {
  // A pool of count 2 holding only a Long, which needs slots 1 and 2.
  Bytes manual;
  manual.u4(0xCAFEBABE).u2(0).u2(61).u2(2).u1(5).u8(1);
  EXPECT_EQ(parse_error(manual.data()),
            std::string(kFixtureOrigin) +
                ":10: constant pool entry #1 is a Long in the last slot; it "
                "needs two");
}

TEST(ClassFileTest, InvalidConstantTag) {
  Bytes manual;
  manual.u4(0xCAFEBABE).u2(0).u2(61).u2(3).u1(1).u2(1).u1('A').u1(2);
  EXPECT_EQ(
      parse_error(manual.data()),
      std::string(kFixtureOrigin) + ":14: constant pool entry #2: invalid constant pool tag 2");
}

TEST(ClassFileTest, ConstantTagNeedsNewerVersion) {
  ClassBuilder b;
  b.major = 50;
  b.method_type("()V");
  EXPECT_NE(parse_error(b.build()).find("MethodType constants need class file version 51 or later"),
            std::string::npos);
}

TEST(ClassFileTest, CrossReferencesAreChecked) {
  {
    ClassBuilder b;  // Class whose name is not a Utf8
    b.raw_constant(Bytes().u1(7).u2(1));
    EXPECT_NE(parse_error(b.build()).find("constant pool entry #1 (Class): constant pool index 1 "
                                          "is a Class, expected Utf8"),
              std::string::npos);
  }
  {
    ClassBuilder b;  // index beyond the pool
    b.raw_constant(Bytes().u1(8).u2(999));
    EXPECT_NE(parse_error(b.build()).find("constant pool index 999 is out of range"),
              std::string::npos);
  }
  {
    ClassBuilder b;  // reference to the second slot of a Long
    const auto l = b.long_value(5);
    b.raw_constant(Bytes().u1(8).u2(l + 1));
    EXPECT_NE(parse_error(b.build()).find("is the unusable slot after a Long or Double"),
              std::string::npos);
  }
  {
    ClassBuilder b;  // this_class is not a Class
    b.this_class = "x";
    auto bytes = b.build();
    // this_class follows access_flags, which follow the pool; point it at index 0.
    const auto pos = bytes.size() - 2 /*attributes*/ - 2 /*methods*/ - 2 /*fields*/ -
                     2 /*interfaces*/ - 2 /*super*/ - 2 /*this*/;
    bytes[pos] = 0;
    bytes[pos + 1] = 0;
    EXPECT_EQ(parse_error(bytes), std::string(kFixtureOrigin) + ":" + std::to_string(pos) +
                                      ": this_class: constant pool index 0 is out of range (1.." +
                                      std::to_string(4) + ")");
  }
}

TEST(ClassFileTest, MethodHandleRules) {
  {
    ClassBuilder b;  // kind 10 does not exist
    b.raw_constant(Bytes().u1(15).u1(10).u2(1));
    EXPECT_NE(parse_error(b.build()).find("invalid method handle reference_kind 10"),
              std::string::npos);
  }
  {
    ClassBuilder b;  // REF_getField must refer to a Fieldref
    b.method_handle(1, b.methodref("a/B", "m", "()V"));
    EXPECT_NE(parse_error(b.build()).find("is a Methodref, expected Fieldref"), std::string::npos);
  }
  {
    ClassBuilder b;  // REF_newInvokeSpecial must refer to <init>
    b.method_handle(8, b.methodref("a/B", "m", "()V"));
    EXPECT_NE(parse_error(b.build()).find("REF_newInvokeSpecial must refer to <init>"),
              std::string::npos);
  }
  {
    ClassBuilder b;  // REF_invokeVirtual cannot refer to <init>
    b.method_handle(5, b.methodref("a/B", "<init>", "()V"));
    EXPECT_NE(parse_error(b.build()).find("cannot refer to <init>"), std::string::npos);
  }
  {
    ClassBuilder b;  // REF_invokeStatic of an interface method needs version 52
    b.major = 51;
    b.method_handle(6, b.interface_methodref("a/I", "m", "()V"));
    EXPECT_NE(parse_error(b.build()).find("is an InterfaceMethodref, expected Methodref"),
              std::string::npos);
  }
  {
    ClassBuilder b;  // a handle pointing forward to a ref whose own indices are checked first
    b.raw_constant(Bytes().u1(15).u1(5).u2(2));
    b.raw_constant(Bytes().u1(10).u2(3).u2(3));  // class_index 3 is a Utf8
    b.utf8("x");
    EXPECT_NE(parse_error(b.build()).find("class_index: constant pool index 3 is a Utf8"),
              std::string::npos);
  }
}

TEST(ClassFileTest, DynamicConstantsNeedBootstrapMethods) {
  ClassBuilder b;
  b.invoke_dynamic(0, "run", "()V");
  EXPECT_NE(parse_error(b.build()).find("refers to bootstrap method 0 but the BootstrapMethods "
                                        "attribute has 0"),
            std::string::npos);
}

TEST(ClassFileTest, BootstrapArgumentsMustBeLoadable) {
  ClassBuilder b;
  const auto mh = b.method_handle(6, b.methodref("a/B", "m", "()V"));
  const auto nat = b.name_and_type("x", "I");
  b.add_class_attribute(b.attribute("BootstrapMethods", Bytes().u2(1).u2(mh).u2(1).u2(nat)));
  EXPECT_NE(parse_error(b.build()).find("bootstrap_arguments: constant pool index"),
            std::string::npos);
}

TEST(ClassFileTest, AttributeLengthBeyondTheEnd) {
  ClassBuilder b;
  b.add_class_attribute(b.attribute("SourceFile", Bytes().u2(b.utf8("A.java"))));
  auto bytes = b.build();
  // The attribute_length of the last attribute sits 6 bytes before the end.
  const auto at = bytes.size() - 8;
  bytes[bytes.size() - 3] = 9;
  EXPECT_EQ(parse_error(bytes), std::string(kFixtureOrigin) + ":" + std::to_string(at) +
                                    ": attribute SourceFile is 9 bytes long but only 2 bytes of "
                                    "the ClassFile remain");
}

TEST(ClassFileTest, KnownAttributeWithWrongLength) {
  ClassBuilder b;
  b.add_class_attribute(b.attribute("SourceFile", Bytes().u2(b.utf8("A.java")).u1(0)));
  EXPECT_NE(
      parse_error(b.build()).find("1 unexpected bytes at the end of the SourceFile attribute"),
      std::string::npos);
  ClassBuilder c;
  c.add_class_attribute(c.attribute("NestMembers", Bytes().u2(2).u2(c.class_ref("a/B"))));
  EXPECT_NE(parse_error(c.build()).find("unexpected end of NestMembers attribute reading nest "
                                        "members"),
            std::string::npos);
}

TEST(ClassFileTest, DuplicateAttributes) {
  ClassBuilder b;
  b.add_method(access::kStatic, "m", "()V",
               {b.code_attribute(0, 0, return_code()), b.code_attribute(0, 0, return_code())});
  EXPECT_NE(parse_error(b.build()).find("method_info has more than one Code attribute"),
            std::string::npos);
}

TEST(ClassFileTest, CodeLengthLimits) {
  ClassBuilder b;
  b.add_method(access::kStatic, "m", "()V", {b.code_attribute(0, 0, Bytes())});
  EXPECT_NE(parse_error(b.build()).find("code_length 0 is not in 1..65535"), std::string::npos);
}

TEST(ClassFileTest, ExceptionTableAndDebugTablesMustFitTheCode) {
  {
    ClassBuilder b;
    b.add_method(access::kStatic, "m", "()V",
                 {b.code_attribute(0, 0, return_code(), {{0, 2, 0, 0}})});
    EXPECT_NE(parse_error(b.build()).find("exception handler [0, 2) -> 0 does not fit in code of "
                                          "length 1"),
              std::string::npos);
  }
  {
    ClassBuilder b;
    b.add_method(access::kStatic, "m", "()V",
                 {b.code_attribute(0, 0, return_code(), {},
                                   {b.attribute("LineNumberTable", Bytes().u2(1).u2(1).u2(3))})});
    EXPECT_NE(parse_error(b.build()).find("line number start_pc 1 is outside code of length 1"),
              std::string::npos);
  }
  {
    ClassBuilder b;
    const Bytes locals = Bytes().u2(1).u2(0).u2(2).u2(b.utf8("x")).u2(b.utf8("I")).u2(0);
    b.add_method(
        access::kStatic, "m", "()V",
        {b.code_attribute(0, 1, return_code(), {}, {b.attribute("LocalVariableTable", locals)})});
    EXPECT_NE(parse_error(b.build()).find("local variable range 0+2 is outside code of length 1"),
              std::string::npos);
  }
}

TEST(ClassFileTest, ConstantValueMustBeAConstant) {
  ClassBuilder b;
  b.add_field(access::kStatic, "x", "I",
              {b.attribute("ConstantValue", Bytes().u2(b.class_ref("a/B")))});
  EXPECT_NE(parse_error(b.build()).find("ConstantValue: constant pool index"), std::string::npos);
}

}  // namespace
}  // namespace refract::frontend
