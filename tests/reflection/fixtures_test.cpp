// The reflection fixtures (tests/fixtures/java/reflection, README.md there) under the modes of
// `refract analyze --reflection` (issue 31). One test per fixture, so that each run serves
// every check that reads it (the runs are what costs):
// - the hand-derived EXPECTED.tsv holds under `strings`, `probe`, `solar` and the further modes
//   it names (`annotated`, `tamiflex`, `solar+tamiflex`): the targets of each site listed, with
//   a rule that found them, the call edges, exactly the sites flagged possibly unsound and the
//   calls the report says to annotate for them; together the fixtures show a site `strings`
//   misses and `probe` finds, one `probe` misses and `solar` finds, and one `solar` flags;
//   exactly the sites ranked possibly imprecise, with their measures (Sec. 7.4);
// - each run's exports agree with its reflection.json: OUT/refl.log holds one line per target
//   of the Soot kinds and reads back, OUT/reflection.txt lists the flagged sites with the calls
//   to annotate;
// - the dynamic oracle: run on the JVM, each fixture prints the members it reaches
//   reflectively, and `solar` finds every one under `insens`, `2-obj+H` and `cloning`, or the
//   fixture's EXPECTED.tsv says which flagged site stands for it (`oracle-missed`);
// - DESIGN.md's invariants under solar: the deep flavour's and cloning's projected call edges
//   and reflective targets are among the insensitive ones; a second variable order changes no
//   result, and merging string constants changes no reflective target (seed 003 Sec. 5): the
//   deep flavour's run with the default order and `--string-merging coloring` gives what its
//   run with the other order and `none` gives.
#include <gtest/gtest.h>

#include <sstream>

#include "frontend/class_path.hpp"
#include "reflection/api.hpp"
#include "reflection/reflection_fixture.hpp"
#include "reflection/tamiflex_log.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

const char* const kFixtures[] = {"forname", "getmethod", "fields",     "constructors",
                                 "invtp",   "invsig",    "invs2t",     "fieldinfer",
                                 "lazy",    "arrays",    "hierarchy",  "unsound",
                                 "offsets", "access",    "reflective", "loaders"};
const char* const kBaseModes[] = {"strings", "probe", "solar"};
// The deep flavour of the oracle's second run and of the invariants.
const char* const kDeepFlavour = "2-obj+H";
// An order that moves the context domains before V and F (tests/pointsto/flavours_test.cpp's).
const char* const kOtherOrder = "T0xT1_Z0_M0xM1_I0xC0xC1xHC0xHC1xH0xH1_F0_V1xV0";

struct Expectation {
  std::string kind;                 // target, call, nocall, unsound, annotate-*, oracle-missed
  std::set<std::string> modes;      // the modes it holds for
  std::vector<std::string> fields;  // what follows the kind
};

std::vector<Expectation> expectations(const std::string& fixture) {
  std::vector<Expectation> out;
  for (const std::string& line :
       lines_of(read_file(kReflectionFixtureSources / fixture / "EXPECTED.tsv"))) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = split_tabs(line);
    const std::size_t at = fields[0].find('@');
    if (at == std::string::npos) throw std::runtime_error("no @MODES in: " + line);
    Expectation e;
    e.kind = fields[0].substr(0, at);
    std::stringstream modes(fields[0].substr(at + 1));
    for (std::string mode; std::getline(modes, mode, ',');) e.modes.insert(mode);
    e.fields.assign(fields.begin() + 1, fields.end());
    out.push_back(std::move(e));
  }
  return out;
}

// The modes a fixture runs in: the three of every fixture, then those its EXPECTED.tsv names.
std::vector<std::string> modes_of(const std::string& fixture) {
  std::vector<std::string> modes(std::begin(kBaseModes), std::end(kBaseModes));
  for (const Expectation& e : expectations(fixture))
    for (const std::string& mode : e.modes)
      if (std::find(modes.begin(), modes.end(), mode) == modes.end()) modes.push_back(mode);
  return modes;
}

std::set<std::vector<std::string>> call_edges(const fs::path& out) {
  std::set<std::vector<std::string>> edges;
  for (const std::string& line : lines_of(read_file(out / "call-edges.tsv")))
    if (!line.empty()) edges.insert(split_tabs(line));
  return edges;
}

