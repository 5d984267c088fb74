// `refract facts` end to end. Bad input (a truncated or hostile class, a corrupt zip, a missing
// path, an unsupported class version) must give "FILE[!ENTRY]:OFFSET: message" on stderr and
// exit code 1 with nothing written; bad command lines exit 2 (or 1 when the command line is
// well formed but names something that is not there); --skip-bad-classes goes on and lists
// each skipped class. On good input the facts of basic.Hello are complete, deterministic and
// readable by `refract solve`.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/fixture_paths.hpp"
#include "cli/java_inputs.hpp"
#include "cli/run_refract.hpp"
#include "support/atomic_file.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

const fs::path kFixtureJar = REFRACT_FIXTURE_JAR;

// "left" in "(needs N bytes, L left)", the tail of the parser's end-of-file messages.
std::optional<std::uint64_t> bytes_left(const std::string& message) {
  std::smatch match;
  if (!std::regex_search(message, match, std::regex("needs [0-9]+ bytes?, ([0-9]+) left"))) {
    return std::nullopt;
  }
  return std::stoull(match[1].str());
}

// --- Bad input: exit 1, a located message, nothing written -------------------------------

class FactsBadInputTest : public ::testing::Test {
 protected:
  // Writes an input file into the test directory and remembers it.
  fs::path input(const std::string& name, const ByteVector& bytes) {
    write_bytes(dir_ / name, bytes);
    inputs_.insert(name);
    return dir_ / name;
  }

  // `refract facts ARGS --out DIR/out --stats DIR/stats.json --quiet`.
  RunResult facts(const std::vector<std::string>& args) {
    std::vector<std::string> all{"facts"};
    all.insert(all.end(), args.begin(), args.end());
    for (const char* extra : {"--out", "out", "--stats", "stats.json", "--quiet"}) {
      all.push_back(extra == std::string("out") || extra == std::string("stats.json")
                        ? (dir_ / extra).string()
                        : extra);
    }
    return run_refract(all, dir_.path());
  }

  // The output folder was not created, and the test directory holds exactly the inputs: no
  // stats file, no temporary (support/atomic_file.hpp) left behind.
  void expect_nothing_written() {
    EXPECT_FALSE(fs::exists(dir_ / "out")) << "the output directory was created";
    const std::vector<std::string> expected(inputs_.begin(), inputs_.end());
    EXPECT_EQ(files_under(dir_.path()), expected) << "files other than the inputs were left";
  }

  // The run failed with exit code 1 and a first stderr line "WHERE:OFFSET: message" naming
  // `where`; nothing was written. Returns the parts of that line.
  LocatedError expect_located_error(const RunResult& run, const std::string& where) {
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_EQ(run.out, "");
    expect_nothing_written();
    const std::optional<LocatedError> error = located_error(run.err);
    if (!error) {
      ADD_FAILURE() << "not of the form FILE:OFFSET: message: " << run.err;
      return {};
    }
    EXPECT_EQ(error->where, where) << run.err;
    return *error;
  }

  // The run failed with exit code 1 and stderr starting with `prefix` (an error about a path
  // or an archive, which has no offset in a class file); nothing was written.
  void expect_error_prefix(const RunResult& run, const std::string& prefix) {
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_EQ(run.err.substr(0, prefix.size()), prefix) << run.err;
    EXPECT_EQ(run.out, "");
    expect_nothing_written();
  }

  TempDir dir_;
  std::set<std::string> inputs_;
};

// The control for the tests below: a valid class in the same places is read, and the output
// folder and the stats are written.
TEST_F(FactsBadInputTest, ValidClassesInAFolderAJarAndAJmodAreWritten) {
  input("classes/a/B.class", small_class("a/B"));
  input("app.jar", zip_bytes({{"a/C.class", small_class("a/C")}}));
  input("app.jmod", jmod_bytes({{"classes/a/D.class", small_class("a/D")}}));
  const std::string path = (dir_ / "classes").string() + ":" + (dir_ / "app.jar").string() + ":" +
                           (dir_ / "app.jmod").string();
  const RunResult run = facts({"--classpath", path, "--all"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "facts.datalog"));
  EXPECT_TRUE(fs::exists(dir_ / "stats.json"));
  const std::string methods = read_file(dir_ / "out" / "M.map");
  for (const char* m : {"<a.B: void m()>", "<a.C: void m()>", "<a.D: void m()>"}) {
    EXPECT_NE(methods.find(m), std::string::npos) << m << " missing from\n" << methods;
  }
}

