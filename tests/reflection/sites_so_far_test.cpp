// reflection/sites_so_far.cpp through `refract analyze`: a reflective run stopped at a limit
// ranks the call sites by what its inference had derived (OUT/reflection.at-stop.txt), so that
// a program too large to finish still says which sites to annotate (Solar paper, Sec. 7.4).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "reflection/reflection_fixture.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

// Lazy heap modelling's fixture: newInstance sites whose objects casts type ([L-Cast]).
const char* const kLazyFixture = "lazy";

RunResult analyze_lazy(const TempDir& dir, const std::string& name,
                       const std::vector<std::string>& extra, bool quiet = true) {
  std::vector<std::string> args = fixture_analyze_command(kLazyFixture, dir.path() / name);
  if (!quiet) args.erase(std::find(args.begin(), args.end(), "--quiet"));
  // a fixture's BDDs are small: a small table is quicker to set up (analyze_fixture's sizes)
  args.insert(args.end(), {"--reflection", "solar", "--nodes", "300000", "--cache", "30000"});
  args.insert(args.end(), extra.begin(), extra.end());
  return run_refract(args, dir.path());
}

// The rule evaluations a whole run made, from its --rule-stats profile.
std::uint64_t evaluations_of(const fs::path& profile) {
  const JsonValue document = JsonReader(read_file(profile)).document();
  std::uint64_t total = 0;
  for (const JsonValue& rule : document.at("rules").array())
    total += static_cast<std::uint64_t>(rule.at("evaluations").number());
  return total;
}

struct Ranked {
  std::uint64_t lazy = 0, targets = 0;
  std::string kind;
};

// The ranked lines of reflection.at-stop.txt: rank, lazy, targets, `site  (kind, line)`; site ->
// counts, in rank order.
std::vector<std::pair<std::string, Ranked>> ranked_sites(const std::string& text) {
  std::vector<std::pair<std::string, Ranked>> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string rank, lazy, targets, rest;
    const auto number = [](const std::string& f) {
      return !f.empty() && f.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!std::getline(fields, rank, '\t') || !number(rank) || !std::getline(fields, lazy, '\t') ||
        !std::getline(fields, targets, '\t') || !std::getline(fields, rest))
      continue;
    const std::size_t open = rest.find("  (");
    const std::size_t comma = rest.find(", ", open);
    Ranked r{std::stoull(lazy), std::stoull(targets), rest.substr(open + 3, comma - open - 3)};
    out.emplace_back(rest.substr(0, open), r);
  }
  return out;
}

std::uint64_t measure(const Ranked& r) {
  return r.kind == "Class.newInstance" || r.kind == "Constructor.newInstance" ? r.lazy : r.targets;
}

// The lines under a ranked site of reflection.at-stop.txt, up to the next ranked site: where
// its casts and metaobjects came from.
std::string block_of(const std::string& text, const std::string& site_line) {
  const std::size_t start = text.find(site_line);
  if (start == std::string::npos) return "";
  std::size_t end = text.find('\n', start);
  while (end != std::string::npos && end + 1 < text.size() && text[end + 1] == '\t')
    end = text.find('\n', end + 1);
  return text.substr(start, end == std::string::npos ? std::string::npos : end + 1 - start);
}

