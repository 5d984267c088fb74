// `refract ir` end to end. --class and --method print the IR of a fixture class exactly as the
// golden files have it (source lines included); a class or method that is not there is bad
// input (exit 1) named by the option. Under --all a damaged class, archive or path stops the
// run with "FILE[!ENTRY]:OFFSET: message" (or "FILE: message" for a whole archive or path);
// --skip-bad-classes goes on, lists each skipped entry and prints nothing of it, and the exit
// code is still 1, since refract ir exits 0 only if every requested class was read and
// translated. The counts line of --summary is checked on classes whose counts are known, and
// --quiet silences the progress lines. Bad command lines exit 2 pointing at `refract ir --help`.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <ostream>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli/fixture_paths.hpp"
#include "cli/java_inputs.hpp"
#include "cli/run_refract.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

const fs::path kGoldenDir = fs::path(REFRACT_TEST_DATA) / "frontend" / "ir";

// The body of a golden IR file: what follows its '#' comment header.
std::string golden_body(const std::string& file) {
  std::string body;
  bool in_header = true;
  for (const std::string& line : lines_of(read_file(kGoldenDir / file))) {
    if (in_header && line.starts_with("#")) continue;
    in_header = false;
    body += line + "\n";
  }
  return body;
}

// The printed block of one method, from its "SIGNATURE {" line to its closing "}".
std::string method_block(const std::string& printed, const std::string& signature) {
  const std::size_t start = printed.find(signature + " {\n");
  if (start == std::string::npos) return "";
  const std::size_t end = printed.find("\n}\n", start);
  return end == std::string::npos ? "" : printed.substr(start, end + 3 - start);
}

// The 1-based number of the line of `file` that contains `text`; 0 if none does.
std::size_t source_line_of(const fs::path& file, const std::string& text) {
  const std::vector<std::string> lines = lines_of(read_file(file));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(text) != std::string::npos) return i + 1;
  }
  return 0;
}

// The counts line: "[ir] classes C, methods M, instructions I, references to absent classes A,
// failed classes F; S s".
const std::regex kCountsLine(
    "^\\[ir\\] classes ([0-9]+), methods ([0-9]+), instructions ([0-9]+), references to absent "
    "classes ([0-9]+), failed classes ([0-9]+); [0-9.e+-]+ s$");

struct Counts {
  std::size_t classes, methods, instructions, absent, failed;
  bool operator==(const Counts&) const = default;
};

void PrintTo(const Counts& c, std::ostream* out) {
  *out << "classes " << c.classes << ", methods " << c.methods << ", instructions "
       << c.instructions << ", absent " << c.absent << ", failed " << c.failed;
}

// The counts of the one counts line of `err`; nothing if there is none (or several).
std::optional<Counts> counts_in(const std::string& err) {
  std::optional<Counts> found;
  for (const std::string& line : lines_of(err)) {
    std::smatch m;
    if (!std::regex_match(line, m, kCountsLine)) continue;
    if (found) return std::nullopt;
    found = Counts{std::stoull(m[1].str()), std::stoull(m[2].str()), std::stoull(m[3].str()),
                   std::stoull(m[4].str()), std::stoull(m[5].str())};
  }
  return found;
}

// A class whose first method, ok()V, translates and whose second, m()V, has the undefined
// opcode 0xcb at pc 0. `*opcode_at` receives the file offset of that opcode.
ByteVector class_with_one_bad_method(const std::string& name, std::size_t* opcode_at) {
  ClassBuilder b;
  b.this_class = name;
  b.super_class = "a/Absent";
  b.add_method(kAccPublic | kAccStatic, "ok", "()V", {b.code_attribute(0, 0, Bytes().u1(0xb1))});
  b.add_method(kAccPublic | kAccStatic, "m", "()V",
               {b.code_attribute(0, 0, Bytes().u1(0xcb).u1(0xb1))});
  ByteVector bytes = b.build();
  for (std::size_t i = 0; i + 3 < bytes.size(); ++i) {
    if (bytes[i] == 0xcb && bytes[i + 1] == 0xb1 && bytes[i + 2] == 0 && bytes[i + 3] == 0) {
      *opcode_at = i;
      return bytes;
    }
  }
  throw std::logic_error("class_with_one_bad_method: opcode not found");
}

