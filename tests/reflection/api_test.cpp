#include "reflection/api.hpp"

#include <gtest/gtest.h>

#include <string>

namespace refract::reflection {
namespace {

TEST(ApiTest, SignaturesAreSortedAndUniqueSoTheLookupFindsEach) {
  std::string previous;
  for (const ApiMethod& m : api_methods()) {
    EXPECT_LT(previous, std::string(m.signature));
    previous = m.signature;
    ASSERT_TRUE(api_kind(m.signature).has_value()) << m.signature;
    EXPECT_EQ(*api_kind(m.signature), m.kind);
  }
}

TEST(ApiTest, UnknownSignatureHasNoKind) {
  EXPECT_FALSE(api_kind("<java.lang.Object: java.lang.String toString()>").has_value());
  EXPECT_FALSE(api_kind("").has_value());
}

TEST(ApiTest, TamiflexKindNamesRoundTrip) {
  for (const char* name : {"Class.forName", "Class.newInstance", "Constructor.newInstance",
                           "Method.invoke", "Field.get*", "Field.set*", "Array.newInstance"}) {
    const auto kind = kind_from_log_name(name);
    ASSERT_TRUE(kind.has_value()) << name;
    EXPECT_EQ(kind_name(*kind), name);
  }
  EXPECT_FALSE(kind_from_log_name("Method.getName").has_value());
}

TEST(ApiTest, SideEffectKindsAreTheNineOfTheTableAndTheArrayOnes) {
  EXPECT_TRUE(is_side_effect(ApiKind::kMethodInvoke));
  EXPECT_TRUE(is_side_effect(ApiKind::kFieldSet));
  EXPECT_FALSE(is_side_effect(ApiKind::kForName));
  EXPECT_FALSE(is_side_effect(ApiKind::kGetMethods));
}

// The calls reflection.at-stop.txt names as where a side-effect call's metaobjects came from.
// Class.cast was once among them: under insens its result held every Method object checkstyle's
// invokes had, and it led their lists.
TEST(ApiTest, MetaobjectsComeFromEntryAndLookupCallsNotFromClassCast) {
  EXPECT_TRUE(returns_metaobjects(ApiKind::kForName));
  EXPECT_TRUE(returns_metaobjects(ApiKind::kLoadClass));
  EXPECT_TRUE(returns_metaobjects(ApiKind::kGetInterfaces));
  EXPECT_TRUE(returns_metaobjects(ApiKind::kGetMethods));
  EXPECT_TRUE(returns_metaobjects(ApiKind::kGetDeclaredConstructor));
  EXPECT_FALSE(returns_metaobjects(ApiKind::kClassCast));
  EXPECT_FALSE(returns_metaobjects(ApiKind::kMethodInvoke));
  EXPECT_FALSE(returns_metaobjects(ApiKind::kArrayGet));
}

}  // namespace
}  // namespace refract::reflection
