// Java's service-provider mechanism (reflection/services.datalog): a jar lists two providers of
// reflection.services.Shape in META-INF/services, and Main loads them with
// ServiceLoader.load(Shape.class). Under strings, probe and solar the forName call of
// ServiceLoader$LazyClassPathLookupIterator.nextProviderClass resolves to exactly the two
// providers (rule "services"), and Main's call on each Shape reaches both, not the Shape no
// file lists. A malformed line of a services file is a warning at JAR!ENTRY:LINE:COL.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "reflection/reflection_fixture.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

const char* const kServiceEntry = "META-INF/services/reflection.services.Shape";
const char* const kNextProviderClass =
    "<java.util.ServiceLoader$LazyClassPathLookupIterator: java.lang.Class "
    "nextProviderClass()>/java.lang.Class.forName/0";
const char* const kCornersCall =
    "<reflection.services.Main: void main(java.lang.String[])>/reflection.services.Shape.corners/0";

// The reflection fixtures' small JDK and what ServiceLoader's class-path path runs through.
const std::filesystem::path& services_jdk() {
  static const std::unique_ptr<TempDir> home = [] {
    std::vector<const char*> classes(std::begin(kReflectionJdkClasses),
                                     std::end(kReflectionJdkClasses));
    for (const char* c :
         {"java/util/ServiceLoader", "java/util/ServiceLoader$1", "java/util/ServiceLoader$2",
          "java/util/ServiceLoader$3", "java/util/ServiceLoader$LazyClassPathLookupIterator",
          "java/util/ServiceLoader$ModuleServicesLookupIterator",
          "java/util/ServiceLoader$Provider", "java/util/ServiceLoader$ProviderImpl",
          "java/util/ServiceLoader$ProviderImpl$2", "java/util/Iterator", "java/lang/Iterable",
          "java/util/ServiceConfigurationError", "java/lang/Error"})
      classes.push_back(c);
    return make_small_jdk(classes);
  }();
  return home->path();
}

// A jar of package reflection.services with `services_file` as its META-INF/services entry.
fs::path services_jar(const TempDir& dir, const std::string& services_file) {
  ZipEntries entries;
  const fs::path root = kReflectionFixtureClasses;
  for (const auto& e : fs::directory_iterator(root / "reflection" / "services")) {
    if (e.path().extension() != ".class") continue;
    entries.emplace_back("reflection/services/" + e.path().filename().string(),
                         read_bytes(e.path()));
  }
  entries.emplace_back(kServiceEntry, ByteVector(services_file.begin(), services_file.end()));
  const fs::path jar = dir.path() / "services.jar";
  write_bytes(jar, zip_bytes(entries));
  return jar;
}

RunResult analyze(const TempDir& dir, const fs::path& jar, const std::string& mode,
                  const fs::path& out) {
  return run_refract(
      {"analyze", "--classpath", jar.string(), "--jdk", services_jdk().string(), "--main",
       "reflection.services.Main", "--context", "insens", "--reflection", mode, "--out",
       out.string(), "--nodes", "300000", "--cache", "30000", "--quiet"},
      dir.path());
}

std::set<std::string> callees(const fs::path& out, const std::string& site) {
  std::set<std::string> found;
  for (const std::string& line : lines_of(read_file(out / "call-edges.tsv"))) {
    const std::vector<std::string> fields = split_tabs(line);
    if (fields.size() >= 2 && fields[0] == site) found.insert(fields[1]);
  }
  return found;
}

class ServicesTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ServicesTest, ProvidersListedInMetaInfServicesAreTheTargets) {
  TempDir dir;
  const fs::path jar = services_jar(
      dir, "# the shapes\nreflection.services.Circle\n\n  reflection.services.Square  # four\n");
  const fs::path out = dir.path() / "out";
  const RunResult run = analyze(dir, jar, GetParam(), out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("warning"), std::string::npos) << run.err;

  const auto sites = read_reflection_json(out / "reflection.json");
  const auto site = sites.find(kNextProviderClass);
  ASSERT_NE(site, sites.end()) << "nextProviderClass's forName is not reached";
  const std::map<std::string, std::set<std::string>> expected = {
      {"reflection.services.Circle", {"services"}}, {"reflection.services.Square", {"services"}}};
  EXPECT_EQ(site->second.targets, expected);

  const std::set<std::string> calls = callees(out, kCornersCall);
  const std::set<std::string> both = {"<reflection.services.Circle: int corners()>",
                                      "<reflection.services.Square: int corners()>"};
  EXPECT_EQ(calls, both);
}

INSTANTIATE_TEST_SUITE_P(Modes, ServicesTest, ::testing::Values("strings", "probe", "solar"));

TEST(ServicesFileTest, MalformedNameIsAWarningAtJarEntryLineAndTheRestIsRead) {
  TempDir dir;
  const fs::path jar =
      services_jar(dir, "reflection.services.Circle\nreflection.services.9Square\n");
  const fs::path out = dir.path() / "out";
  const RunResult run = analyze(dir, jar, "probe", out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string where = jar.string() + "!" + kServiceEntry + ":2:1:";
  EXPECT_NE(run.err.find("warning: " + where), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("reflection.services.9Square"), std::string::npos) << run.err;
  EXPECT_EQ(callees(out, kCornersCall),
            std::set<std::string>{"<reflection.services.Circle: int corners()>"});
}

TEST(ServicesFileTest, ProviderNotOnTheClassPathIsAWarning) {
  TempDir dir;
  const fs::path jar =
      services_jar(dir, "reflection.services.Circle\n\treflection.services.Oval\n");
  const fs::path out = dir.path() / "out";
  const RunResult run = analyze(dir, jar, "strings", out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string where = jar.string() + "!" + kServiceEntry + ":2:2:";
  EXPECT_NE(run.err.find("warning: " + where), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("not on the class path"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace refract::test