// The real Hello.class cut after 100 bytes: the parser stops where a read needs more bytes
// than are left, so the offset plus the bytes left is the file's size.
TEST_F(FactsBadInputTest, TruncatedClassInAFolderNamesTheFileAndWhereItEnds) {
  ByteVector bytes = read_bytes(kFixtureClasses / "basic" / "Hello.class");
  ASSERT_GT(bytes.size(), 100U);
  bytes.resize(100);
  const fs::path file = input("classes/basic/Hello.class", bytes);
  const RunResult run =
      facts({"--classpath", (dir_ / "classes").string(), "--main", "basic.Hello"});
  const LocatedError error = expect_located_error(run, file.string());
  EXPECT_TRUE(error.message.starts_with("unexpected end of class file")) << run.err;
  const std::optional<std::uint64_t> left = bytes_left(error.message);
  ASSERT_TRUE(left.has_value()) << run.err;
  EXPECT_EQ(error.offset + *left, 100U) << run.err;
}

TEST_F(FactsBadInputTest, ConstantPoolIndexOutOfRangeInAJarNamesTheEntryAndTheIndex) {
  std::size_t index_at = 0;
  input("app.jar",
        zip_bytes({{"a/B.class", class_with_pool_index_out_of_range("a/B", &index_at)}}));
  const RunResult run = facts({"--classpath", (dir_ / "app.jar").string(), "--all"});
  const LocatedError error = expect_located_error(run, (dir_ / "app.jar").string() + "!a/B.class");
  EXPECT_EQ(error.offset, index_at) << run.err;
  EXPECT_NE(error.message.find("32767"), std::string::npos) << run.err;
}

// A class that parses but whose code does not: the offset is the bad opcode's.
TEST_F(FactsBadInputTest, InvalidOpcodeNamesTheMethodAndTheOpcodeOffset) {
  std::size_t opcode_at = 0;
  const fs::path file = input("classes/a/B.class", class_with_invalid_opcode("a/B", &opcode_at));
  const RunResult run = facts({"--classpath", (dir_ / "classes").string(), "--all"});
  const LocatedError error = expect_located_error(run, file.string());
  EXPECT_EQ(error.offset, opcode_at) << run.err;
  EXPECT_NE(error.message.find("invalid opcode 0xcb"), std::string::npos) << run.err;
}

// Not the main class itself but its superclass is broken: the walk from --main reaches it.
TEST_F(FactsBadInputTest, BrokenClassReachedFromTheMainClassStopsTheRun) {
  ClassBuilder main;
  main.this_class = "a/Main";
  main.super_class = "a/Base";
  main.add_method(kAccPublic | kAccStatic, "main", "([Ljava/lang/String;)V",
                  {main.code_attribute(0, 1, Bytes().u1(0xb1))});
  input("classes/a/Main.class", main.build());
  ByteVector base = small_class("a/Base");
  base.resize(9);
  const fs::path file = input("classes/a/Base.class", base);
  const RunResult run = facts({"--classpath", (dir_ / "classes").string(), "--main", "a.Main"});
  const LocatedError error = expect_located_error(run, file.string());
  EXPECT_EQ(error.offset, 8U) << run.err;  // constant_pool_count, one of its bytes left
  EXPECT_TRUE(error.message.starts_with("unexpected end of class file")) << run.err;
}

TEST_F(FactsBadInputTest, GarbageJarIsNotAZipArchive) {
  const std::string text = "this is not a zip archive, not at all";
  input("app.jar", ByteVector(text.begin(), text.end()));
  const RunResult run = facts({"--classpath", (dir_ / "app.jar").string(), "--all"});
  expect_error_prefix(run, (dir_ / "app.jar").string() + ": not a readable zip archive");
}

