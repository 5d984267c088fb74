// Zip and jmod archives and class paths built in the test: jars, jmods, class folders,
// multi-release jars, precedence and enumeration, default JDK discovery.
#include "frontend/class_path.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "frontend/class_builder.hpp"
#include "frontend/class_file.hpp"
#include "frontend/test_util.hpp"
#include "frontend/zip_archive.hpp"
#include "support/error.hpp"

namespace refract::frontend {
namespace {

using testing::ClassBuilder;
using testing::TempDir;
using testing::text_bytes;
using testing::write_file;
using testing::write_zip;

// A class file whose this_class is `name` and whose SourceFile attribute is `marker`, so a
// test can tell which copy of a class it read.
std::vector<std::uint8_t> class_bytes(const std::string& name, const std::string& marker = "") {
  ClassBuilder b;
  b.this_class = name;
  if (!marker.empty()) {
    b.add_class_attribute(b.attribute("SourceFile", testing::Bytes().u2(b.utf8(marker))));
  }
  return b.build();
}

std::string marker_of(const ClassBytes& bytes) {
  const ClassFile cls = parse_class_file(bytes.bytes, bytes.origin);
  return cls.source_file.value_or("");
}

TEST(ZipArchiveTest, ListsAndReadsEntries) {
  TempDir dir;
  const auto jar = dir / "lib.jar";
  write_zip(jar, {{"a/", {}}, {"a/B.class", class_bytes("a/B")}, {"readme.txt", text_bytes("hi")}});
  const ZipArchive archive = ZipArchive::open(jar);
  EXPECT_EQ(archive.kind(), ZipArchive::Kind::kZip);
  EXPECT_EQ(archive.name(), jar.string());
  EXPECT_EQ(archive.entries(), (std::vector<std::string>{"a/", "a/B.class", "readme.txt"}));
  ASSERT_TRUE(archive.find("readme.txt").has_value());
  EXPECT_EQ(archive.read(*archive.find("readme.txt")), text_bytes("hi"));
  EXPECT_EQ(archive.read("a/B.class"), class_bytes("a/B"));
  EXPECT_EQ(archive.origin(1), jar.string() + "!a/B.class");
  EXPECT_FALSE(archive.find("missing").has_value());
  try {
    archive.read("missing");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), jar.string() + "!missing: no such entry in the archive");
  }
}

TEST(ZipArchiveTest, StoredAndDeflatedEntriesAndMoves) {
  TempDir dir;
  std::vector<std::uint8_t> big(200000);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::uint8_t>(i * 7 % 251);
  write_zip(dir / "stored.zip", {{"big.bin", big}}, false);
  write_zip(dir / "deflated.zip", {{"big.bin", big}}, true);
  ZipArchive stored = ZipArchive::open(dir / "stored.zip");
  const ZipArchive deflated = ZipArchive::open(dir / "deflated.zip");
  EXPECT_EQ(stored.read("big.bin"), big);
  EXPECT_EQ(deflated.read("big.bin"), big);
  ZipArchive moved = std::move(stored);
  EXPECT_EQ(moved.read("big.bin"), big);
}

TEST(ZipArchiveTest, JmodFromFileAndFromMemory) {
  TempDir dir;
  const auto bytes = testing::jmod_bytes({{"classes/a/B.class", class_bytes("a/B")},
                                          {"classes/module-info.class", class_bytes("x/Y")},
                                          {"lib/libfoo.so", text_bytes("elf")}});
  write_file(dir / "m.jmod", bytes);
  const ZipArchive file = ZipArchive::open(dir / "m.jmod");
  EXPECT_EQ(file.kind(), ZipArchive::Kind::kJmod);
  EXPECT_EQ(file.read("classes/a/B.class"), class_bytes("a/B"));
  const ZipArchive memory = ZipArchive::open_buffer(bytes, "in-memory.jmod");
  EXPECT_EQ(memory.kind(), ZipArchive::Kind::kJmod);
  EXPECT_EQ(memory.read("lib/libfoo.so"), text_bytes("elf"));
  EXPECT_EQ(memory.origin(0), "in-memory.jmod!classes/a/B.class");
}

