// `refract analyze` with its JDK cache and `refract cache` end to end (issue 35;
// cli/jdk_cache.hpp), on the small JDK of the points-to tests: every output the same with and
// without the cache, cold and warm; a corrupt entry found, reported and rebuilt; a changed rule
// file a new entry; the cache on by default and off with --no-cache; `cache list` and
// `cache clear`.
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/fixture_paths.hpp"
#include "cli/run_refract.hpp"
#include "exporters/json_reader.hpp"
#include "pointsto/small_jdk.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

class JdkCacheTest : public ::testing::Test {
 protected:
  // The `fields` fixture (or `main`) under insens without reflection, into `out`, with `extra`
  // options.
  RunResult analyze(const std::string& out, const std::vector<std::string>& extra,
                    const std::string& main = "pointsto.fields.Main") {
    std::vector<std::string> args = {"analyze",
                                     "--jdk",
                                     small_jdk().string(),
                                     "--classpath",
                                     kFixtureClasses.string(),
                                     "--main",
                                     main,
                                     "--reflection",
                                     "none",
                                     "--out",
                                     (dir_.path() / out).string(),
                                     "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_refract(args, dir_.path());
  }

  std::vector<std::string> cache() const {
    return {"--cache-dir", (dir_.path() / "cache").string()};
  }

  JsonValue stats(const std::string& out) const {
    const std::string text = read_file(dir_.path() / out / "stats.json");
    return JsonReader(text).document().at("jdk_cache");
  }

  // Every output file of the two runs but stats.json, byte for byte.
  void expect_same_outputs(const std::string& a, const std::string& b) const {
    for (const char* name : {"reachable-methods.txt", "call-edges.tsv", "callgraph.json",
                             "string-colors.tsv", "VarPointsTo.tsv"}) {
      EXPECT_EQ(read_file(dir_.path() / a / name), read_file(dir_.path() / b / name)) << name;
    }
  }

  // A run without the cache into "plain", then one into "cold" that builds the entry with
  // --cache-build `build`.
  void plain_then_cold(const std::string& build) {
    ASSERT_EQ(analyze("plain", {}).exit_code, 0);
    std::vector<std::string> args = cache();
    args.insert(args.end(), {"--cache-build", build});
    const RunResult cold = analyze("cold", args);
    ASSERT_EQ(cold.exit_code, 0) << cold.err;
    EXPECT_EQ(stats("cold").at("status").string(), "built");
    EXPECT_EQ(stats("cold").at("build").string(), build);
  }

  // The fixpoints' entries (folders) of the cache.
  // A context prints as its number, which the entry's layout changes: VarPointsTo.tsv's row
  // count and (variable, object) pairs, which must be the same with and without the cache.
  std::pair<std::size_t, std::set<std::string>> var_points_to_rows(const std::string& out) const {
    std::size_t rows = 0;
    std::set<std::string> pairs;
    std::istringstream in(read_file(dir_.path() / out / "VarPointsTo.tsv"));
    for (std::string line; std::getline(in, line);) {
      std::vector<std::string> fields;
      std::istringstream split(line);
      for (std::string f; std::getline(split, f, '\t');) fields.push_back(f);
      ++rows;
      if (fields.size() == 4) pairs.insert(fields[1] + "\t" + fields[3]);
    }
    return {rows, pairs};
  }

  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir_.path() / "cache"))
      if (e.is_directory()) out.push_back(e.path());
    return out;
  }

  // The JDK's cached facts (KEY.facts, cli/jdk_facts_cache.hpp).
  std::vector<fs::path> facts_files() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir_.path() / "cache"))
      if (e.path().extension() == ".facts") out.push_back(e.path());
    return out;
  }

  TempDir dir_;
};