// The end of the central directory is cut off.
TEST_F(FactsBadInputTest, JarWithATruncatedCentralDirectoryIsNotAZipArchive) {
  ByteVector zip = zip_bytes({{"a/B.class", small_class("a/B")}});
  zip.resize(zip.size() - 30);
  input("app.jar", zip);
  const RunResult run = facts({"--classpath", (dir_ / "app.jar").string(), "--all"});
  expect_error_prefix(run, (dir_ / "app.jar").string() + ": not a readable zip archive");
}

// The zip's directory is intact but a stored entry's bytes no longer match its CRC.
TEST_F(FactsBadInputTest, JarEntryWithCorruptDataNamesTheEntry) {
  const ByteVector cls = small_class("a/B");
  ByteVector zip = zip_bytes({{"a/B.class", cls}});
  // The entry's data follows the 30-byte local header and the 9-byte name; flip its last byte.
  zip.at(30 + 9 + cls.size() - 1) ^= 0xFF;
  input("app.jar", zip);
  const RunResult run = facts({"--classpath", (dir_ / "app.jar").string(), "--all"});
  expect_error_prefix(run, (dir_ / "app.jar").string() + "!a/B.class: corrupt entry data");
}

// Under --skip-bad-classes a corrupt jar entry is skipped and listed like a class that does
// not parse. (It used to stop the run: the entry was read outside the skip handling.)
TEST_F(FactsBadInputTest, SkipBadClassesSkipsAJarEntryWithCorruptData) {
  const ByteVector bad = small_class("a/B");
  ByteVector zip = zip_bytes({{"a/B.class", bad}, {"a/Good.class", small_class("a/Good")}});
  zip.at(30 + 9 + bad.size() - 1) ^= 0xFF;  // a/B's data: after its header and 9-byte name
  input("app.jar", zip);
  const RunResult run =
      run_refract({"facts", "--classpath", (dir_ / "app.jar").string(), "--all",
                   "--skip-bad-classes", "--out", (dir_ / "out").string(), "--quiet"},
                  dir_.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "skipped: " + (dir_ / "app.jar").string() +
                         "!a/B.class: corrupt entry data: CRC error\n");
  const std::string methods = read_file(dir_ / "out" / "M.map");
  EXPECT_NE(methods.find("<a.Good: void m()>"), std::string::npos) << methods;
}

TEST_F(FactsBadInputTest, MissingClassPathEntryIsNamed) {
  input("classes/a/B.class", small_class("a/B"));
  const std::string path = (dir_ / "classes").string() + ":" + (dir_ / "missing.jar").string();
  const RunResult run = facts({"--classpath", path, "--all"});
  expect_error_prefix(run, (dir_ / "missing.jar").string() + ": no such file or directory");
}

// Major version 70 (Java 26) in a jmod given as a class path entry.
TEST_F(FactsBadInputTest, UnsupportedClassVersionInAJmodNamesTheEntryAndTheVersion) {
  input("app.jmod",
        jmod_bytes({{"classes/a/B.class", with_major_version(small_class("a/B"), 70)}}));
  const RunResult run = facts({"--classpath", (dir_ / "app.jmod").string(), "--all"});
  const LocatedError error =
      expect_located_error(run, (dir_ / "app.jmod").string() + "!classes/a/B.class");
  EXPECT_GE(error.offset, 4U) << run.err;  // the version: minor at 4, major at 6
  EXPECT_LE(error.offset, 6U) << run.err;
  EXPECT_EQ(error.message, "unsupported class file version 70.0");
}

TEST_F(FactsBadInputTest, JdkFolderWithoutJmodsIsNamed) {
  input("classes/a/B.class", small_class("a/B"));
  fs::create_directories(dir_ / "notajdk");
  const RunResult run = facts(
      {"--classpath", (dir_ / "classes").string(), "--jdk", (dir_ / "notajdk").string(), "--all"});
  expect_error_prefix(run, (dir_ / "notajdk").string() + ": not a JDK");
}

// --out names a file: the run stops before reading anything, naming it. (This used to read
// everything, then fail with "internal error: filesystem error" and exit code 3.)
TEST_F(FactsBadInputTest, OutputPathThatIsAFileIsNamed) {
  input("classes/a/B.class", small_class("a/B"));
  input("out.txt", ByteVector{'x'});
  const RunResult run = run_refract({"facts", "--classpath", (dir_ / "classes").string(), "--all",
                                     "--out", (dir_ / "out.txt").string(), "--quiet"},
                                    dir_.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.err.rfind((dir_ / "out.txt").string() + ": ", 0), 0U) << run.err;
  EXPECT_NE(run.err.find("not a directory"), std::string::npos) << run.err;
  expect_nothing_written();
}

