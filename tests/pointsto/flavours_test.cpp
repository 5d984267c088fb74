// `refract analyze` on the points-to fixtures under context flavours (issue 5, items 1 and 2):
// - each `pts@FLAVOUR` line of a fixture's EXPECTED.tsv (derived by hand from the source)
//   holds under that flavour; together with the plain `pts` lines of the insensitive test these
//   show each family strictly more precise than the next weaker one: 1-call vs insens
//   (callsite), 2-obj+H vs 1-obj (objsens), 1-type vs insens (typesens), 1-call+1H vs 1-call
//   (heapctx), cloning vs 1-call (cloning);
// - every context-sensitive result, projected over contexts, is a subset of the insensitive
//   one (points-to and call edges), on the program of all fixtures and on one real program
//   (antlr);
// - results are identical under two variable orders (all fixtures and antlr), both context-bit
//   layouts and both heap numberings.
// The runs read the small JDK of small_jdk.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "cli/fixture_paths.hpp"
#include "cli/run_refract.hpp"
#include "pointsto/context_flavour.hpp"
#include "pointsto/small_jdk.hpp"
#include "solver/schedule.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

const char* const kFixtures[] = {
    "fields",  "arrays",   "statics",  "dispatch",   "casts",    "exceptions",  "clinit",
    "threads", "finalize", "natives",  "lambdas",    "callsite", "objsens",     "typesens",
    "heapctx", "cloning",  "builders", "primarrays", "strings",  "cloningreach"};

using Tuple = std::vector<std::string>;

std::set<Tuple> read_tsv(const fs::path& file) {
  std::set<Tuple> tuples;
  for (const std::string& line : lines_of(read_file(file))) {
    if (!line.empty()) tuples.insert(split_tabs(line));
  }
  return tuples;
}

// One finished `refract analyze` run: its output folder.
struct Result {
  fs::path out;
  std::set<Tuple> points_to() const { return read_tsv(out / "VarPointsToI.tsv"); }
  std::set<Tuple> call_edges() const { return read_tsv(out / "call-edges.tsv"); }
  std::set<Tuple> reachable() const { return read_tsv(out / "reachable-methods.txt"); }
};

// A program to analyse: its class path and main class; `name` names its output folders.
struct Program {
  std::string name;
  std::string classpath;
  std::string main;
};

Program fixture_program(const std::string& fixture) {
  return {fixture, kFixtureClasses.string(), "pointsto." + fixture + ".Main"};
}

// Analyses `program` under `flavour` (and `order`, if given) into a fresh folder of `dir`;
// fails the test and returns nothing if the run fails.
std::optional<Result> analyze_program(const TempDir& dir, const Program& program,
                                      const std::string& flavour, const std::string& order = "",
                                      const std::vector<std::string>& extra = {}) {
  std::string name = program.name + "-" + flavour + (order.empty() ? "" : "-o");
  for (const std::string& arg : extra) name += "-" + arg;
  const fs::path out = dir.path() / name;
  // The points-to rules alone: the programs' reflection is tests/reflection's subject.
  std::vector<std::string> args = {
      "analyze", "--classpath", program.classpath, "--jdk",  small_jdk().string(),
      "--main",  program.main,  "--context",       flavour,  "--reflection",
      "none",    "--out",       out.string(),      "--dump", "VarPointsToI",
      "--quiet"};
  if (!order.empty()) {
    args.push_back("--order");
    args.push_back(order);
  }
  args.insert(args.end(), extra.begin(), extra.end());
  const RunResult run = run_refract(args, dir.path());
  EXPECT_EQ(run.exit_code, 0) << program.name << " " << flavour << ": " << run.err;
  if (run.exit_code != 0) return std::nullopt;
  return Result{out};
}

// Analyses pointsto.FIXTURE.Main, as analyze_program does.
std::optional<Result> analyze(const TempDir& dir, const std::string& fixture,
                              const std::string& flavour, const std::string& order = "",
                              const std::vector<std::string>& extra = {}) {
  return analyze_program(dir, fixture_program(fixture), flavour, order, extra);
}

// The `pts@FLAVOUR` lines of a fixture, by flavour: (var, heap) pairs, `-` for an empty set.
std::map<std::string, std::vector<Tuple>> flavour_lines(const std::string& fixture) {
  std::map<std::string, std::vector<Tuple>> by_flavour;
  for (const std::string& line :
       lines_of(read_file(kPointstoFixtureSources / fixture / "EXPECTED.tsv"))) {
    if (line.rfind("pts@", 0) != 0) continue;
    std::vector<std::string> fields = split_tabs(line);
    by_flavour[fields[0].substr(4)].push_back({fields[1], fields[2]});
  }
  return by_flavour;
}

// Objects the pts lines speak of (tests/fixtures/java/pointsto/README.md).
bool visible_heap(const std::string& fixture, const std::string& heap) {
  return heap.rfind("<pointsto." + fixture + ".", 0) == 0 || heap.rfind("<jvm>/", 0) == 0 ||
         heap.rfind("\"", 0) == 0 || heap.rfind("<class ", 0) == 0;
}