TEST_F(JdkCacheTest, ColdAndWarmRunsGiveWhatARunWithoutTheCacheGives) {
  const std::vector<std::string> dump = {"--dump", "VarPointsTo"};
  ASSERT_EQ(analyze("plain", dump).exit_code, 0);
  std::vector<std::string> cached = cache();
  cached.insert(cached.end(), dump.begin(), dump.end());
  const RunResult cold = analyze("cold", cached);
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  EXPECT_EQ(stats("cold").at("status").string(), "built");
  const RunResult warm = analyze("warm", cached);
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  EXPECT_EQ(stats("warm").at("status").string(), "hit");
  EXPECT_EQ(stats("warm").at("build").string(), "");
  EXPECT_GT(stats("warm").at("seeded").array().size(), 10u);
  // The entry's relations placed whole into the fresh node table, not read file by file.
  EXPECT_EQ(stats("warm").at("read").string().rfind("image: ", 0), 0u)
      << stats("warm").at("read").string();
  EXPECT_EQ(stats("plain").at("status").string().rfind("off: --no-cache", 0), 0u)
      << stats("plain").at("status").string();
  // The JDK's facts: read from its classes and written by the cold run, read by the warm one.
  EXPECT_EQ(stats("plain").at("facts").string().rfind("off: --no-cache", 0), 0u)
      << stats("plain").at("facts").string();
  EXPECT_EQ(stats("cold").at("facts").string(), "written");
  EXPECT_EQ(stats("warm").at("facts").string(), "read");
  EXPECT_EQ(facts_files().size(), 1u);
  expect_same_outputs("plain", "cold");
  expect_same_outputs("plain", "warm");
}

TEST_F(JdkCacheTest, CorruptCachedFactsAreReportedRewrittenAndGiveTheSameResults) {
  ASSERT_EQ(analyze("first", cache()).exit_code, 0);
  ASSERT_EQ(facts_files().size(), 1u);
  const fs::path facts = facts_files().front();
  fs::resize_file(facts, fs::file_size(facts) - 1);
  const RunResult again = analyze("again", cache());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("warning: the cached JDK facts " + facts.string() + " are corrupt"),
            std::string::npos)
      << again.err;
  EXPECT_EQ(
      stats("again").at("facts").string().rfind("rebuilt: " + facts.string() + ": at byte ", 0), 0u)
      << stats("again").at("facts").string();
  expect_same_outputs("first", "again");
  const RunResult third = analyze("third", cache());
  ASSERT_EQ(third.exit_code, 0) << third.err;
  EXPECT_EQ(stats("third").at("facts").string(), "read");
  expect_same_outputs("first", "third");
}

// Beside: a second process fills the cache while the run solves without it, and the run waits
// for it, so the entry is in place (and no build of it left) when the command ends. (The test
// above, with the default, serves a warm run from it on two cores or more.)
TEST_F(JdkCacheTest, AnEntryBuiltBesideIsInPlaceWhenTheRunEnds) {
  ASSERT_NO_FATAL_FAILURE(plain_then_cold("beside"));
  EXPECT_GT(stats("cold").at("build_seconds").number(), 0.0);
  EXPECT_TRUE(stats("cold").at("seeded").array().empty());
  ASSERT_EQ(entries().size(), 1u);
  EXPECT_EQ(entries().front().filename().string(), stats("cold").at("key").string());
  EXPECT_TRUE(fs::exists(entries().front() / "MANIFEST"));
  expect_same_outputs("plain", "cold");
}

// First: the entry is solved, then the run starts from it.
TEST_F(JdkCacheTest, AnEntryBuiltFirstSeedsTheRunThatBuiltIt) {
  ASSERT_NO_FATAL_FAILURE(plain_then_cold("first"));
  EXPECT_GT(stats("cold").at("seeded").array().size(), 10u);
  expect_same_outputs("plain", "cold");
}

// The entry starts building before the program's classes are read; a run that fails then stops
// that build and removes what it wrote. (The run fails within milliseconds of the start, the
// build takes hundreds of them; a build left running would hold the run's stderr open, so
// run_refract would wait for it and find its entry.)
TEST_F(JdkCacheTest, ARunThatFailsStopsTheBuildBesideItAndLeavesNothing) {
  std::vector<std::string> args = cache();
  args.insert(args.end(), {"--cache-build", "beside"});
  const RunResult run = analyze("out", args, "pointsto.NoSuchMain");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("pointsto.NoSuchMain"), std::string::npos) << run.err;
  EXPECT_TRUE(entries().empty()) << entries().front();
  EXPECT_FALSE(fs::exists(dir_.path() / "out" / "call-edges.tsv"));
}