std::string listing(const std::map<std::string, std::set<std::string>>& targets) {
  std::string out;
  for (const auto& [target, rules] : targets) {
    out += "\n  " + target + " [";
    for (const std::string& r : rules) out += r + " ";
    out += "]";
  }
  return out.empty() ? " (none)" : out;
}

bool in_fixture(const std::string& fixture, const std::string& site) {
  return site.rfind("<reflection." + fixture + ".", 0) == 0;
}

// Checks a fixture's EXPECTED.tsv lines for `mode` against a finished run.
void check_expectations(const std::string& fixture, const std::string& mode,
                        const ReflectionResult& r) {
  std::map<std::string, std::map<std::string, std::set<std::string>>> targets;  // site -> rules
  std::set<std::string> unsound;
  std::map<std::string, std::uint64_t> imprecise;
  std::map<std::string, std::set<std::string>> lookups, entries;
  const auto edges = call_edges(r.out);
  for (const Expectation& e : expectations(fixture)) {
    if (e.modes.count(mode) == 0) continue;
    if (e.kind == "target") {
      auto& site = targets[e.fields.at(0)];
      if (e.fields.at(1) != "-") site[e.fields.at(1)].insert(e.fields.at(2));
    } else if (e.kind == "call") {
      EXPECT_EQ(edges.count({e.fields.at(0), e.fields.at(1)}), 1u)
          << mode << ": missing call edge " << e.fields.at(0) << " -> " << e.fields.at(1);
    } else if (e.kind == "nocall") {
      EXPECT_EQ(edges.count({e.fields.at(0), e.fields.at(1)}), 0u)
          << mode << ": unexpected call edge " << e.fields.at(0) << " -> " << e.fields.at(1);
    } else if (e.kind == "unsound") {
      unsound.insert(e.fields.at(0));
    } else if (e.kind == "imprecise") {
      imprecise[e.fields.at(0)] = std::stoull(e.fields.at(1));
    } else if (e.kind == "annotate-lookup") {
      lookups[e.fields.at(0)].insert(e.fields.at(1));
    } else if (e.kind == "annotate-entry") {
      entries[e.fields.at(0)].insert(e.fields.at(1));
    } else if (e.kind != "oracle-missed") {
      ADD_FAILURE() << "unknown kind " << e.kind;
    }
  }
  for (const auto& [site, expected] : targets) {
    const auto found = r.sites.find(site);
    ASSERT_NE(found, r.sites.end()) << mode << ": site not reached: " << site;
    std::set<std::string> got, want;
    for (const auto& [target, rules] : found->second.targets) got.insert(target);
    for (const auto& [target, rules] : expected) {
      want.insert(target);
      const auto t = found->second.targets.find(target);
      if (t == found->second.targets.end()) continue;
      for (const std::string& rule : rules) {
        EXPECT_EQ(t->second.count(rule), 1u)
            << mode << ": " << site << " -> " << target << " not by " << rule;
      }
    }
    EXPECT_EQ(got, want) << mode << ": targets of " << site << ":"
                         << listing(found->second.targets);
  }
  std::set<std::string> flagged;
  for (const auto& [site, result] : r.sites) {
    if (!result.possibly_unsound || !in_fixture(fixture, site)) continue;
    flagged.insert(site);
    EXPECT_EQ(result.annotate_lookups, lookups[site]) << mode << ": lookups to annotate " << site;
    EXPECT_EQ(result.annotate_entries, entries[site]) << mode << ": entries to annotate " << site;
  }
  EXPECT_EQ(flagged, unsound) << mode << ": possibly unsound sites";
  // Sec. 7.4's ranking: newInstance sites by the types [L-Cast] made (EXPECTED.tsv's
  // `imprecise` lines), the other side-effect sites by their targets (its `target` lines)
  for (const auto& [site, expected] : targets) {
    const auto found = r.sites.find(site);
    if (found == r.sites.end()) continue;
    const auto kind = reflection::kind_from_log_name(found->second.kind);
    ASSERT_TRUE(kind) << found->second.kind;
    const bool by_casts = *kind == reflection::ApiKind::kClassNewInstance ||
                          *kind == reflection::ApiKind::kConstructorNewInstance;
    if (reflection::is_side_effect(*kind) && !by_casts && expected.size() > 1)
      imprecise[site] = expected.size();
  }
  std::map<std::string, std::uint64_t> ranked;
  for (const auto& [site, measure] : r.imprecise)
    if (in_fixture(fixture, site)) ranked[site] = measure;
  EXPECT_EQ(ranked, imprecise) << mode << ": possibly imprecise sites and their measures";
}