// --stats in a folder that does not exist: an error before anything is written. (This used
// to write the whole output folder and then fail on the stats file.)
TEST_F(FactsBadInputTest, StatsFileInAMissingFolderStopsTheRunBeforeAnythingIsWritten) {
  input("classes/a/B.class", small_class("a/B"));
  const RunResult run = run_refract(
      {"facts", "--classpath", (dir_ / "classes").string(), "--all", "--out",
       (dir_ / "out").string(), "--stats", (dir_ / "nowhere" / "stats.json").string(), "--quiet"},
      dir_.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.err.rfind((dir_ / "nowhere" / "stats.json").string() + ": ", 0), 0U) << run.err;
  expect_nothing_written();
}

// --- --skip-bad-classes --------------------------------------------------------------------

// One class of each kind of damage, in a folder and a jar, beside a good class: the good one's
// facts are written, each bad one is listed on stderr and in the stats, and the exit code is 0.
TEST_F(FactsBadInputTest, SkipBadClassesGoesOnAndListsEachSkippedClass) {
  input("classes/a/Good.class", small_class("a/Good"));
  ByteVector truncated = small_class("a/Truncated");
  truncated.resize(40);
  const fs::path truncated_file = input("classes/a/Truncated.class", truncated);
  const fs::path new_file =
      input("classes/a/TooNew.class", with_major_version(small_class("a/TooNew"), 70));
  std::size_t at = 0;
  const fs::path opcode_file =
      input("classes/a/BadCode.class", class_with_invalid_opcode("a/BadCode", &at));
  input("app.jar",
        zip_bytes({{"b/Hostile.class", class_with_pool_index_out_of_range("b/Hostile", &at)}}));
  const std::string path = (dir_ / "classes").string() + ":" + (dir_ / "app.jar").string();
  const RunResult run =
      run_refract({"facts", "--classpath", path, "--all", "--skip-bad-classes", "--out",
                   (dir_ / "out").string(), "--stats", (dir_ / "stats.json").string(), "--quiet"},
                  dir_.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;

  // stderr: one "skipped: ORIGIN:OFFSET: message" line per bad class, and nothing else.
  std::set<std::string> skipped_origins;
  for (const std::string& line : lines_of(run.err)) {
    ASSERT_TRUE(line.starts_with("skipped: ")) << run.err;
    const std::optional<LocatedError> error = located_error(line.substr(9));
    ASSERT_TRUE(error.has_value()) << line;
    skipped_origins.insert(error->where);
  }
  EXPECT_EQ(skipped_origins,
            (std::set<std::string>{truncated_file.string(), new_file.string(), opcode_file.string(),
                                   (dir_ / "app.jar").string() + "!b/Hostile.class"}))
      << run.err;

  // The stats list the same classes by name, with the same messages.
  const std::string stats = read_file(dir_ / "stats.json");
  for (const char* name : {"a/Truncated", "a/TooNew", "a/BadCode", "b/Hostile"}) {
    EXPECT_NE(stats.find("{\"class\": \"" + std::string(name) + "\", \"error\": \""),
              std::string::npos)
        << name << " not in skipped_classes:\n"
        << stats;
  }
  EXPECT_NE(stats.find("unsupported class file version 70.0"), std::string::npos) << stats;

  // The good class has its facts; a class that parsed but did not translate has none.
  const std::string methods = read_file(dir_ / "out" / "M.map");
  EXPECT_NE(methods.find("<a.Good: void m()>"), std::string::npos) << methods;
  EXPECT_EQ(methods.find("<a.BadCode: void m()>"), std::string::npos) << methods;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "facts.datalog"));
  for (const std::string& file : files_under(dir_.path())) {
    EXPECT_EQ(file.find(kAtomicTemporaryMark), std::string::npos) << file;
  }
}

