#include "cli/jdk_cache_build.hpp"

#include <sys/wait.h>

#include <cerrno>
#include <csignal>
#include <ostream>
#include <string>
#include <system_error>

namespace refract::cli {

namespace fs = std::filesystem;

fs::path building_folder(const fs::path& entry, pid_t pid) {
  return entry.parent_path() / (entry.filename().string() + kBuildingMark + std::to_string(pid));
}

namespace {

// Kills the entry's build beside the run, waits for it and removes its folder.
void stop_build(JdkCacheUse& use) {
  const pid_t child = use.building->pid;
  use.building.reset();
  ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::error_code ignored;
  fs::remove_all(building_folder(use.entry, child), ignored);
}

}  // namespace

bool stop_jdk_cache_build_for_memory(JdkCacheUse& use, std::ostream* progress) {
  if (!use.building) return false;
  stop_build(use);
  use.status =
      "off: building the entry beside this run was stopped, since this run needed the "
      "memory it held (--cache-build first builds it before the run)";
  if (progress) {
    *progress << "[cache] stopped solving the JDK's part beside this run: the run needs the "
                 "machine's memory; nothing was cached\n";
  }
  return true;
}

JdkCacheBuildStopper::~JdkCacheBuildStopper() {
  if (use_.building) stop_build(use_);
}

}  // namespace refract::cli
