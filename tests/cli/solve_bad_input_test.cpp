// `refract solve` on bad input, end to end: one test per kind of bad input.
// Each checks the exact FILE:LINE:COL prefix of the message on stderr, the
// exit code (1 bad input, 2 usage), and that no output file and no temporary
// file is left behind: the output directory stays absent and the test
// directory holds exactly the inputs the test wrote.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/run_refract.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

// Line 1 comment, line 2 domain, 3-4 relations, 5 rule. p is an output and
// printsize, so a run that got as far as writing would leave out/p.tuples.
const std::string kDomain = "D 4\n";
const std::string kRelations =
    "e (a : D, b : D) inputtuples\n"
    "p (a : D, b : D) outputtuples printsize\n";
const std::string kRule = "p(x, y) :- e(x, y).\n";
const std::string kTuples = "# D0:2 D1:2\n0 1\n1 2\n2 3\n";

class SolveBadInputTest : public ::testing::Test {
 protected:
  // Writes an input file into the test directory and remembers it.
  fs::path write(const std::string& name, const std::string& text) {
    write_file(dir_ / name, text);
    inputs_.insert(name);
    return dir_ / name;
  }

  // The usual program, with `body` after the comment line.
  fs::path program(const std::string& body) { return write("p.datalog", "# test\n" + body); }

  // The product of unary `e_tuples` with themselves (line 5 is its rule), with `pair` written
  // or not: for scattered values, far more nodes than the values alone.
  void pair_program(const std::string& e_tuples, bool written = true) {
    program(std::string("A 65536\n"
                        "e (a : A) inputtuples\n"
                        "pair (x : A, y : A) ") +
            (written ? "outputtuples " : "") +
            "printsize\n"
            "pair(x, y) :- e(x), e(y).\n");
    write("e.tuples", e_tuples);
  }

  std::string program_file() const { return (dir_ / "p.datalog").string(); }
  std::string input_file(const std::string& name) const { return (dir_ / name).string(); }

  RunResult solve(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"solve", program_file(), "--quiet", "--output-dir",
                                  (dir_ / "out").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_refract(args, dir_.path());
  }

  // The run failed with `code`, its first stderr line starts with `prefix`
  // and mentions each of `mentions`; nothing was written.
  void expect_rejected(const RunResult& run, const std::string& prefix,
                       const std::vector<std::string>& mentions, int code = 1) {
    EXPECT_EQ(run.exit_code, code) << run.err;
    const std::string first_line = run.err.substr(0, run.err.find('\n'));
    EXPECT_EQ(first_line.substr(0, prefix.size()), prefix) << run.err;
    for (const std::string& m : mentions) {
      EXPECT_NE(first_line.find(m), std::string::npos) << "missing '" << m << "' in: " << run.err;
    }
    EXPECT_EQ(run.out, "") << "printsize output of a failed run";
    expect_nothing_written();
  }

  void expect_nothing_written() {
    EXPECT_FALSE(fs::exists(dir_ / "out")) << "the output directory was created";
    const std::vector<std::string> expected(inputs_.begin(), inputs_.end());
    EXPECT_EQ(files_under(dir_.path()), expected) << "files other than the inputs were left";
  }

  TempDir dir_;
  std::set<std::string> inputs_;
};

// The control for every test below: the same program, unbroken, does write
// out/p.tuples and print its size, so "nothing written" is a real check.
TEST_F(SolveBadInputTest, ValidProgramWritesItsOutputs) {
  program(kDomain + kRelations + kRule);
  write("e.tuples", kTuples);
  const RunResult run = solve();
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "p\t3\n");
  EXPECT_EQ(files_under(dir_ / "out"), std::vector<std::string>{"p.tuples"});
}

TEST_F(SolveBadInputTest, SyntaxErrorPointsAtTheUnexpectedToken) {
  program(kDomain + kRelations + "p(x, y) :- e(x y).\n");
  write("e.tuples", kTuples);
  expect_rejected(solve(), program_file() + ":5:16: ", {"expected ',' or ')'", "'y'"});
}