// Skipping is for classes reached along the way; a --main class that is skipped cannot be the
// entry point, and the error says why rather than "not on the class path".
TEST_F(FactsBadInputTest, SkippedMainClassIsAnErrorThatGivesTheReason) {
  ByteVector bytes = read_bytes(kFixtureClasses / "basic" / "Hello.class");
  bytes.resize(100);
  const fs::path file = input("classes/basic/Hello.class", bytes);
  const RunResult run = facts(
      {"--classpath", (dir_ / "classes").string(), "--main", "basic.Hello", "--skip-bad-classes"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.err.find("not on the class path"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(file.string() + ":96: unexpected end of class file"), std::string::npos)
      << run.err;
  expect_nothing_written();
}

// --- Bad command lines -----------------------------------------------------------------------

class FactsUsageTest : public FactsBadInputTest {
 protected:
  void SetUp() override { input("classes/a/B.class", small_class("a/B")); }
  std::string classes() const { return (dir_ / "classes").string(); }

  // Exit code 2, each of `mentions` on stderr with the pointer to --help, nothing written.
  void expect_usage_error(const RunResult& run, const std::vector<std::string>& mentions) {
    EXPECT_EQ(run.exit_code, 2) << run.err;
    for (const std::string& m : mentions) {
      EXPECT_NE(run.err.find(m), std::string::npos) << "missing '" << m << "' in: " << run.err;
    }
    EXPECT_NE(run.err.find("refract facts --help"), std::string::npos) << run.err;
    expect_nothing_written();
  }
};

TEST_F(FactsUsageTest, MissingClassPath) {
  expect_usage_error(facts({"--all"}), {"missing --classpath"});
}

TEST_F(FactsUsageTest, EmptyClassPath) {
  expect_usage_error(facts({"--classpath", ":", "--all"}), {"--classpath names no entry"});
}

TEST_F(FactsUsageTest, BothMainAndAll) {
  expect_usage_error(facts({"--classpath", classes(), "--main", "a.B", "--all"}),
                     {"exactly one of --main, --all"});
}

TEST_F(FactsUsageTest, NeitherMainNorAll) {
  expect_usage_error(facts({"--classpath", classes()}), {"exactly one of --main, --all"});
}

TEST_F(FactsUsageTest, MissingOut) {
  const RunResult run =
      run_refract({"facts", "--classpath", classes(), "--all", "--quiet"}, dir_.path());
  expect_usage_error(run, {"missing --out"});
}

TEST_F(FactsUsageTest, UnknownOption) {
  expect_usage_error(facts({"--classpath", classes(), "--all", "--frobnicate"}), {"--frobnicate"});
}

TEST_F(FactsUsageTest, OptionWithoutItsValue) {
  expect_usage_error(
      run_refract({"facts", "--all", "--out", (dir_ / "out").string(), "--classpath"}, dir_.path()),
      {"--classpath"});
}

// Well-formed command lines naming what is not there are bad input (exit 1), not usage errors.
TEST_F(FactsUsageTest, MainClassWithoutAMainMethod) {
  const RunResult run = facts({"--classpath", classes(), "--main", "a.B"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.err, "--main: class a.B has no static main(String[]) method\n");
  expect_nothing_written();
}

TEST_F(FactsUsageTest, MainClassNotOnTheClassPath) {
  const RunResult run = facts({"--classpath", classes(), "--main", "a.Nowhere"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.err, "--main: class a.Nowhere is not on the class path\n");
  expect_nothing_written();
}

// --- Good input: the facts of basic.Hello with the real JDK --------------------------------

// A folder under the system temporary folder for the whole suite (TempDir needs a test).
fs::path make_suite_dir(const std::string& tag) {
  std::string pattern = (fs::temp_directory_path() / ("refract_cli_" + tag + "_XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

// A facts.datalog declaration: a domain "NAME SIZE NAME.map" or a relation
// "NAME (a : D, ...) inputtuples".
struct Declarations {
  std::map<std::string, std::uint64_t> domains;  // name -> size
  std::map<std::string, std::size_t> relations;  // name -> arity
};

Declarations parse_facts_datalog(const std::string& text) {
  Declarations out;
  const std::regex domain("^([A-Z]) ([0-9]+) ([A-Z])\\.map$");
  const std::regex relation("^([A-Za-z]+) \\(([^)]*)\\) inputtuples$");
  std::smatch match;
  for (const std::string& line : lines_of(text)) {
    if (line.empty() || line[0] == '#') continue;
    if (std::regex_match(line, match, domain)) {
      EXPECT_EQ(match[1].str(), match[3].str()) << line;
      out.domains[match[1].str()] = std::stoull(match[2].str());
    } else if (std::regex_match(line, match, relation)) {
      const std::string attributes = match[2].str();
      out.relations[match[1].str()] = 1 + std::count(attributes.begin(), attributes.end(), ',');
    } else {
      ADD_FAILURE() << "unexpected line in facts.datalog: " << line;
    }
  }
  return out;
}

// The tuples of a .tuples file: its lines after the header.
std::vector<std::string> tuple_lines(const fs::path& file) {
  std::vector<std::string> lines = lines_of(read_file(file));
  if (!lines.empty()) lines.erase(lines.begin());
  return lines;
}

// `refract facts --classpath FIXTURES --main basic.Hello` with the system's JDK 17, run once
// for the suite (it reads a few thousand JDK classes).
class FactsOfHelloTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(make_suite_dir("facts_hello"));
    run_ = new RunResult(run_hello(*dir_ / "D"));
  }
  static void TearDownTestSuite() {
    std::error_code ignored;
    fs::remove_all(*dir_, ignored);
    delete dir_;
    delete run_;
  }

  static RunResult run_hello(const fs::path& out) {
    return run_refract({"facts", "--classpath", kFixtureClasses.string(), "--main", "basic.Hello",
                        "--out", out.string(), "--stats", (out / "stats.json").string(), "--quiet"},
                       out.parent_path());
  }

  static fs::path out() { return *dir_ / "D"; }
  // Reads each map once: the static-call scan below looks up thousands of elements.
  static std::string map_line(const std::string& domain, std::size_t index) {
    static std::map<std::string, std::vector<std::string>> maps;
    auto [it, inserted] = maps.try_emplace(domain);
    if (inserted) it->second = lines_of(read_file(out() / (domain + ".map")));
    const std::vector<std::string>& lines = it->second;
    return index < lines.size() ? lines[index] : "(no element " + std::to_string(index) + ")";
  }

  static fs::path* dir_;
  static RunResult* run_;
};

fs::path* FactsOfHelloTest::dir_ = nullptr;
RunResult* FactsOfHelloTest::run_ = nullptr;

TEST_F(FactsOfHelloTest, ExitsZeroQuietly) {
  EXPECT_EQ(run_->exit_code, 0) << run_->err;
  EXPECT_EQ(run_->out, "");
  EXPECT_EQ(run_->err, "");
}

// facts.datalog declares each domain with its map and each relation; every file it names is
// there with as many lines as declared, and there is no other file but the stats.
TEST_F(FactsOfHelloTest, WritesFactsDatalogAndEveryFileItNames) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  const Declarations declared = parse_facts_datalog(read_file(out() / "facts.datalog"));
  EXPECT_EQ(declared.domains.size(), 7U);
  EXPECT_GE(declared.relations.size(), 40U);
  std::set<std::string> expected_files{"facts.datalog", "stats.json"};
  for (const auto& [name, size] : declared.domains) {
    SCOPED_TRACE(name);
    expected_files.insert(name + ".map");
    EXPECT_EQ(lines_of(read_file(out() / (name + ".map"))).size(), size);
  }
  const std::regex header_field("[A-Z][0-9]+:[0-9]+");
  for (const auto& [name, arity] : declared.relations) {
    SCOPED_TRACE(name);
    expected_files.insert(name + ".tuples");
    const std::vector<std::string> lines = lines_of(read_file(out() / (name + ".tuples")));
    ASSERT_FALSE(lines.empty());
    const std::string& header = lines.front();
    EXPECT_EQ(static_cast<std::size_t>(
                  std::distance(std::sregex_iterator(header.begin(), header.end(), header_field),
                                std::sregex_iterator())),
              arity)
        << header;
  }
  EXPECT_EQ(files_under(out()),
            std::vector<std::string>(expected_files.begin(), expected_files.end()));
}

TEST_F(FactsOfHelloTest, StatsReportNoPhantomsNoSkippedClassesAndTheTupleCounts) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  const std::string stats = read_file(out() / "stats.json");
  EXPECT_NE(stats.find("\"phantoms\": []"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"skipped_classes\": []"), std::string::npos) << stats;
  // Each relation's count in the stats is the number of tuples in its file.
  const Declarations declared = parse_facts_datalog(read_file(out() / "facts.datalog"));
  for (const auto& [name, arity] : declared.relations) {
    const std::string count = std::to_string(tuple_lines(out() / (name + ".tuples")).size());
    EXPECT_TRUE(std::regex_search(stats, std::regex("\"" + name + "\": " + count + "[,}]")))
        << name;
  }
  for (const auto& [name, size] : declared.domains) {
    EXPECT_NE(stats.find("\"" + name + "\": " + std::to_string(size)), std::string::npos) << name;
  }
}

TEST_F(FactsOfHelloTest, EntryMethodIsMainAndTheCallToGreetingIsAStaticCall) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  const std::vector<std::string> entries = tuple_lines(out() / "EntryMethod.tuples");
  ASSERT_EQ(entries.size(), 1U);
  EXPECT_EQ(map_line("M", std::stoull(entries[0])), "<basic.Hello: void main(java.lang.String[])>");
  bool found = false;
  for (const std::string& line : tuple_lines(out() / "StaticCall.tuples")) {
    std::istringstream fields(line);
    std::size_t invoke = 0, target = 0;
    fields >> invoke >> target;
    if (map_line("I", invoke).starts_with("<basic.Hello: void main(java.lang.String[])>/")) {
      EXPECT_EQ(map_line("M", target),
                "<basic.Hello: java.lang.String greeting(java.lang.String)>");
      found = true;
    }
  }
  EXPECT_TRUE(found) << "no static call in main";
}

// Two runs on the same input write byte-identical facts; the stats differ only in the time.
TEST_F(FactsOfHelloTest, SecondRunWritesByteIdenticalFacts) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  const fs::path again = *dir_ / "again";
  const RunResult run = run_hello(again);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> files = files_under(out());
  ASSERT_EQ(files_under(again), files);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    std::string first = read_file(out() / file);
    std::string second = read_file(again / file);
    if (file == "stats.json") {
      const std::regex seconds("\"seconds\": [0-9.e+-]+");
      first = std::regex_replace(first, seconds, "");
      second = std::regex_replace(second, seconds, "");
    }
    EXPECT_TRUE(first == second) << "files differ";
  }
}

