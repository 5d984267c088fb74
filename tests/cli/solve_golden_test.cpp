// `refract solve` end to end on good input: the printsize output and the
// written .tuples of the bundled points-to example against hand-checked golden
// files, the input/output directory defaults, --stats and printtuples.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/fixture_paths.hpp"
#include "cli/run_refract.hpp"
#include "support/atomic_file.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

const fs::path kGolden = fs::path(REFRACT_TEST_DATA) / "cli" / "pointsto_golden";

struct TuplesText {
  std::string header;
  std::vector<std::string> lines;  // sorted
};

// A .tuples file as its header and its sorted tuple lines; comment lines after
// the header (the golden files explain each tuple in one) are skipped.
TuplesText parse_tuples_text(const std::string& text) {
  TuplesText out;
  std::istringstream in(text);
  std::string line;
  std::getline(in, out.header);
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') out.lines.push_back(line);
  }
  std::sort(out.lines.begin(), out.lines.end());
  return out;
}

void expect_matches_golden(const fs::path& written, const std::string& relation) {
  SCOPED_TRACE(relation);
  const std::string text = read_file(written);
  ASSERT_FALSE(text.empty()) << written;
  EXPECT_EQ(text.back(), '\n');
  const TuplesText actual = parse_tuples_text(text);
  const TuplesText golden = parse_tuples_text(read_file(kGolden / (relation + ".tuples")));
  ASSERT_FALSE(golden.lines.empty());
  EXPECT_EQ(actual.header, golden.header);
  EXPECT_EQ(actual.lines, golden.lines);
  // The writer emits no comments: every line but the header is a tuple.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'),
            static_cast<std::ptrdiff_t>(actual.lines.size() + 1));
}

// A copy of the example's directory, so tests may write next to its inputs.
void copy_example(const fs::path& to) {
  fs::create_directories(to);
  for (const auto& entry : fs::directory_iterator(kPointstoExample)) {
    fs::copy_file(entry.path(), to / entry.path().filename());
  }
}

const std::string kPrintSizes = "reach\t19\nIE\t28\nvP\t64\nhP\t11\n";
const std::vector<std::string> kOutputs{"IE.tuples", "hP.tuples", "reach.tuples", "vP.tuples"};

TEST(SolveGoldenTest, PointsToExamplePrintsItsSizesAndWritesTheGoldenTuples) {
  TempDir dir;
  const fs::path out = dir / "out";
  const RunResult run = run_refract({"solve", (kPointstoExample / "pointsto.datalog").string(),
                                     "--quiet", "--output-dir", out.string()},
                                    dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, kPrintSizes);
  EXPECT_EQ(run.err, "");  // --quiet, and the example has no warnings
  EXPECT_EQ(files_under(out), kOutputs);
  for (const std::string relation : {"reach", "IE", "vP", "hP"}) {
    expect_matches_golden(out / (relation + ".tuples"), relation);
  }
}

// The schedule (solver/schedule.hpp) changes the work, never the fixpoint: the example under
// each gives the golden tuples, and --stats names the schedule and counts its work.
TEST(SolveGoldenTest, EveryScheduleWritesTheGoldenTuplesAndIsReported) {
  for (const char* schedule : {"rule-fixpoint", "sweep", "cost-order", "cheap-first"}) {
    TempDir dir;
    const fs::path out = dir / "out";
    const RunResult run = run_refract(
        {"solve", (kPointstoExample / "pointsto.datalog").string(), "--quiet", "--output-dir",
         out.string(), "--schedule", schedule, "--stats", (dir / "stats.json").string()},
        dir.path());
    ASSERT_EQ(run.exit_code, 0) << schedule << ": " << run.err;
    EXPECT_EQ(run.out, kPrintSizes) << schedule;
    for (const std::string relation : {"reach", "IE", "vP", "hP"})
      expect_matches_golden(out / (relation + ".tuples"), relation);
    const std::string json = read_file(dir / "stats.json");
    EXPECT_NE(json.find(std::string("\"schedule\": \"") + schedule + "\", \"sweeps\": "),
              std::string::npos)
        << json;
    EXPECT_EQ(json.find("\"delta_evaluations\": 0}"), std::string::npos) << json;
  }
}

