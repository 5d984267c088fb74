// The exact text of the errors a user sees for bad input: "FILE:OFFSET: message" for a class
// file on disk, "FILE!ENTRY:OFFSET: message" for one in a jar or jmod, and "FILE: message" for
// archives and paths, where the problem has no byte offset of a class file.
#include <gtest/gtest.h>

#include <functional>

#include "frontend/bytecode.hpp"
#include "frontend/class_builder.hpp"
#include "frontend/class_file.hpp"
#include "frontend/class_path.hpp"
#include "frontend/test_util.hpp"
#include "frontend/zip_archive.hpp"
#include "support/error.hpp"

namespace refract::frontend {
namespace {

using testing::ClassBuilder;
using testing::TempDir;
using testing::write_file;
using testing::write_zip;

// Reads class a/B through a class path holding only `entry` and parses and decodes it;
// returns the message of the InputError this gives.
std::string load_error(const std::filesystem::path& entry) {
  try {
    ClassPath path;
    path.add(entry);
    const auto bytes = path.read("a/B");
    if (!bytes) return "class a/B not found";
    const ClassFile cls = parse_class_file(bytes->bytes, bytes->origin);
    for (const MethodInfo& method : cls.methods) {
      if (method.code) decode_code(cls, method);
    }
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::uint8_t> valid_class() {
  ClassBuilder b;
  b.this_class = "a/B";
  b.add_method(access::kStatic, "m", "()V",
               {b.code_attribute(1, 0, testing::Bytes().u1(0x04).u1(0x57).u1(0xb1))});
  return b.build();
}

// The error for class bytes changed by `edit`, as a plain file, in a jar and in a jmod.
struct Where {
  std::string file;
  std::string jar;
  std::string jmod;
};
Where errors_for(const TempDir& dir, const std::function<void(std::vector<std::uint8_t>&)>& edit) {
  auto bytes = valid_class();
  edit(bytes);
  write_file(dir / "classes" / "a" / "B.class", bytes);
  write_zip(dir / "app.jar", {{"a/B.class", bytes}});
  write_file(dir / "app.jmod", testing::jmod_bytes({{"classes/a/B.class", bytes}}));
  return {load_error(dir / "classes"), load_error(dir / "app.jar"), load_error(dir / "app.jmod")};
}

TEST(ErrorMessageTest, ValidClassLoadsEverywhere) {
  TempDir dir;
  const Where w = errors_for(dir, [](std::vector<std::uint8_t>&) {});
  EXPECT_EQ(w.file, "");
  EXPECT_EQ(w.jar, "");
  EXPECT_EQ(w.jmod, "");
}

TEST(ErrorMessageTest, TruncatedFile) {
  TempDir dir;
  const Where w = errors_for(dir, [](std::vector<std::uint8_t>& bytes) { bytes.resize(9); });
  const std::string message =
      "unexpected end of class file reading constant_pool_count (needs 2 bytes, 1 left)";
  EXPECT_EQ(w.file, (dir / "classes" / "a/B.class").string() + ":8: " + message);
  EXPECT_EQ(w.jar, (dir / "app.jar").string() + "!a/B.class:8: " + message);
  EXPECT_EQ(w.jmod, (dir / "app.jmod").string() + "!classes/a/B.class:8: " + message);
}

TEST(ErrorMessageTest, TruncatedInsideAnAttribute) {
  TempDir dir;
  // Without its last 6 bytes, the Code attribute of m announces 15 bytes where 11 are left.
  const Where w =
      errors_for(dir, [&](std::vector<std::uint8_t>& bytes) { bytes.resize(bytes.size() - 6); });
  const std::string prefix = (dir / "app.jar").string() + "!a/B.class:";
  ASSERT_EQ(w.jar.rfind(prefix, 0), 0u) << w.jar;
  EXPECT_TRUE(
      w.jar.ends_with(": attribute Code is 15 bytes long but only 11 bytes of the "
                      "method_info remain"))
      << w.jar;
}

TEST(ErrorMessageTest, BadMagic) {
  TempDir dir;
  const Where w = errors_for(dir, [](std::vector<std::uint8_t>& bytes) { bytes[0] = 0xCB; });
  EXPECT_EQ(w.file, (dir / "classes" / "a/B.class").string() +
                        ":0: bad magic 0xcbfebabe (not a class file)");
  EXPECT_EQ(w.jar,
            (dir / "app.jar").string() + "!a/B.class:0: bad magic 0xcbfebabe (not a class file)");
  EXPECT_EQ(w.jmod, (dir / "app.jmod").string() +
                        "!classes/a/B.class:0: bad magic 0xcbfebabe (not a class file)");
}

TEST(ErrorMessageTest, UnsupportedVersion) {
  TempDir dir;
  const Where w = errors_for(dir, [](std::vector<std::uint8_t>& bytes) {
    bytes[6] = 0;
    bytes[7] = 70;  // Java 26
  });
  EXPECT_EQ(w.file,
            (dir / "classes" / "a/B.class").string() + ":4: unsupported class file version 70.0");
  EXPECT_EQ(w.jar,
            (dir / "app.jar").string() + "!a/B.class:4: unsupported class file version 70.0");
}

TEST(ErrorMessageTest, InvalidOpcodeHasTheFileOffset) {
  TempDir dir;
  std::size_t code_at = 0;
  const Where w = errors_for(dir, [&](std::vector<std::uint8_t>& bytes) {
    // iconst_1 pop return -> iconst_1 <0xcb> return
    for (std::size_t i = 0; i + 2 < bytes.size(); ++i) {
      if (bytes[i] == 0x04 && bytes[i + 1] == 0x57 && bytes[i + 2] == 0xb1) code_at = i;
    }
    bytes[code_at + 1] = 0xcb;
  });
  ASSERT_NE(code_at, 0u);
  EXPECT_EQ(w.jar, (dir / "app.jar").string() + "!a/B.class:" + std::to_string(code_at + 1) +
                       ": method m()V: invalid opcode 0xcb at pc 1");
}

TEST(ErrorMessageTest, CorruptZip) {
  TempDir dir;
  write_file(dir / "corrupt.jar", testing::text_bytes("this is not a zip archive, not at all"));
  EXPECT_EQ(load_error(dir / "corrupt.jar"),
            (dir / "corrupt.jar").string() + ": not a readable zip archive: Not a zip archive");
  // A zip cut short: its central directory is gone.
  auto zip = testing::zip_bytes({{"a/B.class", valid_class()}});
  zip.resize(zip.size() / 2);
  write_file(dir / "cut.jar", zip);
  EXPECT_EQ(load_error(dir / "cut.jar"),
            (dir / "cut.jar").string() + ": not a readable zip archive: Not a zip archive");
  // A jmod header followed by garbage.
  write_file(dir / "bad.jmod", {'J', 'M', 1, 0, 'P', 'K', 0, 0});
  EXPECT_EQ(load_error(dir / "bad.jmod"),
            (dir / "bad.jmod").string() + ": not a readable zip archive: Not a zip archive");
}

TEST(ErrorMessageTest, MissingPath) {
  TempDir dir;
  EXPECT_EQ(load_error(dir / "missing.jar"),
            (dir / "missing.jar").string() + ": no such file or directory");
  EXPECT_EQ(load_error(dir / "missing-folder"),
            (dir / "missing-folder").string() + ": no such file or directory");
  try {
    ZipArchive::open(dir / "missing.jmod");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "missing.jmod").string() + ": no such file");
  }
}

TEST(ErrorMessageTest, ClassFormatErrorCarriesOriginAndOffset) {
  try {
    parse_class_file(std::vector<std::uint8_t>{0xCA, 0xFE}, "x.jar!a/B.class");
    FAIL();
  } catch (const ClassFormatError& e) {
    EXPECT_EQ(e.origin(), "x.jar!a/B.class");
    EXPECT_EQ(e.offset(), 0u);
    EXPECT_EQ(e.where().file, "x.jar!a/B.class:0");
    EXPECT_EQ(e.message(), "unexpected end of class file reading magic (needs 4 bytes, 2 left)");
    EXPECT_EQ(std::string(e.what()),
              "x.jar!a/B.class:0: unexpected end of class file reading magic (needs 4 bytes, 2 "
              "left)");
  }
}

}  // namespace
}  // namespace refract::frontend
