// Real refl.log lines whose CALLER is in the JDK, resolved against the facts the front end
// extracts from the JDK 17 classes they name (only those classes are read, so this takes
// well under a second). The logs were recorded on the same JDK build (17.0.15), so LINE meets
// the LineNumberTable of these classes.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "frontend/class_path.hpp"
#include "frontend/fact_extractor.hpp"
#include "frontend/hierarchy.hpp"
#include "frontend/ir_builder.hpp"
#include "reflection/reflective_targets.hpp"
#include "reflection/tamiflex_log.hpp"

namespace refract::reflection {
namespace {

class JdkLogTest : public ::testing::Test {
 protected:
  struct Program {
    frontend::ClassPath path;
    std::unique_ptr<frontend::ClassHierarchy> hierarchy;
    std::unique_ptr<frontend::FactExtractor> extractor;
  };

  static void SetUpTestSuite() {
    const auto jdk = frontend::find_default_jdk();
    if (!jdk || frontend::jdk_release(*jdk) != 17) return;
    program_ = std::make_unique<Program>();
    program_->path.add_jdk(*jdk);
    program_->hierarchy = std::make_unique<frontend::ClassHierarchy>(program_->path);
    program_->extractor = std::make_unique<frontend::FactExtractor>(*program_->hierarchy);
    for (const char* name : {"java/util/Arrays", "java/lang/String", "java/lang/Enum",
                             "java/util/ServiceLoader$LazyClassPathLookupIterator",
                             "java/util/ServiceLoader$ProviderImpl",
                             "com/sun/management/internal/PlatformMBeanProviderImpl"}) {
      const frontend::ClassFile* cls = program_->hierarchy->find(name);
      ASSERT_NE(cls, nullptr) << name;
      std::vector<frontend::MethodIr> methods;
      for (const frontend::MethodInfo& m : cls->methods)
        methods.push_back(frontend::build_method_ir(*cls, m));
      program_->extractor->add_class(*cls, methods);
    }
  }
  static void TearDownTestSuite() { program_.reset(); }
  void SetUp() override {
    if (!program_) GTEST_SKIP() << "no JDK 17 with jmods on this machine";
  }

  static const frontend::FactDatabase& facts() { return program_->extractor->facts(); }
  static LoggedTargets resolve(std::string_view log) {
    return resolve_log(facts(), program_->extractor->invocation_positions(),
                       parse_tamiflex_log(log, "refl.log"));
  }
  static std::string caller_of(std::uint64_t site) {
    const frontend::FactRelation& call_in = facts().relation("CallIn");
    for (const auto& t : call_in.sorted_tuples())
      if (t[0] == site) return facts().domain("M").names()[t[1]];
    return "";
  }

  static inline std::unique_ptr<Program> program_;
};

TEST_F(JdkLogTest, ArrayNewInstanceInArraysCopyOfIsTheSiteOnItsLine) {
  // fop/refl.log
  const LoggedTargets t =
      resolve("Array.newInstance;java.lang.String[];java.util.Arrays.copyOf;3513;;41\n");
  ASSERT_EQ(t.classes.size(), 1u);
  // The component type: the Class argument of Array.newInstance(Class, int).
  EXPECT_EQ(facts().domain("T").names()[t.classes[0].target], "java.lang.String");
  EXPECT_EQ(
      caller_of(t.classes[0].invoke),
      "<java.util.Arrays: java.lang.Object[] copyOf(java.lang.Object[],int,java.lang.Class)>");
  EXPECT_EQ(program_->extractor->invocation_positions()[t.classes[0].invoke].line, 3513u);
}

TEST_F(JdkLogTest, ConstructorNewInstanceInServiceLoader) {
  // lucene/refl.log
  const LoggedTargets t = resolve(
      "Constructor.newInstance;<com.sun.management.internal.PlatformMBeanProviderImpl: void "
      "<init>()>;java.util.ServiceLoader$ProviderImpl.newInstance;789;isAccessible=true;2\n");
  ASSERT_EQ(t.methods.size(), 1u);
  EXPECT_EQ(facts().domain("M").names()[t.methods[0].target],
            "<com.sun.management.internal.PlatformMBeanProviderImpl: void <init>()>");
  EXPECT_EQ(caller_of(t.methods[0].invoke),
            "<java.util.ServiceLoader$ProviderImpl: java.lang.Object newInstance()>");
  EXPECT_EQ(program_->extractor->invocation_positions()[t.methods[0].invoke].line, 789u);
}

TEST_F(JdkLogTest, UnmatchedEntriesSayWhy) {
  const LoggedTargets t = resolve(
      // hsqldb/refl.log: a class the facts do not hold.
      "Class.forName;org.hsqldb.jdbc.JDBCDriver;"
      "java.util.ServiceLoader$LazyClassPathLookupIterator.nextProviderClass;1217;;1\n"
      // checkstyle/refl.log and others: Class.getMethod reached through frames TamiFlex skips
      // (java.lang.Class), so the CALLER has no getMethod call of its own.
      "Class.getMethod;<java.lang.annotation.RetentionPolicy: java.lang.annotation."
      "RetentionPolicy[] values()>;java.lang.Enum.valueOf;267;isAccessible=false;1\n"
      // antlr/refl.log: a caller whose class was not read.
      "Class.forName;antlr.Tool;sun.launcher.LauncherHelper.loadMainClass;808;;1\n");
  ASSERT_EQ(t.unmatched.size(), 3u);
  EXPECT_EQ(t.unmatched[0].reason, UnmatchedReason::kTargetNotInFacts);
  EXPECT_EQ(t.unmatched[1].reason, UnmatchedReason::kNoSiteOfKind);
  EXPECT_EQ(t.unmatched[2].reason, UnmatchedReason::kCallerNotInFacts);
  EXPECT_EQ(t.matched_entries, 0u);
}

}  // namespace
}  // namespace refract::reflection
