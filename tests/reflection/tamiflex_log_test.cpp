#include "reflection/tamiflex_log.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cli/run_refract.hpp"
#include "reflection/target_syntax.hpp"

namespace refract::reflection {
namespace {

namespace fs = std::filesystem;

// ../shared/tamiflex beside the repository, as CI has it (an absolute path skipped elsewhere).
const fs::path kLogs = fs::path(REFRACT_SOURCE_DIR) / ".." / "shared" / "tamiflex";

SourceLocation log_error_at(std::string_view text) {
  try {
    parse_tamiflex_log(text, "refl.log");
  } catch (const InputError& e) {
    return e.where();
  }
  ADD_FAILURE() << "no InputError for: " << text;
  return {};
}

std::string log_error_message(std::string_view text) {
  try {
    parse_tamiflex_log(text, "refl.log");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TamiflexLogTest, ReadsEveryField) {
  const auto entries = parse_tamiflex_log(
      "Class.forName;antlr.Tool;sun.launcher.LauncherHelper.loadMainClass;808;;1\n"
      "Method.getName;<antlr.Tool: void main(java.lang.String[])>;"
      "java.lang.PublicMethods$Key.matches;;isAccessible=false;\n",
      "refl.log");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].kind_text, "Class.forName");
  EXPECT_EQ(entries[0].kind, ApiKind::kForName);
  EXPECT_EQ(entries[0].target, "antlr.Tool");
  EXPECT_EQ(entries[0].caller, "sun.launcher.LauncherHelper.loadMainClass");
  EXPECT_EQ(entries[0].line, 808u);
  EXPECT_EQ(entries[0].meta, "");
  EXPECT_EQ(entries[0].count, 1u);
  EXPECT_EQ(entries[0].where.to_string(), "refl.log:1");
  // A kind refract does not model is read and kept.
  EXPECT_EQ(entries[1].kind_text, "Method.getName");
  EXPECT_FALSE(entries[1].kind.has_value());
  EXPECT_FALSE(entries[1].line.has_value());
  EXPECT_EQ(entries[1].meta, "isAccessible=false");
  EXPECT_FALSE(entries[1].count.has_value());
  EXPECT_EQ(entries[1].where.line, 2u);
}

TEST(TamiflexLogTest, JvmArrayTargetKeepsItsSemicolon) {
  const auto entries =
      parse_tamiflex_log("Class.getMethods;[Ljava.lang.CharSequence;;a.B.m;3;;2\n", "refl.log");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].target, "[Ljava.lang.CharSequence;");
  EXPECT_EQ(entries[0].caller, "a.B.m");
  EXPECT_EQ(entries[0].line, 3u);
  EXPECT_EQ(entries[0].count, 2u);
  EXPECT_EQ(parse_type_name(entries[0].target), "java.lang.CharSequence[]");
}

TEST(TamiflexLogTest, EmptyLinesAndCarriageReturnsAreNoEntries) {
  const auto entries = parse_tamiflex_log(
      "\nClass.forName;a.B;a.C.m;;;\r\n\r\nField.get*;<a.B: int f>;a.C.m;7;isAccessible=true;3",
      "refl.log");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].where.line, 2u);
  EXPECT_FALSE(entries[0].count.has_value());
  EXPECT_EQ(entries[1].where.line, 4u);
  EXPECT_EQ(entries[1].kind, ApiKind::kFieldGet);
  EXPECT_EQ(entries[1].count, 3u);
}

TEST(TamiflexLogTest, WrongFieldCountsAreLocated) {
  EXPECT_EQ(log_error_at("Class.forName;a.B;a.C.m;1;\n").column, 27u);
  EXPECT_EQ(log_error_at("Class.forName;a.B;a.C.m;1;;1;x\n").column, 29u);
  EXPECT_NE(log_error_message("Class.forName;a.B;a.C.m;1;\n").find("found 5"), std::string::npos);
  // A ';' is part of TARGET only as the end of a JVM-form array class; anywhere else it is
  // one separator too many, reported where the extra field starts.
  EXPECT_EQ(log_error_at("Class.getMethods;[La.B;x;a.C.m;1;;1\n").column, 34u);
  EXPECT_EQ(log_error_at("Class.forName;a.B;;a.C.m;1;;1\n").column, 28u);
  // Six fields whose TARGET is a JVM array class without its ';'.
  EXPECT_EQ(log_error_at("Class.getMethods;[La.B;a.C.m;1;;1\n").column, 18u + 5);
  EXPECT_EQ(log_error_at("Class.forName,a.B,a.C.m,1,,1\n").column, 29u);
}

