// Java's service-provider mechanism (reflection/services.datalog): a jar lists two providers of
// reflection.services.Shape in META-INF/services, and Main loads them with
// ServiceLoader.load(Shape.class). Under strings, probe and solar the forName call of
// ServiceLoader$LazyClassPathLookupIterator.nextProviderClass resolves to exactly the two
// providers (rule "services"), and Main's call on each Shape reaches both, not the Shape no
// file lists. A malformed line of a services file is a warning at JAR!ENTRY:LINE:COL.
// Generators loads the RandomGenerators java.base's module-info declares, through a helper
// that passes the service on: with --jdk-providers read, ServiceLoader's Class.forName(Module,
// String) resolves to exactly those three (rule "module-services"), not the FileSystemProvider
// java.base declares too: the front end reads it (FileSystemProvider, whose literal Generators
// takes, gives itself to ServiceLoader in code nothing here calls), but no ServiceLoader is made
// for it.
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
const char* const kLoadProvider =
    "<java.util.ServiceLoader: java.util.ServiceLoader$Provider "
    "loadProvider(jdk.internal.module.ServicesCatalog$ServiceProvider)>/java.lang.Class.forName/0";
const char* const kNextIntCall =
    "<reflection.services.Generators: void main(java.lang.String[])>"
    "/java.util.random.RandomGenerator.nextInt/0";
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
          "java/util/ServiceConfigurationError", "java/lang/Error",
          // what java.base's module-info provides for RandomGenerator
          "java/util/random/RandomGenerator", "java/util/Random", "java/util/SplittableRandom",
          "java/security/SecureRandom",
          // and for FileSystemProvider
          "java/nio/file/spi/FileSystemProvider", "jdk/internal/jrtfs/JrtFileSystemProvider"})
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
                  const fs::path& out, const std::string& main = "reflection.services.Main",
                  const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {
      "analyze", "--classpath", jar.string(), "--jdk",   services_jdk().string(),
      "--main",  main,          "--context",  "insens",  "--reflection",
      mode,      "--out",       out.string(), "--nodes", "300000",
      "--cache", "30000",       "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_refract(args, dir.path());
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
  // Main names no service a module provides: the module providers' call returns nothing
  const auto modules = sites.find(kLoadProvider);
  ASSERT_NE(modules, sites.end()) << "loadProvider's forName is not reached";
  EXPECT_TRUE(modules->second.targets.empty());
  EXPECT_FALSE(modules->second.possibly_unsound);
}

TEST_P(ServicesTest, ProvidersModulesDeclareAreTheTargetsOfForNameModule) {
  TempDir dir;
  const fs::path jar = services_jar(dir, "reflection.services.Circle\n");
  const fs::path out = dir.path() / "out";
  const RunResult run = analyze(dir, jar, GetParam(), out, "reflection.services.Generators",
                                {"--jdk-providers", "read"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("warning"), std::string::npos) << run.err;

  const auto sites = read_reflection_json(out / "reflection.json");
  const auto site = sites.find(kLoadProvider);
  ASSERT_NE(site, sites.end()) << "loadProvider's forName is not reached";
  const std::map<std::string, std::set<std::string>> expected = {
      {"java.security.SecureRandom", {"module-services"}},
      {"java.util.Random", {"module-services"}},
      {"java.util.SplittableRandom", {"module-services"}}};
  EXPECT_EQ(site->second.targets, expected);
  EXPECT_FALSE(site->second.possibly_unsound);

  // a header line and four providers: JrtFileSystemProvider is read, and is no target
  EXPECT_EQ(lines_of(read_file(out / "facts" / "ModuleServiceProvider.tuples")).size(), 5u)
      << read_file(out / "facts" / "ModuleServiceProvider.tuples");

  const std::set<std::string> calls = callees(out, kNextIntCall);
  EXPECT_EQ(calls.count("<java.util.Random: int nextInt()>"), 1u);
  EXPECT_EQ(calls.count("<java.util.SplittableRandom: int nextInt()>"), 1u);
}

INSTANTIATE_TEST_SUITE_P(Modes, ServicesTest, ::testing::Values("strings", "probe", "solar"));

// Without --jdk-providers read, the JDK's providers are not read: ServiceLoader's
// Class.forName(Module, String) has no target, and is flagged, for Generators loads a service
// java.base provides.
TEST(ModuleServicesTest, UnreadProvidersOfALoadedServiceAreFlagged) {
  TempDir dir;
  const fs::path jar = services_jar(dir, "reflection.services.Circle\n");
  const fs::path out = dir.path() / "out";
  const RunResult run = analyze(dir, jar, "solar", out, "reflection.services.Generators");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(lines_of(read_file(out / "facts" / "ModuleServiceProvider.tuples")).size(), 1u)
      << "only the header line";
  const auto sites = read_reflection_json(out / "reflection.json");
  const auto site = sites.find(kLoadProvider);
  ASSERT_NE(site, sites.end()) << "loadProvider's forName is not reached";
  EXPECT_TRUE(site->second.targets.empty());
  EXPECT_TRUE(site->second.possibly_unsound);
  EXPECT_NE(read_file(out / "reflection.txt").find("--jdk-providers read reads them"),
            std::string::npos);
}

// Class.forName(Module, String) outside ServiceLoader: flagged possibly unsound, and an
// annotation of kind `class` gives what it returns.
TEST(ModuleForNameTest, OutsideServiceLoaderIsFlaggedUnlessAnnotated) {
  const char* const site =
      "<reflection.services.ModuleNames: void main(java.lang.String[])>/java.lang.Class.forName/0";
  TempDir dir;
  const fs::path jar = services_jar(dir, "reflection.services.Circle\n");
  const fs::path out = dir.path() / "out";
  RunResult run = analyze(dir, jar, "solar", out, "reflection.services.ModuleNames");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto sites = read_reflection_json(out / "reflection.json");
  ASSERT_NE(sites.find(site), sites.end()) << "ModuleNames' forName is not a site";
  EXPECT_TRUE(sites.at(site).possibly_unsound);
  EXPECT_TRUE(sites.at(site).targets.empty());
  EXPECT_NE(read_file(out / "reflection.txt").find("Class.forName(Module, String) outside"),
            std::string::npos);

  const fs::path annotations = dir.path() / "annotations.tsv";
  write_file(annotations, std::string(site) + "\tclass\treflection.services.Square\n");
  const fs::path annotated = dir.path() / "annotated";
  run = run_refract({"analyze",
                     "--classpath",
                     jar.string(),
                     "--jdk",
                     services_jdk().string(),
                     "--main",
                     "reflection.services.ModuleNames",
                     "--context",
                     "insens",
                     "--reflection",
                     "solar",
                     "--reflection-annotations",
                     annotations.string(),
                     "--out",
                     annotated.string(),
                     "--nodes",
                     "300000",
                     "--cache",
                     "30000",
                     "--quiet"},
                    dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  sites = read_reflection_json(annotated / "reflection.json");
  ASSERT_NE(sites.find(site), sites.end());
  EXPECT_FALSE(sites.at(site).possibly_unsound);
  const std::map<std::string, std::set<std::string>> given = {
      {"reflection.services.Square", {"annotation"}}};
  EXPECT_EQ(sites.at(site).targets, given);
}

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
