// Keeping the JDK cache (cli/jdk_cache.hpp, cli/jdk_facts_cache.hpp) within a size. The cache is
// on by default and every refract build, JDK, flavour and option set has entries of its own
// (65 MB of facts, 330 MB to 1 GB per fixpoint), so without a bound it grows with every upgrade.
// Each use marks an item, and the least recently used go first; an item used within the guard
// (an hour) stays, so that a run reading it while another trims never finds it gone.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace refract::cli {

// What `refract analyze` keeps the cache within unless --cache-limit says otherwise.
inline constexpr std::uint64_t kDefaultCacheLimitMib = 16 * 1024;

// What an item being removed is renamed to end with, before the remover's process id.
inline constexpr const char* kTrimmingMark = ".trimming-";

// Items used this recently are never trimmed.
inline constexpr std::chrono::hours kCacheTrimGuard{1};

// One fixpoint entry (DIR/KEY/) or facts file (DIR/KEY.facts) of a cache folder.
struct CachedItem {
  std::filesystem::path path;
  std::uintmax_t bytes = 0;
  std::filesystem::file_time_type last_used;  // the item's own modification time
};

// The bytes an item (an entry's folder or a facts file) holds on disk; what vanishes while it
// is counted (a trim beside) counts nothing.
std::uintmax_t cached_item_bytes(const std::filesystem::path& item);

// The entries and facts files of `dir`, oldest use first; none when `dir` does not exist.
// Builds in progress and files being written are not items.
std::vector<CachedItem> cached_items(const std::filesystem::path& dir);

// Marks `item` (an entry's folder or a facts file) as used now. Best effort: a cache on a
// read-only disk still serves.
void mark_cache_item_used(const std::filesystem::path& item);

// When `item` was last used, as UTC text (2026-11-30T04:40Z); empty where it cannot be read.
std::string last_used_text(const std::filesystem::path& item);

// Removes the least recently used items of `dir` until the rest take at most `limit_bytes`,
// keeping every item used within `guard` before `now`; returns the removed items' paths.
// An item is renamed out of the way before it is removed, so that a run looking for it finds
// it whole or not at all.
std::vector<std::filesystem::path> trim_cache(const std::filesystem::path& dir,
                                              std::uintmax_t limit_bytes,
                                              std::filesystem::file_time_type now,
                                              std::chrono::seconds guard);

}  // namespace refract::cli