// A stored jar whose only entry's data no longer matches its CRC.
ByteVector jar_with_corrupt_entry(const std::string& entry, const ByteVector& cls) {
  ByteVector zip = zip_bytes({{entry, cls}});
  zip.at(30 + entry.size() + cls.size() - 1) ^= 0xFF;  // the last data byte, after the header
  return zip;
}

class IrCliTest : public ::testing::Test {
 protected:
  fs::path input(const std::string& name, const ByteVector& bytes) {
    write_bytes(dir_ / name, bytes);
    return dir_ / name;
  }

  // A JDK that has java.lang.Object only, so that runs do not read the real JDK.
  std::string minimal_jdk() {
    if (!fs::exists(dir_ / "jdk")) write_minimal_jdk(dir_ / "jdk");
    return (dir_ / "jdk").string();
  }

  // `refract ir ARGS` in the test directory.
  RunResult ir(const std::vector<std::string>& args) {
    std::vector<std::string> all{"ir"};
    all.insert(all.end(), args.begin(), args.end());
    return run_refract(all, dir_.path());
  }

  // `refract ir --jdk MINIMAL ARGS`.
  RunResult ir_minimal_jdk(const std::vector<std::string>& args) {
    std::vector<std::string> all{"--jdk", minimal_jdk()};
    all.insert(all.end(), args.begin(), args.end());
    return ir(all);
  }

  TempDir dir_;
};

// --- --class and --method on the fixtures -----------------------------------------------------

