// `refract order-search` end to end (issue 33): on the bddbddb example program and on the
// compare fixture with the small JDK, every printed line is ORDER<TAB>NODES<TAB>SECONDS, best
// first; the default order is among them, so the best is no worse than it; every order is
// accepted by --order and gives the default order's results; bad usage exits 2 before any work.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli/fixture_paths.hpp"
#include "cli/run_refract.hpp"
#include "pointsto/small_jdk.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

struct OrderLine {
  std::string order;
  std::uint64_t nodes = 0;
  double seconds = 0;
};

// The lines of order-search's stdout, each checked to be ORDER<TAB>NODES<TAB>SECONDS.
std::vector<OrderLine> order_lines(const std::string& out) {
  static const std::regex number("[0-9]+"), seconds("[0-9]+\\.[0-9]{3}");
  std::vector<OrderLine> lines;
  for (const std::string& line : lines_of(out)) {
    const std::vector<std::string> fields = split_tabs(line);
    EXPECT_EQ(fields.size(), 3U) << line;
    if (fields.size() != 3) continue;
    EXPECT_TRUE(std::regex_match(fields[1], number)) << line;
    EXPECT_TRUE(std::regex_match(fields[2], seconds)) << line;
    lines.push_back({fields[0], std::stoull(fields[1]), std::stod(fields[2])});
  }
  return lines;
}

// The orders whose progress line says they stopped at a cap (or failed) before the bound.
std::set<std::string> stopped_orders(const std::string& err) {
  static const std::regex stopped(
      "candidate [0-9]+ \\(neighbour [0-9]+/[0-9]+ of the best so far\\) ([^ ]+): "
      "(node cap|time limit|failed) after");
  std::set<std::string> out;
  for (std::sregex_iterator it(err.begin(), err.end(), stopped), end; it != end; ++it)
    out.insert((*it)[1].str());
  return out;
}

// Ranked: every order that reached the bound, by nodes, then those stopped at a cap (which
// the progress on `err` names); the default order among them, so the best is no worse.
void expect_ranked(const std::vector<OrderLine>& lines, const std::string& err,
                   const std::string& default_order) {
  const auto found = std::find_if(lines.begin(), lines.end(),
                                  [&](const OrderLine& l) { return l.order == default_order; });
  ASSERT_NE(found, lines.end()) << "the default order " << default_order << " is not printed";
  EXPECT_LE(lines.front().nodes, found->nodes);
  const std::set<std::string> stopped = stopped_orders(err);
  EXPECT_EQ(stopped.count(lines.front().order), 0U);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (stopped.count(lines[i].order) != 0) continue;
    EXPECT_EQ(stopped.count(lines[i - 1].order), 0U) << lines[i].order << " after a stopped one";
    EXPECT_LE(lines[i - 1].nodes, lines[i].nodes) << lines[i].order;
  }
  std::vector<std::string> orders;
  for (const OrderLine& l : lines) orders.push_back(l.order);
  std::sort(orders.begin(), orders.end());
  EXPECT_EQ(std::adjacent_find(orders.begin(), orders.end()), orders.end()) << "an order twice";
}

// The sorted lines of every output of `refract solve` in `dir` (outputs are written in BDD
// order, which the variable order changes).
std::vector<std::string> sorted_outputs(const fs::path& dir) {
  std::vector<std::string> all;
  for (const std::string& file : files_under(dir)) {
    std::vector<std::string> lines = lines_of(read_file(dir / file));
    std::sort(lines.begin(), lines.end());
    for (const std::string& line : lines) all.push_back(file + ": " + line);
  }
  return all;
}

// The order a program's solve uses when --order gives none, as `refract solve --stats` reports.
std::string solve_default_order(const fs::path& program, const fs::path& work) {
  const RunResult run =
      run_refract({"solve", program.string(), "--output-dir", (work / "default").string(),
                   "--quiet", "--stats", (work / "stats.json").string()},
                  work);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  static const std::regex order("\"order\": \"([^\"]+)\"");
  std::smatch match;
  const std::string stats = read_file(work / "stats.json");
  if (!std::regex_search(stats, match, order)) return "";
  return match[1].str();
}

