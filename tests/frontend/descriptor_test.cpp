// Field and method descriptors (JVMS 4.3) to types and back.
#include "frontend/descriptor.hpp"

#include <gtest/gtest.h>

namespace refract::frontend {
namespace {

TEST(DescriptorTest, FieldTypes) {
  EXPECT_EQ(parse_field_descriptor("I").to_java(), "int");
  EXPECT_EQ(parse_field_descriptor("Z").to_java(), "boolean");
  EXPECT_EQ(parse_field_descriptor("Ljava/lang/String;").to_java(), "java.lang.String");
  EXPECT_EQ(parse_field_descriptor("[[Ljava/lang/String;").to_java(), "java.lang.String[][]");
  EXPECT_EQ(parse_field_descriptor("[J").to_java(), "long[]");
  EXPECT_EQ(parse_field_descriptor("La/Outer$Inner;").class_name, "a.Outer$Inner");
  const JavaType t = parse_field_descriptor("[[Ljava/lang/Object;");
  EXPECT_EQ(t.base, BaseKind::kReference);
  EXPECT_EQ(t.dims, 2);
  EXPECT_TRUE(t.is_reference());
  EXPECT_EQ(t.element().to_java(), "java.lang.Object[]");
  EXPECT_EQ(t.to_descriptor(), "[[Ljava/lang/Object;");
  EXPECT_TRUE(parse_field_descriptor("J").is_wide());
  EXPECT_TRUE(parse_field_descriptor("D").is_wide());
  EXPECT_FALSE(parse_field_descriptor("[D").is_wide());
  EXPECT_TRUE(parse_field_descriptor("[D").is_reference());
}

TEST(DescriptorTest, MethodTypes) {
  const MethodDescriptor m = parse_method_descriptor("(ILjava/lang/String;[JD)V");
  ASSERT_EQ(m.parameters.size(), 4u);
  EXPECT_EQ(m.parameters_to_java(), "(int,java.lang.String,long[],double)");
  EXPECT_TRUE(m.return_type.is_void());
  EXPECT_EQ(m.return_type.to_java(), "void");
  EXPECT_EQ(m.parameter_slots(), 5u);
  EXPECT_EQ(parse_method_descriptor("()[[I").return_type.to_java(), "int[][]");
  EXPECT_EQ(parse_method_descriptor("()V").parameters_to_java(), "()");
}

TEST(DescriptorTest, ClassConstants) {
  EXPECT_EQ(parse_class_constant("java/lang/String").to_java(), "java.lang.String");
  EXPECT_EQ(parse_class_constant("[Ljava/lang/String;").to_java(), "java.lang.String[]");
  EXPECT_EQ(parse_class_constant("[I").to_java(), "int[]");
  EXPECT_THROW(parse_class_constant(""), DescriptorError);
  EXPECT_THROW(parse_class_constant("a//b"), DescriptorError);
  EXPECT_THROW(parse_class_constant("a.b"), DescriptorError);
}

TEST(DescriptorTest, Malformed) {
  for (const char* bad : {"", "V", "L;", "Ljava/lang/String", "[", "II", "X", "Ljava.lang.S;"}) {
    EXPECT_THROW(parse_field_descriptor(bad), DescriptorError) << bad;
    EXPECT_FALSE(try_parse_field_descriptor(bad).has_value()) << bad;
  }
  for (const char* bad : {"", "V", "()", "(I", "(V)V", "()VV", "(I)X", "I)V"}) {
    EXPECT_THROW(parse_method_descriptor(bad), DescriptorError) << bad;
  }
  EXPECT_THROW(parse_field_descriptor(std::string(256, '[') + "I"), DescriptorError);
  EXPECT_NO_THROW(parse_field_descriptor(std::string(255, '[') + "I"));
}

}  // namespace
}  // namespace refract::frontend
