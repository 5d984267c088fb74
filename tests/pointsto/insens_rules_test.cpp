// The points-to rules of pointsto/rules under the context-insensitive flavour, end to end: for
// each fixture package of tests/fixtures/java/pointsto, `refract facts` of its Main, then
// `refract solve` of tests/data/pointsto/insens_main_only.datalog (the rules without the JVM's
// start-up work; C and HC of one element; Record, Merge and MergeStatic all contexts 0), and
// the results (ReachableMethod, CallGraphEdge, VarPointsToI, PolymorphicCall, MayFailCast,
// UnmodelledNative) compared with the fixture's EXPECTED.tsv, derived by hand from its source
// (format: tests/fixtures/java/pointsto/README.md).
//
// Solving over the whole JDK 17 takes minutes per program, so these runs read a JDK made of
// the few real JDK classes the fixtures use (java.lang.Thread, System, AccessController, ...,
// copied from the JDK's java.base.jmod): the rest of the JDK is phantom. What the expected
// results say about JDK code (Thread.start reaching run, Thread.run calling its Runnable,
// the native models) comes from those real classes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/fixture_paths.hpp"
#include "cli/java_inputs.hpp"
#include "cli/run_refract.hpp"
#include "frontend/class_path.hpp"
#include "pointsto/small_jdk.hpp"
#include "support/bit_width.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = REFRACT_SOURCE_DIR;
const fs::path kDriver = kSourceDir / "tests" / "data" / "pointsto" / "insens_main_only.datalog";

// One fact of EXPECTED.tsv or of the results: its kind and fields.
using Fact = std::vector<std::string>;

// The lines of a map file: element i is line i.
std::vector<std::string> read_map(const fs::path& file) {
  return lines_of(read_file(file));
}

// The tuples of an output relation, each element named through the maps of its columns.
std::vector<std::vector<std::string>> read_named_tuples(
    const fs::path& file, const std::vector<const std::vector<std::string>*>& maps) {
  std::vector<std::vector<std::string>> out;
  const std::vector<std::string> lines = lines_of(read_file(file));
  for (std::size_t i = 1; i < lines.size(); ++i) {  // line 0 is the header
    if (lines[i].empty() || lines[i][0] == '#') continue;
    std::istringstream fields(lines[i]);
    std::vector<std::string> tuple;
    for (const auto* map : maps) {
      std::uint64_t value = 0;
      fields >> value;
      tuple.push_back(value < map->size() ? (*map)[value] : "#" + std::to_string(value));
    }
    out.push_back(std::move(tuple));
  }
  return out;
}

// The JDK the runs read: the small one, or the machine's whole JDK 17 when the environment
// sets REFRACT_POINTSTO_FULL_JDK (minutes per fixture; for checking the expected results
// against the real library by hand).
fs::path jdk_for_runs() {
  if (std::getenv("REFRACT_POINTSTO_FULL_JDK") != nullptr) {
    if (const auto jdk = frontend::find_default_jdk()) return *jdk;
  }
  return small_jdk();
}

// One analysis: facts of a main class, the insensitive constructors, a driver, the solve; then
// the output relations with their elements named.
class Analysis {
 public:
  explicit Analysis(const fs::path& dir, std::string class_path = kFixtureClasses.string())
      : dir_(dir), class_path_(std::move(class_path)) {}

  // Returns false (after failing the test) if a step did not work.
  bool run(const std::string& main_class, const fs::path& driver) {
    const fs::path facts = dir_ / "facts";
    const RunResult extracted =
        run_refract({"facts", "--classpath", class_path_, "--jdk", jdk_for_runs().string(),
                     "--main", main_class, "--out", facts.string(), "--quiet"},
                    dir_);
    EXPECT_EQ(extracted.exit_code, 0) << extracted.err;
    if (extracted.exit_code != 0) return false;
    const auto bits = [&](const char* domain) {
      return std::to_string(bits_for_size(read_map(facts / (std::string(domain) + ".map")).size()));
    };
    write_file(facts / "Record.tuples", "# H0:" + bits("H") + " C0:1 HC0:1\n* 0 0\n");
    write_file(facts / "Merge.tuples", "# H0:" + bits("H") + " HC0:1 I0:" + bits("I") +
                                           " M0:" + bits("M") + " C0:1 C1:1\n* 0 * * 0 0\n");
    write_file(facts / "MergeStatic.tuples",
               "# I0:" + bits("I") + " M0:" + bits("M") + " C0:1 C1:1\n* * 0 0\n");
    // The driver finds facts.datalog through .basedir (tests/data/pointsto/insens.datalog).
    write_file(facts / "driver.datalog", ".basedir \".\"\n.include \"" + driver.string() + "\"\n");
    const RunResult solved =
        run_refract({"solve", (facts / "driver.datalog").string(), "--input-dir", facts.string(),
                     "--output-dir", (dir_ / "out").string(), "--quiet"},
                    dir_);
    EXPECT_EQ(solved.exit_code, 0) << solved.err;
    if (solved.exit_code != 0) return false;
    for (const char* domain : {"M", "I", "V", "H", "T"}) {
      maps_[domain] = read_map(facts / (std::string(domain) + ".map"));
    }
    return true;
  }

