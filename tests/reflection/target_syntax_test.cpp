#include "reflection/target_syntax.hpp"

#include <gtest/gtest.h>

#include <string>

#include "frontend/names.hpp"

namespace refract::reflection {
namespace {

std::size_t error_offset(auto&& parse) {
  try {
    parse();
  } catch (const NameSyntaxError& e) {
    return e.offset();
  }
  ADD_FAILURE() << "no NameSyntaxError";
  return std::string::npos;
}

TEST(TargetSyntaxTest, TypeNamesComeOutInJavaSourceForm) {
  EXPECT_EQ(parse_type_name("a.B$C"), "a.B$C");
  EXPECT_EQ(parse_type_name("int"), "int");
  EXPECT_EQ(parse_type_name("boolean[]"), "boolean[]");
  EXPECT_EQ(parse_type_name("java.lang.String[][]"), "java.lang.String[][]");
  EXPECT_EQ(parse_type_name("a.'to'.B"), "a.to.B");
  EXPECT_EQ(parse_type_name("jdk.proxy1.$Proxy0"), "jdk.proxy1.$Proxy0");
  EXPECT_EQ(parse_type_name("a.B$$Lambda$1/0x0000000800c0b000"),
            "a.B$$Lambda$1/0x0000000800c0b000");
}

TEST(TargetSyntaxTest, JvmArrayNamesBecomeJavaSourceForm) {
  EXPECT_EQ(parse_type_name("[I"), "int[]");
  EXPECT_EQ(parse_type_name("[[Z"), "boolean[][]");
  EXPECT_EQ(parse_type_name("[Ljava.lang.CharSequence;"), "java.lang.CharSequence[]");
  EXPECT_EQ(parse_type_name("[[La.B$C;"), "a.B$C[][]");
}

TEST(TargetSyntaxTest, MalformedTypeNamesSayWhere) {
  EXPECT_EQ(error_offset([] { parse_type_name(""); }), 0u);
  EXPECT_EQ(error_offset([] { parse_type_name("a..B"); }), 2u);
  EXPECT_EQ(error_offset([] { parse_type_name("a.B "); }), 3u);
  EXPECT_EQ(error_offset([] { parse_type_name("a.B["); }), 4u);
  EXPECT_EQ(error_offset([] { parse_type_name("[X"); }), 1u);
  EXPECT_EQ(error_offset([] { parse_type_name("[La.B"); }), 5u);
  EXPECT_EQ(error_offset([] { parse_type_name("[La.B;x"); }), 6u);
  EXPECT_EQ(error_offset([] { parse_type_name("void"); }), 0u);
  EXPECT_EQ(error_offset([] { parse_type_name("<a.B: int f>"); }), 0u);
  EXPECT_EQ(error_offset([] { parse_type_name("a.B\x01"); }), 3u);
}

TEST(TargetSyntaxTest, MethodAndFieldSignaturesParse) {
  const MemberSignature m = parse_member_signature("<a.B: int m(java.lang.String,int[])>");
  EXPECT_EQ(m.declaring_class, "a.B");
  EXPECT_EQ(m.type, "int");
  EXPECT_EQ(m.name, "m");
  ASSERT_TRUE(m.is_method());
  EXPECT_EQ(*m.parameters, (std::vector<std::string>{"java.lang.String", "int[]"}));
  EXPECT_FALSE(m.is_constructor());

  const MemberSignature c = parse_member_signature("<a.B$C: void <init>()>");
  EXPECT_TRUE(c.is_constructor());
  EXPECT_TRUE(c.parameters->empty());

  const MemberSignature f = parse_member_signature("<a.B: java.util.List[] f>");
  EXPECT_FALSE(f.is_method());
  EXPECT_EQ(f.type, "java.util.List[]");
  EXPECT_EQ(f.name, "f");
}

TEST(TargetSyntaxTest, MalformedSignaturesSayWhere) {
  EXPECT_EQ(error_offset([] { parse_member_signature("a.B: int f>"); }), 0u);
  EXPECT_EQ(error_offset([] { parse_member_signature("<a.B:int f>"); }), 4u);
  EXPECT_EQ(error_offset([] { parse_member_signature("<a.B: int f"); }), 11u);
  EXPECT_EQ(error_offset([] { parse_member_signature("<a.B: int m(int,)>"); }), 16u);
  EXPECT_EQ(error_offset([] { parse_member_signature("<a.B: int m(void)>"); }), 12u);
  EXPECT_EQ(error_offset([] { parse_member_signature("<a.B: void f>"); }), 12u);
  EXPECT_EQ(error_offset([] { parse_member_signature("<a.B: void <init>>"); }), 17u);
  EXPECT_EQ(error_offset([] { parse_member_signature("<a.B: int m()>x"); }), 14u);
}

TEST(TargetSyntaxTest, SootSignatureQuotesAsTheFrontEndNamesMethodsAndFields) {
  // java.lang.annotation: `annotation` is a Jimple-reserved word, unquoted in TamiFlex logs.
  const std::string logged =
      "<java.lang.annotation.RetentionPolicy: java.lang.annotation.RetentionPolicy[] values()>";
  EXPECT_EQ(soot_signature(parse_member_signature(logged)),
            frontend::soot_method_signature("java/lang/annotation/RetentionPolicy", "values",
                                            "()[Ljava/lang/annotation/RetentionPolicy;"));
  EXPECT_EQ(soot_signature(parse_member_signature("<a.to.B: void from(int,a.to.B)>")),
            "<a.'to'.B: void 'from'(int,a.'to'.B)>");
  EXPECT_EQ(soot_signature(parse_member_signature("<a.B: void <init>(int)>")),
            frontend::soot_method_signature("a/B", "<init>", "(I)V"));
  EXPECT_EQ(soot_signature(parse_member_signature("<a.with.B: a.with.B[] to>")),
            frontend::soot_field_signature("a/with/B", "to", "[La/with/B;"));
  // Already quoted (refract's own names) stays the same.
  const std::string quoted = "<a.'to'.B: void 'from'(int)>";
  EXPECT_EQ(soot_signature(parse_member_signature(quoted)), quoted);
}

TEST(TargetSyntaxTest, CallersSplitAtTheLastDot) {
  const CallerName c = parse_caller("sun.launcher.LauncherHelper.loadMainClass");
  EXPECT_EQ(c.declaring_class, "sun.launcher.LauncherHelper");
  EXPECT_EQ(c.method, "loadMainClass");
  EXPECT_EQ(parse_caller("a.B$C.<init>").method, "<init>");
  EXPECT_EQ(parse_caller("jdk.proxy1.$Proxy0.<clinit>").declaring_class, "jdk.proxy1.$Proxy0");
  EXPECT_EQ(parse_caller("a.B$$Lambda$1/0x0800.run").declaring_class, "a.B$$Lambda$1/0x0800");
  EXPECT_EQ(error_offset([] { parse_caller("main"); }), 0u);
  EXPECT_EQ(error_offset([] { parse_caller("a.B."); }), 4u);
  EXPECT_EQ(error_offset([] { parse_caller(".m"); }), 0u);
  EXPECT_EQ(error_offset([] { parse_caller("a.B.m()"); }), 5u);
}

TEST(TargetSyntaxTest, InvocationSitesComeOutAsTheFactsNameThem) {
  const std::string caller = frontend::soot_method_signature("a/to/B", "run", "()V");
  const std::string expected =
      frontend::invocation_site_name(caller, "java/lang/Class", "forName", 12);
  EXPECT_EQ(parse_invocation_site(expected), expected);
  EXPECT_EQ(parse_invocation_site("<a.to.B: void run()>/java.lang.Class.forName/12"), expected);
  EXPECT_EQ(parse_invocation_site("<jvm>/java.lang.Object.finalize/0"),
            "<jvm>/java.lang.Object.finalize/0");
}

TEST(TargetSyntaxTest, MalformedInvocationSitesSayWhere) {
  const std::string site = "<a.B: void run()>/java.lang.Class.forName/";
  EXPECT_EQ(error_offset([&] { parse_invocation_site(site); }), site.size());
  EXPECT_EQ(error_offset([&] { parse_invocation_site(site + "01"); }), site.size());
  EXPECT_EQ(error_offset([&] { parse_invocation_site(site + "x"); }), site.size());
  EXPECT_EQ(error_offset([] { parse_invocation_site("<a.B: int f>/java.lang.Class.forName/0"); }),
            0u);
  EXPECT_EQ(error_offset([] { parse_invocation_site("<a.B: void run()>/forName/0"); }), 18u);
  EXPECT_EQ(error_offset([] { parse_invocation_site("java.lang.Class.forName/0"); }), 25u);
}

}  // namespace
}  // namespace refract::reflection