TEST(SolveGoldenTest, GoldenTuplesAreValidInputForRefract) {
  // Reads the golden vP and hP back as inputs and counts them: the golden
  // files are real .tuples files, not only text for comparison.
  TempDir dir;
  copy_example(dir / "in");
  fs::copy_file(kGolden / "vP.tuples", dir / "in" / "goldvP.tuples");
  fs::copy_file(kGolden / "hP.tuples", dir / "in" / "goldhP.tuples");
  write_file(dir / "in" / "count.datalog",
             "V 54\nH 10\nF 7\n"
             ".bddvarorder F0_V0_H0xH1\n"
             "goldvP (v : V, h : H) inputtuples printsize\n"
             "goldhP (b : H, f : F, t : H) inputtuples printsize\n");
  const RunResult run =
      run_refract({"solve", (dir / "in" / "count.datalog").string(), "--quiet"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "goldvP\t64\ngoldhP\t11\n");
}

TEST(SolveGoldenTest, OutputDirectoryDefaultsToTheInputDirectory) {
  TempDir dir;
  copy_example(dir / "example");
  const std::vector<std::string> before = files_under(dir / "example");
  // Run from elsewhere with a relative program path: inputs come from the
  // program's directory, and outputs go there too.
  const RunResult run = run_refract({"solve", "example/pointsto.datalog", "--quiet"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, kPrintSizes);
  std::vector<std::string> expected = before;
  expected.insert(expected.end(), kOutputs.begin(), kOutputs.end());
  std::sort(expected.begin(), expected.end());
  std::vector<std::string> after = files_under(dir.path());
  std::vector<std::string> in_example;
  for (const std::string& f : after) {
    EXPECT_EQ(f.rfind("example/", 0), 0U) << "written outside the input directory: " << f;
    in_example.push_back(f.substr(std::string("example/").size()));
  }
  EXPECT_EQ(in_example, expected);
  expect_matches_golden(dir / "example" / "vP.tuples", "vP");
}

TEST(SolveGoldenTest, InputDirectoryOverridesTheProgramDirectory) {
  TempDir dir;
  // The program alone in one directory, its facts and maps in another.
  copy_example(dir / "facts");
  fs::create_directories(dir / "program");
  fs::rename(dir / "facts" / "pointsto.datalog", dir / "program" / "pointsto.datalog");
  const std::vector<std::string> facts = files_under(dir / "facts");

  // Without --input-dir the facts are looked for next to the program.
  const RunResult missing = run_refract(
      {"solve", (dir / "program" / "pointsto.datalog").string(), "--quiet"}, dir.path());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err.rfind((dir / "program").string(), 0), 0U) << missing.err;

  const RunResult run = run_refract({"solve", (dir / "program" / "pointsto.datalog").string(),
                                     "--quiet", "--input-dir", (dir / "facts").string()},
                                    dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, kPrintSizes);
  // Outputs default to the input directory, not the program's.
  EXPECT_EQ(files_under(dir / "program"), std::vector<std::string>{"pointsto.datalog"});
  std::vector<std::string> expected = facts;
  expected.insert(expected.end(), kOutputs.begin(), kOutputs.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(files_under(dir / "facts"), expected);
  expect_matches_golden(dir / "facts" / "hP.tuples", "hP");
}

TEST(SolveGoldenTest, StatsToStdoutIsJsonWithRulesAndPeakNodes) {
  TempDir dir;
  const RunResult run =
      run_refract({"solve", (kPointstoExample / "pointsto.datalog").string(), "--quiet",
                   "--output-dir", (dir / "out").string(), "--stats", "-"},
                  dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The printsize lines come first, then the report.
  ASSERT_EQ(run.out.substr(0, kPrintSizes.size()), kPrintSizes);
  const std::string json = run.out.substr(kPrintSizes.size());
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.substr(json.find_last_not_of(" \n"), 1), "}");
  EXPECT_NE(json.find("\"rules\""), std::string::npos);
  EXPECT_NE(json.find("\"peak_used_nodes\""), std::string::npos);
  // The memory budget (80% of physical memory, so not 0) and whether it held the table back.
  EXPECT_EQ(json.find("\"memory_budget_bytes\": 0,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"memory_budget_bytes\": "), std::string::npos) << json;
  EXPECT_NE(json.find("\"capped_by_memory_budget\": false"), std::string::npos) << json;
  // BDD operations timed by kind: a points-to program joins (relprod) and adds (or).
  EXPECT_NE(json.find("\"operation_times\": {"), std::string::npos);
  EXPECT_NE(json.find("\"relprod\": {\"calls\": "), std::string::npos) << json;
  // The solver's own time besides the rules: each part named.
  for (const char* part : {"loading", "preparing", "deltas", "absorbing", "reporting",
                           "tuple_rules", "tuple_deltas", "keyed_joins"}) {
    EXPECT_NE(json.find("\"engine\": {"), std::string::npos);
    EXPECT_NE(json.find(std::string("\"") + part + "\": "), std::string::npos) << part;
  }
  // One entry per rule of the program, each with its text and location.
  EXPECT_NE(json.find("reach(m) :- entry(m)."), std::string::npos);
  EXPECT_NE(json.find("pointsto.datalog:93:1"), std::string::npos) << json;
  // Each step timed, named by its body literal: the rule at line 97 runs its three atoms in the
  // order written.
  const std::size_t rule97 = json.find("pointsto.datalog:97:1");
  ASSERT_NE(rule97, std::string::npos);
  const std::string entry = json.substr(rule97, json.find('}', rule97) - rule97);
  EXPECT_NE(entry.find("\"step_literals\": [0, 1, 2], \"step_seconds\": ["), std::string::npos)
      << entry;
  // ... and its semi-naive products split by the side that changed, one value per step.
  for (const char* side : {"step_atom_delta_seconds", "step_prefix_delta_seconds"}) {
    const std::size_t list = entry.find(std::string("\"") + side + "\": [");
    ASSERT_NE(list, std::string::npos) << side << " in " << entry;
    const std::string values = entry.substr(list, entry.find(']', list) - list);
    EXPECT_EQ(std::count(values.begin(), values.end(), ','), 2) << values;
  }
  // How the plan laid the rule out: IE0(i, target) is renamed onto target's M1, and each rule's
  // time is split by BDD operation.
  EXPECT_NE(entry.find("\"renamed_steps\": [2], \"filtered_steps\": [], \"variable_instances\": "
                       "[\"i:I0\", \"m:M0\", \"target:M1\"], \"operation_seconds\": {"),
            std::string::npos)
      << entry;
  EXPECT_NE(entry.find("\"relprod\": "), std::string::npos) << entry;
  // hP(hb, f, h) :- store(base, f, source), vP(base, hb), vP(source, h): the second vP is
  // renamed onto V1, H1, and each of its deltas first cut down to the sources of stores.
  const std::size_t rule122 = json.find("pointsto.datalog:122:1");
  ASSERT_NE(rule122, std::string::npos);
  const std::string store = json.substr(rule122, json.find('}', rule122) - rule122);
  EXPECT_NE(store.find("\"renamed_steps\": [2], \"filtered_steps\": [2], \"variable_instances\": "
                       "[\"base:V0\", \"f:F0\", \"h:H1\", \"hb:H0\", \"source:V1\"]"),
            std::string::npos)
      << store;
}

TEST(SolveGoldenTest, StatsToAFileIsWrittenThere) {
  TempDir dir;
  const RunResult run = run_refract(
      {"solve", (kPointstoExample / "pointsto.datalog").string(), "--quiet", "--output-dir",
       (dir / "out").string(), "--stats", (dir / "stats.json").string()},
      dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, kPrintSizes);
  const std::string json = read_file(dir / "stats.json");
  EXPECT_NE(json.find("\"peak_used_nodes\""), std::string::npos);
  // The memory budget (80% of physical memory, so not 0) and whether it held the table back.
  EXPECT_EQ(json.find("\"memory_budget_bytes\": 0,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"memory_budget_bytes\": "), std::string::npos) << json;
  EXPECT_NE(json.find("\"capped_by_memory_budget\": false"), std::string::npos) << json;
  // BDD operations timed by kind: a points-to program joins (relprod) and adds (or).
  EXPECT_NE(json.find("\"operation_times\": {"), std::string::npos);
  EXPECT_NE(json.find("\"relprod\": {\"calls\": "), std::string::npos) << json;
  for (const auto& e : fs::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().filename().string().find(kAtomicTemporaryMark), std::string::npos);
}

TEST(SolveGoldenTest, PrintTuplesUsesMapLabelsAndNumbersWhereTheMapEnds) {
  TempDir dir;
  // N has 4 elements but its map names only 3: element 3 prints as a number.
  write_file(dir / "N.map", "alice\nbob\ncarol\n");
  write_file(dir / "knows.tuples", "# N0:2 N1:2 Z0:1\n0 1 0\n1 3 1\n2 0 1\n");
  write_file(dir / "p.datalog",
             "N 4 N.map\nZ 2\n"
             "knows (a : N, b : N, z : Z) inputtuples\n"
             "likes (a : N, b : N, z : Z) printtuples printsize\n"
             "likes(a, b, z) :- knows(a, b, z).\n");
  const RunResult run = run_refract({"solve", (dir / "p.datalog").string(), "--quiet"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // printsize lines first, then the tuples of each printtuples relation.
  const std::string sizes = "likes\t3\n";
  ASSERT_EQ(run.out.substr(0, sizes.size()), sizes);
  std::vector<std::string> lines;
  std::istringstream in(run.out.substr(sizes.size()));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{"likes(alice, bob, 0)", "likes(bob, 3, 1)",
                                             "likes(carol, alice, 1)"}));
}

// [bddbddb's Domain.namedConstant] A quoted name the map lacks is a new element of its domain,
// after the map's lines, in a body as in a head, with a warning naming it in the progress.
// (refract's own analyses keep such names absent instead: solver/dialect_test.cpp.)
TEST(SolveGoldenTest, ConstantAbsentFromTheMapIsANewElementAsInBddbddb) {
  TempDir dir;
  write_file(dir / "N.map", "alice\nbob\n");
  write_file(dir / "knows.tuples", "# N0:2 N1:2\n0 1\n1 0\n");
  write_file(dir / "p.datalog",
             "N 3 N.map\n"
             "knows (a : N, b : N) inputtuples\n"
             "fromZed (b : N) printsize\n"
             "notZed (a : N) printsize\n"
             "isZed (a : N) printsize\n"
             "fromAlice (b : N) printsize\n"
             "hello (a : N) printtuples\n"
             "fromZed(b) :- knows(\"zed\", b).\n"
             "notZed(a) :- knows(a, _), a != \"zed\".\n"
             "isZed(a) :- knows(a, _), a = \"zed\".\n"
             "fromAlice(b) :- knows(\"alice\", b), !knows(\"zed\", b).\n"
             "hello(\"zed\").\n");
  const RunResult run = run_refract({"solve", (dir / "p.datalog").string()}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "fromZed\t0\nnotZed\t2\nisZed\t0\nfromAlice\t1\nhello(zed)\n");
  EXPECT_NE(run.err.find((dir / "p.datalog").string() +
                         ":8:21: warning: \"zed\" is not in the map of domain N; it is a new "
                         "element, 2, as in bddbddb"),
            std::string::npos)
      << run.err;
}

TEST(SolveGoldenTest, ProgressGoesToStderrUnlessQuietAndAddsUpToThePrintedSizes) {
  TempDir dir;
  const RunResult run = run_refract({"solve", (kPointstoExample / "pointsto.datalog").string(),
                                     "--output-dir", (dir / "out").string()},
                                    dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, kPrintSizes);
  EXPECT_NE(run.err.find("stratum"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("nodes"), std::string::npos) << run.err;
  // The "+N" of each progress line is what a relation gained in that sweep: over all sweeps
  // they add up to the sizes printed at the end (every printed relation of the example is
  // derived).
  // Each line also says when, in seconds since the solve began, never going back.
  std::map<std::string, std::uint64_t> gained;
  std::istringstream lines(run.err);
  std::size_t sweep_lines = 0;
  double last_at = 0;
  for (std::string line; std::getline(lines, line);) {
    const std::size_t colon = line.find(": ", line.find(" iteration "));
    if (line.rfind("[solve] ", 0) != 0 || colon == std::string::npos) continue;
    ++sweep_lines;
    const std::size_t at = line.rfind(" at ", colon);
    ASSERT_NE(at, std::string::npos) << line;
    ASSERT_EQ(line.substr(colon - 2, 2), " s") << line;
    const double seconds = std::stod(line.substr(at + 4, colon - 2 - at - 4));
    EXPECT_GE(seconds, last_at) << line;
    last_at = seconds;
    std::istringstream fields(line.substr(colon + 2, line.find(';') - colon - 2));
    for (std::string name, plus; fields >> name >> plus;)
      gained[name] += std::stoull(plus.substr(1));
  }
  EXPECT_GT(sweep_lines, 2U) << run.err;
  std::ostringstream sums;
  for (const std::string relation : {"reach", "IE", "vP", "hP"})
    sums << relation << '\t' << gained[relation] << '\n';
  EXPECT_EQ(sums.str(), kPrintSizes) << run.err;
  EXPECT_EQ(run.err.find("held by the memory budget"), std::string::npos) << run.err;
}

// Under a budget below what the process holds, the example still fits its first table: the
// results are the same, and the progress lines say the table may not grow.
TEST(SolveGoldenTest, ProgressSaysWhenTheMemoryBudgetHoldsTheTable) {
  TempDir dir;
  const RunResult run =
      run_refract({"solve", (kPointstoExample / "pointsto.datalog").string(), "--output-dir",
                   (dir / "out").string(), "--max-memory", "1", "--nodes", "100000"},
                  dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, kPrintSizes);
  EXPECT_NE(run.err.find(", the table held by the memory budget\n"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace refract::test
