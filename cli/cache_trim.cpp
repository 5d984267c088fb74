#include "cli/cache_trim.hpp"

#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <string>
#include <system_error>

#include "cli/jdk_facts_cache.hpp"

namespace refract::cli {

namespace fs = std::filesystem;

std::uintmax_t cached_item_bytes(const fs::path& item) {
  std::error_code error;
  if (fs::is_regular_file(item, error)) {
    const std::uintmax_t bytes = fs::file_size(item, error);
    return error ? 0 : bytes;
  }
  std::uintmax_t bytes = 0;
  for (auto it = fs::recursive_directory_iterator(item, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (it->is_regular_file(error)) {
      const std::uintmax_t size = it->file_size(error);
      if (!error) bytes += size;
    }
  }
  return bytes;
}

std::vector<CachedItem> cached_items(const fs::path& dir) {
  std::vector<CachedItem> items;
  std::error_code error;
  if (!fs::is_directory(dir, error)) return items;
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    const bool entry = it->is_directory() && is_cache_key(it->path().filename().string());
    if (!entry && !(it->is_regular_file() && is_jdk_facts_file(it->path()))) continue;
    std::error_code time_error;
    const fs::file_time_type used = fs::last_write_time(it->path(), time_error);
    if (time_error) continue;  // gone while listed: another run trimmed it
    items.push_back({it->path(), cached_item_bytes(it->path()), used});
  }
  std::sort(items.begin(), items.end(), [](const CachedItem& a, const CachedItem& b) {
    return a.last_used != b.last_used ? a.last_used < b.last_used : a.path < b.path;
  });
  return items;
}

void mark_cache_item_used(const fs::path& item) {
  std::error_code ignored;
  fs::last_write_time(item, fs::file_time_type::clock::now(), ignored);
}

std::string last_used_text(const fs::path& item) {
  std::error_code error;
  const fs::file_time_type used = fs::last_write_time(item, error);
  if (error) return "";
  const std::time_t time = std::chrono::system_clock::to_time_t(
      std::chrono::time_point_cast<std::chrono::system_clock::duration>(
          std::chrono::file_clock::to_sys(used)));
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%MZ", std::gmtime(&time));
  return text;
}

std::vector<fs::path> trim_cache(const fs::path& dir, std::uintmax_t limit_bytes,
                                 fs::file_time_type now, std::chrono::seconds guard) {
  std::vector<fs::path> removed;
  const std::vector<CachedItem> items = cached_items(dir);
  std::uintmax_t total = 0;
  for (const CachedItem& item : items) total += item.bytes;
  for (const CachedItem& item : items) {
    if (total <= limit_bytes) break;
    // Used since it was listed, or recently: a run may be reading it.
    std::error_code error;
    const fs::file_time_type used = fs::last_write_time(item.path, error);
    if (error || used != item.last_used || used + guard > now) continue;
    const fs::path aside = item.path.string() + kTrimmingMark + std::to_string(::getpid());
    fs::rename(item.path, aside, error);
    if (error) continue;
    fs::remove_all(aside, error);
    total -= item.bytes;
    removed.push_back(item.path);
  }
  return removed;
}

}  // namespace refract::cli