TEST(TamiflexLogTest, BadFieldsAreLocated) {
  const auto where = log_error_at("Class.forName;a.B;a.C.m;1;;1\nClass.forName;a..B;a.C.m;1;;1\n");
  EXPECT_EQ(where.file, "refl.log");
  EXPECT_EQ(where.line, 2u);
  EXPECT_EQ(where.column, 17u);
  EXPECT_EQ(log_error_at(";a.B;a.C.m;1;;1").column, 1u);
  EXPECT_EQ(log_error_at("Class forName;a.B;a.C.m;1;;1").column, 6u);
  EXPECT_EQ(log_error_at("Class.forName;;a.C.m;1;;1").column, 15u);
  EXPECT_EQ(log_error_at("Class.forName;a.B;;1;;1").column, 19u);
  EXPECT_EQ(log_error_at("Class.forName;a.B;main;1;;1").column, 19u);
  EXPECT_EQ(log_error_at("Class.forName;a.B;a.C.m;x1;;1").column, 25u);
  EXPECT_EQ(log_error_at("Class.forName;a.B;a.C.m;-1;;1").column, 25u);
  EXPECT_EQ(log_error_at("Class.forName;a.B;a.C.m;1;;1.5").column, 29u);
  EXPECT_EQ(log_error_at("Class.forName;a.B;a.C.m;1;\x02;1").column, 27u);
}

TEST(TamiflexLogTest, HugeNumbersAreOutOfRange) {
  EXPECT_EQ(log_error_at("Class.forName;a.B;a.C.m;4294967296;;1").column, 25u);
  EXPECT_NE(log_error_message("Class.forName;a.B;a.C.m;4294967296;;1").find("out of range"),
            std::string::npos);
  EXPECT_EQ(log_error_at("Class.forName;a.B;a.C.m;1;;18446744073709551616").column, 28u);
  const auto max =
      parse_tamiflex_log("Class.forName;a.B;a.C.m;4294967295;;18446744073709551615", "refl.log");
  EXPECT_EQ(max[0].line, 4294967295u);
  EXPECT_EQ(max[0].count, 18446744073709551615u);
}

TEST(TamiflexLogTest, TargetMustFitItsKind) {
  // A signature where a class is expected, and the other way round.
  EXPECT_EQ(log_error_at("Class.forName;<a.B: int f>;a.C.m;1;;1").column, 15u);
  EXPECT_EQ(log_error_at("Method.invoke;a.B;a.C.m;1;;1").column, 15u);
  EXPECT_NE(log_error_message("Method.invoke;<a.B: int f>;a.C.m;1;;1").find("found a field"),
            std::string::npos);
  EXPECT_NE(log_error_message("Field.set*;<a.B: int f()>;a.C.m;1;;1").find("found a method"),
            std::string::npos);
  EXPECT_NE(
      log_error_message("Constructor.newInstance;<a.B: void m()>;a.C.m;1;;1").find("method m"),
      std::string::npos);
  // TamiFlex logs the array Array.newInstance creates.
  EXPECT_NE(log_error_message("Array.newInstance;int;a.C.m;1;;1").find("an array type"),
            std::string::npos);
  // The offset of the problem inside TARGET is added to TARGET's column.
  EXPECT_EQ(log_error_at("Method.invoke;<a.B: int m(int,)>;a.C.m;1;;1").column, 15u + 16);
  // A kind refract does not know takes any well-formed target.
  EXPECT_NO_THROW(
      parse_tamiflex_log("Some.kind;a.B;a.C.m;1;;1\nSome.kind;<a.B: int f>;a.C.m;;;", "refl.log"));
  EXPECT_EQ(log_error_at("Some.kind;a b;a.C.m;1;;1").column, 12u);
}