TEST_F(JdkCacheTest, AnUnknownCacheBuildIsAUsageError) {
  const RunResult run = analyze("out", {"--cache-build", "later"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("unknown --cache-build value 'later' (expected beside or first)"),
            std::string::npos)
      << run.err;
  EXPECT_FALSE(fs::exists(dir_.path() / "out" / "call-edges.tsv"));
}

TEST_F(JdkCacheTest, ACorruptEntryIsReportedRebuiltAndGivesTheSameResults) {
  ASSERT_EQ(analyze("first", cache()).exit_code, 0);
  ASSERT_EQ(entries().size(), 1u);
  const fs::path state = entries().front() / "state";
  // Truncated: half of the largest relation's file is gone.
  fs::path largest;
  for (const auto& f : fs::directory_iterator(state))
    if (largest.empty() || f.file_size() > fs::file_size(largest)) largest = f.path();
  fs::resize_file(largest, fs::file_size(largest) / 2);
  const RunResult again = analyze("again", cache());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("warning: the cached JDK fixpoint"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("does not match its checksum"), std::string::npos) << again.err;
  EXPECT_EQ(stats("again").at("status").string(),
            "rebuilt: state/" + largest.filename().string() + " does not match its checksum");
  expect_same_outputs("first", "again");
  EXPECT_EQ(stats("again").at("key").string(), stats("first").at("key").string());
}

TEST_F(JdkCacheTest, ChangedRulesMakeANewEntry) {
  ASSERT_EQ(analyze("shipped", cache()).exit_code, 0);
  const fs::path rules = dir_.path() / "rules";
  fs::copy(fs::path(REFRACT_SOURCE_DIR) / "pointsto" / "rules", rules);
  std::ofstream(rules / "core.datalog", std::ios::app) << "\n# a comment changes the key too\n";
  const RunResult changed = analyze("changed", [&] {
    std::vector<std::string> args = cache();
    args.insert(args.end(), {"--rules", rules.string()});
    return args;
  }());
  ASSERT_EQ(changed.exit_code, 0) << changed.err;
  EXPECT_EQ(stats("changed").at("status").string(), "built");
  EXPECT_NE(stats("changed").at("key").string(), stats("shipped").at("key").string());
  EXPECT_EQ(entries().size(), 2u);
}

TEST_F(JdkCacheTest, ListShowsTheEntriesAndClearRemovesThem) {
  ASSERT_EQ(analyze("out", cache()).exit_code, 0);
  const std::string dir = (dir_.path() / "cache").string();
  const RunResult list = run_refract({"cache", "list", "--cache-dir", dir}, dir_.path());
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("2 entries in " + dir), std::string::npos) << list.out;
  EXPECT_NE(list.out.find(stats("out").at("key").string()), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("flavour insens"), std::string::npos) << list.out;
  ASSERT_EQ(facts_files().size(), 1u);
  EXPECT_NE(list.out.find(facts_files().front().filename().string() + "\t"), std::string::npos)
      << list.out;
  EXPECT_NE(list.out.find("the JDK's start-up facts"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("MiB\tlast used 20"), std::string::npos) << list.out;
  // What a run killed while writing the facts leaves: a temporary beside them.
  std::ofstream(facts_files().front().string() + ".tmp-refract-99999-0") << "half";
  // And a run killed while trimming (cli/cache_trim.hpp): an item moved aside.
  fs::create_directories(dir_.path() / "cache" / (std::string(32, 'e') + ".trimming-99999"));
  fs::resize_file(facts_files().front(), 100);
  const RunResult corrupt = run_refract({"cache", "list", "--cache-dir", dir}, dir_.path());
  EXPECT_NE(corrupt.out.find("start-up facts\tcorrupt: "), std::string::npos) << corrupt.out;
  const RunResult clear = run_refract({"cache", "clear", "--cache-dir", dir}, dir_.path());
  ASSERT_EQ(clear.exit_code, 0) << clear.err;
  EXPECT_NE(clear.out.find("removed 4 entries"), std::string::npos) << clear.out;
  EXPECT_TRUE(fs::is_empty(dir_.path() / "cache"));
  EXPECT_EQ(run_refract({"cache", "prune", "--cache-dir", dir}, dir_.path()).exit_code, 2);
}

// A user who names no cache option gets the cache, under $XDG_CACHE_HOME/refract: built by
// the first run, used by the second, the same results as --no-cache.
TEST_F(JdkCacheTest, TheCacheIsOnByDefaultUnderXdgCacheHome) {
  const std::vector<std::pair<std::string, std::string>> xdg = {
      {"XDG_CACHE_HOME", (dir_.path() / "xdg").string()}};
  const auto run_as_user = [&](const std::string& out) {
    return run_refract_with_default_cache(
        {"analyze", "--jdk", small_jdk().string(), "--classpath", kFixtureClasses.string(),
         "--main", "pointsto.fields.Main", "--reflection", "none", "--out",
         (dir_.path() / out).string(), "--quiet"},
        dir_.path(), xdg);
  };
  ASSERT_EQ(analyze("plain", {}).exit_code, 0);
  const RunResult first = run_as_user("first");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(stats("first").at("status").string(), "built");
  EXPECT_EQ(stats("first").at("facts").string(), "written");
  const RunResult second = run_as_user("second");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(stats("second").at("status").string(), "hit");
  EXPECT_EQ(stats("second").at("facts").string(), "read");
  EXPECT_TRUE(fs::is_directory(dir_.path() / "xdg" / "refract"));
  expect_same_outputs("plain", "first");
  expect_same_outputs("plain", "second");
  // Not asked for by name: a run the fixpoint cannot serve warns not; the facts serve it.
  const RunResult cloning = run_refract_with_default_cache(
      {"analyze", "--jdk", small_jdk().string(), "--classpath", kFixtureClasses.string(), "--main",
       "pointsto.fields.Main", "--reflection", "none", "--context", "cloning", "--out",
       (dir_.path() / "cloning").string(), "--quiet"},
      dir_.path(), xdg);
  ASSERT_EQ(cloning.exit_code, 0) << cloning.err;
  EXPECT_EQ(cloning.err.find("warning"), std::string::npos) << cloning.err;
  EXPECT_EQ(stats("cloning").at("status").string().rfind("off: cloning numbers", 0), 0u)
      << stats("cloning").at("status").string();
  EXPECT_EQ(stats("cloning").at("facts").string(), "read");
}

TEST_F(JdkCacheTest, NoCacheNeitherReadsNorWrites) {
  const RunResult run = run_refract_with_default_cache(
      {"analyze", "--jdk", small_jdk().string(), "--classpath", kFixtureClasses.string(), "--main",
       "pointsto.fields.Main", "--reflection", "none", "--no-cache", "--out",
       (dir_.path() / "out").string(), "--quiet"},
      dir_.path(), {{"XDG_CACHE_HOME", (dir_.path() / "xdg").string()}});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(fs::exists(dir_.path() / "xdg"));
  EXPECT_EQ(stats("out").at("status").string().rfind("off: --no-cache", 0), 0u);
}

TEST_F(JdkCacheTest, NoCacheWithACacheOptionIsAUsageError) {
  const std::vector<std::vector<std::string>> options = {
      cache(), {"--jdk-cache"}, {"--cache-build", "first"}, {"--cache-limit", "100"}};
  for (std::vector<std::string> args : options) {
    args.push_back("--no-cache");
    const RunResult run = analyze("out", args);
    EXPECT_EQ(run.exit_code, 2) << args.front() << ": " << run.err;
    EXPECT_NE(run.err.find("--no-cache turns off what --jdk-cache, --cache-dir, --cache-build and "
                           "--cache-limit set"),
              std::string::npos)
        << run.err;
    EXPECT_FALSE(fs::exists(dir_.path() / "out"));
  }
}

// Past --cache-limit a run removes the least recently used entries, but not what it used.
TEST_F(JdkCacheTest, ARunKeepsTheCacheWithinItsLimit) {
  const fs::path old = dir_.path() / "cache" / std::string(32, 'e');
  fs::create_directories(old / "state");
  std::ofstream(old / "state" / "VarPointsTo.bdd") << std::string(4096, 'x');
  fs::last_write_time(old, fs::file_time_type::clock::now() - std::chrono::hours(30));
  std::vector<std::string> args = cache();
  args.insert(args.end(), {"--cache-limit", "1"});
  const RunResult run = analyze("out", args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(fs::exists(old));
  // This run's entry and facts were used within the hour: kept, though past the limit.
  EXPECT_EQ(entries().size(), 1u);
  EXPECT_EQ(facts_files().size(), 1u);
  const RunResult list =
      run_refract({"cache", "list", "--cache-dir", (dir_.path() / "cache").string()}, dir_.path());
  EXPECT_NE(list.out.find("\tlast used 20"), std::string::npos) << list.out;
}

// The default place, which the user did not choose, cannot be written: the run goes on
// without the cache and says so (a named --cache-dir is a bad input, below).
TEST_F(JdkCacheTest, AnUnwritableDefaultCacheFolderIsAWarning) {
  std::ofstream(dir_.path() / "file") << "in the way\n";
  const RunResult run = run_refract_with_default_cache(
      {"analyze", "--jdk", small_jdk().string(), "--classpath", kFixtureClasses.string(), "--main",
       "pointsto.fields.Main", "--reflection", "none", "--out", (dir_.path() / "out").string(),
       "--quiet"},
      dir_.path(), {{"XDG_CACHE_HOME", (dir_.path() / "file").string()}});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("warning: the JDK cache is off for this run: " +
                         (dir_.path() / "file" / "refract").string() +
                         ": cannot create the cache folder"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(stats("out").at("status").string().rfind("off: cannot create the cache folder", 0), 0u)
      << stats("out").at("status").string();
  ASSERT_EQ(analyze("plain", {}).exit_code, 0);
  expect_same_outputs("plain", "out");
}

TEST_F(JdkCacheTest, ACacheFolderThatCannotBeMadeIsABadInput) {
  std::ofstream(dir_.path() / "file") << "in the way\n";
  const RunResult run = analyze("out", {"--cache-dir", (dir_.path() / "file" / "cache").string()});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("cannot create the cache folder"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(dir_.path() / "out" / "call-edges.tsv"));
}

TEST_F(JdkCacheTest, FlavoursAndModesTheCacheDoesNotServeSaySo) {
  std::vector<std::string> args = cache();
  args.insert(args.end(), {"--context", "cloning"});
  const RunResult cloning = analyze("cloning", args);
  ASSERT_EQ(cloning.exit_code, 0);
  EXPECT_EQ(stats("cloning").at("status").string().rfind("off: cloning numbers the paths", 0), 0u)
      << stats("cloning").at("status").string();
  EXPECT_NE(cloning.err.find("warning: the JDK cache is off for this run: cloning numbers"),
            std::string::npos)
      << cloning.err;
  // No fixpoint; the JDK's facts, which no flavour changes, are cached.
  EXPECT_TRUE(entries().empty());
  EXPECT_EQ(stats("cloning").at("facts").string(), "written");
  // Call-site contexts without heap contexts: slower from the fixpoint than without it.
  for (const char* flavour : {"1-call", "2-call"}) {
    std::vector<std::string> call = cache();
    call.insert(call.end(), {"--context", flavour});
    const RunResult run = analyze(flavour, call);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(stats(flavour).at("status").string().rfind("off: under call-site contexts", 0), 0u)
        << stats(flavour).at("status").string();
    EXPECT_NE(run.err.find("warning: the JDK cache is off for this run: under call-site"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(stats(flavour).at("facts").string(), "read");
  }
  EXPECT_TRUE(entries().empty());
}

// Under a context flavour the entry fixes the context fields' layout (twice the JDK part's
// elements), so that the seed's contexts read alike: cold (first) and warm runs give what a run
// without the cache gives, which lays its contexts out for its own elements.
class JdkCacheFlavourTest : public JdkCacheTest,
                            public ::testing::WithParamInterface<const char*> {};

TEST_P(JdkCacheFlavourTest, ColdAndWarmRunsGiveWhatARunWithoutTheCacheGives) {
  const std::vector<std::string> flavour = {"--context", GetParam(), "--dump", "VarPointsTo"};
  ASSERT_EQ(analyze("plain", flavour).exit_code, 0);
  std::vector<std::string> cached = cache();
  cached.insert(cached.end(), flavour.begin(), flavour.end());
  std::vector<std::string> first = cached;
  first.insert(first.end(), {"--cache-build", "first"});
  const RunResult cold = analyze("cold", first);
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  EXPECT_EQ(stats("cold").at("status").string(), "built");
  EXPECT_GT(stats("cold").at("seeded").array().size(), 10u);
  const RunResult warm = analyze("warm", cached);
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  EXPECT_EQ(stats("warm").at("status").string(), "hit");
  EXPECT_GT(stats("warm").at("seeded").array().size(), 10u);
  EXPECT_EQ(stats("warm").at("read").string().rfind("image: ", 0), 0u)
      << stats("warm").at("read").string();
  EXPECT_EQ(stats("warm").at("facts").string(), "read");
  for (const char* run : {"cold", "warm"}) {
    for (const char* name :
         {"reachable-methods.txt", "call-edges.tsv", "callgraph.json", "string-colors.tsv"}) {
      EXPECT_EQ(read_file(dir_.path() / "plain" / name), read_file(dir_.path() / run / name))
          << run << " " << name;
    }
    EXPECT_EQ(var_points_to_rows("plain"), var_points_to_rows(run)) << run;
  }
}

INSTANTIATE_TEST_SUITE_P(DeepFlavours, JdkCacheFlavourTest,
                         ::testing::Values("1-obj", "2-obj+H", "2-type+H", "3-obj+2H"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name;
                           for (const char* c = info.param; *c; ++c)
                             name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
                           return name;
                         });

// antlr 2.7.7 as Debian ships it (scripts/setup-debian.sh installs libantlr-java), with the
// small JDK: without the cache, cold with the entry built first, and warm, the same outputs.
class JdkCacheRealProgramTest : public JdkCacheFlavourTest {};

TEST_P(JdkCacheRealProgramTest, AntlrGivesTheSameResultsWithAndWithoutTheCache) {
  const std::string jar = "/usr/share/java/antlr.jar";
  ASSERT_TRUE(fs::exists(jar)) << jar << " is missing: scripts/setup-debian.sh installs it";
  auto run = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args = {
        "analyze",  "--jdk",      small_jdk().string(), "--classpath", jar,
        "--main",   "antlr.Tool", "--reflection",       "none",        "--context",
        GetParam(), "--dump",     "VarPointsTo",        "--out",       (dir_.path() / out).string(),
        "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_refract(args, dir_.path());
  };
  ASSERT_EQ(run("plain", {}).exit_code, 0);
  std::vector<std::string> first = cache();
  first.insert(first.end(), {"--cache-build", "first"});
  const RunResult cold = run("cold", first);
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  const RunResult warm = run("warm", cache());
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  EXPECT_EQ(stats("warm").at("status").string(), "hit");
  EXPECT_EQ(stats("warm").at("facts").string(), "read");
  EXPECT_GT(stats("warm").at("seeded").array().size(), 10u);
  for (const char* out : {"cold", "warm"}) {
    for (const char* name :
         {"reachable-methods.txt", "call-edges.tsv", "callgraph.json", "string-colors.tsv"}) {
      EXPECT_EQ(read_file(dir_.path() / "plain" / name), read_file(dir_.path() / out / name))
          << out << " " << name;
    }
    EXPECT_EQ(var_points_to_rows("plain"), var_points_to_rows(out)) << out;
  }
  EXPECT_GT(var_points_to_rows("plain").first, 1000u);
}

INSTANTIATE_TEST_SUITE_P(Antlr, JdkCacheRealProgramTest, ::testing::Values("insens", "2-obj+H"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param[0] == 'i' ? "insens" : "twoObjH");
                         });

}  // namespace
}  // namespace refract::test
