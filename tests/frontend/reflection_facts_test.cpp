// The facts the reflection rules read (frontend/FACTS.md: PublicMethod, PublicField,
// MethodParamType, MethodArity) of tests/fixtures/java/reflfacts/ReflFacts.java, checked by
// element names.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/class_path.hpp"
#include "frontend/descriptor.hpp"
#include "frontend/fact_extractor.hpp"
#include "frontend/hierarchy.hpp"
#include "frontend/ir_builder.hpp"

namespace refract::frontend {
namespace {

const std::string kFacts = "reflfacts.ReflFacts";

std::string method(const std::string& rest) {
  return "<" + kFacts + ": " + rest + ">";
}

// The facts of the reflfacts classes alone, with the JDK for resolution: the classes are added
// directly rather than walked from main, so only the few JDK classes that resolution and the
// subtype closure look at are read (a fraction of a second per test process).
class ReflectionFactsTest : public ::testing::Test {
 protected:
  struct Program {
    ClassPath path;
    std::unique_ptr<ClassHierarchy> hierarchy;
    std::unique_ptr<FactExtractor> extractor;
    std::map<std::string, std::size_t> methods_declared;  // class -> methods in its class file
  };

  static void SetUpTestSuite() {
    const auto jdk = find_default_jdk();
    if (!jdk) return;
    program_ = new Program;
    program_->path.add_jdk(*jdk);
    program_->path.add(REFRACT_FIXTURE_CLASSES);
    program_->hierarchy = std::make_unique<ClassHierarchy>(program_->path);
    program_->extractor = std::make_unique<FactExtractor>(*program_->hierarchy);
    for (const std::string& name : program_->path.class_names(false)) {
      if (!name.starts_with("reflfacts/")) continue;
      const ClassFile* cls = program_->hierarchy->find(name);
      std::vector<MethodIr> methods;
      for (const MethodInfo& m : cls->methods) methods.push_back(build_method_ir(*cls, m));
      program_->extractor->add_class(*cls, methods);
      program_->methods_declared[binary_name_to_java(name)] = methods.size();
    }
    program_->extractor->finish();
  }
  static void TearDownTestSuite() {
    delete program_;
    program_ = nullptr;
  }
  void SetUp() override {
    if (program_ == nullptr) GTEST_SKIP() << "no JDK 17 with jmods on this machine";
  }

  // The tuples of `relation` matching `pattern` ("*" matches any element), as element names.
  static std::vector<std::vector<std::string>> matching(const std::string& relation,
                                                        const std::vector<std::string>& pattern) {
    const FactDatabase& db = program_->extractor->facts();
    const FactRelation& r = db.relation(relation);
    std::vector<std::vector<std::string>> out;
    for (const auto& tuple : r.sorted_tuples()) {
      std::vector<std::string> names;
      bool match = tuple.size() == pattern.size();
      for (std::size_t i = 0; match && i < tuple.size(); ++i) {
        names.push_back(db.domain(r.attributes()[i].domain).names()[tuple[i]]);
        match = pattern[i] == "*" || pattern[i] == names.back();
      }
      if (match) out.push_back(std::move(names));
    }
    return out;
  }
  static bool has(const std::string& relation, const std::vector<std::string>& pattern) {
    return !matching(relation, pattern).empty();
  }
  // The last element of each tuple matching `pattern`, sorted.
  static std::vector<std::string> last_of(const std::string& relation,
                                          const std::vector<std::string>& pattern) {
    std::vector<std::string> out;
    for (const auto& tuple : matching(relation, pattern)) out.push_back(tuple.back());
    std::sort(out.begin(), out.end());
    return out;
  }
  static std::uint64_t type_number(const std::string& name) {
    return program_->extractor->facts().domain("T").at(name);
  }