// --- refract solve reads what refract facts writes -----------------------------------------

// CHA reachability from the entry point: static and special calls, virtual calls through
// Dispatch; every reached method is printed.
std::string reachability_program(const fs::path& facts_dir) {
  return ".include \"" + (facts_dir / "facts.datalog").string() +
         "\"\n"
         "Reach (method : M) printtuples\n"
         "Reach(m) :- EntryMethod(m).\n"
         "Reach(t) :- Reach(m), CallIn(i, m), StaticCall(i, t).\n"
         "Reach(t) :- Reach(m), CallIn(i, m), SpecialCall(i, _, t).\n"
         "Reach(t) :- Reach(m), CallIn(i, m), VirtualCall(i, _, r), Dispatch(_, r, t).\n";
}

// The methods of `package` among the Reach(...) lines `refract solve` printed.
std::set<std::string> reached(const std::string& out, const std::string& package) {
  std::set<std::string> methods;
  for (const std::string& line : lines_of(out)) {
    if (line.starts_with("Reach(<" + package + ".") && line.ends_with(")")) {
      methods.insert(line.substr(6, line.size() - 7));
    }
  }
  return methods;
}

// Solving over the facts of the whole JDK closure of a program takes minutes, so these runs
// use a JDK that has only java.lang.Object: the rest of the JDK is phantom, the program's own
// classes are complete.
class FactsToSolveTest : public ::testing::Test {
 protected:
  RunResult facts_then_solve(const std::string& main_class) {
    write_minimal_jdk(dir_ / "jdk");
    const RunResult facts =
        run_refract({"facts", "--classpath", kFixtureJar.string(), "--jdk", (dir_ / "jdk").string(),
                     "--main", main_class, "--out", (dir_ / "facts").string(), "--quiet"},
                    dir_.path());
    EXPECT_EQ(facts.exit_code, 0) << facts.err;
    write_file(dir_ / "rules" / "reach.datalog", reachability_program(dir_ / "facts"));
    return run_refract(
        {"solve", (dir_ / "rules" / "reach.datalog").string(), "--input-dir",
         (dir_ / "facts").string(), "--output-dir", (dir_ / "solved").string(), "--quiet"},
        dir_.path());
  }