TEST(OrderSearchTest, FindsNoWorseThanTheDefaultOnADatalogProgramAndEveryOrderSolvesAlike) {
  TempDir dir;
  const fs::path program = kPointstoExample / "pointsto.datalog";
  // A bound of rule evaluations, not the budget's share of seconds: on a loaded machine the
  // default order finished no evaluation in the 0.35 s a 2-s budget gives it (CI, 12-01).
  const RunResult run = run_refract(
      {"order-search", program.string(), "--budget", "3", "--evaluations", "20"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<OrderLine> lines = order_lines(run.out);
  ASSERT_GE(lines.size(), 2U) << run.out;
  expect_ranked(lines, run.err, solve_default_order(program, dir.path()));

  const std::vector<std::string> expected = sorted_outputs(dir / "default");
  ASSERT_FALSE(expected.empty());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const fs::path out = dir / ("order-" + std::to_string(i));
    const RunResult solved = run_refract({"solve", program.string(), "--order", lines[i].order,
                                          "--output-dir", out.string(), "--quiet"},
                                         dir.path());
    ASSERT_EQ(solved.exit_code, 0) << lines[i].order << "\n" << solved.err;
    EXPECT_EQ(sorted_outputs(out), expected) << lines[i].order;
  }
}

std::vector<std::string> java_args(const std::string& context) {
  return {"--jdk",        small_jdk().string(), "--classpath", kFixtureClasses.string(), "--main",
          "compare.Main", "--context",          context,       "--reflection",           "none"};
}

// The client results and the points-to relation of `refract analyze` with `extra` options.
std::vector<std::string> analyze_results(const std::string& context,
                                         const std::vector<std::string>& extra,
                                         const fs::path& out) {
  std::vector<std::string> args = {"analyze"};
  const std::vector<std::string> java = java_args(context);
  args.insert(args.end(), java.begin(), java.end());
  args.insert(args.end(), extra.begin(), extra.end());
  for (const char* a : {"--dump", "VarPointsTo", "--quiet", "--out"}) args.push_back(a);
  args.push_back(out.string());
  const RunResult run = run_refract(args, out.parent_path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<std::string> all;
  for (const char* file : {"reachable-methods.txt", "call-edges.tsv", "VarPointsTo.tsv"}) {
    std::vector<std::string> lines = lines_of(read_file(out / file));
    std::sort(lines.begin(), lines.end());
    for (const std::string& line : lines) all.push_back(std::string(file) + ": " + line);
  }
  return all;
}

// The default order's stats.json names it: "order": "...".
std::string analyze_order(const fs::path& out) {
  static const std::regex order("\"order\": \"([^\"]+)\"");
  std::smatch match;
  const std::string stats = read_file(out / "stats.json");
  return std::regex_search(stats, match, order) ? match[1].str() : "";
}

// A context flavour, solved to a bound of rule evaluations: the progress names the bound, and
// every order printed gives the default order's results in a whole `refract analyze` run.
TEST(OrderSearchTest,
     FindsNoWorseThanTheDefaultOnAJavaProgramUnderABoundAndEveryOrderAnalyzesAlike) {
  TempDir dir;
  std::vector<std::string> args = {"order-search"};
  const std::vector<std::string> java = java_args("1-call");
  args.insert(args.end(), java.begin(), java.end());
  for (const char* a : {"--budget", "2", "--evaluations", "60"}) args.push_back(a);
  const RunResult run = run_refract(args, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("bound: the first 60 rule evaluations"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("[order-search] candidate 2 "), std::string::npos) << run.err;
  const std::vector<OrderLine> lines = order_lines(run.out);
  ASSERT_GE(lines.size(), 2U) << run.out;

  const std::vector<std::string> expected = analyze_results("1-call", {}, dir / "default");
  ASSERT_FALSE(expected.empty());
  expect_ranked(lines, run.err, analyze_order(dir / "default"));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(analyze_results("1-call", {"--order", lines[i].order},
                              dir / ("order-" + std::to_string(i))),
              expected)
        << lines[i].order;
  }
}

// Bad usage exits 2 with a message naming what is wrong, before reading anything.
void expect_usage_error(const std::vector<std::string>& args, const std::string& message) {
  TempDir dir;
  std::vector<std::string> all = {"order-search"};
  all.insert(all.end(), args.begin(), args.end());
  const RunResult run = run_refract(all, dir.path());
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("[order-search]"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("[analyze]"), std::string::npos) << run.err;
}

TEST(OrderSearchBadUsageTest, ExitsTwoBeforeAnyWork) {
  const std::string program = (kPointstoExample / "pointsto.datalog").string();
  expect_usage_error({}, "missing PROGRAM.datalog or --classpath");
  expect_usage_error({program, "--budget=-5"}, "--budget");
  expect_usage_error({program, "--budget", "0"}, "--budget");
  expect_usage_error({program, "--budget", "soon"}, "--budget");
  expect_usage_error({program, "--evaluations", "0"}, "--evaluations");
  expect_usage_error({program, "--context", "insens"}, "--context is not an option for");
  std::vector<std::string> java = java_args("9-obj");
  expect_usage_error(java, "unknown context flavour \"9-obj\"");
  java = java_args("insens");
  expect_usage_error({program, java[2], java[3]}, "not both");
  java.insert(java.end(), {"--input-dir", "."});
  expect_usage_error(java, "--input-dir is not an option for");
  expect_usage_error({"--classpath", kFixtureClasses.string(), "--main", "compare.Main"},
                     "missing --context");
  expect_usage_error({program, "--rules", "."}, "--rules is not an option for");
}

// --rules is the folder the search reads its points-to rules from (as analyze's): a copy of
// the shipped rules with one of them broken is bad input, named by file and line.
TEST(OrderSearchBadUsageTest, RulesFromAnotherFolderAreReadAndCheckedThere) {
  TempDir dir;
  const fs::path rules = dir / "rules";
  fs::copy(REFRACT_SOURCE_RULES_DIR, rules, fs::copy_options::recursive);
  std::ofstream(rules / "core.datalog", std::ios::app) << "VarPointsTo(ctx, v, hc, h) :- Broken(\n";
  std::vector<std::string> args = {"order-search"};
  const std::vector<std::string> java = java_args("insens");
  args.insert(args.end(), java.begin(), java.end());
  for (const char* a : {"--rules", rules.c_str(), "--quiet"}) args.push_back(a);
  const RunResult run = run_refract(args, dir.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find((rules / "core.datalog").string() + ":"), std::string::npos) << run.err;
}

TEST(OrderSearchTest, QuietPrintsTheOrdersAndNothingOnStderr) {
  TempDir dir;
  const RunResult run =
      run_refract({"order-search", (kPointstoExample / "pointsto.datalog").string(), "--budget",
                   "1", "--evaluations", "1000000", "--quiet"},
                  dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_FALSE(order_lines(run.out).empty());
}

TEST(OrderSearchBadUsageTest, AMissingProgramFileIsBadInput) {
  TempDir dir;
  const RunResult run =
      run_refract({"order-search", (dir / "absent.datalog").string(), "--quiet"}, dir.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("absent.datalog"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace refract::test
