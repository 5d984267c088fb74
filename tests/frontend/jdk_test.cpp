// Reads the real JDK 17 library: every class of java.base.jmod is parsed and all its method
// code decoded without a single error, and the JDK is usable as a class path.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <set>

#include "frontend/bytecode.hpp"
#include "frontend/class_file.hpp"
#include "frontend/class_path.hpp"
#include "frontend/test_util.hpp"
#include "frontend/zip_archive.hpp"

namespace refract::frontend {
namespace {

struct ReadStats {
  std::size_t classes = 0;
  std::size_t methods = 0;
  std::size_t instructions = 0;
  std::size_t bytes = 0;
};

// Parses a class and decodes every method body, counting what it saw.
void read_class(const std::vector<std::uint8_t>& bytes, const std::string& origin,
                ReadStats& stats) {
  const ClassFile cls = parse_class_file(bytes, origin);
  ++stats.classes;
  stats.bytes += bytes.size();
  for (const MethodInfo& method : cls.methods) {
    if (!method.code) continue;
    ++stats.methods;
    stats.instructions += decode_code(cls, method).instructions().size();
  }
}

TEST(JdkTest, EveryClassOfJavaBaseParsesAndDecodes) {
  const auto home = testing::find_jdk17();
  if (!home) GTEST_SKIP() << testing::kNoJdkMessage;
  const auto start = std::chrono::steady_clock::now();
  const ZipArchive jmod = ZipArchive::open(*home / "jmods" / "java.base.jmod");
  ASSERT_EQ(jmod.kind(), ZipArchive::Kind::kJmod);
  ReadStats stats;
  std::size_t errors = 0;
  for (std::size_t i = 0; i < jmod.entries().size(); ++i) {
    const std::string& entry = jmod.entries()[i];
    if (!entry.starts_with("classes/") || !entry.ends_with(".class")) continue;
    try {
      read_class(jmod.read(i), jmod.origin(i), stats);
    } catch (const InputError& e) {
      if (++errors <= 10) ADD_FAILURE() << e.what();
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "java.base.jmod: " << stats.classes << " classes (" << stats.bytes << " bytes), "
            << stats.methods << " method bodies, " << stats.instructions << " instructions in "
            << seconds << " s\n";
  RecordProperty("classes", static_cast<int>(stats.classes));
  RecordProperty("instructions", static_cast<int>(stats.instructions));
  EXPECT_EQ(errors, 0u);
  EXPECT_GT(stats.classes, 5000u);
}

TEST(JdkTest, JdkAsClassPath) {
  const auto home = testing::find_jdk17();
  if (!home) GTEST_SKIP() << testing::kNoJdkMessage;
  ClassPath path;
  path.add_jdk(*home);
  const auto string = path.read("java/lang/String");
  ASSERT_TRUE(string.has_value());
  EXPECT_EQ(string->origin,
            (*home / "jmods" / "java.base.jmod").string() + "!classes/java/lang/String.class");
  const ClassFile cls = parse_class_file(string->bytes, string->origin);
  EXPECT_EQ(cls.this_class, "java/lang/String");
  EXPECT_EQ(cls.major_version, 61);
  EXPECT_TRUE(path.contains("java/sql/Connection"));  // java.sql.jmod
  EXPECT_FALSE(path.contains("java/lang/NoSuchClass"));
  EXPECT_TRUE(path.class_names(false).empty());  // nothing from the application
  const auto all = path.class_names(true);
  EXPECT_GT(all.size(), 20000u);
  EXPECT_TRUE(std::binary_search(all.begin(), all.end(), "java/util/HashMap"));
  EXPECT_FALSE(std::binary_search(all.begin(), all.end(), "module-info"));
}

TEST(JdkTest, EveryClassOfTheJdkThroughTheClassPath) {
  const auto home = testing::find_jdk17();
  if (!home) GTEST_SKIP() << testing::kNoJdkMessage;
  const auto start = std::chrono::steady_clock::now();
  ClassPath path;
  path.add_jdk(*home);
  ReadStats stats;
  std::size_t errors = 0;
  for (const std::string& name : path.class_names(true)) {
    try {
      const auto bytes = path.read(name);
      ASSERT_TRUE(bytes.has_value()) << name;
      read_class(bytes->bytes, bytes->origin, stats);
    } catch (const InputError& e) {
      if (++errors <= 10) ADD_FAILURE() << e.what();
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "all JDK jmods: " << stats.classes << " classes, " << stats.methods
            << " method bodies, " << stats.instructions << " instructions in " << seconds << " s\n";
  EXPECT_EQ(errors, 0u);
}

// Every jmod's module-info reads, and the module system's answers are the JDK's: java.lang is
// exported, jdk.internal.misc only to named modules, and no package of java.base is open.
TEST(JdkTest, ModuleAccessOfTheJdk) {
  const auto home = testing::find_jdk17();
  if (!home) GTEST_SKIP() << testing::kNoJdkMessage;
  ClassPath path;
  path.add_jdk(*home);
  std::set<std::string> modules;
  for (const std::string& name : path.class_names(true)) {
    const auto access = path.jdk_module_access(name);
    ASSERT_TRUE(access.has_value()) << name;
    modules.insert(access->module);
    if (access->module == "java.base") {
      EXPECT_FALSE(access->open) << name;
    }
  }
  EXPECT_GT(modules.size(), 50u);
  EXPECT_TRUE(modules.count("java.xml"));
  const auto string = path.jdk_module_access("java/lang/String");
  EXPECT_EQ(string->module, "java.base");
  EXPECT_TRUE(string->exported);
  const auto unsafe = path.jdk_module_access("jdk/internal/misc/Unsafe");
  EXPECT_FALSE(unsafe->exported);
  const auto connection = path.jdk_module_access("java/sql/Connection");
  EXPECT_EQ(connection->module, "java.sql");
  EXPECT_TRUE(connection->exported);
}

TEST(JdkTest, DefaultJdkDiscovery) {
  const auto home = find_default_jdk();
  if (!home) GTEST_SKIP() << testing::kNoJdkMessage;
  EXPECT_TRUE(std::filesystem::is_directory(*home / "jmods"));
  EXPECT_TRUE(jdk_release(*home).has_value());
}

}  // namespace
}  // namespace refract::frontend
