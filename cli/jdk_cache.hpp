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
#include <optional>
#include <string>
#include <vector>

#include "cli/analyze_arguments.hpp"
#include "cli/analyze_run.hpp"

namespace refract::cli {

// $XDG_CACHE_HOME/refract, else $HOME/.cache/refract.
std::filesystem::path default_cache_dir();

// What the cache did for one analysis, for stats.json and the progress lines.
struct JdkCacheUse {
  std::string status;  // "hit", "built", "off: WHY"; "rebuilt: WHY" after a corrupt entry
  std::string key;     // the entry's name, when the cache applies
  std::optional<std::filesystem::path> state;  // the seed the solve starts from
  double build_seconds = 0;                    // solving the JDK's part, when built now
};

// Why the JDK's fixpoint cannot seed the analysis `args` describe, or nothing when it can.
std::optional<std::string> jdk_cache_unsupported(const AnalyzeArguments& args);

// The entry's key: the JDK's jmods, the rule files, the options that change the relations or
// the numbering, and this refract build.
std::string jdk_cache_key(const AnalyzeArguments& args);

// Finds the entry for `args`, building it (a solve of the JDK's part alone, with `args`'
// options) when missing or corrupt. Off without --jdk-cache, where jdk_cache_unsupported says, and
// where `facts` (the program's, merged and numbered) do not number the JDK's part as the entry
// does.
JdkCacheUse use_jdk_cache(const AnalyzeArguments& args, const frontend::FactDatabase& facts,
                          std::ostream* progress);

// One entry of a cache directory, for `refract cache list`.
struct JdkCacheEntry {
  std::string key;
  std::uintmax_t bytes = 0;
  std::string info;                    // the INFO file's lines after the first, `; `-joined
  std::optional<std::string> corrupt;  // why the entry would be rebuilt
};

// The entries of `dir` (none when it does not exist), by key.
std::vector<JdkCacheEntry> list_jdk_cache(const std::filesystem::path& dir);

// Removes every entry of `dir`, and what builds of entries left there; returns how many.
std::size_t clear_jdk_cache(const std::filesystem::path& dir);

}  // namespace refract::cli
