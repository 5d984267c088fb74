// The facts of tests/fixtures/java/facts/Facts.java, one test per kind of statement, checked
// by element names as frontend/FACTS.md defines them.
#include "frontend/fact_extractor.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/class_path.hpp"
#include "frontend/hierarchy.hpp"
#include "frontend/program_scope.hpp"

namespace refract::frontend {
namespace {

const std::string kMain = "<facts.Facts: void main(java.lang.String[])>";

std::string local(const std::string& name) {
  return kMain + "/" + name;
}

// Facts of the program reachable from facts.Facts, computed once for all tests.
class FactExtractorTest : public ::testing::Test {
 protected:
  struct Program {
    ClassPath path;
    std::unique_ptr<ClassHierarchy> hierarchy;
    std::unique_ptr<FactExtractor> extractor;
  };

  static void SetUpTestSuite() {
    const auto jdk = find_default_jdk();
    if (!jdk) return;
    program_ = new Program;
    program_->path.add_jdk(*jdk);
    program_->path.add(REFRACT_FIXTURE_CLASSES);
    program_->hierarchy = std::make_unique<ClassHierarchy>(program_->path);
    program_->extractor = std::make_unique<FactExtractor>(*program_->hierarchy);
    ProgramScope scope(*program_->hierarchy, false);
    scope.add_root("facts/Facts");
    scope.run([](const ClassFile& cls,
                 const std::vector<MethodIr>& ir) { program_->extractor->add_class(cls, ir); },
              nullptr);
    program_->extractor->add_entry(kMain);
    program_->extractor->finish();
  }
  static void TearDownTestSuite() {
    delete program_;
    program_ = nullptr;
  }
  void SetUp() override {
    if (program_ == nullptr) GTEST_SKIP() << "no JDK 17 with jmods on this machine";
  }

  // The tuples of `relation` as element names (decoded once per relation).
  static const std::vector<std::vector<std::string>>& named_tuples(const std::string& relation) {
    static std::map<std::string, std::vector<std::vector<std::string>>> cache;
    if (auto it = cache.find(relation); it != cache.end()) return it->second;
    const FactDatabase& db = program_->extractor->facts();
    const FactRelation& r = db.relation(relation);
    std::vector<std::vector<std::string>> out;
    for (const auto& tuple : r.sorted_tuples()) {
      std::vector<std::string> names;
      for (std::size_t i = 0; i < tuple.size(); ++i) {
        names.push_back(db.domain(r.attributes()[i].domain).names()[tuple[i]]);
      }
      out.push_back(std::move(names));
    }
    return cache[relation] = std::move(out);
  }

  // Tuples matching `pattern`, where "*" matches any element.
  static std::vector<std::vector<std::string>> matching(const std::string& relation,
                                                        const std::vector<std::string>& pattern) {
    std::vector<std::vector<std::string>> out;
    for (const auto& tuple : named_tuples(relation)) {
      bool match = tuple.size() == pattern.size();
      for (std::size_t i = 0; match && i < tuple.size(); ++i) {
        match = pattern[i] == "*" || pattern[i] == tuple[i];
      }
      if (match) out.push_back(tuple);
    }
    return out;
  }

  static bool has(const std::string& relation, const std::vector<std::string>& pattern) {
    return !matching(relation, pattern).empty();
  }