TEST(ZipArchiveTest, CorruptEntryDataIsAnError) {
  std::vector<std::uint8_t> content(1000, 'x');
  auto bytes = testing::zip_bytes({{"data.txt", content}}, false);
  // The stored data follows the 30-byte local header and the 8-byte name; change one byte so
  // the CRC no longer matches.
  bytes[30 + 8 + 10] = 'y';
  const ZipArchive archive = ZipArchive::open_buffer(bytes, "bad.jar");
  try {
    archive.read("data.txt");
    FAIL() << "corrupt data was read";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad.jar!data.txt: corrupt entry data: ", 0), 0u)
        << e.what();
  }
}

TEST(ClassPathTest, JarsFoldersAndJmodsInOrder) {
  TempDir dir;
  write_zip(dir / "first.jar", {{"a/A.class", class_bytes("a/A", "first")},
                                {"a/Shared.class", class_bytes("a/Shared", "first")}});
  write_zip(dir / "second.jar", {{"a/Shared.class", class_bytes("a/Shared", "second")},
                                 {"b/B.class", class_bytes("b/B", "second")}});
  write_file(dir / "classes" / "c" / "C.class", class_bytes("c/C", "folder"));
  write_file(dir / "classes" / "c" / "notes.txt", text_bytes("not a class"));
  write_file(dir / "mod.jmod",
             testing::jmod_bytes({{"classes/d/D.class", class_bytes("d/D", "jmod")},
                                  {"classes/module-info.class", class_bytes("module-info")},
                                  {"bin/tool", text_bytes("x")}}));
  ClassPath path;
  path.add(dir / "first.jar");
  path.add(dir / "second.jar");
  path.add(dir / "classes");
  path.add(dir / "mod.jmod");

  const auto shared = path.read("a/Shared");
  ASSERT_TRUE(shared.has_value());
  EXPECT_EQ(marker_of(*shared), "first");  // the first entry wins
  EXPECT_EQ(shared->origin, (dir / "first.jar").string() + "!a/Shared.class");
  EXPECT_EQ(marker_of(*path.read("b/B")), "second");
  const auto folder_class = path.read("c/C");
  ASSERT_TRUE(folder_class.has_value());
  EXPECT_EQ(folder_class->origin, (dir / "classes" / "c/C.class").string());
  EXPECT_EQ(marker_of(*folder_class), "folder");
  EXPECT_EQ(path.locate("d/D"), (dir / "mod.jmod").string() + "!classes/d/D.class");
  EXPECT_FALSE(path.read("nope/Nope").has_value());
  EXPECT_FALSE(path.contains("c/notes"));
  EXPECT_EQ(path.class_names(false),
            (std::vector<std::string>{"a/A", "a/Shared", "b/B", "c/C", "d/D"}));
  EXPECT_TRUE(path.contains("module-info"));  // readable, though not enumerated as a class
}

TEST(ClassPathTest, ClassesAreReadLazily) {
  TempDir dir;
  write_file(dir / "classes" / "a" / "A.class", class_bytes("a/A"));
  ClassPath path;
  path.add(dir / "classes");
  // The folder was indexed when added; the bytes are read when asked for.
  std::filesystem::remove(dir / "classes" / "a" / "A.class");
  EXPECT_TRUE(path.contains("a/A"));
  try {
    path.read("a/A");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir / "classes" / "a/A.class").string() + ": cannot open class file for reading");
  }
}

TEST(ClassPathTest, JdkClassesTakePrecedence) {
  TempDir dir;
  std::filesystem::create_directories(dir / "jdk" / "jmods");
  write_file(dir / "jdk" / "jmods" / "java.base.jmod",
             testing::jmod_bytes(
                 {{"classes/java/lang/Object.class", class_bytes("java/lang/Object", "jdk")}}));
  write_file(dir / "jdk" / "jmods" / "java.sql.jmod",
             testing::jmod_bytes({{"classes/java/sql/Connection.class",
                                   class_bytes("java/sql/Connection", "jdk")}}));
  write_file(dir / "jdk" / "jmods" / "README", text_bytes("not a jmod"));
  write_zip(dir / "app.jar", {{"java/lang/Object.class", class_bytes("java/lang/Object", "app")},
                              {"app/Main.class", class_bytes("app/Main", "app")}});
  ClassPath path;
  path.add(dir / "app.jar");
  path.add_jdk(dir / "jdk");
  EXPECT_EQ(marker_of(*path.read("java/lang/Object")), "jdk");
  EXPECT_EQ(path.class_names(false), std::vector<std::string>{"app/Main"});
  EXPECT_EQ(path.class_names(true),
            (std::vector<std::string>{"app/Main", "java/lang/Object", "java/sql/Connection"}));
}