// TamiFlex's CALLER of a Soot method signature: `a.B.name`, without Soot's quotes.
std::string log_caller(const std::string& signature) {
  const std::size_t colon = signature.find(": ");
  const std::size_t paren = signature.find('(');
  const std::size_t space = signature.rfind(' ', paren);
  std::string caller =
      signature.substr(1, colon - 1) + "." + signature.substr(space + 1, paren - space - 1);
  std::erase(caller, '\'');
  return caller;
}

// OUT/refl.log reads back and holds one line per target of a site of Soot's kinds.
void check_refl_log(const ReflectionResult& r, const std::string& what) {
  using Line = std::tuple<std::string, std::string, std::string, std::optional<std::uint32_t>>;
  std::set<Line> want;
  for (const auto& [site, result] : r.sites) {
    if (!reflection::is_soot_log_kind(result.kind)) continue;
    for (const auto& [target, rules] : result.targets)
      want.insert({result.kind, target, log_caller(result.caller), result.line});
  }
  std::vector<reflection::LogEntry> entries;
  ASSERT_NO_THROW(entries = reflection::read_tamiflex_log(r.out / "refl.log")) << what;
  std::set<Line> got;
  for (const reflection::LogEntry& e : entries)
    got.insert({e.kind_text, e.target, e.caller, e.line});
  EXPECT_EQ(got.size(), entries.size()) << what << ": refl.log repeats a line";
  EXPECT_EQ(got, want) << what << ": refl.log against reflection.json";
}

// OUT/reflection.txt's "Possibly unsound" part: each flagged site, then the calls to annotate
// for it ("annotate lookup: SITE", "annotate entry:  SITE"), as reflection.json has them.
void check_report_text(const ReflectionResult& r, const std::string& what) {
  std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> listed, want;
  bool in_part = false;
  std::string current;
  for (const std::string& line : lines_of(read_file(r.out / "reflection.txt"))) {
    if (line.rfind("== ", 0) == 0) {
      in_part = line.rfind("== Possibly unsound:", 0) == 0;
      continue;
    }
    if (!in_part || line.empty()) continue;
    if (line[0] != ' ') {
      current = line.substr(0, line.find("  ("));
      listed[current];
    } else if (line.rfind("    annotate lookup: ", 0) == 0) {
      listed[current].first.insert(line.substr(21));
    } else if (line.rfind("    annotate entry:  ", 0) == 0) {
      listed[current].second.insert(line.substr(21));
    }
  }
  for (const auto& [site, result] : r.sites)
    if (result.possibly_unsound) want[site] = {result.annotate_lookups, result.annotate_entries};
  EXPECT_EQ(listed, want) << what << ": reflection.txt's possibly unsound sites";
}