  static Program* program_;
};

FactExtractorTest::Program* FactExtractorTest::program_ = nullptr;

TEST_F(FactExtractorTest, NewIsAnAllocationSiteNamedByTypeAndCount) {
  EXPECT_TRUE(has("Alloc", {local("box"), kMain + "/new facts.Box/0"}));
  EXPECT_TRUE(has("HeapType", {kMain + "/new facts.Box/0", "facts.Box"}));
  EXPECT_TRUE(has("Alloc", {local("array"), kMain + "/new java.lang.Object[]/0"}));
  EXPECT_TRUE(has("InitTrigger", {kMain, "facts.Box"}));
}

TEST_F(FactExtractorTest, StringConstantIsAHeapObjectNamedByItsLiteral) {
  EXPECT_TRUE(has("Alloc", {local("text"), "\"text\""}));
  EXPECT_TRUE(has("StringConstant", {"\"text\""}));
  EXPECT_TRUE(has("HeapType", {"\"text\"", "java.lang.String"}));
}

TEST_F(FactExtractorTest, FieldAccessesNameTheResolvedField) {
  EXPECT_TRUE(has("Store", {local("box"), "<facts.Box: java.lang.Object item>", local("text")}));
  EXPECT_TRUE(has("Load", {local("box"), "<facts.Box: java.lang.Object item>", local("loaded")}));
  EXPECT_TRUE(has("StaticStore", {"<facts.Box: java.lang.Object shared>", local("loaded")}));
  EXPECT_TRUE(has("StaticField", {"<facts.Box: java.lang.Object shared>"}));
  EXPECT_TRUE(has("InitTrigger", {kMain, "facts.Box"}));
  // A primitive field is declared but never loaded or stored as a fact.
  EXPECT_TRUE(has("FieldType", {"<facts.Box: int count>", "int"}));
  EXPECT_FALSE(has("Store", {"*", "<facts.Box: int count>", "*"}));
}

TEST_F(FactExtractorTest, ArrayAccessesAndCasts) {
  EXPECT_TRUE(has("ArrayStore", {local("array"), local("loaded")}));
  EXPECT_TRUE(has("ArrayLoad", {local("array"), local("element")}));
  EXPECT_TRUE(has("Cast", {local("cast"), local("element"), "java.lang.String"}));
  EXPECT_TRUE(has("ComponentType", {"java.lang.Object[]", "java.lang.Object"}));
}

TEST_F(FactExtractorTest, CallsAreResolvedAndDispatchedThroughTheTable) {
  const std::string get = "<facts.Box: java.lang.Object get()>";
  const std::string site = kMain + "/facts.Box.get/0";
  EXPECT_TRUE(has("VirtualCall", {site, local("box"), get}));
  EXPECT_TRUE(has("CallResult", {site, local("viaBox")}));
  EXPECT_TRUE(has("CallIn", {site, kMain}));
  EXPECT_TRUE(has("Dispatch", {"facts.Box", get, get}));
  EXPECT_TRUE(has("Dispatch", {"facts.SubBox", get, "<facts.SubBox: java.lang.Object get()>"}));
  // Both get() calls name Box.get: the site counter runs per Decl.name.
  EXPECT_TRUE(has("VirtualCall", {kMain + "/facts.Box.get/1", local("sub"), get}));
  EXPECT_TRUE(has("SpecialCall",
                  {kMain + "/facts.Box.<init>/0", local("box"), "<facts.Box: void <init>()>"}));
}

TEST_F(FactExtractorTest, ReflectiveCallSitesAreFactsOfTheirOwn) {
  const std::string get_name = "<java.lang.Class: java.lang.String getName()>";
  EXPECT_TRUE(has("ReflectiveCall", {kMain + "/java.lang.Class.getName/0", get_name}));
  EXPECT_TRUE(has("ClassConstant", {local("klass"), "facts.Facts"}));
  EXPECT_FALSE(has("ReflectiveCall", {kMain + "/facts.Box.get/0", "*"}));
}

TEST_F(FactExtractorTest, LambdaIsAnObjectOfASyntheticClassCallingItsImplementation) {
  const auto alloc = matching("Alloc", {local("lambda"), "*"});
  ASSERT_EQ(alloc.size(), 1u);
  const std::string heap = alloc[0][1];
  const auto type = matching("HeapType", {heap, "*"});
  ASSERT_EQ(type.size(), 1u);
  const std::string lambda_class = type[0][1];
  EXPECT_TRUE(has("SubtypeOf", {lambda_class, "facts.Op"}));
  EXPECT_TRUE(
      has("LambdaImpl", {heap, "<facts.Facts: java.lang.Object lambda$main$0(java.lang.Object)>"}));
  // Op.apply on the lambda object runs the synthetic method, which calls the body statically
  // with its parameter.
  const auto dispatch = matching(
      "Dispatch", {lambda_class, "<facts.Op: java.lang.Object apply(java.lang.Object)>", "*"});
  ASSERT_EQ(dispatch.size(), 1u);
  const std::string synthetic = dispatch[0][2];
  const auto calls = matching(
      "StaticCall", {"*", "<facts.Facts: java.lang.Object lambda$main$0(java.lang.Object)>"});
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_TRUE(has("CallIn", {calls[0][0], synthetic}));
  const auto param = matching("FormalParam", {synthetic, "1", "*"});
  ASSERT_EQ(param.size(), 1u);
  EXPECT_TRUE(has("ActualArg", {calls[0][0], "1", param[0][2]}));
}

TEST_F(FactExtractorTest, BoundMethodReferenceCapturesItsReceiver) {
  const auto alloc = matching("Alloc", {local("bound"), "*"});
  ASSERT_EQ(alloc.size(), 1u);
  const std::string lambda_class = matching("HeapType", {alloc[0][1], "*"}).at(0)[1];
  // The captured receiver goes into a field of the lambda object ...
  const auto stores = matching("Store", {local("bound"), "*", local("self")});
  ASSERT_EQ(stores.size(), 1u);
  const std::string field = stores[0][1];
  EXPECT_TRUE(has("FieldDeclared", {field, lambda_class}));
  // ... and the synthetic method loads it back and calls keeper on it virtually.
  const auto loads = matching("Load", {"*", field, "*"});
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_TRUE(has("VirtualCall",
                  {"*", loads[0][2], "<facts.Facts: java.lang.Object keeper(java.lang.Object)>"}));
}

TEST_F(FactExtractorTest, ConcatenationKeepsItsRecipeParts) {
  const auto alloc = matching("Alloc", {local("joined"), "*"});
  ASSERT_EQ(alloc.size(), 1u);
  const std::string heap = alloc[0][1];
  EXPECT_EQ(heap, kMain + "/concat/0");
  EXPECT_TRUE(has("ConcatText", {heap, "0", "\"a\""}));
  EXPECT_TRUE(has("ConcatArg", {heap, "1", local("cast")}));
  EXPECT_TRUE(has("ConcatText", {heap, "2", "\"b\""}));
}

TEST_F(FactExtractorTest, ExceptionsAreCaughtByTypeAndThrown) {
  EXPECT_TRUE(has("Catch", {local("caught"), "java.lang.RuntimeException"}));
  EXPECT_TRUE(has("Throw", {local("caught")}));
}

TEST_F(FactExtractorTest, MethodsParametersAndReturns) {
  const std::string id = "<facts.Facts: java.lang.Object id(java.lang.Object)>";
  EXPECT_TRUE(has("StaticMethod", {id}));
  EXPECT_TRUE(has("FormalParam", {id, "1", id + "/o"}));
  EXPECT_TRUE(has("ReturnVar", {id, id + "/o"}));
  const std::string keeper = "<facts.Facts: java.lang.Object keeper(java.lang.Object)>";
  EXPECT_TRUE(has("ThisVar", {keeper, keeper + "/this"}));
  EXPECT_TRUE(has("EntryMethod", {kMain}));
  EXPECT_TRUE(has("VarType", {local("box"), "facts.Box"}));
  EXPECT_TRUE(has("VarMethod", {local("box"), kMain}));
}

TEST_F(FactExtractorTest, SubtypesIncludeArraysAndInterfaces) {
  EXPECT_TRUE(has("SubtypeOf", {"facts.SubBox", "facts.Box"}));
  EXPECT_TRUE(has("SubtypeOf", {"facts.SubBox", "java.lang.Object"}));
  EXPECT_TRUE(has("SubtypeOf", {"java.lang.String", "java.lang.CharSequence"}));
  EXPECT_TRUE(has("SubtypeOf", {"java.lang.Object[]", "java.lang.Object"}));
  EXPECT_TRUE(has("SubtypeOf", {"java.lang.String[]", "java.lang.Object[]"}));
  EXPECT_FALSE(has("SubtypeOf", {"facts.Box", "facts.SubBox"}));
  EXPECT_TRUE(has("AbstractType", {"facts.Op"}));
  EXPECT_TRUE(has("InterfaceType", {"facts.Op"}));
}

TEST_F(FactExtractorTest, NothingIsPhantomOrUnresolvedWithTheJdk) {
  EXPECT_EQ(program_->hierarchy->phantom_count(), 0u);
  EXPECT_TRUE(program_->extractor->counts().unresolved.empty());
  EXPECT_TRUE(named_tuples("PhantomType").empty());
}

}  // namespace
}  // namespace refract::frontend
