// Stopping the JDK cache's entry built beside a run (cli/jdk_cache_build.hpp): where the run
// needs the machine's memory, the child is killed and reaped, its folder removed, and the
// status says why.
#include "cli/jdk_cache_build.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

#include "cli/compare_child.hpp"
#include "cli/run_refract.hpp"

namespace refract::cli {
namespace {

namespace fs = std::filesystem;

// A child that makes its building folder for `entry` and then waits to be stopped.
StartedChild start_building(const fs::path& entry) {
  return start_child(
      [entry] {
        fs::create_directories(building_folder(entry, ::getpid()) / "state");
        std::this_thread::sleep_for(std::chrono::seconds(60));
        return 0;
      },
      std::nullopt);
}

bool wait_for(const fs::path& folder) {
  for (int i = 0; i < 500 && !fs::exists(folder); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return fs::exists(folder);
}

// A use of the cache whose entry KEY (32 times `digit`) under `dir` is being built beside the
// run; the child has made its building folder.
JdkCacheUse building_beside(const fs::path& dir, char digit) {
  JdkCacheUse use;
  use.entry = dir / std::string(32, digit);
  use.status = "built";
  use.building = start_building(use.entry);
  EXPECT_TRUE(wait_for(building_folder(use.entry, use.building->pid)));
  return use;
}

TEST(JdkCacheBuildTest, ARunThatNeedsTheMemoryStopsTheBuildBesideIt) {
  const test::TempDir dir;
  JdkCacheUse use = building_beside(dir.path(), 'a');
  const pid_t child = use.building->pid;
  const fs::path folder = building_folder(use.entry, child);
  std::ostringstream progress;
  EXPECT_TRUE(stop_jdk_cache_build_for_memory(use, &progress));
  EXPECT_FALSE(use.building.has_value());
  EXPECT_FALSE(fs::exists(folder));
  EXPECT_EQ(::kill(child, 0), -1);  // reaped, not a zombie
  EXPECT_EQ(errno, ESRCH);
  EXPECT_EQ(use.status.rfind("off: building the entry beside this run was stopped", 0), 0u)
      << use.status;
  EXPECT_NE(progress.str().find("[cache] stopped solving the JDK's part beside this run"),
            std::string::npos);
  // Nothing left to release: the node table is held as before.
  EXPECT_FALSE(stop_jdk_cache_build_for_memory(use, &progress));
}

TEST(JdkCacheBuildTest, ARunThatEndsEarlyStopsTheBuildAndKeepsItsStatus) {
  const test::TempDir dir;
  JdkCacheUse use = building_beside(dir.path(), 'b');
  const pid_t child = use.building->pid;
  { const JdkCacheBuildStopper stopper(use); }
  EXPECT_FALSE(use.building.has_value());
  EXPECT_FALSE(fs::exists(building_folder(use.entry, child)));
  EXPECT_EQ(::kill(child, 0), -1);
  EXPECT_EQ(use.status, "built");
}

}  // namespace
}  // namespace refract::cli