TEST(TamiflexLogTest, ErrorMessagesNameFileLineAndColumn) {
  EXPECT_EQ(log_error_message("Class.forName;a.B;a.C.m;x;;1"),
            "refl.log:1:25: LINE must be empty or a decimal number");
}

TEST(TamiflexLogTest, MissingFileIsAnInputError) {
  EXPECT_THROW(read_tamiflex_log("/nonexistent/refl.log"), InputError);
}

struct KindCounts {
  std::size_t lines;
  std::map<std::string, std::size_t> soot_kinds;  // the six Soot reads
};

// ../shared/tamiflex/README.md, "Per-program counts (refl.log)".
const std::map<std::string, KindCounts> kReadmeCounts = {
    {"xalan",
     {1599,
      {{"Class.forName", 23},
       {"Class.newInstance", 26},
       {"Constructor.newInstance", 32},
       {"Method.invoke", 28}}}},
    {"checkstyle",
     {16736,
      {{"Class.forName", 186},
       {"Class.newInstance", 13},
       {"Constructor.newInstance", 147},
       {"Method.invoke", 23},
       {"Field.get*", 399},
       {"Field.set*", 19}}}},
    {"hsqldb",
     {552,
      {{"Class.forName", 25},
       {"Class.newInstance", 3},
       {"Constructor.newInstance", 28},
       {"Method.invoke", 2}}}},
    {"fop",
     {1210,
      {{"Class.forName", 67},
       {"Class.newInstance", 14},
       {"Constructor.newInstance", 146},
       {"Method.invoke", 10},
       {"Field.get*", 7}}}},
    {"antlr", {42, {{"Class.forName", 1}, {"Class.newInstance", 3}}}},
    {"lucene",
     {830,
      {{"Class.forName", 46},
       {"Class.newInstance", 15},
       {"Constructor.newInstance", 39},
       {"Method.invoke", 11},
       {"Field.get*", 2}}}},
};

TEST(TamiflexLogTest, AllSixRealLogsReadWithTheReadmeCounts) {
  if (!fs::exists(kLogs)) GTEST_SKIP() << "no " << kLogs;
  for (const auto& [program, expected] : kReadmeCounts) {
    const auto entries = read_tamiflex_log(kLogs / program / "refl.log");
    EXPECT_EQ(entries.size(), expected.lines) << program;
    std::map<std::string, std::size_t> soot;
    for (const LogEntry& e : entries)
      if (is_soot_log_kind(e.kind_text)) ++soot[e.kind_text];
    EXPECT_EQ(soot, expected.soot_kinds) << program;
    // The supplementary logs with the opt-in kinds read too.
    EXPECT_NO_THROW(read_tamiflex_log(kLogs / program / "refl-modern.log")) << program;
  }
}

using Line = std::tuple<std::string, std::string, std::string, std::optional<std::uint32_t>,
                        std::string, std::optional<std::uint64_t>>;

// An entry's line as Soot looks it up (signatures with Soot's quotes, types in source form).
Line soot_line(const LogEntry& e) {
  const std::string target = target_shape(e.kind_text) == TargetShape::kType
                                 ? parse_type_name(e.target)
                                 : soot_signature(parse_member_signature(e.target));
  return {e.kind_text, target, e.caller, e.line, e.meta, e.count};
}