  static Program* program_;
};

ReflectionFactsTest::Program* ReflectionFactsTest::program_ = nullptr;

using Names = std::vector<std::string>;

TEST_F(ReflectionFactsTest, PublicMembersAreThoseWithAccPublic) {
  EXPECT_TRUE(has("PublicMethod", {method("void <init>()")}));
  EXPECT_TRUE(has("PublicMethod", {method("void main(java.lang.String[])")}));
  EXPECT_TRUE(
      has("PublicMethod",
          {method("java.lang.String twice(java.lang.String,int,long,java.lang.Object[])")}));
  // An interface method is public in the class file without the keyword.
  EXPECT_TRUE(has("PublicMethod", {"<reflfacts.Shape: double area(double,int)>"}));
  EXPECT_FALSE(has("PublicMethod", {method("void <init>(java.lang.String)")}));
  EXPECT_FALSE(has("PublicMethod", {method("void none()")}));
  EXPECT_FALSE(
      has("PublicMethod", {method("void primitives(boolean,byte,char,short,float,double)")}));
  EXPECT_EQ(last_of("PublicField", {"*"}), (Names{"<reflfacts.ReflFacts: int count>",
                                                  "<reflfacts.ReflFacts: java.lang.Object open>"}));
}

TEST_F(ReflectionFactsTest, ParameterTypesIncludePrimitivesAndCountFromOne) {
  const std::string primitives = method("void primitives(boolean,byte,char,short,float,double)");
  const Names expected = {"boolean", "byte", "char", "short", "float", "double"};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(last_of("MethodParamType", {primitives, std::to_string(i + 1), "*"}),
              Names{expected[i]})
        << "parameter " << i + 1;
  }
  const std::string twice =
      method("java.lang.String twice(java.lang.String,int,long,java.lang.Object[])");
  EXPECT_TRUE(has("MethodParamType", {twice, "1", "java.lang.String"}));
  EXPECT_TRUE(has("MethodParamType", {twice, "2", "int"}));
  EXPECT_TRUE(has("MethodParamType", {twice, "3", "long"}));
  EXPECT_TRUE(has("MethodParamType", {twice, "4", "java.lang.Object[]"}));
  EXPECT_FALSE(has("MethodParamType", {twice, "5", "*"}));
  // An abstract method has its parameter types too.
  EXPECT_TRUE(has("MethodParamType", {"<reflfacts.Shape: double area(double,int)>", "2", "int"}));
  EXPECT_FALSE(has("MethodParamType", {method("void none()"), "*", "*"}));
}

TEST_F(ReflectionFactsTest, ArityIsGivenForEveryDeclaredMethod) {
  EXPECT_EQ(last_of("MethodArity", {method("void none()"), "*"}), Names{"0"});
  EXPECT_EQ(last_of("MethodArity", {method("void <init>()"), "*"}), Names{"0"});
  EXPECT_EQ(last_of("MethodArity", {method("void <init>(java.lang.String)"), "*"}), Names{"1"});
  EXPECT_EQ(last_of("MethodArity",
                    {method("void primitives(boolean,byte,char,short,float,double)"), "*"}),
            Names{"6"});
  EXPECT_EQ(last_of("MethodArity", {"<reflfacts.Shape: double area(double,int)>", "*"}),
            Names{"2"});
  for (const auto& [cls, count] : program_->methods_declared) {
    std::size_t with_arity = 0;
    for (const auto& tuple : matching("MethodArity", {"*", "*"})) {
      if (tuple[0].starts_with("<" + cls + ": ")) ++with_arity;
    }
    EXPECT_EQ(with_arity, count) << cls;
  }
}

// Types only parameters name (byte, char and short here) are interned by finish(), after those
// of the classes read and java.lang.Class, so MethodParamType does not renumber the T elements
// the other relations name.
TEST_F(ReflectionFactsTest, TypesOnlyParametersNameComeAfterTheOthers) {
  for (const char* only_parameters : {"byte", "char", "short"}) {
    EXPECT_GT(type_number(only_parameters), type_number("java.lang.Class")) << only_parameters;
    // They are types like the others: in the closure and with a Class object.
    EXPECT_TRUE(has("SubtypeOf", {only_parameters, only_parameters}));
    EXPECT_TRUE(has("ClassObject", {"*", only_parameters}));
  }
}

}  // namespace
}  // namespace refract::frontend
