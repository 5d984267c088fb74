// `refract analyze` end to end (issue 5, items 4 and 5): the exports load where they should
// (callgraph.json has the JCG shape and agrees with call-edges.tsv; its method descriptors are
// those javap prints), stats.json agrees with the exports, and bad inputs (a wrong class path,
// a main class without main(String[]), an unknown flavour or relation, bad options) give a
// clear error, a non-zero exit and no exports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/fixture_paths.hpp"
#include "cli/run_refract.hpp"
#include "exporters/json_reader.hpp"
#include "pointsto/small_jdk.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

RunResult analyze(const TempDir& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"analyze", "--jdk", small_jdk().string(), "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_refract(args, dir.path());
}

// A points-to fixture under the points-to rules alone: the fixtures make no reflective call,
// and with reflection the closed world would be every fixture class (tests/reflection has the
// reflection fixtures, each in a jar of its own).
RunResult analyze_fixture(const TempDir& dir, const std::string& fixture, const fs::path& out,
                          const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"--classpath",  kFixtureClasses.string(),
                                   "--main",       "pointsto." + fixture + ".Main",
                                   "--reflection", "none",
                                   "--out",        out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return analyze(dir, args);
}

JsonValue read_json(const fs::path& file) {
  const std::string text = read_file(file);
  return JsonReader(text).document();
}

// A JCG method as one comparable string: "La/B;.name(params)ret".
std::string jcg_method(const JsonValue& m) {
  std::string text = m.at("declaringClass").string() + "." + m.at("name").string() + "(";
  for (const JsonValue& p : m.at("parameterTypes").array()) text += p.string();
  return text + ")" + m.at("returnType").string();
}

// ---- exports --------------------------------------------------------------------------------

class AnalyzeExportsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    const RunResult run =
        analyze_fixture(*dir_, "dispatch", dir_->path() / "out", {"--context", "1-call"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  static void TearDownTestSuite() { dir_.reset(); }
  static fs::path out() { return dir_->path() / "out"; }
  static std::unique_ptr<TempDir> dir_;
};
std::unique_ptr<TempDir> AnalyzeExportsTest::dir_;

TEST_F(AnalyzeExportsTest, WritesEveryExportAndNoTemporaryFiles) {
  for (const char* name :
       {"reachable-methods.txt", "call-edges.tsv", "callgraph.json", "stats.json"}) {
    EXPECT_TRUE(fs::is_regular_file(out() / name)) << name;
  }
  for (const auto& entry : fs::directory_iterator(out())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  }
}

TEST_F(AnalyzeExportsTest, ReachableMethodsAndCallEdgesAreSortedAndUnique) {
  for (const char* name : {"reachable-methods.txt", "call-edges.tsv"}) {
    const auto lines = lines_of(read_file(out() / name));
    ASSERT_FALSE(lines.empty()) << name;
    for (std::size_t i = 1; i < lines.size(); ++i) EXPECT_LT(lines[i - 1], lines[i]) << name;
  }
  for (const std::string& line : lines_of(read_file(out() / "call-edges.tsv"))) {
    const std::size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    EXPECT_EQ(line.find('\t', tab + 1), std::string::npos) << line;
  }
}

// The JCG shape (OPAL's call-graph suite): reachableMethods, each with a method (name,
// declaringClass, returnType, parameterTypes as JVM descriptors) and callSites (declaredTarget,
// line, pc, targets); every edge of call-edges.tsv from a method's site is there.
TEST_F(AnalyzeExportsTest, CallGraphJsonHasTheJcgShapeAndEveryEdge) {
  const JsonValue doc = read_json(out() / "callgraph.json");
  const auto& methods = doc.at("reachableMethods").array();
  const auto reachable = lines_of(read_file(out() / "reachable-methods.txt"));
  EXPECT_EQ(methods.size(), reachable.size());
  std::size_t targets = 0;
  std::set<std::string> with_line;
  for (const JsonValue& entry : methods) {
    const JsonValue& m = entry.at("method");
    EXPECT_TRUE(m.at("name").is_string());
    EXPECT_EQ(m.at("declaringClass").string().front(), 'L') << jcg_method(m);
    EXPECT_FALSE(m.at("returnType").string().empty());
    for (const JsonValue& site : entry.at("callSites").array()) {
      EXPECT_TRUE(site.at("declaredTarget").is_object());
      EXPECT_TRUE(site.at("pc").is_number());
      EXPECT_GE(site.at("pc").number(), 0) << jcg_method(m) << ": no pc for a bytecode call";
      if (site.at("line").number() > 0) with_line.insert(jcg_method(m));
      EXPECT_FALSE(site.at("targets").array().empty());
      targets += site.at("targets").array().size();
    }
  }
  std::size_t method_edges = 0;
  for (const std::string& line : lines_of(read_file(out() / "call-edges.tsv"))) {
    if (line.rfind("<jvm>/", 0) != 0) ++method_edges;
  }
  EXPECT_EQ(targets, method_edges);
  // The fixtures are compiled with line numbers: main's calls have theirs.
  EXPECT_TRUE(with_line.count("Lpointsto/dispatch/Main;.main([Ljava/lang/String;)V"));
}

// Descriptors as the class files have them: every method of the fixture in callgraph.json,
// and every target of its call sites, is a member javap prints with that name and descriptor
// (synthetic lambda classes have no class file; JDK classes come from the same JDK 17).
TEST_F(AnalyzeExportsTest, MethodDescriptorsMatchJavap) {
  const JsonValue doc = read_json(out() / "callgraph.json");
  std::set<std::string> methods;
  for (const JsonValue& entry : doc.at("reachableMethods").array()) {
    if (entry.at("method").at("declaringClass").string().rfind("Lpointsto/dispatch/", 0) != 0)
      continue;
    methods.insert(jcg_method(entry.at("method")));
    for (const JsonValue& site : entry.at("callSites").array()) {
      for (const JsonValue& t : site.at("targets").array()) methods.insert(jcg_method(t));
    }
  }
  ASSERT_GE(methods.size(), 5U);
  std::set<std::string> classes;
  for (const std::string& m : methods) classes.insert(m.substr(1, m.find(';') - 1));
  std::string command = "javap -s -p -cp '" + kFixtureClasses.string() + "'";
  for (const std::string& c : classes) command += " '" + c + "'";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen((command + " 2>&1").c_str(), "r"), ::pclose);
  ASSERT_TRUE(pipe);
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0;)
    text.append(buffer, n);
  // "Compiled from" / "class a.B ... {" headers, then "  decl;" + "    descriptor: D".
  std::set<std::string> declared;
  std::string current_class, declaration;
  for (const std::string& line : lines_of(text)) {
    if (!line.empty() && line.front() != ' ' && line.back() == '{') {
      std::istringstream words(line);
      std::string word, previous;
      while (words >> word && previous != "class" && previous != "interface") previous = word;
      current_class = word.substr(0, word.find('<'));
    } else if (line.rfind("  ", 0) == 0 && line.rfind("    ", 0) != 0) {
      declaration = line;
    } else if (line.rfind("    descriptor: (", 0) == 0) {
      std::string name;
      if (declaration.find("static {}") != std::string::npos) {
        name = "<clinit>";
      } else {
        const std::size_t paren = declaration.find('(');
        const std::size_t space = declaration.rfind(' ', paren);
        name = declaration.substr(space + 1, paren - space - 1);
        if (name == current_class) name = "<init>";
      }
      std::string internal = current_class;
      for (char& c : internal)
        if (c == '.') c = '/';
      declared.insert("L" + internal + ";." + name + line.substr(16));
    }
  }
  for (const std::string& m : methods) {
    EXPECT_TRUE(declared.count(m)) << m << " is not a member javap prints:\n" << text;
  }
}