// With the system's JDK: the whole class, as the golden file has it (which the IR golden test
// checks against the builder); every class it names is in the JDK, so nothing is absent.
TEST_F(IrCliTest, ClassPrintsTheIrOfEveryMethodAsTheGoldenFileHasIt) {
  const RunResult run = ir({"--classpath", kFixtureClasses.string(), "--class", "ir.Simple"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, golden_body("Simple.ir"));
  const std::optional<Counts> counts = counts_in(run.err);
  ASSERT_TRUE(counts.has_value()) << run.err;
  EXPECT_EQ(counts->classes, 1U);
  EXPECT_EQ(counts->methods, 5U);
  EXPECT_EQ(counts->absent, 0U);
  EXPECT_EQ(counts->failed, 0U);
  EXPECT_EQ(lines_of(run.err).size(), 1U) << run.err;
}

// Each statement starts with the source line of its bytecode, as the Java source has it.
TEST_F(IrCliTest, StatementsCarryTheirSourceLines) {
  const RunResult run =
      ir_minimal_jdk({"--classpath", kFixtureClasses.string(), "--class", "ir.Simple", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const fs::path source = fs::path(REFRACT_SOURCE_DIR) / "tests/fixtures/java/ir/Simple.java";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"this.value = value;", "this.<ir.Simple: java.lang.Object value> = value"},
      {"total += i;", "total = iadd(total, i)"},
      {"return String.class;", "$stack0 = class java.lang.String"},
      {"System.out.println(", "virtualinvoke $stack0.<java.io.PrintStream: void println"}};
  for (const auto& [java, statement] : cases) {
    const std::size_t line = source_line_of(source, java);
    ASSERT_GT(line, 0U) << java;
    const std::string prefix = "  " + std::to_string(line) + " @";
    bool found = false;
    for (const std::string& printed : lines_of(run.out)) {
      found =
          found || (printed.starts_with(prefix) && printed.find(statement) != std::string::npos);
    }
    EXPECT_TRUE(found) << "no statement '" << statement << "' at line " << line << " in\n"
                       << run.out;
  }
}

TEST_F(IrCliTest, MethodPrintsOnlyThatMethod) {
  const std::string signature = "<ir.Simple: int loop(int)>";
  const RunResult run =
      ir_minimal_jdk({"--classpath", kFixtureClasses.string(), "--method", signature, "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string expected = method_block(golden_body("Simple.ir"), signature);
  ASSERT_NE(expected, "");
  EXPECT_EQ(run.out, expected);
  EXPECT_EQ(run.err, "");
}

// A constructor, whose name has angle brackets inside the signature's.
TEST_F(IrCliTest, MethodFindsAConstructor) {
  const std::string signature = "<ir.Simple: void <init>(java.lang.Object)>";
  const RunResult run =
      ir_minimal_jdk({"--classpath", kFixtureClasses.string(), "--method", signature, "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, method_block(golden_body("Simple.ir"), signature));
}

TEST_F(IrCliTest, UnknownClassIsNamed) {
  const RunResult run =
      ir_minimal_jdk({"--classpath", kFixtureClasses.string(), "--class", "ir.Nowhere"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "--class: class ir.Nowhere is not on the class path\n");
}

TEST_F(IrCliTest, UnknownMethodIsNamedWithItsClass) {
  const RunResult run = ir_minimal_jdk(
      {"--classpath", kFixtureClasses.string(), "--method", "<ir.Simple: long loop(int)>"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "--method: no method <ir.Simple: long loop(int)> in class ir.Simple\n");
}

TEST_F(IrCliTest, MethodOfAnUnknownClassIsNamed) {
  const RunResult run = ir_minimal_jdk(
      {"--classpath", kFixtureClasses.string(), "--method", "<ir.Nowhere: void m()>"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "--method: class ir.Nowhere is not on the class path\n");
}

// --- --all over damaged input: exit 1 and a located message -----------------------------------

// A good class a/Good in classes/, beside which each test puts one damaged input.
class IrBadInputTest : public IrCliTest {
 protected:
  void SetUp() override { input("classes/a/Good.class", small_class("a/Good")); }
  std::string classes() const { return (dir_ / "classes").string(); }

  RunResult all(const std::string& class_path) {
    return ir_minimal_jdk({"--classpath", class_path, "--all", "--quiet"});
  }

  // Exit code 1 and a first stderr line "WHERE:OFFSET: message"; the run stopped there, so it
  // printed no counts.
  LocatedError expect_located_error(const RunResult& run, const std::string& where) {
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_FALSE(counts_in(run.err).has_value()) << run.err;
    const std::optional<LocatedError> error = located_error(run.err);
    if (!error) {
      ADD_FAILURE() << "not of the form FILE:OFFSET: message: " << run.err;
      return {};
    }
    EXPECT_EQ(error->where, where) << run.err;
    return *error;
  }

  // Exit code 1 and stderr starting with `prefix` (an archive or a path: no offset); nothing
  // was printed, since the class path is opened before any class is read.
  void expect_error_prefix(const RunResult& run, const std::string& prefix) {
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_EQ(run.err.substr(0, prefix.size()), prefix) << run.err;
    EXPECT_EQ(run.out, "");
  }
};

TEST_F(IrBadInputTest, ControlTheGoodClassAloneExitsZero) {
  const RunResult run = all(classes());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "<a.Good: void m()> {\n  ? @0: return\n}\n");
  EXPECT_EQ(run.err, "");
}

// The real Hello.class cut after 100 bytes: the offset plus the bytes left is the file's size.
TEST_F(IrBadInputTest, TruncatedClassNamesTheFileAndWhereItEnds) {
  ByteVector bytes = read_bytes(kFixtureClasses / "basic" / "Hello.class");
  ASSERT_GT(bytes.size(), 100U);
  bytes.resize(100);
  const fs::path file = input("classes/basic/Hello.class", bytes);
  const RunResult run = all(classes());
  const LocatedError error = expect_located_error(run, file.string());
  EXPECT_TRUE(error.message.starts_with("unexpected end of class file")) << run.err;
  std::smatch left;
  ASSERT_TRUE(std::regex_search(error.message, left, std::regex("([0-9]+) left"))) << run.err;
  EXPECT_EQ(error.offset + std::stoull(left[1].str()), 100U) << run.err;
}

TEST_F(IrBadInputTest, ConstantPoolIndexOutOfRangeInAJarNamesTheEntryAndTheIndex) {
  std::size_t index_at = 0;
  const fs::path jar =
      input("app.jar",
            zip_bytes({{"b/Bad.class", class_with_pool_index_out_of_range("b/Bad", &index_at)}}));
  const RunResult run = all(classes() + ":" + jar.string());
  const LocatedError error = expect_located_error(run, jar.string() + "!b/Bad.class");
  EXPECT_EQ(error.offset, index_at) << run.err;
  EXPECT_NE(error.message.find("32767"), std::string::npos) << run.err;
}

// The class parses but a method does not translate: the offset is the opcode's.
TEST_F(IrBadInputTest, InvalidOpcodeNamesTheOpcodeOffset) {
  std::size_t opcode_at = 0;
  const fs::path file =
      input("classes/b/Bad.class", class_with_one_bad_method("b/Bad", &opcode_at));
  const RunResult run = all(classes());
  const LocatedError error = expect_located_error(run, file.string());
  EXPECT_EQ(error.offset, opcode_at) << run.err;
  EXPECT_NE(error.message.find("invalid opcode 0xcb"), std::string::npos) << run.err;
}

TEST_F(IrBadInputTest, ClassVersion70InAJmodNamesTheEntryAndTheVersion) {
  const fs::path jmod =
      input("app.jmod",
            jmod_bytes({{"classes/b/Bad.class", with_major_version(small_class("b/Bad"), 70)}}));
  const RunResult run = all(classes() + ":" + jmod.string());
  const LocatedError error = expect_located_error(run, jmod.string() + "!classes/b/Bad.class");
  EXPECT_GE(error.offset, 4U) << run.err;
  EXPECT_LE(error.offset, 6U) << run.err;
  EXPECT_EQ(error.message, "unsupported class file version 70.0");
}

TEST_F(IrBadInputTest, GarbageJarIsNotAZipArchive) {
  const std::string text = "this is not a zip archive, not at all";
  const fs::path jar = input("app.jar", ByteVector(text.begin(), text.end()));
  expect_error_prefix(all(classes() + ":" + jar.string()),
                      jar.string() + ": not a readable zip archive");
}

TEST_F(IrBadInputTest, JarEntryWithCorruptDataNamesTheEntry) {
  const fs::path jar =
      input("app.jar", jar_with_corrupt_entry("b/Bad.class", small_class("b/Bad")));
  const RunResult run = all(classes() + ":" + jar.string());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const std::string prefix = jar.string() + "!b/Bad.class: corrupt entry data";
  EXPECT_EQ(run.err.substr(0, prefix.size()), prefix) << run.err;
}

TEST_F(IrBadInputTest, MissingClassPathEntryIsNamed) {
  const fs::path missing = dir_ / "missing.jar";
  expect_error_prefix(all(classes() + ":" + missing.string()),
                      missing.string() + ": no such file or directory");
}

// --- --skip-bad-classes ----------------------------------------------------------------------

// Every kind of damage at once, in a folder, a jar and a jmod, beside good classes: the good
// ones are printed, each bad entry is listed once on stderr and nothing of it is printed (not
// even the method of b/BadCode that does translate), and the exit code is 1.
TEST_F(IrBadInputTest, SkipBadClassesGoesOnListsEachSkippedEntryAndExitsOne) {
  ByteVector truncated = small_class("b/Truncated");
  truncated.resize(40);
  const fs::path truncated_file = input("classes/b/Truncated.class", truncated);
  std::size_t at = 0;
  const fs::path bad_code_file =
      input("classes/b/BadCode.class", class_with_one_bad_method("b/BadCode", &at));
  const fs::path jar =
      input("app.jar",
            zip_bytes({{"a/Good2.class", small_class("a/Good2")},
                       {"b/Hostile.class", class_with_pool_index_out_of_range("b/Hostile", &at)}}));
  const fs::path corrupt =
      input("corrupt.jar", jar_with_corrupt_entry("b/Corrupt.class", small_class("b/Corrupt")));
  const fs::path jmod = input(
      "app.jmod",
      jmod_bytes({{"classes/b/TooNew.class", with_major_version(small_class("b/TooNew"), 70)}}));
  const std::string path =
      classes() + ":" + jar.string() + ":" + corrupt.string() + ":" + jmod.string();
  const RunResult run =
      ir_minimal_jdk({"--classpath", path, "--all", "--skip-bad-classes", "--quiet"});
  EXPECT_EQ(run.exit_code, 1) << run.err;

  // One line per skipped entry: "skipped: ORIGIN:OFFSET: message" for a class that does not
  // parse or translate, "skipped: ORIGIN: message" for an entry that cannot be read.
  std::multiset<std::string> skipped;
  for (const std::string& line : lines_of(run.err)) {
    ASSERT_TRUE(line.starts_with("skipped: ")) << run.err;
    const std::string rest = line.substr(9);
    const std::optional<LocatedError> error = located_error(rest);
    skipped.insert(error ? error->where : rest.substr(0, rest.find(": ")));
  }
  EXPECT_EQ(skipped,
            (std::multiset<std::string>{
                truncated_file.string(), bad_code_file.string(), jar.string() + "!b/Hostile.class",
                corrupt.string() + "!b/Corrupt.class", jmod.string() + "!classes/b/TooNew.class"}))
      << run.err;

  EXPECT_EQ(run.out,
            "<a.Good: void m()> {\n  ? @0: return\n}\n<a.Good2: void m()> {\n  ? @0: return\n}\n");
}

TEST_F(IrBadInputTest, SkipBadClassesStillStopsAtAnUnreadableArchive) {
  const std::string text = "this is not a zip archive, not at all";
  const fs::path jar = input("app.jar", ByteVector(text.begin(), text.end()));
  const RunResult run = ir_minimal_jdk(
      {"--classpath", classes() + ":" + jar.string(), "--all", "--skip-bad-classes", "--quiet"});
  expect_error_prefix(run, jar.string() + ": not a readable zip archive");
}

// --class asks for one class; if it is skipped, the run failed.
TEST_F(IrBadInputTest, SkippedRequestedClassExitsOne) {
  input("classes/b/Bad.class", with_major_version(small_class("b/Bad"), 70));
  const RunResult run = ir_minimal_jdk(
      {"--classpath", classes(), "--class", "b.Bad", "--skip-bad-classes", "--summary"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const std::vector<std::string> lines = lines_of(run.err);
  ASSERT_EQ(lines.size(), 2U) << run.err;
  const std::optional<LocatedError> error =
      lines[0].starts_with("skipped: ") ? located_error(lines[0].substr(9)) : std::nullopt;
  ASSERT_TRUE(error.has_value()) << run.err;
  EXPECT_EQ(error->where, (dir_ / "classes/b/Bad.class").string());
  EXPECT_EQ(error->message, "unsupported class file version 70.0");
  EXPECT_EQ(counts_in(run.err), (Counts{0, 0, 0, 0, 1})) << run.err;
}

// --- --summary and --quiet -------------------------------------------------------------------

// a/Refs: one()V names a/Absent (absent) and java/lang/Object (in the minimal JDK); two()
// names a/Good (on the class path), a/Absent and a/Other (absent); three() is native.
ByteVector class_with_references() {
  ClassBuilder b;
  b.this_class = "a/Refs";
  b.add_method(kAccPublic | kAccStatic, "one", "()V",
               {b.code_attribute(1, 0,
                                 Bytes()
                                     .u1(0x01)  // aconst_null
                                     .u1(0xb8)  // invokestatic a/Absent.run(Object)a/Absent
                                     .u2(b.methodref("a/Absent", "run",
                                                     "(Ljava/lang/Object;)La/Absent;"))
                                     .u1(0x57)      // pop
                                     .u1(0xb1))});  // return
  b.add_method(kAccPublic | kAccStatic, "two", "()Ljava/lang/Object;",
               {b.code_attribute(2, 0,
                                 Bytes()
                                     .u1(0x01)  // aconst_null
                                     .u1(0xc0)  // checkcast a/Good
                                     .u2(b.class_ref("a/Good"))
                                     .u1(0x57)  // pop
                                     .u1(0x01)  // aconst_null
                                     .u1(0xc0)  // checkcast a/Absent
                                     .u2(b.class_ref("a/Absent"))
                                     .u1(0x57)  // pop
                                     .u1(0xbb)  // new a/Other
                                     .u2(b.class_ref("a/Other"))
                                     .u1(0xb0))});  // areturn
  b.add_method(kAccPublic | kAccStatic | 0x0100, "three", "()V");
  return b.build();
}

// Classes a/Good (1 method, 1 instruction) and a/Refs (3 methods; 4 + 8 + 0 instructions;
// 1 + 2 references to absent classes, counted per method), a truncated b/Bad skipped.
TEST_F(IrBadInputTest, SummaryCountsClassesMethodsInstructionsAbsentReferencesAndFailures) {
  input("classes/a/Refs.class", class_with_references());
  ByteVector bad = small_class("b/Bad");
  bad.resize(30);
  input("classes/b/Bad.class", bad);
  const RunResult run = ir_minimal_jdk(
      {"--classpath", classes(), "--all", "--summary", "--skip-bad-classes", "--quiet"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out, "") << "--summary prints no IR";
  EXPECT_EQ(counts_in(run.err), (Counts{2, 4, 13, 3, 1})) << run.err;
  const std::vector<std::string> lines = lines_of(run.err);
  ASSERT_EQ(lines.size(), 2U) << run.err;
  EXPECT_TRUE(lines[0].starts_with("skipped: " + (dir_ / "classes/b/Bad.class").string() + ":"))
      << run.err;

  // Without the bad class, every class was read and translated: exit 0.
  fs::remove(dir_ / "classes/b/Bad.class");
  const RunResult good =
      ir_minimal_jdk({"--classpath", classes(), "--all", "--summary", "--quiet"});
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_EQ(counts_in(good.err), (Counts{2, 4, 13, 3, 0})) << good.err;
  EXPECT_EQ(lines_of(good.err).size(), 1U) << good.err;
}

// The same classes with the system's JDK: java/lang/Object is there too, a/Absent and a/Other
// are not, so the counts do not change; what is absent is decided by the whole class path.
TEST_F(IrBadInputTest, AbsentMeansOnNeitherTheClassPathNorTheJdk) {
  input("classes/a/Refs.class", class_with_references());
  fs::remove(dir_ / "classes/a/Good.class");
  const RunResult run = ir({"--classpath", classes(), "--all", "--summary", "--quiet"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  // a/Good is gone: two() now names three absent classes.
  EXPECT_EQ(counts_in(run.err), (Counts{1, 3, 12, 4, 0})) << run.err;
}

// Progress every 1,000 classes on stderr, unless --quiet; --quiet alone prints nothing on
// stderr, --quiet --summary only the counts.
TEST_F(IrCliTest, ProgressEveryThousandClassesUnlessQuiet) {
  ZipEntries entries;
  for (int i = 0; i < 2001; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "p/C%04d", i);
    entries.push_back({std::string(name) + ".class", small_class(name)});
  }
  const fs::path jar = input("many.jar", zip_bytes(entries));
  const Counts expected{2001, 2001, 2001, 0, 0};

  const RunResult loud = ir_minimal_jdk({"--classpath", jar.string(), "--all", "--summary"});
  EXPECT_EQ(loud.exit_code, 0) << loud.err;
  const std::vector<std::string> lines = lines_of(loud.err);
  ASSERT_EQ(lines.size(), 3U) << loud.err;
  EXPECT_EQ(lines[0], "[ir] 1000/2001 classes");
  EXPECT_EQ(lines[1], "[ir] 2000/2001 classes");
  EXPECT_EQ(counts_in(loud.err), expected) << loud.err;

  const RunResult quiet_summary =
      ir_minimal_jdk({"--classpath", jar.string(), "--all", "--summary", "--quiet"});
  EXPECT_EQ(quiet_summary.exit_code, 0) << quiet_summary.err;
  EXPECT_EQ(lines_of(quiet_summary.err).size(), 1U) << quiet_summary.err;
  EXPECT_EQ(counts_in(quiet_summary.err), expected) << quiet_summary.err;

  const RunResult quiet = ir_minimal_jdk({"--classpath", jar.string(), "--all", "--quiet"});
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(lines_of(quiet.out).size(), 3U * 2001) << "one 3-line block per class";
}

// --- Bad command lines -----------------------------------------------------------------------

class IrUsageTest : public IrCliTest {
 protected:
  void SetUp() override { input("classes/a/B.class", small_class("a/B")); }
  std::string classes() const { return (dir_ / "classes").string(); }

  // Exit code 2, each of `mentions` on stderr with the pointer to --help, nothing printed.
  void expect_usage_error(const RunResult& run, const std::vector<std::string>& mentions) {
    EXPECT_EQ(run.exit_code, 2) << run.err;
    for (const std::string& m : mentions) {
      EXPECT_NE(run.err.find(m), std::string::npos) << "missing '" << m << "' in: " << run.err;
    }
    EXPECT_NE(run.err.find("refract ir --help"), std::string::npos) << run.err;
    EXPECT_EQ(run.out, "");
  }
};

TEST_F(IrUsageTest, NoneOfClassMethodAll) {
  expect_usage_error(ir({"--classpath", classes()}), {"exactly one of --class, --method, --all"});
}

TEST_F(IrUsageTest, ClassAndAll) {
  expect_usage_error(ir({"--classpath", classes(), "--class", "a.B", "--all"}),
                     {"exactly one of --class, --method, --all"});
}

TEST_F(IrUsageTest, ClassAndMethod) {
  expect_usage_error(
      ir({"--classpath", classes(), "--class", "a.B", "--method", "<a.B: void m()>"}),
      {"exactly one of --class, --method, --all"});
}

TEST_F(IrUsageTest, MissingClassPath) {
  expect_usage_error(ir({"--class", "a.B"}), {"missing --classpath"});
}

TEST_F(IrUsageTest, UnknownOption) {
  expect_usage_error(ir({"--classpath", classes(), "--all", "--frobnicate"}), {"--frobnicate"});
}

TEST_F(IrUsageTest, OptionWithoutItsValue) {
  expect_usage_error(ir({"--all", "--classpath"}), {"--classpath"});
}

// A --method value that is not a Soot signature is a malformed command line, found before the
// class path is opened.
TEST_F(IrUsageTest, MethodThatIsNotASootSignature) {
  expect_usage_error(ir({"--classpath", classes(), "--method", "a.B.m()"}),
                     {"--method", "not a Soot method signature: a.B.m()"});
}

TEST_F(IrUsageTest, HelpSaysWhenTheExitCodeIsZero) {
  const RunResult run = ir({"--help"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("refract ir --classpath CP"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Exits 0 only if every requested class was read and translated"),
            std::string::npos)
      << run.out;
}

}  // namespace
}  // namespace refract::test