TEST(ClassPathTest, MultiReleaseJar) {
  TempDir dir;
  const testing::ZipEntries entries = {
      {"META-INF/MANIFEST.MF",
       text_bytes("Manifest-Version: 1.0\r\nMulti-Release: true\r\nCreated-By: test\r\n\r\n")},
      {"a/B.class", class_bytes("a/B", "base")},
      {"META-INF/versions/9/a/B.class", class_bytes("a/B", "9")},
      {"META-INF/versions/11/a/B.class", class_bytes("a/B", "11")},
      {"META-INF/versions/21/a/B.class", class_bytes("a/B", "21")},
      {"META-INF/versions/11/a/OnlyVersioned.class", class_bytes("a/OnlyVersioned", "11")},
      {"META-INF/versions/21/a/Future.class", class_bytes("a/Future", "21")},
      {"a/C.class", class_bytes("a/C", "base")},
  };
  write_zip(dir / "mr.jar", entries);
  ClassPath path;  // target release 17
  path.add(dir / "mr.jar");
  const auto b = path.read("a/B");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(marker_of(*b), "11");
  EXPECT_EQ(b->origin, (dir / "mr.jar").string() + "!META-INF/versions/11/a/B.class");
  EXPECT_EQ(marker_of(*path.read("a/C")), "base");
  EXPECT_EQ(marker_of(*path.read("a/OnlyVersioned")), "11");
  EXPECT_FALSE(path.contains("a/Future"));
  EXPECT_EQ(path.class_names(false), (std::vector<std::string>{"a/B", "a/C", "a/OnlyVersioned"}));

  ClassPath newer(21);
  newer.add(dir / "mr.jar");
  EXPECT_EQ(marker_of(*newer.read("a/B")), "21");
  ClassPath older(8);
  older.add(dir / "mr.jar");
  EXPECT_EQ(marker_of(*older.read("a/B")), "base");
}

TEST(ClassPathTest, VersionedEntriesNeedTheManifestAttribute) {
  TempDir dir;
  write_zip(dir / "plain.jar",
            {{"META-INF/MANIFEST.MF",
              text_bytes("Manifest-Version: 1.0\n\nName: x\nMulti-Release: true\n")},
             {"a/B.class", class_bytes("a/B", "base")},
             {"META-INF/versions/11/a/B.class", class_bytes("a/B", "11")}});
  ClassPath path;
  path.add(dir / "plain.jar");
  EXPECT_EQ(marker_of(*path.read("a/B")), "base");  // the attribute is not in the main section
  EXPECT_EQ(path.class_names(false), std::vector<std::string>{"a/B"});
}

TEST(ClassPathTest, AddJdkErrors) {
  TempDir dir;
  std::filesystem::create_directories(dir / "nojmods");
  std::filesystem::create_directories(dir / "empty" / "jmods");
  ClassPath path;
  try {
    path.add_jdk(dir / "missing");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "missing").string() + ": no such JDK directory");
  }
  try {
    path.add_jdk(dir / "nojmods");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind((dir / "nojmods").string() + ": not a JDK with jmods", 0),
              0u);
  }
  try {
    path.add_jdk(dir / "empty");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir / "empty" / "jmods").string() + ": no .jmod files in the JDK's jmods folder");
  }
}

// A module-info whose Module attribute exports `exported` to all, `qualified` to one module,
// and opens `opened` to all.
std::vector<std::uint8_t> module_info_bytes(const std::string& name, const std::string& exported,
                                            const std::string& qualified,
                                            const std::string& opened) {
  ClassBuilder b;
  b.this_class = "module-info";
  b.super_class = "";
  b.access_flags = access::kModule;
  const auto self = b.module(name);
  const auto other = b.module("other.mod");
  b.add_class_attribute(b.attribute("Module", testing::Bytes()
                                                  .u2(self)
                                                  .u2(0)
                                                  .u2(0)
                                                  .u2(0)
                                                  .u2(2)
                                                  .u2(b.package(exported))
                                                  .u2(0)
                                                  .u2(0)
                                                  .u2(b.package(qualified))
                                                  .u2(0)
                                                  .u2(1)
                                                  .u2(other)
                                                  .u2(1)
                                                  .u2(b.package(opened))
                                                  .u2(0)
                                                  .u2(0)
                                                  .u2(0)
                                                  .u2(0)));
  return b.build();
}