// Stopped halfway through a whole run's rule evaluations, the run exits 4 with no results and
// ranks sites the whole run reports, most spread first; the same limit gives the same file
// (the limit counts work, not seconds), and a later stop ranks every site with at least as
// much, since a stopped run's relations only grow towards the fixpoint.
TEST(SitesSoFarTest, AStoppedSolarRunRanksTheSitesItReachedTheSameEveryTime) {
  TempDir dir;
  const fs::path profile = dir.path() / "rules.json";
  const RunResult whole = analyze_lazy(dir, "whole", {"--rule-stats", profile.string()});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_FALSE(fs::exists(dir.path() / "whole" / "reflection.at-stop.txt"));
  const auto reported = read_reflection_json(dir.path() / "whole" / "reflection.json");
  const std::uint64_t evaluations = evaluations_of(profile);
  ASSERT_GT(evaluations, 100U);

  const auto stop_at = [&](const std::string& name, std::uint64_t limit, bool quiet = true) {
    const RunResult run =
        analyze_lazy(dir, name, {"--evaluation-limit", std::to_string(limit)}, quiet);
    EXPECT_EQ(run.exit_code, 4) << run.err;
    EXPECT_NE(run.err.find("evaluation limit of " + std::to_string(limit)), std::string::npos)
        << run.err;
    // the file's two phases say how long they took; --quiet keeps them quiet
    for (const char* phase : {"[at-stop] writing ", " sites with targets ranked in ",
                              "[at-stop] the metaobject sources of "})
      EXPECT_EQ(run.err.find(phase) != std::string::npos, !quiet) << phase << "\n" << run.err;
    EXPECT_FALSE(fs::exists(dir.path() / name / "reflection.json"));
    EXPECT_FALSE(fs::exists(dir.path() / name / "reachable-methods.txt"));
    return read_file(dir.path() / name / "reflection.at-stop.txt");
  };
  const std::string early = stop_at("early", evaluations / 4);
  const std::string half = stop_at("half", evaluations / 2);
  EXPECT_EQ(stop_at("again", evaluations / 2, /*quiet=*/false), half);
  EXPECT_NE(half.find("mode solar"), std::string::npos) << half;
  EXPECT_NE(half.find("STOPPED: evaluation limit of"), std::string::npos) << half;

  const auto ranked = ranked_sites(half);
  ASSERT_FALSE(ranked.empty()) << half;
  for (std::size_t k = 0; k < ranked.size(); ++k) {
    const auto& [site, counts] = ranked[k];
    EXPECT_EQ(reported.count(site), 1U) << site;
    EXPECT_GT(counts.targets, 0U) << site;
    if (k > 0) {
      EXPECT_GE(measure(ranked[k - 1].second), measure(counts)) << site;
    }
  }
  // the fixture's newInstance objects are typed at casts halfway through
  EXPECT_TRUE(std::any_of(ranked.begin(), ranked.end(), [](const auto& r) {
    return r.second.lazy > 0;
  })) << half;
  EXPECT_NE(half.find(" classes at ("), std::string::npos) << half;
  // Stopped after the main fixpoint, each side-effect call lists the calls that returned its
  // metaobjects (Main.java): [P-GetMtd] and [P-GetFld] on known classes, and getConstructor
  // on the c^u of a forName with a name built at run time, which is listed with it: Fig. 14's
  // annotation sites, which a stopped run's locater never computes.
  const std::string last = stop_at("last", evaluations - 1);
  const std::string main = "<reflection.lazy.Main: void main(java.lang.String[])>/";
  const auto sources_of = [&](const std::string& site) { return block_of(last, main + site); };
  EXPECT_NE(sources_of("java.lang.reflect.Method.invoke/0  (Method.invoke, line 29)")
                .find("1 at " + main + "java.lang.Class.getMethod/0  (Class.getMethod, line 27)\n"),
            std::string::npos)
      << last;
  EXPECT_NE(sources_of("java.lang.reflect.Field.getInt/0  (Field.get*, line 36)")
                .find("1 at " + main + "java.lang.Class.getField/0  (Class.getField, line 34)\n"),
            std::string::npos)
      << last;
  EXPECT_NE(
      sources_of("java.lang.reflect.Constructor.newInstance/0  (Constructor.newInstance, line 47)")
          .find(" at " + main +
                "java.lang.Class.getConstructor/0  (Class.getConstructor, line 45); on unknown "
                "classes from " +
                main + "java.lang.Class.forName/3\n"),
      std::string::npos)
      << last;
  const auto later = std::map<std::string, Ranked>(ranked.begin(), ranked.end());
  for (const auto& [site, counts] : ranked_sites(early)) {
    ASSERT_EQ(later.count(site), 1U) << site;
    EXPECT_GE(later.at(site).targets, counts.targets) << site;
    EXPECT_GE(later.at(site).lazy, counts.lazy) << site;
  }
}

// A nonsense limit is a usage error naming the option.
TEST(SitesSoFarTest, ABadEvaluationLimitIsAUsageError) {
  TempDir dir;
  for (const char* value : {"0", "-3", "many", "1.5"}) {
    const RunResult run = analyze_lazy(dir, "out", {"--evaluation-limit", value});
    EXPECT_EQ(run.exit_code, 2) << value << ": " << run.err;
    EXPECT_NE(run.err.find("evaluation-limit"), std::string::npos) << value << ": " << run.err;
  }
}

}  // namespace
}  // namespace refract::test