TEST_F(SolveBadInputTest, SyntaxErrorInAnIncludedFileNamesThatFile) {
  program(kDomain + ".include \"sub/rules.datalog\"\n" + kRelations);
  write("sub/rules.datalog", "# included\n\np(x, y) :- e(x, y) e(y, x).\n");
  write("e.tuples", kTuples);
  expect_rejected(solve(), input_file("sub/rules.datalog") + ":3:20: ", {"'e'"});
}

// Under .strict; else, as in bddbddb, a first use declares the relation.
TEST_F(SolveBadInputTest, UnknownRelationInARuleBody) {
  program(".strict\n" + kDomain + kRelations + "p(x, y) :- f(x, y).\n");
  write("e.tuples", kTuples);
  expect_rejected(solve(), program_file() + ":6:12: ", {"unknown relation 'f'"});
}

TEST_F(SolveBadInputTest, UnknownDomainOfAnAttribute) {
  program(kDomain + "e (a : D, b : E) inputtuples\np (a : D, b : D) outputtuples\n" + kRule);
  write("e.tuples", kTuples);
  expect_rejected(solve(), program_file() + ":3:15: ", {"unknown domain 'E'", "'b'", "'e'"});
}

// Not bad input for a bddbddb program: a name of no declared domain in the order is dropped,
// as bddbddb's BDDSolver.fixVarOrder drops it, and the progress says so.
TEST_F(SolveBadInputTest, UnknownDomainInTheVariableOrderDirectiveIsDropped) {
  program(kDomain + kRelations + ".bddvarorder D0_E0_D1\n" + kRule);
  write("e.tuples", kTuples);
  const RunResult run =
      run_refract({"solve", program_file(), "--output-dir", (dir_ / "out").string()}, dir_.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "p\t3\n");
  EXPECT_NE(run.err.find(program_file() + ":5:14: variable order \"D0_E0_D1\": dropped E0, "
                                          "which names no instance of a declared domain"),
            std::string::npos)
      << run.err;
  fs::remove_all(dir_ / "out");
}

TEST_F(SolveBadInputTest, ArityMismatchInARuleBody) {
  program(kDomain + kRelations + "p(x, y) :- e(x, y, x).\n");
  write("e.tuples", kTuples);
  expect_rejected(solve(), program_file() + ":5:12: ", {"'e'", "2 attributes", "3 arguments"});
}

TEST_F(SolveBadInputTest, ArityMismatchInARuleHead) {
  program(kDomain + kRelations + "p(x) :- e(x, _).\n");
  write("e.tuples", kTuples);
  expect_rejected(solve(), program_file() + ":5:1: ", {"'p'", "2 attributes", "1 argument"});
}

// Not bad input: a variable no positive atom binds ranges over its domain, as in bddbddb (y
// here: every element but those e(z, y) holds for).
TEST_F(SolveBadInputTest, VariableOnlyInTheHeadAndUnderNegationRangesOverItsDomain) {
  program(kDomain + kRelations + "p(x, y) :- e(x, z), !e(z, y).\n");
  write("e.tuples", kTuples);
  const RunResult run = solve();
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "p\t10\n");
  fs::remove_all(dir_ / "out");
}

TEST_F(SolveBadInputTest, TupleValueOutsideItsDomainNamesTheTuplesFileAndLine) {
  program(kDomain + kRelations + kRule);
  write("e.tuples", "# D0:2 D1:2\n0 1\n1 4\n");
  expect_rejected(solve(),
                  input_file("e.tuples") + ":3:3: ", {"value 4", "outside domain D", "size 4"});
}

TEST_F(SolveBadInputTest, TuplesFileWithoutHeader) {
  program(kDomain + kRelations + kRule);
  write("e.tuples", "0 1\n1 2\n");
  expect_rejected(solve(), input_file("e.tuples") + ":1:1: ", {"header"});
}

TEST_F(SolveBadInputTest, TuplesHeaderWithAColumnOfTheWrongDomain) {
  program(kDomain + "E 4\n" + kRelations + kRule);
  write("e.tuples", "# D0:2 E0:2\n0 1\n");
  expect_rejected(
      solve(), input_file("e.tuples") + ":1:8: ", {"'E0'", "not of domain D", "attribute b of e"});
}