TEST(ClassPathTest, JdkModuleAccessFromModuleInfo) {
  TempDir dir;
  std::filesystem::create_directories(dir / "jdk" / "jmods");
  write_file(
      dir / "jdk" / "jmods" / "java.base.jmod",
      testing::jmod_bytes(
          {{"classes/module-info.class",
            module_info_bytes("java.base", "java/lang", "jdk/internal/misc", "java/io")},
           {"classes/java/lang/Object.class", class_bytes("java/lang/Object")},
           {"classes/jdk/internal/misc/Unsafe.class", class_bytes("jdk/internal/misc/Unsafe")},
           {"classes/java/io/File.class", class_bytes("java/io/File")}}));
  // a jmod without module-info: nothing to encapsulate by
  write_file(dir / "jdk" / "jmods" / "x.plain.jmod",
             testing::jmod_bytes({{"classes/x/Y.class", class_bytes("x/Y")}}));
  write_zip(dir / "app.jar", {{"app/Main.class", class_bytes("app/Main")}});
  ClassPath path;
  path.add(dir / "app.jar");
  path.add_jdk(dir / "jdk");

  const auto object = path.jdk_module_access("java/lang/Object");
  ASSERT_TRUE(object.has_value());
  EXPECT_EQ(object->module, "java.base");
  EXPECT_TRUE(object->exported);
  EXPECT_FALSE(object->open);
  const auto unsafe = path.jdk_module_access("jdk/internal/misc/Unsafe");
  ASSERT_TRUE(unsafe.has_value());
  EXPECT_FALSE(unsafe->exported);  // exported to other.mod only
  EXPECT_FALSE(unsafe->open);
  const auto file = path.jdk_module_access("java/io/File");
  ASSERT_TRUE(file.has_value());
  EXPECT_FALSE(file->exported);
  EXPECT_TRUE(file->open);
  const auto plain = path.jdk_module_access("x/Y");
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->module, "x.plain");
  EXPECT_TRUE(plain->exported);
  EXPECT_TRUE(plain->open);
  EXPECT_FALSE(path.jdk_module_access("app/Main").has_value());
  EXPECT_FALSE(path.jdk_module_access("no/Such").has_value());
}

TEST(ClassPathTest, MalformedModuleInfoIsAnErrorNamingIt) {
  TempDir dir;
  std::filesystem::create_directories(dir / "jdk" / "jmods");
  auto bytes = module_info_bytes("java.base", "java/lang", "jdk/internal/misc", "java/io");
  bytes.resize(bytes.size() - 5);
  write_file(
      dir / "jdk" / "jmods" / "java.base.jmod",
      testing::jmod_bytes({{"classes/module-info.class", bytes},
                           {"classes/java/lang/Object.class", class_bytes("java/lang/Object")}}));
  ClassPath path;
  path.add_jdk(dir / "jdk");
  try {
    path.jdk_module_access("java/lang/Object");
    FAIL() << "a truncated module-info was read";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("java.base.jmod!classes/module-info.class"),
              std::string::npos)
        << e.what();
  }
}

