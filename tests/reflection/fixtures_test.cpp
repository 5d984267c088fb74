// The reflection fixtures (tests/fixtures/java/reflection, README.md there) under the modes of
// `refract analyze --reflection` (issue 31):
// - each fixture's hand-derived EXPECTED.tsv holds under `strings`, `probe` and `solar`: the
//   targets of each site listed, with a rule that found them, the call edges, and exactly the
//   sites flagged possibly unsound; together the fixtures show a site `strings` misses and
//   `probe` finds, one `probe` misses and `solar` finds, and one `solar` flags as unsound;
// - the dynamic oracle: run on the JVM, each fixture prints the members it reaches
//   reflectively, and `solar` finds every one, under `insens` and under `2-obj+H`;
// - merging string constants changes no reflective target (seed 003 Sec. 5).
#include <gtest/gtest.h>

#include <sstream>

#include "frontend/class_path.hpp"
#include "reflection/reflection_fixture.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

const char* const kFixtures[] = {"forname"};
const char* const kModes[] = {"strings", "probe", "solar"};

struct Expectation {
  std::string kind;                 // target, call, nocall, unsound
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

// Checks a fixture's EXPECTED.tsv lines for `mode` against a finished run.
void check_expectations(const std::string& fixture, const std::string& mode,
                        const ReflectionResult& r) {
  const std::string package = "<reflection." + fixture + ".";
  std::map<std::string, std::map<std::string, std::string>> targets;  // site -> target -> rule
  std::set<std::string> unsound;
  const auto edges = call_edges(r.out);
  for (const Expectation& e : expectations(fixture)) {
    if (e.modes.count(mode) == 0) continue;
    if (e.kind == "target") {
      auto& site = targets[e.fields.at(0)];
      if (e.fields.at(1) != "-") site[e.fields.at(1)] = e.fields.at(2);
    } else if (e.kind == "call") {
      EXPECT_EQ(edges.count({e.fields.at(0), e.fields.at(1)}), 1u)
          << mode << ": missing call edge " << e.fields.at(0) << " -> " << e.fields.at(1);
    } else if (e.kind == "nocall") {
      EXPECT_EQ(edges.count({e.fields.at(0), e.fields.at(1)}), 0u)
          << mode << ": unexpected call edge " << e.fields.at(0) << " -> " << e.fields.at(1);
    } else if (e.kind == "unsound") {
      unsound.insert(e.fields.at(0));
    } else {
      ADD_FAILURE() << "unknown kind " << e.kind;
    }
  }
  for (const auto& [site, expected] : targets) {
    const auto found = r.sites.find(site);
    ASSERT_NE(found, r.sites.end()) << mode << ": site not reached: " << site;
    std::set<std::string> got, want;
    for (const auto& [target, rules] : found->second.targets) got.insert(target);
    for (const auto& [target, rule] : expected) {
      want.insert(target);
      const auto t = found->second.targets.find(target);
      if (t != found->second.targets.end()) {
        EXPECT_EQ(t->second.count(rule), 1u)
            << mode << ": " << site << " -> " << target << " not by " << rule;
      }
    }
    EXPECT_EQ(got, want) << mode << ": targets of " << site << ":"
                         << listing(found->second.targets);
  }
  std::set<std::string> flagged;
  for (const auto& [site, result] : r.sites)
    if (result.possibly_unsound && site.rfind(package, 0) == 0) flagged.insert(site);
  EXPECT_EQ(flagged, unsound) << mode << ": possibly unsound sites";
}

class ReflectionFixtureTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ReflectionFixtureTest, ExpectedTargetsHoldUnderEachMode) {
  TempDir dir;
  for (const char* mode : kModes) {
    const auto result = analyze_fixture(dir, GetParam(), mode);
    ASSERT_TRUE(result);
    check_expectations(GetParam(), mode, *result);
  }
}

// What the fixture prints when it runs on the machine's JDK: (kind, target) pairs.
std::set<std::pair<std::string, std::string>> oracle(const TempDir& dir,
                                                     const std::string& fixture) {
  const auto jdk = frontend::find_default_jdk();
  if (!jdk) throw std::runtime_error("no JDK 17 (scripts/setup-debian.sh installs it)");
  const RunResult run =
      run_program({(*jdk / "bin" / "java").string(), "-cp", fixture_jar(fixture).string(),
                   "reflection." + fixture + ".Main"},
                  dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::set<std::pair<std::string, std::string>> seen;
  for (const std::string& line : lines_of(run.out)) {
    const std::vector<std::string> fields = split_tabs(line);
    if (fields.size() == 3 && fields[0] == "oracle") seen.insert({fields[1], fields[2]});
  }
  return seen;
}

void expect_oracle_found(const std::set<std::pair<std::string, std::string>>& seen,
                         const ReflectionResult& r, const std::string& what) {
  for (const auto& [kind, target] : seen) {
    bool found = false;
    for (const auto& [site, result] : r.sites)
      found |= result.kind == kind && result.targets.count(target) != 0;
    EXPECT_TRUE(found) << what << ": the run reached " << kind << " " << target
                       << ", which solar does not find at any " << kind << " site";
  }
}

TEST_P(ReflectionFixtureTest, SolarFindsEveryTargetTheJvmRunReaches) {
  TempDir dir;
  const auto seen = oracle(dir, GetParam());
  EXPECT_FALSE(seen.empty()) << "the fixture printed no oracle line";
  for (const char* flavour : {"insens", "2-obj+H"}) {
    const auto result = analyze_fixture(dir, GetParam(), "solar", flavour);
    ASSERT_TRUE(result);
    expect_oracle_found(seen, *result, flavour);
  }
}

TEST_P(ReflectionFixtureTest, StringMergingChangesNoReflectiveTarget) {
  TempDir dir;
  const auto colored = analyze_fixture(dir, GetParam(), "solar", "insens");
  const auto plain =
      analyze_fixture(dir, GetParam(), "solar", "insens", {"--string-merging", "none"});
  ASSERT_TRUE(colored && plain);
  ASSERT_EQ(colored->sites.size(), plain->sites.size());
  for (const auto& [site, result] : colored->sites) {
    EXPECT_EQ(result.targets, plain->sites.at(site).targets) << site;
  }
  EXPECT_EQ(call_edges(colored->out), call_edges(plain->out));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ReflectionFixtureTest, ::testing::ValuesIn(kFixtures),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace refract::test
