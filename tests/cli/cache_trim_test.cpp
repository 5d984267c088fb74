// Keeping the JDK cache within a size (cli/cache_trim.hpp): least recently used first, nothing
// used within the guard, nothing but entries and facts files.
#include "cli/cache_trim.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/run_refract.hpp"

namespace refract::cli {
namespace {

namespace fs = std::filesystem;
using std::chrono::hours;
using test::TempDir;

const std::string kKeyA(32, 'a'), kKeyB(32, 'b'), kKeyC(32, 'c'), kKeyD(32, 'd');

class CacheTrimTest : public ::testing::Test {
 protected:
  // An entry KEY/ holding one file of `bytes`, last used `age` before now_.
  fs::path entry(const std::string& key, std::size_t bytes, hours age) {
    const fs::path folder = dir_.path() / key;
    fs::create_directories(folder / "state");
    std::ofstream(folder / "state" / "r.bdd") << std::string(bytes, 'x');
    fs::last_write_time(folder, now_ - age);
    return folder;
  }

  // A facts file KEY.facts of `bytes`, last used `age` before now_.
  fs::path facts(const std::string& key, std::size_t bytes, hours age) {
    const fs::path file = dir_.path() / (key + ".facts");
    std::ofstream(file) << std::string(bytes, 'x');
    fs::last_write_time(file, now_ - age);
    return file;
  }

  std::vector<fs::path> trim(std::uintmax_t limit) {
    return trim_cache(dir_.path(), limit, now_, kCacheTrimGuard);
  }

  TempDir dir_;
  fs::file_time_type now_ = fs::file_time_type::clock::now();
};

TEST_F(CacheTrimTest, TheLeastRecentlyUsedGoFirstUntilTheRestFit) {
  const fs::path a = entry(kKeyA, 100, hours(5));
  const fs::path b = entry(kKeyB, 200, hours(4));
  const fs::path c = entry(kKeyC, 300, hours(3));
  const fs::path d = facts(kKeyD, 400, hours(2));
  EXPECT_EQ(trim(750), (std::vector<fs::path>{a, b}));
  EXPECT_FALSE(fs::exists(a));
  EXPECT_FALSE(fs::exists(b));
  EXPECT_TRUE(fs::exists(c));
  EXPECT_TRUE(fs::exists(d));
  EXPECT_TRUE(trim(750).empty());                        // within the limit now
  EXPECT_EQ(test::files_under(dir_.path()).size(), 2u);  // nothing left aside
}

TEST_F(CacheTrimTest, NothingUsedWithinTheGuardIsRemoved) {
  const fs::path a = entry(kKeyA, 100, hours(0));
  const fs::path b = facts(kKeyB, 200, hours(0));
  EXPECT_TRUE(trim(1).empty());
  EXPECT_TRUE(fs::exists(a));
  EXPECT_TRUE(fs::exists(b));
}

TEST_F(CacheTrimTest, AnItemMarkedUsedGoesAfterTheOthers) {
  const fs::path a = entry(kKeyA, 100, hours(5));
  const fs::path b = entry(kKeyB, 100, hours(4));
  mark_cache_item_used(a);
  EXPECT_GE(fs::last_write_time(a), now_);
  EXPECT_EQ(trim(150), std::vector<fs::path>{b});
  EXPECT_TRUE(fs::exists(a));
}

TEST_F(CacheTrimTest, OnlyEntriesAndFactsFilesAreItems) {
  const fs::path a = entry(kKeyA, 100, hours(5));
  std::ofstream(dir_.path() / "notes.txt") << std::string(1000, 'x');
  fs::create_directories(dir_.path() / (kKeyB + ".building-42"));
  fs::create_directories(dir_.path() / "not-a-key");
  fs::last_write_time(dir_.path() / "notes.txt", now_ - hours(9));
  const std::vector<CachedItem> items = cached_items(dir_.path());
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items.front().path, a);
  EXPECT_EQ(items.front().bytes, 100u);
  EXPECT_EQ(trim(0), std::vector<fs::path>{a});
  EXPECT_TRUE(fs::exists(dir_.path() / "notes.txt"));
  EXPECT_TRUE(fs::exists(dir_.path() / (kKeyB + ".building-42")));
}

// What `refract cache list` and the trim count: every file under an entry, a facts file's own
// size, and nothing for an item gone in the meantime (a trim beside), rather than an error.
TEST_F(CacheTrimTest, AnItemsBytesAreItsFilesAndAGoneItemHasNone) {
  const fs::path folder = entry(kKeyA, 300, hours(2));
  std::ofstream(folder / "INFO") << std::string(20, 'i');
  EXPECT_EQ(cached_item_bytes(folder), 320u);
  EXPECT_EQ(cached_item_bytes(facts(kKeyB, 70, hours(2))), 70u);
  EXPECT_EQ(cached_item_bytes(dir_.path() / kKeyC), 0u);
}

TEST_F(CacheTrimTest, AMissingFolderHasNoItems) {
  EXPECT_TRUE(cached_items(dir_.path() / "none").empty());
  EXPECT_TRUE(trim_cache(dir_.path() / "none", 0, now_, kCacheTrimGuard).empty());
  EXPECT_EQ(last_used_text(dir_.path() / "none"), "");
}

TEST_F(CacheTrimTest, LastUseReadsAsUtcMinutes) {
  const fs::path a = entry(kKeyA, 1, hours(0));
  const std::string text = last_used_text(a);
  ASSERT_EQ(text.size(), 17u) << text;  // 2026-11-30T04:40Z
  EXPECT_EQ(text[4], '-');
  EXPECT_EQ(text[10], 'T');
  EXPECT_EQ(text.back(), 'Z');
}

}  // namespace
}  // namespace refract::cli