TEST_F(SolveBadInputTest, TuplesFileWithANonNumber) {
  program(kDomain + kRelations + kRule);
  write("e.tuples", "# D0:2 D1:2\n0 1\n\n2  x3\n");
  expect_rejected(solve(), input_file("e.tuples") + ":4:4: ", {"'x3'"});
}

TEST_F(SolveBadInputTest, TuplesLineWithTooManyFieldsPointsAtTheFirstExtraField) {
  program(kDomain + kRelations + kRule);
  write("e.tuples", "# D0:2 D1:2\n0 1 2\n");
  expect_rejected(solve(), input_file("e.tuples") + ":2:5: ", {"expected 2 fields, found 3"});
}

TEST_F(SolveBadInputTest, MapWithMoreLinesThanTheDomainNamesTheFirstExtraLine) {
  program("D 3 D.map\n" + kRelations + kRule);
  write("D.map", "a\nb\nc\nd\n");
  write("e.tuples", "# D0:2 D1:2\n0 1\n");
  expect_rejected(solve(), input_file("D.map") + ":4:1: ", {"more lines", "3 elements"});
}

TEST_F(SolveBadInputTest, MissingMapFileIsNamed) {
  program("D 3 D.map\n" + kRelations + kRule);
  write("e.tuples", "# D0:2 D1:2\n0 1\n");
  expect_rejected(solve(), input_file("D.map") + ": ", {"cannot open"});
}

TEST_F(SolveBadInputTest, QuotedNameMissingFromTheMap) {
  program("D 3 D.map\n" + kRelations + "p(x, \"zz\") :- e(x, _).\n");
  write("D.map", "a\nb\nc\n");
  write("e.tuples", "# D0:2 D1:2\n0 1\n");
  expect_rejected(solve(), program_file() + ":5:6: ", {"\"zz\"", "domain D"});
}

TEST_F(SolveBadInputTest, NegationThroughRecursionNamesTheRelationsOnTheCycle) {
  program(kDomain + kRelations +
          "q (a : D, b : D) outputtuples\n"
          "p(x, y) :- e(x, y), !q(x, y).\n"
          "q(x, y) :- p(y, x).\n");
  write("e.tuples", kTuples);
  expect_rejected(solve(),
                  program_file() + ":6:22: ", {"negation through recursion", "p -> !q -> p"});
}

// Not bad input for a bddbddb program: an order that misses instances the program uses gets
// them as bddbddb's BDDSolver.fixVarOrder adds them (next to the last instance of their
// domain, else in a block of their own on top), and the progress says so.
TEST_F(SolveBadInputTest, OrderThatMissesInstancesIsCompletedAsBddbddbDoes) {
  program(kDomain + "E 2\n" + kRelations + "f (a : E) outputtuples\n" + kRule +
          "f(1) :- e(_, _).\n");
  write("e.tuples", kTuples);
  for (const auto& [order, note] : std::vector<std::pair<std::string, std::string>>{
           {"D0", "[order] --order:1: variable order \"D0\": added D1 at the top"},
           {"D1xD0", "[order] --order:1: variable order \"D1xD0\": added E0 at the top"},
           {"D0xD1_E3", "added E0 in front of E3"}}) {
    std::vector<std::string> args{"solve", program_file(), "--order",
                                  order,   "--output-dir", (dir_ / "out").string()};
    const RunResult run = run_refract(args, dir_.path());
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "p\t3\n");
    EXPECT_NE(run.err.find(note), std::string::npos) << run.err;
  }
  fs::remove_all(dir_ / "out");
}

TEST_F(SolveBadInputTest, OrderWithAnEmptyNamePointsAtIt) {
  program(kDomain + kRelations + kRule);
  write("e.tuples", kTuples);
  expect_rejected(solve({"--order", "D0__D1"}), "--order:1:4: ", {"expected a domain name"});
}

