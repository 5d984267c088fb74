#include "cli/jdk_facts_cache.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <mutex>

#include "cli/cache_trim.hpp"
#include "cli/program_facts.hpp"
#include "frontend/extractor_snapshot.hpp"
#include "support/content_hash.hpp"

namespace refract::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "refract JDK facts cache 1";
constexpr std::string_view kSuffix = ".facts";

}  // namespace

std::string jmods_hash(const ClassPathArguments& class_path) {
  // A run asks twice (the facts' key and the fixpoint's); the jmods are 100 MB and more.
  static std::mutex mutex;
  static std::map<fs::path, std::string> computed;
  const fs::path jmods = jdk_home(class_path) / "jmods";
  const std::lock_guard lock(mutex);
  if (const auto found = computed.find(jmods); found != computed.end()) return found->second;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(jmods))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ContentHash hash;
  for (const fs::path& jmod : files) {
    hash.add(jmod.filename().string());
    hash.add_file(jmod);
  }
  return computed[jmods] = hash.hex();
}

JdkFactsCache jdk_facts_cache(const ClassPathArguments& class_path, const fs::path& dir) {
  ContentHash hash;
  hash.add(kFormat);
  hash.add_file("/proc/self/exe");  // this refract build: its extractor made the facts
  hash.add(jmods_hash(class_path));
  return {dir / (hash.hex() + std::string(kSuffix)), ""};
}

bool resume_jdk_part(JdkFactsCache& cache, ExtractedProgram& program, frontend::ProgramScope& scope,
                     std::ostream* progress) {
  if (!fs::exists(cache.file)) return false;
  mark_cache_item_used(cache.file);  // first: a run trimming the cache now keeps it
  frontend::ExtractorSnapshot snapshot;
  try {
    snapshot = frontend::read_extractor_snapshot(cache.file);
  } catch (const std::exception& e) {
    std::cerr << "warning: the cached JDK facts " << cache.file.string() << " are corrupt ("
              << e.what() << "): reading the JDK's classes\n";
    cache.status = std::string("rebuilt: ") + e.what();
    return false;
  }
  // A class the JDK lacks and the class path has: the part reads it, as the JDK alone did not.
  for (const std::string& name : snapshot.phantoms) {
    if (program.path->contains(name)) {
      cache.status = "off: the class path has " + name +
                     ", which the JDK's start-up part names and the JDK lacks";
      return false;
    }
  }
  try {
    program.extractor->resume(std::move(snapshot.facts), std::move(snapshot.state));
  } catch (const std::invalid_argument& e) {
    // A fresh extractor again for the classes' own read.
    program.extractor = std::make_unique<frontend::FactExtractor>(*program.hierarchy);
    std::cerr << "warning: the cached JDK facts " << cache.file.string() << " are corrupt ("
              << e.what() << "): reading the JDK's classes\n";
    cache.status = std::string("rebuilt: ") + e.what();
    return false;
  }
  scope.resume_after(snapshot.queued);
  program.hierarchy->admit_read_classes(snapshot.loaded);
  cache.status = "read";
  if (progress) {
    *progress << "[facts] the JDK's start-up part from " << cache.file.string() << ": "
              << snapshot.queued.size() << " classes\n";
  }
  return true;
}

void save_jdk_part(JdkFactsCache& cache, const ExtractedProgram& program,
                   const frontend::ProgramScope& scope) {
  if (!cache.status.empty() && !cache.status.starts_with("rebuilt: ")) return;  // off
  if (!scope.skipped().empty() || scope.visited() != scope.queued().size()) {
    cache.status = "off: classes of the JDK's start-up part were skipped";
    return;
  }
  for (const std::string& name : scope.queued()) {
    if (!program.path->in_jdk(name)) {
      cache.status = "off: the JDK's start-up part reads " + name + " from the class path";
      return;
    }
  }
  frontend::ExtractorSnapshot snapshot{
      program.extractor->facts(), program.extractor->resume_state(), scope.queued(), {}, {}};
  for (const frontend::ClassFile* cls : program.hierarchy->loaded_classes())
    snapshot.loaded.push_back(cls->this_class);
  for (const frontend::Phantom& p : program.hierarchy->phantoms())
    snapshot.phantoms.push_back(p.name);
  std::error_code error;
  fs::create_directories(cache.file.parent_path(), error);
  try {
    if (error) throw std::runtime_error("cannot create the folder: " + error.message());
    frontend::write_extractor_snapshot(cache.file, snapshot);
  } catch (const std::exception& e) {
    // The analysis does not depend on its cache: a warning, as for the fixpoint's.
    std::cerr << "warning: the JDK's facts were not cached in " << cache.file.string() << ": "
              << e.what() << "\n";
    cache.status = std::string("off: writing failed: ") + e.what();
    return;
  }
  if (cache.status.empty()) cache.status = "written";
}

bool is_cache_key(std::string_view name) {
  return name.size() == 32 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

bool is_jdk_facts_file(const fs::path& file) {
  const std::string name = file.filename().string();
  return name.ends_with(kSuffix) && is_cache_key(name.substr(0, name.size() - kSuffix.size()));
}

}  // namespace refract::cli