  // The tuples of an output relation, named through the maps of `domains`, one per column.
  std::vector<std::vector<std::string>> result(const std::string& relation,
                                               const std::vector<const char*>& domains) const {
    std::vector<const std::vector<std::string>*> maps;
    for (const char* d : domains) maps.push_back(&maps_.at(d));
    return read_named_tuples(dir_ / "out" / (relation + ".tuples"), maps);
  }

  // The objects var may point to.
  std::set<std::string> points_to(const std::string& var) const {
    std::set<std::string> heaps;
    for (const auto& t : result("VarPointsToI", {"V", "H"}))
      if (t[0] == var) heaps.insert(t[1]);
    return heaps;
  }

 private:
  fs::path dir_;
  std::string class_path_;
  std::map<std::string, std::vector<std::string>> maps_;
};

class InsensRulesTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::string package() const { return "pointsto." + GetParam(); }
  // `<pointsto.NAME.` : how the names of the package's methods, sites and variables start.
  std::string prefix() const { return "<" + package() + "."; }
  bool in_package(const std::string& name) const { return name.rfind(prefix(), 0) == 0; }
  // Objects the pts lines speak of: allocated in the package, the JVM's, string constants and
  // Class objects.
  bool visible_heap(const std::string& heap) const {
    return in_package(heap) || heap.rfind("<jvm>/", 0) == 0 || heap.rfind("\"", 0) == 0 ||
           heap.rfind("<class ", 0) == 0;
  }

  bool analyse() { return analysis_.run(package() + ".Main", kDriver); }
  std::vector<std::vector<std::string>> result(const std::string& relation,
                                               const std::vector<const char*>& domains) const {
    return analysis_.result(relation, domains);
  }

  // EXPECTED.tsv without comments and flavour lines, by kind.
  std::map<std::string, std::vector<Fact>> expected() const {
    std::map<std::string, std::vector<Fact>> by_kind;
    const fs::path file = kPointstoFixtureSources / GetParam() / "EXPECTED.tsv";
    const std::string text = read_file(file);
    EXPECT_FALSE(text.empty()) << "no " << file;
    for (const std::string& line : lines_of(text)) {
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> fields = split_tabs(line);
      const std::string kind = fields[0];
      if (kind.find('@') != std::string::npos) continue;
      fields.erase(fields.begin());
      by_kind[kind].push_back(std::move(fields));
    }
    return by_kind;
  }

  TempDir dir_;
  Analysis analysis_{dir_.path()};
};

// Lists what is in one set and not the other, one per line.
std::string difference(const std::set<Fact>& expected, const std::set<Fact>& actual) {
  std::string out;
  auto line = [](const Fact& f) {
    std::string text;
    for (const std::string& field : f) text += (text.empty() ? "" : "\t") + field;
    return text;
  };
  for (const Fact& f : expected)
    if (!actual.count(f)) out += "  missing:    " + line(f) + "\n";
  for (const Fact& f : actual)
    if (!expected.count(f)) out += "  unexpected: " + line(f) + "\n";
  return out;
}