// Not bad input: a domain that no relation uses needs no place in the order.
// (This too used to end in "internal error: map::at".)
TEST_F(SolveBadInputTest, OrderMayOmitADomainThatNoRelationUses) {
  program(kDomain + "Unused 5\n" + kRelations + kRule);
  write("e.tuples", kTuples);
  const RunResult run = solve({"--order", "D0xD1"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "p\t3\n");
}

TEST_F(SolveBadInputTest, OrderOptionThatRepeatsADomainPointsAtTheRepeat) {
  program(kDomain + kRelations + kRule);
  write("e.tuples", kTuples);
  expect_rejected(solve({"--order", "D0_D1_D0"}), "--order:1:7: ", {"'D0' appears twice"});
}

// The directive's order starts at column 14, so the repeated D0 (the order's
// seventh character) is at column 20.
TEST_F(SolveBadInputTest, OrderDirectiveThatRepeatsADomainPointsAtTheRepeat) {
  program(kDomain + kRelations + ".bddvarorder D0xD1_D0\n" + kRule);
  write("e.tuples", kTuples);
  expect_rejected(solve(), program_file() + ":5:20: ", {"'D0' appears twice"});
}

// --- Node table exhaustion ---------------------------------------------------

// `count` distinct pseudo-random values below 2^16, as .tuples lines.
std::string random_unary_tuples(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::set<std::uint64_t> values;
  while (values.size() < count) values.insert(random() % 65536);
  std::string text = "# A0:16\n";
  for (std::uint64_t v : values) text += std::to_string(v) + "\n";
  return text;
}

std::string random_binary_tuples(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::string text = "# A0:16 A1:16\n";
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t a = random() % 65536;
    text += std::to_string(a) + " " + std::to_string(random() % 65536) + "\n";
  }
  return text;
}

// The node count the message reports, which must be within the limit.
void expect_node_count_within(const RunResult& run, std::uint64_t limit) {
  std::smatch match;
  ASSERT_TRUE(std::regex_search(run.err, match, std::regex("exhausted at ([0-9]+) nodes")))
      << run.err;
  const std::uint64_t nodes = std::stoull(match[1].str());
  EXPECT_GT(nodes, 0U);
  EXPECT_LE(nodes, limit);
}

// The product of two scattered sets of 16-bit values, under the default order
// that interleaves A0 and A1, needs far more than 20,000 nodes; e alone fits.
TEST_F(SolveBadInputTest, NodeTableExhaustedInARuleNamesTheRuleAndTheNodeCount) {
  pair_program(random_unary_tuples(400, 1));
  const RunResult run = solve({"--nodes", "1000", "--max-nodes", "20000"});
  expect_rejected(run,
                  program_file() + ":5:1: ", {"node table exhausted", "pair(x, y) :- e(x), e(y)."});
  expect_node_count_within(run, 20000);
}

// The same program with room enough runs: the failure above is the limit's.
TEST_F(SolveBadInputTest, NodeTableExhaustionControlSucceedsWithoutTheLimit) {
  pair_program(random_unary_tuples(400, 1), false);
  const RunResult run = solve();
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "pair\t160000\n");
}

// The same product under a memory budget below what the process already holds: the table
// may not grow, and the message says the budget, not --max-nodes, stopped it.
TEST_F(SolveBadInputTest, NodeTableExhaustedUnderTheMemoryBudgetNamesTheBudgetAndTheRule) {
  pair_program(random_unary_tuples(400, 1));
  const RunResult run = solve({"--nodes", "20000", "--max-memory", "1"});
  expect_rejected(run, program_file() + ":5:1: ",
                  {"node table exhausted", "pair(x, y) :- e(x), e(y).", "memory budget of 1 MiB",
                   "--max-memory"});
}

// Swapping the attributes of scattered pairs under the order A0_A1 (no
// interleaving) blows up in the rename the rule needs, wherever the plan
// puts it: the message must still name the rule.
TEST_F(SolveBadInputTest, NodeTableExhaustedWhileRenamingForARuleNamesTheRule) {
  program(
      "A 65536\n"
      "r (a : A, b : A) inputtuples\n"
      "s (x : A, y : A) outputtuples printsize\n"
      "s(x, y) :- r(y, x).\n");
  write("r.tuples", random_binary_tuples(3000, 2));  // loads in about 31,000 nodes
  const RunResult run = solve({"--order", "A0_A1", "--nodes", "1000", "--max-nodes", "50000"});
  expect_rejected(run, program_file() + ":5:1: ", {"node table exhausted", "s(x, y) :- r(y, x)."});
  expect_node_count_within(run, 50000);
}