TEST_F(AnalyzeExportsTest, StatsAgreeWithTheExports) {
  const JsonValue stats = read_json(out() / "stats.json");
  EXPECT_EQ(stats.at("context").string(), "1-call");
  EXPECT_EQ(stats.at("context_bits").string(), "consecutive");  // 1-call's default
  // The solve's schedule (the default) and its work: more sweeps than the first.
  EXPECT_EQ(stats.at("schedule").at("name").string(), "rule-fixpoint");
  EXPECT_GT(stats.at("schedule").at("sweeps").number(), 1);
  EXPECT_GT(stats.at("schedule").at("delta_evaluations").number(), 0);
  EXPECT_EQ(stats.at("reachable_methods").number(),
            static_cast<double>(lines_of(read_file(out() / "reachable-methods.txt")).size()));
  EXPECT_EQ(stats.at("call_edges").number(),
            static_cast<double>(lines_of(read_file(out() / "call-edges.tsv")).size()));
  EXPECT_GT(stats.at("contexts").number(), 1);
  EXPECT_GT(stats.at("peak_bdd_nodes").number(), 0);
  EXPECT_GT(stats.at("peak_rss_bytes").number(), 0);
  EXPECT_TRUE(std::holds_alternative<bool>(stats.at("bdd_huge_pages").value));
  EXPECT_EQ(stats.at("polymorphic_call_sites").number(),
            static_cast<double>(stats.at("polymorphic_call_site_list").array().size()));
  EXPECT_EQ(stats.at("may_fail_casts").number(),
            static_cast<double>(stats.at("may_fail_cast_list").array().size()));
  EXPECT_TRUE(stats.at("unmodelled_natives").is_array());
  EXPECT_TRUE(stats.at("unsupported_invokedynamic").is_array());
  for (const char* phase : {"facts", "solve", "total"}) {
    EXPECT_TRUE(stats.at("seconds").at(phase).is_number()) << phase;
  }
  EXPECT_TRUE(stats.at("relations").at("VarPointsTo").is_number());
  // A node count for every relation with a size; only the empty relation has none.
  const auto& sizes = stats.at("relations").object();
  const auto& nodes = stats.at("relation_nodes").object();
  ASSERT_EQ(nodes.size(), sizes.size());
  for (const auto& [name, size] : sizes) {
    ASSERT_TRUE(nodes.count(name)) << name;
    EXPECT_EQ(nodes.at(name).number() == 0, size.number() == 0) << name;
  }
}