// JDK 17's own declarations (`jmod describe`): java.base provides RandomGenerator with
// SecureRandom, Random and SplittableRandom; jdk.zipfs provides FileSystemProvider. An
// application jar's module-info is not read for them.
TEST(ClassPathTest, JdkModuleProvidersFromModuleInfo) {
  const auto jdk = find_default_jdk();
  ASSERT_TRUE(jdk.has_value()) << "no JDK 17 (scripts/setup-debian.sh installs it)";
  TempDir dir;
  ClassBuilder b;
  b.this_class = "module-info";
  b.super_class = "";
  b.access_flags = access::kModule;
  const auto self = b.module("app.mod");
  b.add_class_attribute(
      b.attribute("Module", testing::Bytes()
                                .u2(self)
                                .u2(0)
                                .u2(0)
                                .u2(0)
                                .u2(0)
                                .u2(0)
                                .u2(0)
                                .u2(1)  // provides
                                .u2(b.class_ref("java/util/random/RandomGenerator"))
                                .u2(1)
                                .u2(b.class_ref("app/Generator"))));
  write_zip(dir / "app.jar", {{"module-info.class", b.build()}});
  ClassPath path;
  path.add(dir / "app.jar");
  path.add_jdk(*jdk);

  std::map<std::string, std::set<std::string>> by_service;
  for (const ModuleProvider& p : path.jdk_module_providers()) {
    by_service[p.service].insert(p.provider);
    if (p.provider == "java/util/Random") {
      EXPECT_EQ(p.origin,
                (*jdk / "jmods" / "java.base.jmod").string() + "!classes/module-info.class");
    }
  }
  const std::set<std::string> generators = by_service["java/util/random/RandomGenerator"];
  for (const char* p :
       {"java/security/SecureRandom", "java/util/Random", "java/util/SplittableRandom"})
    EXPECT_EQ(generators.count(p), 1u) << p;
  EXPECT_EQ(generators.count("app/Generator"), 0u);
  EXPECT_EQ(by_service["java/nio/file/spi/FileSystemProvider"].count(
                "jdk/nio/zipfs/ZipFileSystemProvider"),
            1u);
}

TEST(ClassPathTest, DefaultJdkDiscovery) {
  TempDir dir;
  // A JDK reached through a symbolic link on PATH, as with Debian's alternatives.
  std::filesystem::create_directories(dir / "jdk-a" / "bin");
  std::filesystem::create_directories(dir / "jdk-a" / "jmods");
  write_file(dir / "jdk-a" / "bin" / "java", text_bytes("#!/bin/sh\n"));
  std::filesystem::permissions(dir / "jdk-a" / "bin" / "java", std::filesystem::perms::owner_all);
  std::filesystem::create_directories(dir / "bin");
  std::filesystem::create_symlink(dir / "jdk-a" / "bin" / "java", dir / "bin" / "java");
  // A JRE-like java without jmods, earlier on PATH, does not count.
  std::filesystem::create_directories(dir / "jre" / "bin");
  write_file(dir / "jre" / "bin" / "java", text_bytes("#!/bin/sh\n"));
  std::filesystem::permissions(dir / "jre" / "bin" / "java", std::filesystem::perms::owner_all);
  const std::string path_variable = (dir / "nowhere").string() +
                                    "::" + (dir / "jre" / "bin").string() + ":" +
                                    (dir / "bin").string();
  const auto found = find_default_jdk(path_variable, dir / "jvm");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, std::filesystem::canonical(dir / "jdk-a"));

  // Without java on PATH: the first java-17-openjdk-* with jmods under the JVM folder.
  std::filesystem::create_directories(dir / "jvm" / "java-17-openjdk-amd64" / "jmods");
  std::filesystem::create_directories(dir / "jvm" / "java-17-openjdk-arm64");
  std::filesystem::create_directories(dir / "jvm" / "java-21-openjdk-amd64" / "jmods");
  EXPECT_EQ(find_default_jdk("", dir / "jvm"), dir / "jvm" / "java-17-openjdk-amd64");
  EXPECT_FALSE(find_default_jdk("", dir / "nothing").has_value());
}

TEST(ClassPathTest, JdkRelease) {
  TempDir dir;
  write_file(dir / "17" / "release", text_bytes("IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"17.0.15\"\n"));
  write_file(dir / "8" / "release", text_bytes("JAVA_VERSION=\"1.8.0_402\"\n"));
  write_file(dir / "bad" / "release", text_bytes("JAVA_VERSION=\"\"\n"));
  EXPECT_EQ(jdk_release(dir / "17"), 17);
  EXPECT_EQ(jdk_release(dir / "8"), 8);
  EXPECT_FALSE(jdk_release(dir / "bad").has_value());
  EXPECT_FALSE(jdk_release(dir / "none").has_value());
}

}  // namespace
}  // namespace refract::frontend
