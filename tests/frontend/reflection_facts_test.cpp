// The facts the reflection rules read (frontend/FACTS.md: PublicMethod, PublicField,
// MethodParamType, MethodArity, ExactArgs, ExactArgElement, ExactArgNull, ResultCast) of
// tests/fixtures/java/reflfacts/ReflFacts.java, checked by element names.
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

// The invocation site `n` of `decl.name` in a method of ReflFacts (Doop's naming).
std::string site(const std::string& caller, const std::string& decl_name, int n) {
  return method(caller) + "/" + decl_name + "/" + std::to_string(n);
}

const std::string kInvoke = "java.lang.reflect.Method.invoke";
const std::string kNewInstance = "java.lang.reflect.Constructor.newInstance";
const std::string kExact =
    "void exact(java.lang.reflect.Method,java.lang.reflect.Constructor,java.lang.String,"
    "java.lang.Object)";
const std::string kByHand =
    "void byHand(java.lang.reflect.Method,java.lang.String,java.lang.String)";
const std::string kInexact =
    "void inexact(java.lang.reflect.Method,java.lang.Object[],java.lang.String,int,boolean)";
const std::string kResults =
    "java.lang.Object results(java.lang.Class,java.lang.reflect.Method,java.lang.reflect.Field,"
    "java.lang.ClassLoader)";

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

TEST_F(ReflectionFactsTest, VarargsArraysAreKnownElementWise) {
  const auto local = [](const std::string& name) { return method(kExact) + "/" + name; };
  const std::string two = site(kExact, kInvoke, 0);
  EXPECT_EQ(last_of("ExactArgs", {two, "*"}), Names{"2"});
  EXPECT_EQ(last_of("ExactArgElement", {two, "1", "*"}), Names{local("a")});
  EXPECT_EQ(last_of("ExactArgElement", {two, "2", "*"}), Names{local("b")});
  EXPECT_FALSE(has("ExactArgNull", {two, "*"}));
  // m.invoke(null): new Object[0].
  EXPECT_EQ(last_of("ExactArgs", {site(kExact, kInvoke, 1), "*"}), Names{"0"});
  // m.invoke(null, (Object[]) null): a cast of the null constant.
  EXPECT_EQ(last_of("ExactArgs", {site(kExact, kInvoke, 2), "*"}), Names{"0"});
  const std::string constructor = site(kExact, kNewInstance, 0);
  EXPECT_EQ(last_of("ExactArgs", {constructor, "*"}), Names{"1"});
  EXPECT_EQ(last_of("ExactArgElement", {constructor, "1", "*"}), Names{local("a")});
}

TEST_F(ReflectionFactsTest, ArraysBuiltByHandHaveGapsNullsAndSeveralStores) {
  const auto local = [](const std::string& name) { return method(kByHand) + "/" + name; };
  const std::string gaps = site(kByHand, kInvoke, 0);
  EXPECT_EQ(last_of("ExactArgs", {gaps, "*"}), Names{"3"});
  EXPECT_EQ(last_of("ExactArgElement", {gaps, "*", "*"}), Names{local("a")});
  EXPECT_TRUE(has("ExactArgElement", {gaps, "1", local("a")}));
  // Index 2 is never stored, index 3 only gets null.
  EXPECT_EQ(last_of("ExactArgNull", {gaps, "*"}), (Names{"2", "3"}));
  // One array, two stores at index 0, a copy, two calls (one passes it through the copy).
  for (const int n : {1, 2}) {
    const std::string call = site(kByHand, kInvoke, n);
    EXPECT_EQ(last_of("ExactArgs", {call, "*"}), Names{"1"}) << call;
    EXPECT_EQ(last_of("ExactArgElement", {call, "1", "*"}), (Names{local("a"), local("b")}))
        << call;
    EXPECT_FALSE(has("ExactArgNull", {call, "*"})) << call;
  }
  // Object[] none = null.
  EXPECT_EQ(last_of("ExactArgs", {site(kByHand, kInvoke, 3), "*"}), Names{"0"});
}