TEST_P(InsensRulesTest, MatchesTheHandDerivedResults) {
  const auto wanted = expected();
  ASSERT_TRUE(analyse());
  auto wanted_set = [&](const std::string& kind) {
    const auto it = wanted.find(kind);
    return it == wanted.end() ? std::set<Fact>{}
                              : std::set<Fact>(it->second.begin(), it->second.end());
  };

  std::set<Fact> reach;
  for (auto& t : result("ReachableMethod", {"M"}))
    if (in_package(t[0])) reach.insert(t);
  EXPECT_TRUE(wanted_set("reach") == reach) << "reachable methods:\n"
                                            << difference(wanted_set("reach"), reach);

  std::set<Fact> calls;
  for (auto& t : result("CallGraphEdge", {"I", "M"})) {
    if (in_package(t[0]) || (t[0].rfind("<jvm>/", 0) == 0 && in_package(t[1]))) calls.insert(t);
  }
  EXPECT_TRUE(wanted_set("call") == calls) << "call edges:\n"
                                           << difference(wanted_set("call"), calls);

  std::map<std::string, std::set<Fact>> pts;  // of the variables EXPECTED.tsv names
  std::map<std::string, std::set<Fact>> wanted_pts;
  if (auto it = wanted.find("pts"); it != wanted.end()) {
    for (const Fact& f : it->second) {
      ASSERT_EQ(f.size(), 2U) << "a pts line needs VAR and HEAP";
      wanted_pts[f[0]];
      if (f[1] != "-") wanted_pts[f[0]].insert(f);
    }
  }
  for (auto& t : result("VarPointsToI", {"V", "H"})) {
    if (wanted_pts.count(t[0]) && visible_heap(t[1])) pts[t[0]].insert(t);
  }
  for (const auto& [var, heaps] : wanted_pts) {
    EXPECT_TRUE(heaps == pts[var]) << "points-to set of " << var << ":\n"
                                   << difference(heaps, pts[var]);
  }

  std::set<Fact> polymorphic;
  for (auto& t : result("PolymorphicCall", {"I"}))
    if (in_package(t[0])) polymorphic.insert(t);
  EXPECT_TRUE(wanted_set("polymorphic") == polymorphic)
      << "polymorphic calls:\n"
      << difference(wanted_set("polymorphic"), polymorphic);

  std::set<Fact> casts;
  for (auto& t : result("MayFailCast", {"V", "T"}))
    if (in_package(t[0])) casts.insert(t);
  EXPECT_TRUE(wanted_set("mayfailcast") == casts) << "casts that may fail:\n"
                                                  << difference(wanted_set("mayfailcast"), casts);

  std::set<std::string> reachable_methods, unmodelled;
  for (auto& t : result("ReachableMethod", {"M"})) reachable_methods.insert(t[0]);
  for (auto& t : result("UnmodelledNative", {"M"})) unmodelled.insert(t[0]);
  for (const Fact& f : wanted_set("modelled")) {
    EXPECT_TRUE(reachable_methods.count(f[0])) << f[0] << " is not reached";
    EXPECT_FALSE(unmodelled.count(f[0])) << f[0] << " is reported unmodelled";
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, InsensRulesTest,
                         ::testing::Values("fields", "arrays", "statics", "dispatch", "casts",
                                           "exceptions", "clinit", "threads", "finalize", "natives",
                                           "lambdas", "callsite", "objsens", "typesens", "heapctx",
                                           "cloning", "builders", "primarrays", "strings",
                                           "cloningreach", "unsafe"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// The JVM's start-up work (tests/data/pointsto/insens.datalog includes startup.datalog): the
// thread group and thread constructors run on the JVM's objects, initPhase1 runs, and the main
// thread is what Thread.currentThread() returns.
TEST(InsensStartupTest, TheJvmsObjectsAreConstructedAndInitPhase1Runs) {
  TempDir dir;
  Analysis analysis(dir.path());
  ASSERT_TRUE(analysis.run("pointsto.threads.Main",
                           kSourceDir / "tests" / "data" / "pointsto" / "insens.datalog"));
  std::set<std::string> reached;
  for (const auto& t : analysis.result("ReachableMethod", {"M"})) reached.insert(t[0]);
  const std::string group_init = "<java.lang.ThreadGroup: void <init>()>";
  const std::string subgroup_init =
      "<java.lang.ThreadGroup: void <init>(java.lang.ThreadGroup,java.lang.String)>";
  const std::string thread_init =
      "<java.lang.Thread: void <init>(java.lang.ThreadGroup,java.lang.String)>";
  for (const std::string& m :
       {group_init, subgroup_init, thread_init,
        std::string("<java.lang.System: void initPhase1()>"),
        std::string("<pointsto.threads.Main: void main(java.lang.String[])>")}) {
    EXPECT_TRUE(reached.count(m)) << m << " is not reached";
  }
  const std::set<std::string> system_group{"<jvm>/new java.lang.ThreadGroup/0"};
  const std::set<std::string> main_group{"<jvm>/new java.lang.ThreadGroup/1"};
  const std::set<std::string> main_thread{"<jvm>/new java.lang.Thread/0"};
  const std::set<std::string> name{"<jvm>/new java.lang.String/1"};
  EXPECT_EQ(analysis.points_to(group_init + "/this"), system_group);
  EXPECT_EQ(analysis.points_to(subgroup_init + "/this"), main_group);
  EXPECT_EQ(analysis.points_to(subgroup_init + "/parent"), system_group);
  EXPECT_EQ(analysis.points_to(subgroup_init + "/name"), name);
  EXPECT_EQ(analysis.points_to(thread_init + "/this"), main_thread);
  EXPECT_EQ(analysis.points_to(thread_init + "/group"), main_group);
  EXPECT_EQ(analysis.points_to(thread_init + "/name"), name);
  const auto current =
      analysis.points_to("<pointsto.threads.Main: void main(java.lang.String[])>/cur");
  EXPECT_TRUE(current.count("<jvm>/new java.lang.Thread/0"));
}

// Deserialization's writes (pointsto/rules/natives.datalog, DeserializingWrite): of the objects
// the values array may hold, the field gets those of Serializable classes only. The stand-in
// FieldReflector is read from tests/fixtures/java-base's class folder.
TEST(InsensDeserializationTest, AFieldGetsOnlySerializableValues) {
  TempDir dir;
  Analysis analysis(dir.path(),
                    kFixtureClasses.string() + ":" + std::string(REFRACT_FIXTURE_JAVA_BASE));
  ASSERT_TRUE(analysis.run("pointsto.deserialize.Main",
                           kSourceDir / "tests" / "data" / "pointsto" / "insens.datalog"));
  const std::string main = "<pointsto.deserialize.Main: void main(java.lang.String[])>";
  EXPECT_EQ(analysis.points_to(main + "/value"),
            std::set<std::string>{main + "/new pointsto.deserialize.Kept/0"});
}

}  // namespace
}  // namespace refract::test
