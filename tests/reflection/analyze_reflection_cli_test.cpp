// `refract analyze`'s reflection options end to end (cli/analyze_reflection.cpp): a bad option
// value is a usage error (exit 2) naming the option; a malformed line of a TamiFlex log or an
// annotation file, or an annotation naming a call site the program does not have, is an input
// error (exit 1) at FILE:LINE that leaves nothing in OUT.
#include <gtest/gtest.h>

#include "reflection/reflection_fixture.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

const char* const kUnsoundFixture = "unsound";
const char* const kSite =
    "<reflection.unsound.Main: void main(java.lang.String[])>/java.lang.reflect.Method.invoke/0";

// `refract analyze` of the fixture with `options`, into dir/out.
RunResult analyze(const TempDir& dir, const std::vector<std::string>& options) {
  std::vector<std::string> args = fixture_analyze_command(kUnsoundFixture, dir.path() / "out");
  args.insert(args.end(), options.begin(), options.end());
  return run_refract(args, dir.path());
}

TEST(AnalyzeReflectionCliTest, BadOptionValuesAreUsageErrorsNamingTheOption) {
  TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {"--reflection", "bogus"},          {"--reflection", "Solar"},
      {"--reflection", "tamiflex"},       {"--reflection", "tamiflex="},
      {"--reflection", "solar+tamiflex"}, {"--reflection", "probe=refl.log"},
      {"--reflection-budget", "0"},       {"--reflection-budget", "-1"},
      {"--reflection-budget", "soon"},    {"--reflection-budget", "1s"},
  };
  for (const auto& [option, value] : cases) {
    const RunResult run = analyze(dir, {option, value});
    EXPECT_EQ(run.exit_code, 2) << option << " " << value << ": " << run.err;
    EXPECT_NE(run.err.find(option), std::string::npos) << option << " " << value << ": " << run.err;
    EXPECT_TRUE(files_under(dir.path() / "out").empty()) << option << " " << value;
  }
}

// Exit 1, the message at FILE:LINE, and no file in OUT.
void expect_located_error(const RunResult& run, const fs::path& file, int line,
                          const TempDir& dir) {
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const std::string where = file.string() + ":" + std::to_string(line) + ":";
  EXPECT_NE(run.err.find(where), std::string::npos) << "expected " << where << " in: " << run.err;
  EXPECT_TRUE(files_under(dir.path() / "out").empty()) << "files were written to OUT";
}

TEST(AnalyzeReflectionCliTest, MalformedLogLineIsLocatedAndNothingIsWritten) {
  TempDir dir;
  const fs::path log = dir.path() / "refl.log";
  write_file(
      log,
      "Class.forName;reflection.unsound.Task;reflection.unsound.Main.main;15;;1\n"
      "Method.invoke;<reflection.unsound.Task: void execute()>;reflection.unsound.Main.main;21\n");
  for (const std::string mode : {"tamiflex=", "solar+tamiflex="}) {
    const RunResult run = analyze(dir, {"--reflection", mode + log.string()});
    expect_located_error(run, log, 2, dir);
  }
}

TEST(AnalyzeReflectionCliTest, MalformedAnnotationLineIsLocatedAndNothingIsWritten) {
  TempDir dir;
  const fs::path file = dir.path() / "annotations.tsv";
  write_file(file, std::string("# comment\n") + kSite +
                       "\tmethod\t<reflection.unsound.Task: void execute()>\n" + kSite +
                       "\tsometimes\n");
  expect_located_error(analyze(dir, {"--reflection-annotations", file.string()}), file, 3, dir);
}

// A well-formed site the program has no call at is found only against the facts, after the
// classes are read: still an error at its line, before anything is written.
TEST(AnalyzeReflectionCliTest, AnnotationOfAnUnknownSiteIsLocatedAndNothingIsWritten) {
  TempDir dir;
  const fs::path file = dir.path() / "annotations.tsv";
  write_file(file, std::string(kSite) + "\tnever\n" +
                       "<reflection.unsound.Main: void main(java.lang.String[])>/"
                       "java.lang.reflect.Method.invoke/7\tnever\n");
  expect_located_error(analyze(dir, {"--reflection-annotations", file.string()}), file, 2, dir);
}

}  // namespace
}  // namespace refract::test