TEST(TamiflexLogTest, RealLogsRoundTripTheirSootKinds) {
  if (!fs::exists(kLogs)) GTEST_SKIP() << "no " << kLogs;
  test::TempDir dir;
  for (const auto& [program, expected] : kReadmeCounts) {
    const auto entries = read_tamiflex_log(kLogs / program / "refl.log");
    const LogWriteCounts counts = write_tamiflex_log(dir / program, entries);
    const auto again = read_tamiflex_log(dir / program);
    std::set<Line> before, after;
    std::size_t identical = 0;
    for (const LogEntry& e : entries)
      if (is_soot_log_kind(e.kind_text)) before.insert(soot_line(e));
    for (const LogEntry& e : again) after.insert(soot_line(e));
    EXPECT_EQ(before, after) << program;
    EXPECT_EQ(counts.lines, again.size()) << program;
    EXPECT_EQ(counts.lines + counts.skipped, entries.size()) << program;
    // Apart from Soot's quotes (java.lang.'annotation'), the lines are TamiFlex's own.
    std::set<std::string> raw_before;
    for (const LogEntry& e : entries)
      if (is_soot_log_kind(e.kind_text)) raw_before.insert(e.kind_text + ";" + e.target);
    for (const LogEntry& e : again) identical += raw_before.count(e.kind_text + ";" + e.target);
    EXPECT_GE(identical + 1, again.size()) << program;
  }
}

TEST(TamiflexLogTest, WriterMergesDuplicatesSortsAndKeepsOnlySootKinds) {
  test::TempDir dir;
  const auto entries = parse_tamiflex_log(
      "Method.invoke;<a.to.B: void m()>;a.C.run;9;isAccessible=true;2\n"
      "Class.forName;a.B;a.C.run;;;\n"
      "Method.invoke;<a.to.B: void m()>;a.C.run;9;isAccessible=false;3\n"
      "Method.getName;<a.to.B: void m()>;a.C.run;9;isAccessible=false;3\n"
      "Class.forName;[[Ljava.lang.String;;a.C.run;4;;\n"
      "Class.forName;a.B;a.C.run;;;5\n",
      "in.log");
  const LogWriteCounts counts = write_tamiflex_log(dir / "refl.log", entries);
  EXPECT_EQ(counts.lines, 3u);
  EXPECT_EQ(counts.skipped, 1u);
  EXPECT_EQ(test::read_file(dir / "refl.log"),
            "Class.forName;a.B;a.C.run;;;5\n"
            "Class.forName;java.lang.String[][];a.C.run;4;;\n"
            "Method.invoke;<a.'to'.B: void m()>;a.C.run;9;isAccessible=false;5\n");
}

TEST(TamiflexLogTest, WriterRefusesEntriesItCouldNotReadBack) {
  test::TempDir dir;
  LogEntry bad;
  bad.kind_text = "Class.forName";
  bad.target = "a.B;x";
  bad.caller = "a.C.m";
  EXPECT_THROW(write_tamiflex_log(dir / "refl.log", std::vector<LogEntry>{bad}),
               std::invalid_argument);
  bad.target = "a.B";
  bad.meta = "x;y";
  EXPECT_THROW(write_tamiflex_log(dir / "refl.log", std::vector<LogEntry>{bad}),
               std::invalid_argument);
  bad.meta = "";
  bad.caller = "m";
  EXPECT_THROW(write_tamiflex_log(dir / "refl.log", std::vector<LogEntry>{bad}),
               std::invalid_argument);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(TamiflexLogTest, WriteIntoAMissingDirectoryLeavesNothingBehind) {
  test::TempDir dir;
  const fs::path missing = dir / "no" / "such";
  const auto entries = parse_tamiflex_log("Class.forName;a.B;a.C.m;1;;1\n", "in.log");
  EXPECT_THROW(write_tamiflex_log(missing / "refl.log", entries), InputError);
  EXPECT_FALSE(fs::exists(dir / "no"));
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(TamiflexLogTest, RewritingReplacesTheWholeFile) {
  test::TempDir dir;
  write_tamiflex_log(dir / "refl.log", parse_tamiflex_log("Class.forName;a.B;a.C.m;1;;1\n"
                                                          "Class.forName;a.D;a.C.m;1;;1\n",
                                                          "in.log"));
  write_tamiflex_log(dir / "refl.log", parse_tamiflex_log("Class.forName;a.E;a.C.m;;;\n", "in"));
  EXPECT_EQ(test::read_file(dir / "refl.log"), "Class.forName;a.E;a.C.m;;;\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace refract::reflection
