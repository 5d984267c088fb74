// The JDK cache's entry being built beside an analysis, in a child process (cli/jdk_cache.hpp):
// the folder it builds in, and stopping it, for memory or when the analysis ends early.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <iosfwd>

#include "cli/jdk_cache.hpp"

namespace refract::cli {

// What a building folder's name adds to its entry's, before the builder's process id.
inline constexpr const char* kBuildingMark = ".building-";

// Where the process `pid` builds `entry`, to be renamed into place whole.
std::filesystem::path building_folder(const std::filesystem::path& entry, pid_t pid);

// Where the analysis needs memory that an entry being built beside it holds (the machine,
// not the budget, stops its node table from growing): stops that build and removes what it
// wrote, since the run's results never depend on it, and says so in the status. Returns
// whether there was a build to stop.
bool stop_jdk_cache_build_for_memory(JdkCacheUse& use, std::ostream* progress);

// For a run that ends before finish_jdk_cache (an error, a limit): stops an entry still being
// built beside it and removes what that build wrote, so that no child outlives the command.
class JdkCacheBuildStopper {
 public:
  explicit JdkCacheBuildStopper(JdkCacheUse& use) : use_(use) {}
  ~JdkCacheBuildStopper();
  JdkCacheBuildStopper(const JdkCacheBuildStopper&) = delete;
  JdkCacheBuildStopper& operator=(const JdkCacheBuildStopper&) = delete;

 private:
  JdkCacheUse& use_;
};

}  // namespace refract::cli
