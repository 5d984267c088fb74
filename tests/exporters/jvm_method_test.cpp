// Soot signatures to JVM descriptors, as the JCG export names methods.
#include "exporters/jvm_method.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace refract::exporters {
namespace {

TEST(JvmMethodTest, SplitsASignatureIntoDescriptors) {
  const JvmMethod m = parse_soot_method("<a.B$C: int[] m(java.lang.String,long,double[][])>");
  EXPECT_EQ(m.name, "m");
  EXPECT_EQ(m.declaring_class, "La/B$C;");
  EXPECT_EQ(m.return_type, "[I");
  EXPECT_EQ(m.parameter_types, (std::vector<std::string>{"Ljava/lang/String;", "J", "[[D"}));
}

TEST(JvmMethodTest, ConstructorsVoidAndNoParameters) {
  const JvmMethod m = parse_soot_method("<java.lang.Object: void <init>()>");
  EXPECT_EQ(m.name, "<init>");
  EXPECT_EQ(m.return_type, "V");
  EXPECT_TRUE(m.parameter_types.empty());
}

TEST(JvmMethodTest, SootQuotesAroundReservedWordsAreRemoved) {
  const JvmMethod m = parse_soot_method("<a.'annotation'.B: 'static' 'with'(a.'class'.C)>");
  EXPECT_EQ(m.declaring_class, "La/annotation/B;");
  EXPECT_EQ(m.return_type, "Lstatic;");
  EXPECT_EQ(m.name, "with");
  EXPECT_EQ(m.parameter_types, (std::vector<std::string>{"La/class/C;"}));
}

TEST(JvmMethodTest, EveryPrimitive) {
  for (const auto& [soot, jvm] : std::vector<std::pair<std::string, std::string>>{{"boolean", "Z"},
                                                                                  {"byte", "B"},
                                                                                  {"char", "C"},
                                                                                  {"short", "S"},
                                                                                  {"int", "I"},
                                                                                  {"long", "J"},
                                                                                  {"float", "F"},
                                                                                  {"double", "D"},
                                                                                  {"void", "V"}}) {
    EXPECT_EQ(jvm_descriptor_of_soot_type(soot), jvm);
    if (soot != "void") {
      EXPECT_EQ(jvm_descriptor_of_soot_type(soot + "[]"), "[" + jvm);
    }
  }
}

TEST(JvmMethodTest, MalformedSignaturesAreErrors) {
  for (const char* bad : {"", "<>", "a.B: void m()", "<a.B void m()>", "<a.B: m()>",
                          "<a.B: void m(>", "<a.B: void[] m()>", "<a.B: void m(int,)>"}) {
    EXPECT_THROW(parse_soot_method(bad), std::invalid_argument) << bad;
  }
}

}  // namespace
}  // namespace refract::exporters
