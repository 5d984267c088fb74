// The JDK once (issue 35): the fixpoint of the JDK's start-up work, solved once per JDK, rules,
// options and refract build, and kept as .bdd files under a cache directory; every analysis
// against that JDK starts its solve from it (solver/seeding.hpp says which relations may).
//
// An entry is DIR/KEY/ with `state/` (every relation, solver::Engine::write_state), `MANIFEST`
// (one `FILE<TAB>HASH` line per file of state/, support/content_hash.hpp) and `INFO` (what it
// was made from, for `refract cache list`). It is built in DIR/KEY.building-PID and renamed into
// place whole, so that two analyses running at once never see half an entry; a file whose hash
// differs from the MANIFEST's makes the entry corrupt: a warning, and it is rebuilt.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/analyze_arguments.hpp"
#include "cli/analyze_run.hpp"
#include "cli/compare_child.hpp"

namespace refract::cli {

// Why a run neither reads nor writes the cache, in stats.json.
inline constexpr const char* kCacheNotUsed =
    "--no-cache, or a run of compare or order-search (they measure without the cache unless a "
    "compare variant names a cache option)";

// $XDG_CACHE_HOME/refract, else $HOME/.cache/refract.
std::filesystem::path default_cache_dir();

// What the cache did for one analysis, for stats.json and the progress lines.
struct JdkCacheUse {
  std::string status;  // "hit", "built", "off: WHY"; "rebuilt: WHY" after a corrupt entry
  std::string key;     // the entry's name, when the cache applies
  std::optional<std::filesystem::path> state;  // the seed the solve starts from
  double build_seconds = 0;                    // solving the JDK's part, when built now
  std::string build;            // "beside" or "first" when built now, else empty (--cache-build)
  std::filesystem::path entry;  // where the entry is or will be
  // What the solve's context fields must hold to read the entry's contexts (0: insens): the
  // entry fixes their layout at twice its JDK part's elements (rounded up to a power of two).
  std::uint64_t context_capacity = 0;
  // The sizes the run's domains are declared with at least (domain_room): the entry's layout.
  std::map<std::string, std::uint64_t> domain_room;
  // The entry being built beside the analysis, in a child process, until finish_jdk_cache.
  std::optional<StartedChild> building;
};

// Why the JDK's fixpoint cannot seed the analysis `args` describe, or nothing when it can.
std::optional<std::string> jdk_cache_unsupported(const AnalyzeArguments& args);

// The elements a context field of `args`' flavour holds in an entry made from `facts` (whose
// JDK part is the entry's): twice the JDK part's, rounded up to a power of two, so that a
// program adding up to as many again encodes its contexts as the entry did. 0 for insens.
std::uint64_t context_capacity(const AnalyzeArguments& args, const frontend::FactDatabase& facts);

// The sizes an entry made from `facts` declares its domains with, and a run from it at least:
// twice each domain's JDK part, rounded up to a power of two. A program that adds up to as many
// again lays out every relation as the entry did, so that the entry's image is placed whole
// instead of its files read one by one (bench/README.md, "The JDK once from the seed's
// prefixes": 29.1 s of loading on checkstyle against 0.7 s on antlr).
std::map<std::string, std::uint64_t> domain_room(const frontend::FactDatabase& facts);

// The entry's key: the JDK's jmods, the rule files, the options that change the relations or
// the numbering, and this refract build.
std::string jdk_cache_key(const AnalyzeArguments& args);

// Before the program's facts: finds the entry for `args`, and where it is missing or corrupt
// and --cache-build is beside (the default on two cores or more), starts building it (a solve
// of the JDK's part alone, with `args`' options, its facts read anew) in a child process, so
// that filling the cache costs the run little more than its own solve, which goes on without
// it. Off under --no-cache and where jdk_cache_unsupported says.
JdkCacheUse start_jdk_cache(const AnalyzeArguments& args, std::ostream* progress);

// With the program's facts (merged and numbered): a missing entry under --cache-build first is
// built now, and the solve starts from the entry when it was there or built first, unless
// `facts` number the JDK's part otherwise than the entry does (off: WHY).
void use_jdk_cache(JdkCacheUse& use, const AnalyzeArguments& args,
                   const frontend::FactDatabase& facts, std::ostream* progress);

// Waits for an entry being built beside the analysis: its seconds into build_seconds. A build
// that failed is a warning, and the status says so: the analysis's results never depend on it.
void finish_jdk_cache(JdkCacheUse& use, const AnalyzeArguments& args,
                      const frontend::FactDatabase& facts);

// One entry of a cache directory, for `refract cache list`.
struct JdkCacheEntry {
  std::string key;
  std::uintmax_t bytes = 0;
  std::string info;                    // the INFO file's lines after the first, `; `-joined
  std::optional<std::string> corrupt;  // why the entry would be rebuilt
  std::string last_used;               // cli/cache_trim.hpp's last_used_text
};

// After a run that used the cache: the least recently used entries and facts files go where
// the cache folder is past --cache-limit (cli/cache_trim.hpp), with a progress line.
void keep_jdk_cache_within_limit(const AnalyzeArguments& args, std::ostream* progress);

// The entries of `dir` (none when it does not exist), by key.
std::vector<JdkCacheEntry> list_jdk_cache(const std::filesystem::path& dir);

// Removes every entry and facts file of `dir`, and what builds of entries and writes of facts
// files left there; returns how many.
std::size_t clear_jdk_cache(const std::filesystem::path& dir);

}  // namespace refract::cli
