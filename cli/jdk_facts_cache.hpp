// The JDK's start-up facts once (issue 35, "a cache of what depends on the JDK alone: its
// facts"): the extractor's state after the JDK's start-up part (cli/program_facts.cpp) is kept
// as DIR/KEY.facts (frontend/extractor_snapshot.hpp), keyed by the JDK's jmods and the refract
// build, and every analysis against that JDK (unless --no-cache) goes on from it instead of
// reading the JDK's classes again. The part is the same for every program, flavour and
// reflection mode: the JDK's classes come before the application's on the class path.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "cli/class_path_options.hpp"
#include "frontend/program_scope.hpp"

namespace refract::cli {

struct ExtractedProgram;

// Where the JDK's facts are cached for one run, and what the run did with them.
struct JdkFactsCache {
  std::filesystem::path file;  // DIR/KEY.facts
  // "read"; "written"; "rebuilt: WHY" after a corrupt file; "off: WHY" where it cannot serve.
  std::string status;
};

// A hash of the JDK's jmods (names and contents), computed once per process and JDK.
std::string jmods_hash(const ClassPathArguments& class_path);

// The cache file of the JDK that `class_path` names, under `dir`.
JdkFactsCache jdk_facts_cache(const ClassPathArguments& class_path,
                              const std::filesystem::path& dir);

// Goes on from the cached facts when `cache` has them: `program`'s extractor, hierarchy and
// `scope` as if they had read the JDK's start-up part. False when the file is missing; when it
// is corrupt (a warning, status "rebuilt: WHY"); and when the class path has a class the part
// names and the JDK lacks (status "off: WHY"): the part read with it reads more.
bool resume_jdk_part(JdkFactsCache& cache, ExtractedProgram& program, frontend::ProgramScope& scope,
                     std::ostream* progress);

// After `program` read the JDK's start-up part itself: writes it to the cache, unless that
// read depended on more than the JDK (a class of the class path, a skipped class) or the
// cache is off: then status "off: WHY".
void save_jdk_part(JdkFactsCache& cache, const ExtractedProgram& program,
                   const frontend::ProgramScope& scope);

// A cache key: 32 hexadecimal digits (ContentHash::hex), the name of a fixpoint's entry.
bool is_cache_key(std::string_view name);

// The cached facts files of `dir`, for `refract cache list|clear`: DIR/KEY.facts.
bool is_jdk_facts_file(const std::filesystem::path& file);

}  // namespace refract::cli