TEST_F(SolveBadInputTest, NodeTableExhaustedWhileLoadingNamesTheTuplesFile) {
  pair_program(random_unary_tuples(2000, 3));
  const RunResult run = solve({"--nodes", "500", "--max-nodes", "2000"});
  expect_rejected(run, input_file("e.tuples") + ": ", {"node table exhausted", "relation e"});
  expect_node_count_within(run, 2000);
}

// --- A failure while writing -------------------------------------------------

// When the output cannot be renamed into place (a directory is in the way),
// the run fails naming the file and leaves no temporary file behind.
// --time-limit stops between rule evaluations: exit 4, the rule and stratum named, no output;
// the --stats report of the stopped run is still written and says where it stopped.
TEST_F(SolveBadInputTest, TimeLimitStopsNamingTheRuleAndWritesNoOutputs) {
  program(kDomain + kRelations + kRule);
  write("e.tuples", kTuples);
  const RunResult run = solve({"--time-limit", "1e-9"});
  expect_rejected(
      run, program_file() + ":5:1: ",
      {"time limit of 1e-09 s reached", "stratum 1/1 {p} sweep 1", "p(x, y) :- e(x, y)."}, 4);
}

// One long BDD operation stops at a garbage collection past the limit, not when it ends: x != y
// over two 22-bit blocks placed apart takes seconds of products and collections to build
// (planning), and the rule's check before it runs would only come after them.
TEST_F(SolveBadInputTest, TimeLimitStopsALongOperationAtAGarbageCollection) {
  program(
      "A 4194304\n"
      ".bddvarorder A0_A1\n"
      "e (a : A) inputtuples\n"
      "q (x : A, y : A) outputtuples printsize\n"
      "q(x, y) :- e(x), e(y), x != y.\n");
  std::string tuples = "# A0:22\n";
  for (std::uint64_t v = 0; v < 3000; ++v)
    tuples += std::to_string((v * 2654435761U) % 4194304) + "\n";
  write("e.tuples", tuples);
  const RunResult run = solve({"--time-limit", "0.5", "--nodes", "100000"});
  expect_rejected(run, program_file() + ": ",
                  {"time limit of 0.5 s reached", "in planning the rules", "during BDD operation"},
                  4);
  EXPECT_EQ(run.err.find("before rule"), std::string::npos) << run.err;
}