std::string listing(const std::set<Tuple>& tuples) {
  std::string out;
  for (const Tuple& t : tuples) {
    std::string line;
    for (const std::string& f : t) line += (line.empty() ? "" : "\t") + f;
    out += "  " + line + "\n";
  }
  return out;
}

std::set<Tuple> minus(const std::set<Tuple>& a, const std::set<Tuple>& b) {
  std::set<Tuple> out;
  for (const Tuple& t : a)
    if (!b.count(t)) out.insert(t);
  return out;
}

struct FlavourCase {
  std::string fixture;
  std::string flavour;
};

void PrintTo(const FlavourCase& c, std::ostream* out) {
  *out << c.fixture << " " << c.flavour;
}

class FlavourPrecisionTest : public ::testing::TestWithParam<FlavourCase> {};

// [pts@FLAVOUR] exactly the hand-derived sets for the variables the lines name.
TEST_P(FlavourPrecisionTest, PointsToSetsMatchTheHandDerivedOnes) {
  const auto& [fixture, flavour] = GetParam();
  const auto lines = flavour_lines(fixture);
  ASSERT_TRUE(lines.count(flavour)) << fixture << " has no pts@" << flavour << " lines";
  std::map<std::string, std::set<Tuple>> wanted;
  for (const Tuple& t : lines.at(flavour)) {
    wanted[t[0]];
    if (t[1] != "-") wanted[t[0]].insert(t);
  }
  TempDir dir;
  const auto result = analyze(dir, fixture, flavour);
  ASSERT_TRUE(result);
  std::map<std::string, std::set<Tuple>> actual;
  for (const Tuple& t : result->points_to()) {
    if (wanted.count(t[0]) && visible_heap(fixture, t[1])) actual[t[0]].insert(t);
  }
  for (const auto& [var, heaps] : wanted) {
    EXPECT_EQ(heaps, actual[var]) << "points-to set of " << var << " under " << flavour
                                  << "\nexpected:\n"
                                  << listing(heaps) << "found:\n"
                                  << listing(actual[var]);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, FlavourPrecisionTest,
    ::testing::Values(FlavourCase{"callsite", "1-call"}, FlavourCase{"callsite", "1-obj"},
                      FlavourCase{"objsens", "1-obj"}, FlavourCase{"objsens", "2-obj+H"},
                      FlavourCase{"typesens", "1-type"}, FlavourCase{"heapctx", "1-call"},
                      FlavourCase{"heapctx", "1-call+1H"}, FlavourCase{"cloning", "1-call"},
                      FlavourCase{"cloning", "2-call"}, FlavourCase{"cloning", "cloning"},
                      FlavourCase{"cloningreach", "cloning"},
                      FlavourCase{"cloningreach", "2-call"}),
    [](const ::testing::TestParamInfo<FlavourCase>& info) {
      std::string name = info.param.fixture + "_" + info.param.flavour;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

// Every pts@FLAVOUR line of every fixture is checked by a case above: a flavour with
// expectations and no case fails here.
TEST(FlavourPrecisionCoverageTest, EveryExpectedFlavourHasACase) {
  const std::set<std::pair<std::string, std::string>> covered = {
      {"callsite", "1-call"}, {"callsite", "1-obj"},       {"cloning", "1-call"},
      {"objsens", "1-obj"},   {"objsens", "2-obj+H"},      {"typesens", "1-type"},
      {"heapctx", "1-call"},  {"heapctx", "1-call+1H"},    {"cloning", "2-call"},
      {"cloning", "cloning"}, {"cloningreach", "cloning"}, {"cloningreach", "2-call"}};
  for (const char* fixture : kFixtures) {
    for (const auto& [flavour, lines] : flavour_lines(fixture)) {
      EXPECT_TRUE(covered.count({fixture, flavour}))
          << fixture << ": pts@" << flavour << " lines are checked by no test";
    }
  }
}

// The flavours the invariant tests run: one of each family, heap contexts, the deepest, and
// cloning.
const char* const kSensitiveFlavours[] = {"1-call",   "2-call+H", "1-obj",  "2-obj+H",
                                          "2-type+H", "3-obj+2H", "cloning"};

// The invariants below compare whole results, so they run on one program that calls every
// fixture's main (tests/fixtures/java/pointsto/union): one run of it costs what one fixture's
// costs (the runs are mostly start-up), where a run per fixture took 1,015 of the suite's
// 1,493 test-seconds in CI.
const char* const kUnion = "union";

// The union calls every fixture: each fixture's main is reachable in its insensitive run.
TEST(FlavourInvariantTest, TheUnionProgramReachesEveryFixture) {
  TempDir dir;
  const auto insens = analyze(dir, kUnion, "insens");
  ASSERT_TRUE(insens);
  const auto reach = insens->reachable();
  for (const char* fixture : kFixtures) {
    const std::string main =
        "<pointsto." + std::string(fixture) + ".Main: void main(java.lang.String[])>";
    EXPECT_TRUE(reach.count({main})) << main << " is not reachable in the union program";
  }
}

// The call edges of `run` whose site lies in a method the run does not reach (the JVM's own
// sites, `<jvm>/...`, lie in none). Cloning's numbered edges, made before the solve, are where
// one could appear (pointsto/README.md, "Cloning's call graph").
std::set<Tuple> edges_from_unreached_callers(const Result& run) {
  const auto reach = run.reachable();
  std::set<Tuple> out;
  for (const Tuple& edge : run.call_edges()) {
    const std::string& site = edge.at(0);
    const auto end = site.find(">/");
    if (site.rfind("<jvm>/", 0) == 0 || end == std::string::npos) continue;
    if (!reach.count({site.substr(0, end + 1)})) out.insert(edge);
  }
  return out;
}

// The insensitive run of `program` and the run under each of `flavours`: projected over
// contexts, each flavour's points-to pairs, call edges and reachable methods are among the
// insensitive ones. Returns every run, the insensitive one too, by flavour.
std::map<std::string, Result> expect_subsets_of_insensitive(const TempDir& dir,
                                                            const Program& program,
                                                            std::span<const char* const> flavours) {
  std::map<std::string, Result> runs;
  const auto insens = analyze_program(dir, program, "insens");
  if (!insens) return runs;
  const auto pts = insens->points_to();
  const auto edges = insens->call_edges();
  const auto reach = insens->reachable();
  EXPECT_FALSE(edges.empty()) << program.name;
  for (const char* flavour : flavours) {
    const auto sensitive = analyze_program(dir, program, flavour);
    if (!sensitive) continue;
    EXPECT_TRUE(minus(sensitive->points_to(), pts).empty())
        << program.name << " " << flavour << " points-to pairs the insensitive run lacks:\n"
        << listing(minus(sensitive->points_to(), pts));
    EXPECT_TRUE(minus(sensitive->call_edges(), edges).empty())
        << program.name << " " << flavour << " call edges the insensitive run lacks:\n"
        << listing(minus(sensitive->call_edges(), edges));
    EXPECT_TRUE(minus(sensitive->reachable(), reach).empty())
        << program.name << " " << flavour << " reachable methods the insensitive run lacks:\n"
        << listing(minus(sensitive->reachable(), reach));
    EXPECT_TRUE(edges_from_unreached_callers(*sensitive).empty())
        << program.name << " " << flavour << " call edges whose caller is not reachable:\n"
        << listing(edges_from_unreached_callers(*sensitive));
    runs.emplace(flavour, *sensitive);
  }
  runs.emplace("insens", *insens);
  return runs;
}

// Context sensitivity only removes spurious facts, on the program of all fixtures.
TEST(FlavourInvariantTest, SensitiveResultsAreSubsetsOfTheInsensitiveOnes) {
  TempDir dir;
  expect_subsets_of_insensitive(dir, fixture_program(kUnion), kSensitiveFlavours);
}

// A real program: antlr 2.7.7 as Debian ships it (libantlr-java, which
// scripts/setup-debian.sh installs), with the small JDK, so that the rest of the JDK is
// phantom and each run takes a second or two. Cloning is left out here: on this program's
// 69,976,040 call paths it takes five to seven minutes (bench/README.md, "2026-11-27
// (evening): cloning's contexts at once"); the fixtures above check it.
const char* const kRealProgramJar = "/usr/share/java/antlr.jar";
const char* const kRealProgramFlavours[] = {"1-call",  "2-call+H", "1-obj",
                                            "2-obj+H", "2-type+H", "3-obj+2H"};

TEST(RealProgramInvariantTest, AntlrSensitiveResultsAreSubsetsOfTheInsensitiveOnes) {
  ASSERT_TRUE(fs::exists(kRealProgramJar))
      << kRealProgramJar << " is missing: scripts/setup-debian.sh installs libantlr-java";
  TempDir dir;
  const auto runs = expect_subsets_of_insensitive(dir, {"antlr", kRealProgramJar, "antlr.Tool"},
                                                  kRealProgramFlavours);
  ASSERT_EQ(runs.size(), std::size(kRealProgramFlavours) + 1);
  // The check compares something: the run reaches antlr's own code, and some flavour is
  // strictly more precise than insens (on this program 2-type+H reaches fewer methods).
  const auto insens_reach = runs.at("insens").reachable();
  EXPECT_TRUE(insens_reach.count({"<antlr.Tool: void main(java.lang.String[])>"}));
  EXPECT_GT(insens_reach.size(), 500u);
  const std::size_t insens_pairs = runs.at("insens").points_to().size();
  std::size_t strictly_smaller = 0;
  for (const auto& [flavour, run] : runs)
    if (run.points_to().size() < insens_pairs) ++strictly_smaller;
  EXPECT_GT(strictly_smaller, 0u);
}

// Two runs of `flavour` agree on points-to pairs, call edges and callgraph.json.
void expect_same_results(const Result& a, const Result& b, const std::string& flavour) {
  EXPECT_EQ(a.points_to(), b.points_to()) << flavour;
  EXPECT_EQ(a.call_edges(), b.call_edges()) << flavour;
  EXPECT_EQ(read_file(a.out / "callgraph.json"), read_file(b.out / "callgraph.json")) << flavour;
}

// `program` under `flavour` with an order that moves the context domains before V and F gives
// what the flavour's default order gave (`by_default`).
void expect_same_results_reordered(const TempDir& dir, const Program& program, const char* flavour,
                                   const Result& by_default) {
  const auto reordered =
      analyze_program(dir, program, flavour, "T0xT1_Z0_M0xM1_I0xC0xC1xHC0xHC1xH0xH1_F0_V1xV0");
  ASSERT_TRUE(reordered);
  expect_same_results(by_default, *reordered, flavour);
}

// `program` under each of `flavours`, with the flavour's default order and with one that
// moves the context domains before V and F: the same results.
void expect_same_results_under_two_orders(const Program& program,
                                          std::initializer_list<const char*> flavours) {
  TempDir dir;
  for (const char* flavour : flavours) {
    const auto by_default = analyze_program(dir, program, flavour);
    ASSERT_TRUE(by_default);
    expect_same_results_reordered(dir, program, flavour, *by_default);
  }
}

// The variable order changes the BDDs, never the answer: each flavour under its default order
// and under one that moves the context domains before V and F.
TEST(FlavourInvariantTest, ResultsAreIdenticalUnderTwoOrders) {
  expect_same_results_under_two_orders(fixture_program(kUnion),
                                       {"insens", "1-call", "2-call+H", "2-obj+H"});
}

// The schedule (solver/schedule.hpp) changes the work, never the answer: `program` under
// `flavour` with every other schedule gives what the flavour's default schedule gave
// (`by_default`).
void expect_same_results_scheduled(const TempDir& dir, const Program& program, const char* flavour,
                                   const Result& by_default) {
  const std::string default_name =
      pointsto::default_schedule(pointsto::parse_context_flavour(flavour, "--context"));
  for (const std::string& schedule : solver::schedule_names()) {
    if (schedule == default_name) continue;
    const auto scheduled = analyze_program(dir, program, flavour, "", {"--schedule", schedule});
    ASSERT_TRUE(scheduled);
    expect_same_results(by_default, *scheduled, std::string(flavour) + " " + schedule);
  }
}

void expect_same_results_under_every_schedule(const Program& program,
                                              std::initializer_list<const char*> flavours) {
  TempDir dir;
  for (const char* flavour : flavours) {
    const auto by_default = analyze_program(dir, program, flavour);
    ASSERT_TRUE(by_default);
    expect_same_results_scheduled(dir, program, flavour, *by_default);
  }
}

TEST(FlavourInvariantTest, ResultsAreIdenticalUnderEverySchedule) {
  expect_same_results_under_every_schedule(fixture_program(kUnion), {"2-obj+H"});
}

// Neither the variable order nor the schedule changes the answer on the real program either;
// each flavour's default run is the reference of both checks.
TEST(RealProgramInvariantTest, AntlrResultsAreIdenticalUnderTwoOrdersAndEverySchedule) {
  ASSERT_TRUE(fs::exists(kRealProgramJar))
      << kRealProgramJar << " is missing: scripts/setup-debian.sh installs libantlr-java";
  const Program antlr{"antlr", kRealProgramJar, "antlr.Tool"};
  TempDir dir;
  for (const char* flavour : {"insens", "2-obj+H"}) {
    const auto by_default = analyze_program(dir, antlr, flavour);
    ASSERT_TRUE(by_default);
    expect_same_results_reordered(dir, antlr, flavour, *by_default);
    expect_same_results_scheduled(dir, antlr, flavour, *by_default);
  }
}

// The JDK once (issue 35): a run that starts from the JDK's cached fixpoint, in the run that
// built the entry and in the next, gives what a run without the cache gives.
TEST(FlavourInvariantTest, ResultsAreIdenticalWithAndWithoutTheJdkCache) {
  TempDir dir;
  for (const char* flavour : {"insens", "2-obj+H"}) {
    const auto plain = analyze(dir, kUnion, flavour);
    const auto first =
        analyze(dir, kUnion, flavour, "", {"--cache-dir", "cache", "--cache-build", "first"});
    const auto warm = analyze(dir, kUnion, flavour, "", {"--cache-dir", "cache"});
    ASSERT_TRUE(plain && first && warm);
    expect_same_results(*plain, *first, flavour);
    expect_same_results(*plain, *warm, flavour);
    const std::string stats = read_file(warm->out / "stats.json");
    EXPECT_NE(stats.find("\"jdk_cache\": {\"status\": \"hit\""), std::string::npos)
        << flavour << ": the warm run did not start from the entry";
  }
}

// The same under every other flavour of the suite the cache serves (cloning's and K-call's are
// off): the run that built its entry first and started from it gives what a run without the
// cache gives.
TEST(FlavourInvariantTest, ResultsAreIdenticalWithTheJdkCacheUnderEveryServedFlavour) {
  TempDir dir;
  for (const char* flavour :
       {"1-call+1H", "2-call+H", "1-obj", "2-obj", "3-obj+2H", "1-type", "2-type", "2-type+H"}) {
    const auto plain = analyze(dir, kUnion, flavour);
    const auto first =
        analyze(dir, kUnion, flavour, "", {"--cache-dir", "cache", "--cache-build", "first"});
    ASSERT_TRUE(plain && first);
    expect_same_results(*plain, *first, flavour);
    const std::string stats = read_file(first->out / "stats.json");
    EXPECT_NE(stats.find("\"jdk_cache\": {\"status\": \"built\""), std::string::npos)
        << flavour << ": the run did not build its entry";
    EXPECT_EQ(stats.find("\"seeded\": []"), std::string::npos)
        << flavour << ": the run did not start from the entry";
  }
}

// `fixture` under each of `flavours` with `option` set to `a` and to `b`: the same results.
void expect_same_results_under(const std::string& fixture,
                               std::initializer_list<const char*> flavours,
                               const std::string& option, const std::string& a,
                               const std::string& b) {
  TempDir dir;
  for (const char* flavour : flavours) {
    const auto with_a = analyze(dir, fixture, flavour, "", {option, a});
    const auto with_b = analyze(dir, fixture, flavour, "", {option, b});
    ASSERT_TRUE(with_a && with_b);
    expect_same_results(*with_a, *with_b, flavour);
  }
}

// Cloning's contexts at once (pointsto/README.md): a method that runs in one context runs in
// all its numbered ones at once, which changes no projected result. The same analysis with
// the rule taken out of a copy of the rules discovers the contexts edge by edge.
TEST(FlavourInvariantTest, CloningContextsAtOnceChangeNoProjectedResult) {
  TempDir dir;
  const fs::path rules = dir.path() / "rules-edge-by-edge";
  fs::copy(fs::path(REFRACT_SOURCE_DIR) / "pointsto" / "rules", rules);
  const std::string rule = "Reachable(c, m) :- Reachable(_, m), MethodContext(m, c).\n";
  std::string calls = read_file(rules / "calls.datalog");
  const std::size_t at = calls.find(rule);
  ASSERT_NE(at, std::string::npos) << "calls.datalog has no rule " << rule;
  write_file(rules / "calls.datalog", calls.erase(at, rule.size()));
  const Program program = fixture_program(kUnion);
  const auto at_once = analyze_program(dir, program, "cloning");
  const auto edge_by_edge = analyze_program(dir, program, "cloning", "", {"--rules", rules});
  ASSERT_TRUE(at_once && edge_by_edge);
  expect_same_results(*at_once, *edge_by_edge, "cloning");
  EXPECT_EQ(at_once->reachable(), edge_by_edge->reachable());
}

// --context-bits changes where the order puts each bit of a context, never the answer.
TEST(FlavourInvariantTest, ResultsAreIdenticalUnderBothContextBitLayouts) {
  expect_same_results_under(kUnion, {"2-call+H", "3-obj+2H", "2-type+H"}, "--context-bits",
                            "consecutive", "interleaved");
}

// --heap-numbering changes which number each object has, never the answer.
TEST(FlavourInvariantTest, ResultsAreIdenticalUnderBothHeapNumberings) {
  expect_same_results_under(kUnion, {"insens", "2-obj+H"}, "--heap-numbering", "by-type",
                            "first-seen");
}

// The type T of a program allocation site `<method>/new T/n`; nullopt for every other object,
// the JVM's own (`<jvm>/...`) included, which no per-type merge touches.
std::optional<std::string> program_site_type(const std::string& heap) {
  const std::size_t at = heap.rfind("/new ");
  if (heap.rfind("<jvm>/", 0) == 0 || at == std::string::npos) return std::nullopt;
  return heap.substr(at + 5, heap.rfind('/') - at - 5);
}

// The object a per-type merge makes of the sites of `type`, or nullopt where it keeps them;
// `merged_heaps` are the objects the merged run's points-to pairs hold.
using MergedObject = std::function<std::optional<std::string>(
    const std::string& type, const std::set<std::string>& merged_heaps)>;

// Analyses `fixture` insensitively with `option` per-type and per-site: the call graph is the
// same, and the per-type points-to pairs are the per-site ones with each program site renamed
// to `merged_object` of its type.
void expect_per_type_only_renames(const std::string& fixture, const std::string& option,
                                  const MergedObject& merged_object) {
  TempDir dir;
  const auto per_type = analyze(dir, fixture, "insens", "", {option, "per-type"});
  const auto per_site = analyze(dir, fixture, "insens", "", {option, "per-site"});
  ASSERT_TRUE(per_type && per_site);
  EXPECT_EQ(per_type->call_edges(), per_site->call_edges());
  EXPECT_EQ(per_type->reachable(), per_site->reachable());
  const std::set<Tuple> merged = per_type->points_to();
  std::set<std::string> merged_heaps;
  for (const Tuple& t : merged) merged_heaps.insert(t[1]);
  std::set<Tuple> renamed;
  for (Tuple t : per_site->points_to()) {
    if (const std::optional<std::string> type = program_site_type(t[1])) {
      if (std::optional<std::string> object = merged_object(*type, merged_heaps))
        t[1] = std::move(*object);
    }
    renamed.insert(t);
  }
  EXPECT_EQ(merged, renamed) << "merged only:\n"
                             << listing(minus(merged, renamed)) << "renamed only:\n"
                             << listing(minus(renamed, merged));
}

// --exception-objects per-type (the default) only renames: the call graph is the per-site one,
// and its points-to pairs are the per-site ones with each exception site replaced by its type's
// object.
TEST(FlavourInvariantTest, MergingExceptionObjectsByTypeOnlyRenamesThem) {
  expect_per_type_only_renames(
      kUnion, "--exception-objects",
      [](const std::string& type,
         const std::set<std::string>& merged_heaps) -> std::optional<std::string> {
        // An exception type is one whose <exception T> object the merged run has.
        std::string object = "<exception " + type + ">";
        if (merged_heaps.count(object) == 0) return std::nullopt;
        return object;
      });
}

// --string-builders per-type (the default) only renames under insens: a builder holds no
// reference the analysis follows, so the call graph is the per-site one, and its points-to pairs
// are the per-site ones with each builder site replaced by its type's object.
TEST(FlavourInvariantTest, MergingStringBuildersByTypeOnlyRenamesThemUnderInsens) {
  expect_per_type_only_renames(
      kUnion, "--string-builders",
      [](const std::string& type, const std::set<std::string>&) -> std::optional<std::string> {
        if (type != "java.lang.StringBuilder" && type != "java.lang.StringBuffer")
          return std::nullopt;
        return "<string builder " + type + ">";
      });
}

// --primitive-arrays per-type (the default) only renames under insens: an array of primitives
// holds no reference, so the call graph is the per-site one, and its points-to pairs are the
// per-site ones with each such site replaced by its type's object.
TEST(FlavourInvariantTest, MergingPrimitiveArraysByTypeOnlyRenamesThemUnderInsens) {
  expect_per_type_only_renames(
      kUnion, "--primitive-arrays",
      [](const std::string& type, const std::set<std::string>&) -> std::optional<std::string> {
        std::string element = type;
        while (element.ends_with("[]")) element.resize(element.size() - 2);
        static const std::set<std::string> primitives = {"boolean", "byte", "char",  "short",
                                                         "int",     "long", "float", "double"};
        if (element == type || primitives.count(element) == 0) return std::nullopt;
        return "<primitive array " + type + ">";
      });
}

// The same holds for the call graph under heap contexts: merged, the arrays have none, and
// what a site's heap context could tell apart is never a call.
TEST(FlavourInvariantTest, MergingPrimitiveArraysKeepsTheCallGraphUnderHeapContexts) {
  TempDir dir;
  const auto per_type = analyze(dir, kUnion, "2-obj+H", "", {"--primitive-arrays", "per-type"});
  const auto per_site = analyze(dir, kUnion, "2-obj+H", "", {"--primitive-arrays", "per-site"});
  ASSERT_TRUE(per_type && per_site);
  EXPECT_EQ(per_type->call_edges(), per_site->call_edges());
  EXPECT_EQ(per_type->reachable(), per_site->reachable());
}

// --allocated-strings per-type (the default) only renames under insens: a String holds no
// reference the analysis follows (its bytes are a primitive array), so the call graph is the
// per-site one, and its points-to pairs are the per-site ones with each `new String` site
// replaced by the one object; constants and concatenations are no `new` site and stay.
TEST(FlavourInvariantTest, MergingAllocatedStringsOnlyRenamesThemUnderInsens) {
  expect_per_type_only_renames(
      kUnion, "--allocated-strings",
      [](const std::string& type, const std::set<std::string>&) -> std::optional<std::string> {
        if (type != "java.lang.String") return std::nullopt;
        return "<allocated string java.lang.String>";
      });
}

// Under heap contexts the merged strings are one receiver with no heap context, so the
// methods of String share their contexts; what those contexts return to callers are strings
// and primitive arrays, which dispatch on their type alone, and the call graph stays the same.
TEST(FlavourInvariantTest, MergingAllocatedStringsKeepsTheCallGraphUnderHeapContexts) {
  TempDir dir;
  const auto per_type = analyze(dir, kUnion, "2-obj+H", "", {"--allocated-strings", "per-type"});
  const auto per_site = analyze(dir, kUnion, "2-obj+H", "", {"--allocated-strings", "per-site"});
  ASSERT_TRUE(per_type && per_site);
  EXPECT_EQ(per_type->call_edges(), per_site->call_edges());
  EXPECT_EQ(per_type->reachable(), per_site->reachable());
}

// --string-merging coloring (the default) only renames (DESIGN.md, "Strings before encoding"):
// insensitive points-to pairs are the unmerged ones with each constant replaced by the object
// of its color (string-colors.tsv), and the call graph is the same, also under an object-
// sensitive flavour, where merged strings are fewer receivers to make contexts of.
TEST(FlavourInvariantTest, MergingStringConstantsByColorOnlyRenamesThem) {
  const std::string fixture = kUnion;
  TempDir dir;
  for (const char* flavour : {"insens", "2-obj+H"}) {
    const auto colored = analyze(dir, fixture, flavour, "", {"--string-merging", "coloring"});
    const auto distinct = analyze(dir, fixture, flavour, "", {"--string-merging", "none"});
    ASSERT_TRUE(colored && distinct);
    EXPECT_EQ(colored->call_edges(), distinct->call_edges()) << flavour;
    EXPECT_EQ(colored->reachable(), distinct->reachable()) << flavour;
    if (std::string(flavour) != "insens") continue;
    std::map<std::string, std::string> color_of;
    for (const Tuple& t : read_tsv(colored->out / "string-colors.tsv")) color_of[t.at(0)] = t.at(1);
    EXPECT_FALSE(color_of.empty());  // the JDK's constants at least: the check compares something
    EXPECT_FALSE(fs::exists(distinct->out / "string-colors.tsv"));
    std::set<Tuple> renamed;
    for (Tuple t : distinct->points_to()) {
      if (const auto c = color_of.find(t[1]); c != color_of.end()) t[1] = c->second;
      renamed.insert(t);
    }
    const std::set<Tuple> merged = colored->points_to();
    EXPECT_EQ(merged, renamed) << "merged only:\n"
                               << listing(minus(merged, renamed)) << "renamed only:\n"
                               << listing(minus(renamed, merged));
  }
}

// What the merge is for: one object stands for every allocation of an exception type.
TEST(ExceptionObjectsTest, PerTypeHasOneObjectPerExceptionTypeAndPerSiteOnePerAllocation) {
  TempDir dir;
  const auto per_type = analyze(dir, "exceptions", "insens");  // the default
  const auto per_site =
      analyze(dir, "exceptions", "insens", "", {"--exception-objects", "per-site"});
  ASSERT_TRUE(per_type && per_site);
  const std::string e1 = "<pointsto.exceptions.Main: void main(java.lang.String[])>/e1";
  EXPECT_TRUE(per_type->points_to().count({e1, "<exception pointsto.exceptions.AppException>"}));
  EXPECT_TRUE(per_site->points_to().count(
      {e1, "<pointsto.exceptions.Main: void thrower()>/new pointsto.exceptions.AppException/0"}));
  const std::string stats = read_file(per_type->out / "stats.json");
  EXPECT_NE(stats.find("\"exception_objects\": \"per-type\""), std::string::npos) << stats;
}

// What the merge is for: one object stands for every StringBuilder, one for every StringBuffer,
// under a flavour with heap contexts too (that they get none is heap_merging_test's and
// context_constructors_test's); stats.json says which abstraction ran.
TEST(StringBuilderObjectsTest, PerTypeHasOneObjectPerBuilderTypeAndPerSiteOnePerAllocation) {
  TempDir dir;
  const std::string main = "<pointsto.builders.Main: void main(java.lang.String[])>";
  for (const char* flavour : {"insens", "1-call+1H"}) {
    const auto per_type = analyze(dir, "builders", flavour);  // the default
    ASSERT_TRUE(per_type);
    const std::set<Tuple> pts = per_type->points_to();
    for (const char* var : {"/first", "/second", "/either"}) {
      EXPECT_TRUE(pts.count({main + var, "<string builder java.lang.StringBuilder>"}))
          << var << " under " << flavour;
    }
    EXPECT_TRUE(pts.count({main + "/back", "<string builder java.lang.StringBuffer>"})) << flavour;
    const std::string stats = read_file(per_type->out / "stats.json");
    // The small JDK's own classes (Thread, System, ...) have builder sites too.
    for (const char* key :
         {"\"string_builders\": \"per-type\"", "\"merged_string_builder_objects\": 2"}) {
      EXPECT_NE(stats.find(key), std::string::npos) << key << " in " << stats;
    }
  }
  const auto per_site = analyze(dir, "builders", "insens", "", {"--string-builders", "per-site"});
  ASSERT_TRUE(per_site);
  EXPECT_TRUE(
      per_site->points_to().count({main + "/either", main + "/new java.lang.StringBuilder/1"}));
  EXPECT_FALSE(
      per_site->points_to().count({main + "/either", main + "/new java.lang.StringBuilder/0"}));
  EXPECT_NE(read_file(per_site->out / "stats.json").find("\"merged_string_builder_sites\": 0"),
            std::string::npos);
}

// What the merge is for: one object per array type of primitives, also under a flavour with
// heap contexts; arrays of references stay apart; stats.json says which abstraction ran.
TEST(PrimitiveArrayObjectsTest, PerTypeHasOneObjectPerArrayTypeAndPerSiteOnePerAllocation) {
  TempDir dir;
  const std::string main = "<pointsto.primarrays.Main: void main(java.lang.String[])>";
  for (const char* flavour : {"insens", "2-obj+H"}) {
    const auto per_type = analyze(dir, "primarrays", flavour);  // the default
    ASSERT_TRUE(per_type);
    const std::set<Tuple> pts = per_type->points_to();
    for (const char* var : {"/first", "/second", "/either", "/out"})
      EXPECT_TRUE(pts.count({main + var, "<primitive array byte[]>"})) << var << " " << flavour;
    EXPECT_TRUE(pts.count({main + "/out", "<primitive array char[]>"})) << flavour;
    EXPECT_TRUE(pts.count({main + "/back", "<primitive array int[][]>"})) << flavour;
    EXPECT_TRUE(pts.count({main + "/row", "<primitive array int[]>"})) << flavour;
    EXPECT_TRUE(pts.count({main + "/boxes", main + "/new java.lang.Object[]/0"})) << flavour;
    const std::string stats = read_file(per_type->out / "stats.json");
    EXPECT_NE(stats.find("\"primitive_arrays\": \"per-type\""), std::string::npos) << stats;
  }
  const auto per_site =
      analyze(dir, "primarrays", "insens", "", {"--primitive-arrays", "per-site"});
  ASSERT_TRUE(per_site);
  EXPECT_TRUE(per_site->points_to().count({main + "/either", main + "/new byte[]/1"}));
  EXPECT_FALSE(per_site->points_to().count({main + "/either", main + "/new byte[]/0"}));
  EXPECT_NE(read_file(per_site->out / "stats.json").find("\"merged_primitive_array_sites\": 0"),
            std::string::npos);
}

// What the merge is for: one object stands for every `new String` of the program, also under
// a flavour with heap contexts; a concatenation, whose parts reflection may resolve, stays an
// object of its own; stats.json says which abstraction ran.
TEST(AllocatedStringObjectsTest, PerTypeHasOneObjectForAllNewStringsAndPerSiteOnePerAllocation) {
  TempDir dir;
  const std::string main = "<pointsto.strings.Main: void main(java.lang.String[])>";
  const std::string merged = "<allocated string java.lang.String>";
  for (const char* flavour : {"insens", "2-obj+H"}) {
    const auto per_type = analyze(dir, "strings", flavour);  // the default
    ASSERT_TRUE(per_type);
    const std::set<Tuple> pts = per_type->points_to();
    for (const char* var : {"/first", "/second", "/either", "/back"})
      EXPECT_TRUE(pts.count({main + var, merged})) << var << " " << flavour;
    EXPECT_TRUE(pts.count({main + "/joined", main + "/concat/0"})) << flavour;
    EXPECT_TRUE(pts.count({main + "/text", main + "/concat/0"})) << flavour;
    EXPECT_FALSE(pts.count({main + "/joined", merged})) << flavour;
    const std::string stats = read_file(per_type->out / "stats.json");
    EXPECT_NE(stats.find("\"allocated_strings\": \"per-type\""), std::string::npos) << stats;
  }
  const auto per_site = analyze(dir, "strings", "insens", "", {"--allocated-strings", "per-site"});
  ASSERT_TRUE(per_site);
  EXPECT_TRUE(per_site->points_to().count({main + "/either", main + "/new java.lang.String/1"}));
  EXPECT_FALSE(per_site->points_to().count({main + "/either", main + "/new java.lang.String/0"}));
  EXPECT_NE(read_file(per_site->out / "stats.json").find("\"merged_allocated_string_sites\": 0"),
            std::string::npos);
}

// By-type is the default heap numbering and stats.json says which ran; the two number the
// objects differently (or the invariant test above could not fail).
TEST(HeapNumberingTest, ByTypeIsTheDefaultAndRenumbersTheObjects) {
  TempDir dir;
  const auto by_default = analyze(dir, "dispatch", "insens");
  const auto first_seen =
      analyze(dir, "dispatch", "insens", "", {"--heap-numbering", "first-seen"});
  ASSERT_TRUE(by_default && first_seen);
  EXPECT_NE(read_file(by_default->out / "stats.json").find("\"heap_numbering\": \"by-type\""),
            std::string::npos);
  EXPECT_NE(read_file(first_seen->out / "stats.json").find("\"heap_numbering\": \"first-seen\""),
            std::string::npos);
  const std::string by_type_map = read_file(by_default->out / "facts" / "H.map");
  const std::string first_seen_map = read_file(first_seen->out / "facts" / "H.map");
  EXPECT_NE(by_type_map, first_seen_map);
  std::vector<std::string> a = lines_of(by_type_map), b = lines_of(first_seen_map);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

// Coloring is the default; stats.json says which ran and what it did, string-colors.tsv what
// each object stands for.
TEST(StringMergingTest, ColoringIsTheDefaultAndIsReported) {
  TempDir dir;
  const auto colored = analyze(dir, "dispatch", "insens");
  const auto distinct = analyze(dir, "dispatch", "insens", "", {"--string-merging", "none"});
  ASSERT_TRUE(colored && distinct);
  const std::string stats = read_file(colored->out / "stats.json");
  for (const char* key : {"\"string_merging\": \"coloring\"", "\"string_constants\": ",
                          "\"string_colors\": ", "\"largest_string_clique\": "}) {
    EXPECT_NE(stats.find(key), std::string::npos) << key << " in " << stats;
  }
  EXPECT_NE(read_file(distinct->out / "stats.json").find("\"string_merging\": \"none\""),
            std::string::npos);
  // The fixture's "circle" names no member of any class: it shares color 0 of the program's
  // own constants, which without reflection are colored apart from the JDK's (issue 35).
  const std::set<Tuple> colors = read_tsv(colored->out / "string-colors.tsv");
  EXPECT_TRUE(colors.count({"\"circle\"", "<program string constants, color 0>"}))
      << listing(colors);
  const std::string n1 = "<pointsto.dispatch.Main: void main(java.lang.String[])>/n1";
  EXPECT_TRUE(colored->points_to().count({n1, "<program string constants, color 0>"}));
  EXPECT_TRUE(distinct->points_to().count({n1, "\"circle\""}));
}

}  // namespace
}  // namespace refract::test