// A parameter, stored in a field, passed elsewhere, a variable index, two definitions, an index
// out of range, a variable length, stored into itself, loaded from a field.
TEST_F(ReflectionFactsTest, ArraysThatEscapeOrAreNotBuiltHereAreNotExact) {
  const std::string prefix = method(kInexact) + "/" + kInvoke + "/";
  std::size_t calls = 0;
  for (const auto& tuple : matching("CallIn", {"*", method(kInexact)})) {
    if (tuple[0].starts_with(prefix)) ++calls;
  }
  EXPECT_EQ(calls, 9U);
  for (const auto& tuple : matching("ExactArgs", {"*", "*"})) {
    EXPECT_FALSE(tuple[0].starts_with(prefix)) << tuple[0];
  }
  for (const auto& tuple : matching("ExactArgElement", {"*", "*", "*"})) {
    EXPECT_FALSE(tuple[0].starts_with(prefix)) << tuple[0];
  }
  for (const auto& tuple : matching("ExactArgNull", {"*", "*"})) {
    EXPECT_FALSE(tuple[0].starts_with(prefix)) << tuple[0];
  }
}

// getMethod/getConstructor and their getDeclared forms: the number of parameter types asked
// for, where javac's varargs array (or one built likewise) gives it; not an array passed in.
TEST_F(ReflectionFactsTest, LookupsCountTheParameterTypesOfArraysKnownElementWise) {
  const std::string main = "void main(java.lang.String[])";
  EXPECT_EQ(last_of("LookupParamCount", {site(main, "java.lang.Class.getMethod", 0), "*"}),
            Names{"0"});
  EXPECT_EQ(
      last_of("LookupParamCount", {site(main, "java.lang.Class.getDeclaredConstructor", 0), "*"}),
      Names{"1"});
  EXPECT_EQ(last_of("LookupParamCount",
                    {site(kResults, "java.lang.Class.getDeclaredConstructor", 0), "*"}),
            Names{"0"});
  const std::string lookups = "void lookups(java.lang.Class[])";
  EXPECT_FALSE(has("LookupParamCount", {site(lookups, "java.lang.Class.getMethod", 0), "*"}));
  EXPECT_FALSE(has("LookupParamCount", {site(lookups, "java.lang.Class.getConstructor", 0), "*"}));
  // the argument facts stay with the calls that pass arguments
  EXPECT_FALSE(has("ExactArgs", {site(main, "java.lang.Class.getMethod", 0), "*"}));
}

TEST_F(ReflectionFactsTest, ResultCastWhenEveryUseOfTheResultIsACast) {
  EXPECT_EQ(last_of("ResultCast", {site(kResults, kInvoke, 0), "*"}), Names{"java.lang.String"});
  // Through a copy.
  EXPECT_EQ(last_of("ResultCast", {site(kResults, kInvoke, 1), "*"}), Names{"java.lang.Runnable"});
  // Two casts, two tuples.
  EXPECT_EQ(last_of("ResultCast", {site(kResults, "java.lang.reflect.Field.get", 0), "*"}),
            (Names{"java.lang.CharSequence", "java.lang.Comparable"}));
  EXPECT_EQ(last_of("ResultCast", {site(kResults, kNewInstance, 1), "*"}),
            Names{"reflfacts.Shape"});
  // Never used, used as a receiver, returned: no cast to learn from.
  EXPECT_FALSE(has("ResultCast", {site(kResults, kNewInstance, 0), "*"}));
  EXPECT_FALSE(has("ResultCast", {site(kResults, "java.lang.ClassLoader.loadClass", 0), "*"}));
  EXPECT_FALSE(has("ResultCast", {site(kResults, kInvoke, 2), "*"}));
}

// Loader.getClassLoadingLock is not a ReflectiveCall (the call names Loader), but resolves to
// ClassLoader's.
TEST_F(ReflectionFactsTest, ResultCastAlsoForCallsResolvedToTheReflectionClasses) {
  const std::string lock =
      "<reflfacts.Loader: java.lang.String lock(java.lang.String)>/"
      "reflfacts.Loader.getClassLoadingLock/0";
  EXPECT_FALSE(has("ReflectiveCall", {lock, "*"}));
  EXPECT_EQ(last_of("ResultCast", {lock, "*"}), Names{"java.lang.String"});
}

}  // namespace
}  // namespace refract::frontend