TEST_F(SolveBadInputTest, TimeLimitStillWritesTheStatsOfTheStoppedRun) {
  program(kDomain + kRelations + kRule);
  write("e.tuples", kTuples);
  const RunResult run = solve({"--time-limit", "1e-9", "--stats", (dir_ / "stats.json").string()});
  EXPECT_EQ(run.exit_code, 4) << run.err;
  const std::string stats = read_file(dir_ / "stats.json");
  EXPECT_NE(stats.find("\"stopped\": \"" + program_file() + ":5:1: time limit"), std::string::npos)
      << stats;
  EXPECT_NE(stats.find("\"rules\": ["), std::string::npos) << stats;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

// Running out of nodes also leaves the report of the run so far, naming the rule.
TEST_F(SolveBadInputTest, NodeTableExhaustionStillWritesTheStatsOfTheStoppedRun) {
  pair_program(random_unary_tuples(400, 1));
  const RunResult run =
      solve({"--nodes", "1000", "--max-nodes", "20000", "--stats", (dir_ / "stats.json").string()});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const std::string stats = read_file(dir_ / "stats.json");
  EXPECT_NE(stats.find("\"stopped\": \"" + program_file() + ":5:1: BDD node table exhausted"),
            std::string::npos)
      << stats;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(SolveBadInputTest, OutputThatCannotBeRenamedLeavesNoTemporaryFile) {
  program(kDomain + kRelations + kRule);
  write("e.tuples", kTuples);
  write("out/p.tuples/keep", "a directory in the way\n");
  const RunResult run = solve();
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.err.substr(0, input_file("out/p.tuples").size() + 2),
            input_file("out/p.tuples") + ": ")
      << run.err;
  const std::vector<std::string> expected(inputs_.begin(), inputs_.end());
  EXPECT_EQ(files_under(dir_.path()), expected);
}

// --- Bad command lines: exit code 2 ------------------------------------------

class SolveUsageTest : public SolveBadInputTest {
 protected:
  void SetUp() override {
    program(kDomain + kRelations + kRule);
    write("e.tuples", kTuples);
  }
  void expect_usage_error(const std::vector<std::string>& extra,
                          const std::vector<std::string>& mentions) {
    const RunResult run = solve(extra);
    EXPECT_EQ(run.exit_code, 2) << run.err;
    for (const std::string& m : mentions) {
      EXPECT_NE(run.err.find(m), std::string::npos) << "missing '" << m << "' in: " << run.err;
    }
    EXPECT_NE(run.err.find("refract solve --help"), std::string::npos) << run.err;
    expect_nothing_written();
  }
};

TEST_F(SolveUsageTest, NonNumericNodeCount) {
  expect_usage_error({"--nodes", "abc"}, {"'abc'", "--nodes", "positive integer"});
}

TEST_F(SolveUsageTest, ZeroNodeCount) {
  expect_usage_error({"--nodes", "0"}, {"'0'", "--nodes"});
}

TEST_F(SolveUsageTest, NegativeCacheSize) {
  expect_usage_error({"--cache", "-5"}, {"'-5'", "--cache"});
}

TEST_F(SolveUsageTest, NodeLimitWithTrailingGarbage) {
  expect_usage_error({"--max-nodes", "10x"}, {"'10x'", "--max-nodes"});
  expect_usage_error({"--max-memory", "12G"}, {"'12G'", "--max-memory"});
  expect_usage_error({"--max-memory", "0"}, {"'0'", "--max-memory"});
}

TEST_F(SolveUsageTest, NegativeTupleJoinLimit) {
  expect_usage_error({"--tuple-joins", "-1"}, {"'-1'", "--tuple-joins", "non-negative integer"});
}

TEST_F(SolveUsageTest, NegativeTupleDeltaLimit) {
  expect_usage_error({"--tuple-deltas", "-1"}, {"'-1'", "--tuple-deltas", "non-negative integer"});
}

TEST_F(SolveUsageTest, TimeLimitThatIsNotAPositiveNumberOfSeconds) {
  expect_usage_error({"--time-limit", "0"}, {"'0'", "--time-limit", "positive number of seconds"});
  expect_usage_error({"--time-limit", "1h"}, {"'1h'", "--time-limit"});
  expect_usage_error({"--time-limit", "nan"}, {"'nan'", "--time-limit"});
}

TEST_F(SolveUsageTest, UnknownScheduleNamesTheKnownOnes) {
  expect_usage_error({"--schedule", "fastest"},
                     {"'fastest'", "--schedule", "rule-fixpoint, sweep, cost-order, cheap-first"});
}

TEST_F(SolveUsageTest, UnknownOption) {
  expect_usage_error({"--frobnicate"}, {"--frobnicate"});
}

TEST_F(SolveUsageTest, OptionWithoutItsValue) {
  expect_usage_error({"--nodes"}, {"--nodes"});
}

TEST_F(SolveUsageTest, MissingProgram) {
  TempDir empty;
  const RunResult run = run_refract({"solve", "--quiet"}, empty.path());
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("missing PROGRAM.datalog"), std::string::npos) << run.err;
  EXPECT_EQ(files_under(empty.path()), std::vector<std::string>{});
}

TEST_F(SolveUsageTest, MissingProgramFileIsBadInputNamingIt) {
  const RunResult run =
      run_refract({"solve", (dir_ / "absent.datalog").string(), "--quiet"}, dir_.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.err.rfind(input_file("absent.datalog") + ": ", 0), 0U) << run.err;
  expect_nothing_written();
}

}  // namespace
}  // namespace refract::test