// What the fixture prints when it runs on the machine's JDK: (kind, target) pairs.
std::set<std::pair<std::string, std::string>> oracle(const TempDir& dir,
                                                     const std::string& fixture) {
  const auto jdk = frontend::find_default_jdk();
  if (!jdk) throw std::runtime_error("no JDK 17 (scripts/setup-debian.sh installs it)");
  const RunResult run =
      run_program({(*jdk / "bin" / "java").string(),
                   // the offsets fixture uses jdk.internal.misc.Unsafe and
                   // jdk.internal.reflect.ReflectionFactory, as the JDK does
                   "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--add-exports",
                   "java.base/jdk.internal.reflect=ALL-UNNAMED", "-cp",
                   fixture_jar(fixture).string(), "reflection." + fixture + ".Main"},
                  dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::set<std::pair<std::string, std::string>> seen;
  for (const std::string& line : lines_of(run.out)) {
    const std::vector<std::string> fields = split_tabs(line);
    if (fields.size() == 3 && fields[0] == "oracle") seen.insert({fields[1], fields[2]});
  }
  return seen;
}

// Each (kind, target) the JVM run reached is a target of a site of that kind, or EXPECTED.tsv
// says which site stands for it (`oracle-missed@solar KIND TARGET SITE`), and the run flags
// that site as possibly unsound (DESIGN.md: found, or its call site is in Solar's list).
void expect_oracle_found(const std::string& fixture,
                         const std::set<std::pair<std::string, std::string>>& seen,
                         const ReflectionResult& r, const std::string& what) {
  std::map<std::pair<std::string, std::string>, std::string> missed;
  for (const Expectation& e : expectations(fixture))
    if (e.kind == "oracle-missed" && e.modes.count("solar"))
      missed[{e.fields.at(0), e.fields.at(1)}] = e.fields.at(2);
  for (const auto& [kind, target] : seen) {
    bool found = false;
    for (const auto& [site, result] : r.sites)
      found |= result.kind == kind && result.targets.count(target) != 0;
    const auto excused = missed.find({kind, target});
    if (excused == missed.end()) {
      EXPECT_TRUE(found) << what << ": the run reached " << kind << " " << target
                         << ", which solar does not find at any " << kind << " site";
      continue;
    }
    EXPECT_FALSE(found) << what << ": " << kind << " " << target
                        << " is found, but EXPECTED.tsv says it is missed";
    const auto site = r.sites.find(excused->second);
    EXPECT_TRUE(site != r.sites.end() && site->second.possibly_unsound)
        << what << ": " << kind << " " << target << " is missed and " << excused->second
        << " is not flagged possibly unsound";
  }
  for (const auto& [reached, site] : missed)
    EXPECT_TRUE(seen.count(reached))
        << "oracle-missed names what the run did not reach: " << reached.first << " "
        << reached.second;
}

// Every call edge and every reflective target of `narrow` is one of `wide`.
void expect_among(const ReflectionResult& narrow, const ReflectionResult& wide,
                  const std::string& what) {
  const auto wide_edges = call_edges(wide.out);
  for (const auto& edge : call_edges(narrow.out))
    EXPECT_TRUE(wide_edges.count(edge)) << what << ": call edge " << edge[0] << " -> " << edge[1];
  for (const auto& [site, result] : narrow.sites) {
    const auto other = wide.sites.find(site);
    ASSERT_NE(other, wide.sites.end()) << what << ": site " << site;
    for (const auto& [target, rules] : result.targets)
      EXPECT_TRUE(other->second.targets.count(target)) << what << ": " << site << " -> " << target;
  }
}

// Two runs agree on every site's targets and flags, the call edges and callgraph.json.
void expect_same_results(const ReflectionResult& a, const ReflectionResult& b,
                         const std::string& what) {
  ASSERT_EQ(a.sites.size(), b.sites.size()) << what;
  for (const auto& [site, result] : a.sites) {
    const auto other = b.sites.find(site);
    ASSERT_NE(other, b.sites.end()) << what << ": site " << site;
    EXPECT_EQ(result.targets, other->second.targets) << what << ": " << site;
    EXPECT_EQ(result.possibly_unsound, other->second.possibly_unsound) << what << ": " << site;
  }
  EXPECT_EQ(call_edges(a.out), call_edges(b.out)) << what;
  EXPECT_EQ(read_file(a.out / "callgraph.json"), read_file(b.out / "callgraph.json")) << what;
}

class ReflectionFixtureTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ReflectionFixtureTest, ExpectedResultsOracleAndInvariantsHold) {
  const std::string fixture = GetParam();
  TempDir dir;
  std::map<std::string, ReflectionResult> runs;
  for (const std::string& mode : modes_of(fixture)) {
    SCOPED_TRACE("mode " + mode);
    const auto result = analyze_fixture(dir, fixture, mode);
    ASSERT_TRUE(result);
    check_expectations(fixture, mode, *result);
    check_refl_log(*result, mode);
    check_report_text(*result, mode);
    runs.emplace(mode, *result);
  }
  const ReflectionResult& solar = runs.at("solar");
  const auto deep = analyze_fixture(dir, fixture, "solar", kDeepFlavour);
  ASSERT_TRUE(deep);
  // Cloning's reflective edges stay on the fly, beside its numbered call graph.
  const auto cloned = analyze_fixture(dir, fixture, "solar", "cloning");
  ASSERT_TRUE(cloned);
  {
    SCOPED_TRACE("dynamic oracle");
    const auto seen = oracle(dir, fixture);
    EXPECT_FALSE(seen.empty()) << "the fixture printed no oracle line";
    expect_oracle_found(fixture, seen, solar, "insens");
    expect_oracle_found(fixture, seen, *deep, kDeepFlavour);
    expect_oracle_found(fixture, seen, *cloned, "cloning");
  }
  {
    SCOPED_TRACE("invariants");
    expect_among(*deep, solar, std::string(kDeepFlavour) + " among insens");
    expect_among(*cloned, solar, "cloning among insens");
    // One run for two invariants (a run is what the suite's time goes to): neither a second
    // variable order nor keeping every string constant apart changes a result.
    const auto reordered = analyze_fixture(dir, fixture, "solar", kDeepFlavour,
                                           {"--order", kOtherOrder, "--string-merging", "none"});
    ASSERT_TRUE(reordered);
    expect_same_results(*deep, *reordered,
                        "a second variable order, --string-merging none against coloring");
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ReflectionFixtureTest, ::testing::ValuesIn(kFixtures),
                         [](const auto& info) { return std::string(info.param); });

// A --reflection-budget so small that Solar stops before its first rule, whatever the machine
// (solving anything takes longer than a nanosecond): the run still succeeds, its results are
// Probe's (the fixture's probe expectations hold, where solar's differ), and reflection.json
// and stats.json say that Probe ran and why; reflection.at-stop.txt ranks where Solar had got.
TEST(ReflectionBudgetTest, SolarOutOfBudgetGivesProbesResultsAndSaysWhy) {
  TempDir dir;
  const auto r = analyze_fixture(dir, "invs2t", "solar", "insens", {"--reflection-budget", "1e-9"});
  ASSERT_TRUE(r);
  check_expectations("invs2t", "probe", *r);
  const JsonValue report = JsonReader(read_file(r->out / "reflection.json")).document();
  EXPECT_EQ(report.at("mode").string(), "probe");
  ASSERT_TRUE(report.at("notice").is_string());
  const std::string notice = report.at("notice").string();
  EXPECT_NE(notice.find("reflection budget"), std::string::npos) << notice;
  EXPECT_NE(read_file(r->out / "reflection.txt").find("NOTE: " + notice), std::string::npos);
  // where Solar had got to when its budget ran out: what to annotate for it to finish
  const std::string at_stop = read_file(r->out / "reflection.at-stop.txt");
  EXPECT_NE(at_stop.find("mode solar"), std::string::npos) << at_stop;
  EXPECT_NE(at_stop.find("STOPPED: time limit of"), std::string::npos) << at_stop;
  const JsonValue stats = JsonReader(read_file(r->out / "stats.json")).document();
  EXPECT_EQ(stats.at("reflection").at("mode").string(), "solar");
  EXPECT_EQ(stats.at("reflection").at("ran").string(), "probe");
  EXPECT_EQ(stats.at("reflection").at("notice").string(), notice);
}

// A `never` annotation on a ClassLoader.loadClass says the call never runs, so it returns
// nothing, whatever the loader's own loadClass would (fixture loaders: Relay passes the name
// on, an entry call on a name it cannot know, which makes c^u). Before, only a `class`
// annotation cut the loader's result, and the c^u reached `(Shape) loaded.newInstance()`,
// where [L-Cast] made Circle and Square.
TEST(ReflectionAnnotationsTest, ANeverLoadClassReturnsNothingWhateverItsLoaderReturns) {
  TempDir dir;
  const std::string main = "<reflection.loaders.Main: void main(java.lang.String[])>/";
  const fs::path annotations = dir.path() / "never.tsv";
  write_file(annotations, main + "java.lang.ClassLoader.loadClass/0\tnever\n");
  const auto r = analyze_fixture(dir, "loaders", "solar", "insens",
                                 {"--reflection-annotations", annotations.string()});
  ASSERT_TRUE(r);
  const auto site = r->sites.find(main + "java.lang.Class.newInstance/0");
  ASSERT_NE(site, r->sites.end());
  EXPECT_TRUE(site->second.targets.empty()) << site->second.targets.begin()->first;
  const std::string edges = read_file(r->out / "call-edges.tsv");
  EXPECT_EQ(edges.find("<reflection.loaders.Circle: void <init>()>"), std::string::npos);
  EXPECT_EQ(edges.find("<reflection.loaders.Square: void <init>()>"), std::string::npos);
}

}  // namespace
}  // namespace refract::test