  TempDir dir_;
};

TEST_F(FactsToSolveTest, GreetingIsReachableFromHelloMainAndTheConstructorIsNot) {
  const RunResult run = facts_then_solve("basic.Hello");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(reached(run.out, "basic"),
            (std::set<std::string>{"<basic.Hello: void main(java.lang.String[])>",
                                   "<basic.Hello: java.lang.String greeting(java.lang.String)>"}))
      << run.out;
}

// Virtual calls reach the override the receiver's class selects, and calls through lambdas
// and method references reach their implementations.
TEST_F(FactsToSolveTest, VirtualCallsAndLambdasReachTheirTargetsInFactsMain) {
  const RunResult run = facts_then_solve("facts.Facts");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::set<std::string> methods = reached(run.out, "facts");
  for (const char* m :
       {"<facts.Facts: void main(java.lang.String[])>", "<facts.Facts: void <init>()>",
        "<facts.Facts: java.lang.Object id(java.lang.Object)>",
        "<facts.Facts: java.lang.Object keeper(java.lang.Object)>", "<facts.Box: void <init>()>",
        "<facts.SubBox: void <init>()>", "<facts.Box: java.lang.Object get()>",
        "<facts.SubBox: java.lang.Object get()>"}) {
    EXPECT_EQ(methods.count(m), 1U) << m << " not reached:\n" << run.out;
  }
}