// stats.json's var_points_to_string_objects counts the VarPointsTo tuples whose object has
// type java.lang.String (seed 003 Sec. 6): the dumps of VarPointsTo and HeapType, joined here,
// count the same; and string_coloring_seconds comes with the coloring's counts.
TEST(AnalyzeStringStatsTest, CountsVarPointsToTuplesOfStringObjects) {
  TempDir dir;
  const RunResult run = analyze_fixture(dir, "strings", dir.path() / "out",
                                        {"--dump", "VarPointsTo", "--dump", "HeapType"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::set<std::string> strings;
  for (const std::string& line : lines_of(read_file(dir.path() / "out" / "HeapType.tsv"))) {
    const auto fields = split_tabs(line);
    if (fields.at(1) == "java.lang.String") strings.insert(fields.at(0));
  }
  std::size_t expected = 0;
  for (const std::string& line : lines_of(read_file(dir.path() / "out" / "VarPointsTo.tsv")))
    expected += strings.count(split_tabs(line).at(3));
  const JsonValue stats = read_json(dir.path() / "out" / "stats.json");
  EXPECT_GT(expected, 0U);
  EXPECT_EQ(stats.at("var_points_to_string_objects").number(), static_cast<double>(expected));
  EXPECT_TRUE(stats.at("string_coloring_seconds").is_number());
  EXPECT_GT(stats.at("string_constants").number(), 0);
}

// --dump REL writes the relation as TSV of element names.
TEST(AnalyzeDumpTest, WritesTheRelationAsNames) {
  TempDir dir;
  const RunResult run = analyze_fixture(dir, "fields", dir.path() / "out",
                                        {"--dump", "VarPointsToI", "--dump", "Reachable"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string pts = read_file(dir.path() / "out" / "VarPointsToI.tsv");
  EXPECT_NE(pts.find("<pointsto.fields.Main: void main(java.lang.String[])>/args\t"
                     "<jvm>/new java.lang.String[]/0\n"),
            std::string::npos)
      << pts;
  EXPECT_NE(read_file(dir.path() / "out" / "Reachable.tsv")
                .find("<pointsto.fields.Main: void main(java.lang.String[])>"),
            std::string::npos);
}

// Under 1-obj+1H, Circle.name() runs in the context of its receiver, and the constant it returns
// still has heap context 0: ldc hands out one interned string whatever the context.
TEST(AnalyzeHeapContextTest, StringConstantsHaveTheEmptyHeapContextInEveryContext) {
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const RunResult run = analyze_fixture(
      dir, "dispatch", out,
      {"--context", "1-obj+1H", "--string-merging", "none", "--dump", "VarPointsTo"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_GE(read_json(out / "stats.json").at("context_free_objects").number(), 4);  // 4 strings
  bool in_a_receiver_context = false;
  for (const std::string& line : lines_of(read_file(out / "VarPointsTo.tsv"))) {
    const std::vector<std::string> f = split_tabs(line);  // ctx, var, hctx, heap
    ASSERT_EQ(f.size(), 4u) << line;
    if (f[3] != "\"circle\"") continue;
    in_a_receiver_context |= f[0] != "0";
    EXPECT_EQ(f[2], "0") << line;
  }
  EXPECT_TRUE(in_a_receiver_context);
}

// --dump-bdd writes bddbddb's .bdd format: `refract solve` reads it back, over the domains of
// the analysed facts, with as many tuples as the TSV dump has lines.
TEST(AnalyzeDumpTest, WritesTheRelationAsABddFileThatSolveReads) {
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const RunResult run =
      analyze_fixture(dir, "fields", out, {"--dump", "VarPointsToI", "--dump-bdd", "VarPointsToI"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string tsv = read_file(out / "VarPointsToI.tsv");
  const auto lines = std::count(tsv.begin(), tsv.end(), '\n');
  ASSERT_GT(lines, 0);
  std::istringstream facts(read_file(out / "facts" / "facts.datalog"));
  std::string domains;
  for (std::string line; std::getline(facts, line);) {
    if (line.rfind("V ", 0) == 0 || line.rfind("H ", 0) == 0)
      domains += line.substr(0, line.find(' ', 2)) + "\n";
  }
  const fs::path check = dir.path() / "check";
  fs::create_directories(check);
  fs::copy_file(out / "VarPointsToI.bdd", check / "pts.bdd");
  write_file(check / "p.datalog", domains + "pts (v : V, h : H) input\n" +
                                      "copy (v : V, h : H) printsize\ncopy(v, h) :- pts(v, h).\n");
  const RunResult solved =
      run_refract({"solve", (check / "p.datalog").string(), "--quiet"}, dir.path());
  ASSERT_EQ(solved.exit_code, 0) << solved.err;
  EXPECT_EQ(solved.out, "copy\t" + std::to_string(lines) + "\n");
}

// --rule-stats: the solver's per-rule profile, as `refract solve --stats` reports it.
TEST(AnalyzeRuleStatsTest, WritesEveryRulesProfile) {
  TempDir dir;
  const fs::path file = dir.path() / "rules.json";
  const RunResult run =
      analyze_fixture(dir, "fields", dir.path() / "out", {"--rule-stats", file.string()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue stats = read_json(file);
  const auto& rules = stats.at("rules").array();
  ASSERT_GT(rules.size(), 100U);
  bool evaluated = false;
  for (const JsonValue& rule : rules) {
    EXPECT_TRUE(rule.at("rule").is_string());
    EXPECT_NE(rule.at("location").string().find(".datalog:"), std::string::npos);
    evaluated = evaluated || rule.at("evaluations").number() > 0;
  }
  EXPECT_TRUE(evaluated);
}

// ---- bad inputs ------------------------------------------------------------------------------

// A failed run leaves no export behind.
void expect_no_exports(const fs::path& out) {
  for (const char* name :
       {"reachable-methods.txt", "call-edges.tsv", "callgraph.json", "stats.json"}) {
    EXPECT_FALSE(fs::exists(out / name)) << name;
  }
}

// A run stopped by --time-limit exits 4 naming where it stopped, writes no export, and still
// writes the profile of the run so far, which says why it is incomplete.
TEST(AnalyzeTimeLimitTest, StopsWithTheProfileSoFarAndNoExports) {
  TempDir dir;
  const fs::path file = dir.path() / "rules.json";
  const fs::path out = dir.path() / "out";
  const RunResult run =
      analyze_fixture(dir, "fields", out, {"--rule-stats", file.string(), "--time-limit", "1e-6"});
  EXPECT_EQ(run.exit_code, 4) << run.err;
  EXPECT_NE(run.err.find("time limit of 1e-06 s reached"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("stratum 1/"), std::string::npos) << run.err;
  expect_no_exports(out);
  const JsonValue stats = read_json(file);
  EXPECT_NE(stats.at("stopped").string().find("before rule: "), std::string::npos);
  EXPECT_GT(stats.at("rules").array().size(), 100U);
}

// A stopped run still writes each --dump relation, as REL.at-stop.tsv/.bdd: what it had
// derived. Before the stop writes nothing else, the facts' relations are whole there.
TEST(AnalyzeTimeLimitTest, WritesTheDumpsAsTheyStoodAtTheStop) {
  TempDir dir;
  const fs::path stopped = dir.path() / "stopped";
  const std::vector<std::string> dumps = {"--dump",    "Alloc",      "--dump",
                                          "Reachable", "--dump-bdd", "Alloc"};
  std::vector<std::string> limited = dumps;
  limited.insert(limited.end(), {"--time-limit", "1e-6"});
  const RunResult stop = analyze_fixture(dir, "fields", stopped, limited);
  ASSERT_EQ(stop.exit_code, 4) << stop.err;
  expect_no_exports(stopped);
  EXPECT_FALSE(fs::exists(stopped / "Alloc.tsv"));
  EXPECT_TRUE(fs::exists(stopped / "Alloc.at-stop.bdd"));

  const fs::path whole = dir.path() / "whole";
  const RunResult run = analyze_fixture(dir, "fields", whole, dumps);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto alloc = lines_of(read_file(stopped / "Alloc.at-stop.tsv"));
  EXPECT_GT(alloc.size(), 3U);
  EXPECT_EQ(alloc, lines_of(read_file(whole / "Alloc.tsv")));
  const auto reachable = lines_of(read_file(whole / "Reachable.tsv"));
  for (const std::string& line : lines_of(read_file(stopped / "Reachable.at-stop.tsv"))) {
    EXPECT_NE(std::find(reachable.begin(), reachable.end(), line), reachable.end()) << line;
  }
}

TEST(AnalyzeTimeLimitTest, AGenerousLimitChangesNothing) {
  TempDir dir;
  const fs::path file = dir.path() / "rules.json";
  const RunResult run = analyze_fixture(dir, "fields", dir.path() / "out",
                                        {"--rule-stats", file.string(), "--time-limit", "3600"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_json(file).object().count("stopped"), 0U);
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "call-edges.tsv"));
}

// A run whose node table may not grow as far as the analysis needs exits 1 naming the rule or
// relation where it ran out and what held it back, writes no export, and still writes the
// profile of the run so far.
TEST(AnalyzeNodeLimitTest, MaxNodesStopsWithTheProfileSoFarAndNoExports) {
  TempDir dir;
  const fs::path file = dir.path() / "rules.json";
  const fs::path out = dir.path() / "out";
  const RunResult run =
      analyze_fixture(dir, "fields", out,
                      {"--rule-stats", file.string(), "--nodes", "1000", "--max-nodes", "5000"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("BDD node table exhausted at "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--max-nodes"), std::string::npos) << run.err;
  expect_no_exports(out);
  EXPECT_NE(read_json(file).at("stopped").string().find("node table exhausted"), std::string::npos);
}

TEST(AnalyzeNodeLimitTest, AMemoryBudgetBelowTheProcessNamesTheBudget) {
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const RunResult run =
      analyze_fixture(dir, "fields", out, {"--nodes", "1000", "--max-memory", "1"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("memory budget of 1 MiB"), std::string::npos) << run.err;
  expect_no_exports(out);
}

TEST(AnalyzeNodeLimitTest, GenerousLimitsChangeNothing) {
  TempDir dir;
  const RunResult run =
      analyze_fixture(dir, "fields", dir.path() / "out",
                      {"--nodes", "1000", "--max-nodes", "100000000", "--max-memory", "100000"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "call-edges.tsv"));
  const JsonValue stats = read_json(dir.path() / "out" / "stats.json");
  EXPECT_EQ(stats.at("bdd_memory_budget_bytes").number(), 100000.0 * 1024 * 1024);
  EXPECT_FALSE(std::get<bool>(stats.at("bdd_capped_by_memory_budget").value));
}

TEST(AnalyzeBadInputTest, MissingClassPathEntryIsNamed) {
  TempDir dir;
  const fs::path missing = dir.path() / "no-such.jar";
  const RunResult run = analyze(dir, {"--classpath", missing.string(), "--main", "a.Main", "--out",
                                      (dir.path() / "out").string()});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find(missing.string()), std::string::npos) << run.err;
  expect_no_exports(dir.path() / "out");
}

TEST(AnalyzeBadInputTest, MainClassNotOnTheClassPathIsNamed) {
  TempDir dir;
  const RunResult run =
      analyze_fixture(dir, "nosuchpackage", dir.path() / "out", {"--context", "insens"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("pointsto.nosuchpackage.Main"), std::string::npos) << run.err;
  expect_no_exports(dir.path() / "out");
}

TEST(AnalyzeBadInputTest, MainClassWithoutMainMethodIsNamed) {
  TempDir dir;
  const RunResult run =
      analyze(dir, {"--classpath", kFixtureClasses.string(), "--main", "pointsto.fields.Pair",
                    "--out", (dir.path() / "out").string()});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("pointsto.fields.Pair"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("main"), std::string::npos) << run.err;
  expect_no_exports(dir.path() / "out");
}

TEST(AnalyzeBadInputTest, UnknownFlavourIsNamedBeforeAnyWork) {
  for (const char* flavour : {"3-cal", "5-obj", "2-obj+3H", "0-call", "", "insens+H"}) {
    TempDir dir;
    const RunResult run =
        analyze_fixture(dir, "fields", dir.path() / "out", {"--context", flavour});
    EXPECT_NE(run.exit_code, 0) << flavour;
    EXPECT_NE(run.err.find("--context"), std::string::npos) << flavour << ": " << run.err;
    EXPECT_FALSE(fs::exists(dir.path() / "out" / "facts")) << flavour << ": work was done";
    expect_no_exports(dir.path() / "out");
  }
}

TEST(AnalyzeBadInputTest, UnknownDumpRelationIsNamed) {
  TempDir dir;
  const RunResult run =
      analyze_fixture(dir, "fields", dir.path() / "out", {"--dump", "VarPointsToo"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("VarPointsToo"), std::string::npos) << run.err;
  expect_no_exports(dir.path() / "out");
}

TEST(AnalyzeBadInputTest, BadOrderNamesTheMissingDomain) {
  TempDir dir;
  const RunResult run = analyze_fixture(dir, "fields", dir.path() / "out",
                                        {"--order", "Z0_I0_M0xM1_C0xC1_V0xV1_F0_HC0xHC1_H0xH1"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("T"), std::string::npos) << run.err;
  expect_no_exports(dir.path() / "out");
}

// A rule of the user's rules (--rules) that binds a variable by no atom gives it every value of
// its bits, past the domain's elements; reading the results named the relation's declaration,
// not `internal error: map::at` (cloning's pre-pass) or bare numbers in the exports.
TEST(AnalyzeBadInputTest, RulesDerivingElementsPastTheDomainAreNamed) {
  for (const char* flavour : {"insens", "cloning"}) {
    TempDir dir;
    const fs::path rules = dir.path() / "rules";
    fs::copy(fs::path(REFRACT_SOURCE_DIR) / "pointsto" / "rules", rules);
    // insens's Merge holds every invoke and method, bound by nothing (context_constructors.cpp)
    write_file(rules / "outputs.datalog", read_file(rules / "outputs.datalog") +
                                              "CallGraphEdge(i, m) :- Merge(_, _, i, m, _, _).\n");
    const RunResult run = analyze_fixture(dir, "fields", dir.path() / "out",
                                          {"--context", flavour, "--rules", rules.string()});
    EXPECT_EQ(run.exit_code, 1) << flavour << ": " << run.err;
    EXPECT_NE(run.err.find((rules / "outputs.datalog").string()), std::string::npos)
        << flavour << ": " << run.err;
    EXPECT_NE(run.err.find("relation CallGraphEdge holds element"), std::string::npos)
        << flavour << ": " << run.err;
    EXPECT_EQ(run.err.find("internal error"), std::string::npos) << flavour << ": " << run.err;
    expect_no_exports(dir.path() / "out");
  }
}

TEST(AnalyzeBadInputTest, OutThatIsAFileIsRejected) {
  TempDir dir;
  write_file(dir.path() / "out", "a file\n");
  const RunResult run = analyze_fixture(dir, "fields", dir.path() / "out");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find((dir.path() / "out").string()), std::string::npos) << run.err;
}

TEST(AnalyzeUsageTest, MissingRequiredOptionsAndBadNumbersAreUsageErrors) {
  TempDir dir;
  const std::string out = (dir.path() / "out").string();
  // A complete command line with one bad option value added.
  auto with = [&](const std::string& option, const std::string& value) {
    return std::vector<std::string>{"--classpath", kFixtureClasses.string(),
                                    "--main",      "pointsto.fields.Main",
                                    "--out",       out,
                                    option,        value};
  };
  const std::vector<std::vector<std::string>> cases = {
      {"--classpath", kFixtureClasses.string(), "--out", out},
      {"--classpath", kFixtureClasses.string(), "--main", "pointsto.fields.Main"},
      with("--nodes", "many"),
      with("--cache", "-5"),
      with("--exception-objects", "per-class"),
      with("--string-builders", "merged"),
      with("--primitive-arrays", "none"),
      with("--allocated-strings", "all"),
      with("--string-merging", "greedy"),
      with("--tuple-joins", "some"),
      with("--tuple-deltas", "-2"),
      with("--time-limit", "0"),
      with("--time-limit", "5min"),
      with("--schedule", "fastest"),
      with("--max-nodes", "0"),
      with("--max-memory", "12G"),
      {"--no-such-option"}};
  for (const auto& args : cases) {
    const RunResult run = analyze(dir, args);
    EXPECT_EQ(run.exit_code, 2) << args.back() << ": " << run.err;
    EXPECT_NE(run.err.find("refract analyze --help"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(out)) << args.back();
  }
}

// An unknown value of a named-choice option is a usage error quoting it and the choices.
void expect_unknown_choice(const std::string& option, const std::string& value,
                           const std::string& quoted, const std::string& choices) {
  TempDir dir;
  const RunResult run = analyze_fixture(dir, "fields", dir.path() / "out", {option, value});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find(quoted), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(choices), std::string::npos) << run.err;
}

TEST(AnalyzeUsageTest, AnUnknownExceptionAbstractionIsNamed) {
  expect_unknown_choice("--exception-objects", "per-class", "per-class", "per-type or per-site");
}

TEST(AnalyzeUsageTest, AnUnknownStringBuilderAbstractionIsNamed) {
  expect_unknown_choice("--string-builders", "merged", "'merged'", "per-type or per-site");
}

TEST(AnalyzeUsageTest, AnUnknownPrimitiveArrayAbstractionIsNamed) {
  expect_unknown_choice("--primitive-arrays", "none", "'none'", "per-type or per-site");
}

TEST(AnalyzeUsageTest, AnUnknownAllocatedStringAbstractionIsNamed) {
  expect_unknown_choice("--allocated-strings", "all", "'all'", "per-type or per-site");
}

// Without --schedule a flavour with heap contexts runs cheap-first and one without
// rule-fixpoint (pointsto::default_schedule); --schedule overrides either.
TEST(AnalyzeScheduleTest, TheFlavoursDefaultUnlessTheOptionNamesOne) {
  TempDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--context", "2-obj+H"}, "cheap-first"},
      {{"--context", "insens"}, "rule-fixpoint"},
      {{"--context", "2-obj+H", "--schedule", "sweep"}, "sweep"},
      {{"--context", "insens", "--schedule", "cost-order"}, "cost-order"}};
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const fs::path out = dir.path() / ("out" + std::to_string(k));
    const RunResult run = analyze_fixture(dir, "dispatch", out, cases[k].first);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(read_json(out / "stats.json").at("schedule").at("name").string(), cases[k].second)
        << k;
  }
}

TEST(AnalyzeUsageTest, AnUnknownScheduleIsNamedWithTheKnownOnes) {
  expect_unknown_choice("--schedule", "fastest", "'fastest'",
                        "rule-fixpoint, sweep, cost-order, cheap-first");
}

TEST(AnalyzeUsageTest, AnUnknownStringMergingIsNamed) {
  expect_unknown_choice("--string-merging", "greedy", "'greedy'", "coloring or none");
}

TEST(AnalyzeUsageTest, AnUnknownContextBitLayoutIsNamed) {
  expect_unknown_choice("--context-bits", "lanes", "'lanes'", "consecutive or interleaved");
}

TEST(AnalyzeUsageTest, AnUnknownHeapNumberingIsNamed) {
  expect_unknown_choice("--heap-numbering", "random", "'random'", "by-type or first-seen");
}

TEST(AnalyzeUsageTest, AnUnknownClosedWorldIsNamed) {
  expect_unknown_choice("--closed-world", "everything", "'everything'", "application or reachable");
}

TEST(AnalyzeUsageTest, AnUnknownJdkProvidersChoiceIsNamed) {
  expect_unknown_choice("--jdk-providers", "all", "'all'", "read or skip");
}

TEST(AnalyzeUsageTest, AnUnknownReflectionModeIsNamed) {
  TempDir dir;
  const RunResult run =
      analyze(dir, {"--classpath", kFixtureClasses.string(), "--main", "pointsto.fields.Main",
                    "--reflection", "doop", "--out", (dir.path() / "out").string()});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("--reflection"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("'doop'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("solar+tamiflex=FILE"), std::string::npos) << run.err;
}

TEST(AnalyzeUsageTest, HelpListsTheOptions) {
  TempDir dir;
  const RunResult run = run_refract({"analyze", "--help"}, dir.path());
  EXPECT_EQ(run.exit_code, 0);
  for (const char* option : {"--classpath",
                             "--main",
                             "--jdk",
                             "--context",
                             "--order",
                             "--out",
                             "--dump",
                             "--quiet",
                             "--nodes",
                             "--cache",
                             "--exception-objects",
                             "--string-merging",
                             "--tuple-joins",
                             "--tuple-deltas",
                             "--time-limit",
                             "--schedule",
                             "--dump-bdd",
                             "--context-bits",
                             "--string-builders",
                             "--primitive-arrays",
                             "--allocated-strings",
                             "--heap-numbering",
                             "--reflection",
                             "--reflection-annotations",
                             "--reflection-budget",
                             "--reflection-rules",
                             "--closed-world"}) {
    EXPECT_NE(run.out.find(option), std::string::npos) << option;
  }
  for (const char* option : {"--max-nodes", "--max-memory"}) {
    EXPECT_NE(run.out.find(option), std::string::npos) << option;
  }
  // --schedule's default depends on the flavour (pointsto::default_schedule), and the help
  // says so, however it wraps the line.
  std::string flat;
  for (const char c : run.out)
    if (!std::isspace(static_cast<unsigned char>(c)) || (!flat.empty() && flat.back() != ' '))
      flat += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
  EXPECT_NE(flat.find("(default cheap-first for flavours with heap contexts, rule-fixpoint for "
                      "the others)"),
            std::string::npos)
      << run.out;
}

}  // namespace
}  // namespace refract::test