// --- --string-classes: the classes string constants name -----------------------------------

// reflfacts.ReflFacts with the JDK that has only java.lang.Object: its code names
// reflfacts.Named$Inner only in the string "reflfacts.Named$Inner", and names no class
// reflfacts.NoSuchClass.
class FactsStringClassesTest : public ::testing::Test {
 protected:
  RunResult facts(const std::string& out, const std::vector<std::string>& options) {
    write_minimal_jdk(dir_ / "jdk");
    std::vector<std::string> args{"facts",
                                  "--classpath",
                                  kFixtureJar.string(),
                                  "--jdk",
                                  (dir_ / "jdk").string(),
                                  "--main",
                                  "reflfacts.ReflFacts",
                                  "--out",
                                  (dir_ / out).string(),
                                  "--stats",
                                  (dir_ / (out + ".json")).string(),
                                  "--quiet"};
    args.insert(args.end(), options.begin(), options.end());
    return run_refract(args, dir_.path());
  }
  bool declares(const std::string& out, const std::string& method) {
    const std::vector<std::string> methods = lines_of(read_file(dir_ / out / "M.map"));
    return std::find(methods.begin(), methods.end(), method) != methods.end();
  }

  TempDir dir_;
};

TEST_F(FactsStringClassesTest, ReadsTheClassAStringNamesOnlyWhenAsked) {
  const std::string value = "<reflfacts.Named$Inner: java.lang.Object value()>";
  const RunResult off = facts("off", {});
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_FALSE(declares("off", value));
  const RunResult on = facts("on", {"--string-classes"});
  ASSERT_EQ(on.exit_code, 0) << on.err;
  EXPECT_TRUE(declares("on", value));
  // A string that names no class makes no phantom: both runs have the same phantoms.
  const std::regex phantom("\"class\": \"([^\"]+)\", \"referrers\"");
  std::set<std::string> phantoms[2];
  for (int i = 0; i < 2; ++i) {
    const std::string stats = read_file(dir_ / (i == 0 ? "off.json" : "on.json"));
    for (std::sregex_iterator it(stats.begin(), stats.end(), phantom), end; it != end; ++it) {
      phantoms[i].insert((*it)[1].str());
    }
  }
  EXPECT_FALSE(phantoms[0].empty());  // the JDK but java.lang.Object
  EXPECT_EQ(phantoms[1], phantoms[0]);
  for (const std::string& name : phantoms[1])
    EXPECT_EQ(name.find("NoSuchClass"), std::string::npos);
}

}  // namespace
}  // namespace refract::test
