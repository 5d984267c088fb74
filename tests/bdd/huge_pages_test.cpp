// The node table on transparent huge pages (ManagerSettings::huge_pages): what the manager
// reports must be what the kernel did, read back from /proc/self/smaps_rollup.
#include <gtest/gtest.h>
#include <sys/utsname.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bdd/bdd.hpp"
#include "bdd/manager.hpp"
#include "bdd/split_pairs.hpp"

namespace refract::bdd {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kNodeBytes = 20;     // a BuDDy node
constexpr std::uint64_t kNodes = 4'000'000;  // 80 MB of them

// Anonymous memory of this process on huge pages, in bytes.
std::uint64_t anonymous_huge_page_bytes() {
  std::ifstream in("/proc/self/smaps_rollup");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (fields >> key >> kib && key == "AnonHugePages:") return kib * 1024;
  }
  return 0;
}

// The kernel's THP mode, the bracketed word of .../enabled; "" without THP support.
std::string transparent_huge_page_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto open = text.find('['), close = text.find(']');
  return open == std::string::npos || close == std::string::npos
             ? ""
             : text.substr(open + 1, close - open - 1);
}

// Whether the running kernel has MADV_COLLAPSE (Linux 6.1).
bool kernel_can_collapse() {
  utsname name{};
  if (uname(&name) != 0) return false;
  int major = 0, minor = 0;
  char dot = 0;
  std::istringstream(name.release) >> major >> dot >> minor;
  return major > 6 || (major == 6 && minor >= 1);
}

TEST(HugePagesTest, AManagerThatReportsHugePagesHasItsNodeTableOnThem) {
  ManagerSettings settings;
  settings.initial_nodes = kNodes;
  const std::uint64_t before = anonymous_huge_page_bytes();
  Manager manager(settings);
  if (!manager.stats().huge_pages) {
    // A kernel without THP or without MADV_COLLAPSE refuses the call itself (EINVAL); one that
    // has them may still find no free huge page (EAGAIN, ENOMEM).
    const std::string mode = transparent_huge_page_mode();
    const std::string refusal = manager.stats().huge_pages_refusal;
    if (refusal.find(std::strerror(EINVAL)) != std::string::npos) {
      EXPECT_TRUE(mode.empty() || mode == "never" || !kernel_can_collapse())
          << "refused under THP mode " << mode << ": " << refusal;
    }
    GTEST_SKIP() << "the kernel keeps the node table on small pages (THP mode '" << mode
                 << "'): " << refusal;
  }
  // All but the unaligned first and last 2 MiB of the table.
  EXPECT_GE(anonymous_huge_page_bytes() - before, kNodes * kNodeBytes - 4 * kMiB);
  // The table works as before.
  manager.add_variables(4);
  EXPECT_EQ((Bdd::variable(0) & Bdd::variable(1)).node_count(), 2U);
}

// BuDDy grows the table inside the operation that ran out of nodes, by a realloc that moves it
// and splits its huge pages; that operation (often a run's largest) then went on with nearly every
// probe missing the TLB until it returned (hsqldb insens: a 97-s sweep that takes 6 s on huge
// pages). Sampled at each collection of one deep replace, through the memory budget's view of
// the machine: the one callback BuDDy makes inside an operation.
TEST(HugePagesTest, ATableGrownInsideAnOperationIsOnHugePagesAtItsNextCollection) {
  constexpr int kPairs = 22;  // one replace makes about 4M nodes
  struct Sample {
    std::uint64_t table_bytes = 0;
    std::uint64_t huge_page_bytes = 0;
  };
  std::vector<Sample> samples;
  const Manager* watched = nullptr;
  const std::uint64_t before = anonymous_huge_page_bytes();
  ManagerSettings settings;
  settings.initial_nodes = 1'000'000;
  settings.growth_percent = 100;                          // doubles: each growth moves it
  settings.memory_budget_bytes = std::uint64_t{1} << 40;  // asks machine_memory, caps nothing
  settings.machine_memory = [&]() -> std::optional<MachineMemory> {
    if (watched != nullptr)
      samples.push_back(
          {watched->stats().node_table_size * kNodeBytes, anonymous_huge_page_bytes()});
    return std::nullopt;
  };
  Manager manager(settings);
  if (!manager.stats().huge_pages)
    GTEST_SKIP() << "the kernel keeps the node table on small pages: "
                 << manager.stats().huge_pages_refusal;
  const std::uint64_t initial_bytes = manager.stats().node_table_size * kNodeBytes;
  manager.add_variables(2 * kPairs);
  const Bdd f = pairs_function(2 * kPairs);  // node by node: no collection yet
  watched = &manager;
  const Bdd split = f.replace(split_pairs(kPairs));
  watched = nullptr;
  EXPECT_GT(split.node_count(), std::uint64_t{1} << kPairs);
  // A kernel may run out of free huge pages (EAGAIN, ENOMEM); any other refusal is a bug (the
  // collapse of the table's untouched new part was refused with EINVAL).
  const std::string refusal = manager.stats().huge_pages_refusal;
  if (refusal.find(std::strerror(EAGAIN)) != std::string::npos ||
      refusal.find(std::strerror(ENOMEM)) != std::string::npos)
    GTEST_SKIP() << "the kernel had no huge pages for the grown table: " << refusal;
  EXPECT_TRUE(manager.stats().huge_pages) << refusal;

  int after_growth = 0;
  for (const Sample& s : samples) {
    if (s.table_bytes <= initial_bytes) continue;
    ++after_growth;
    const std::uint64_t table_on_huge_pages =
        s.huge_page_bytes > before ? s.huge_page_bytes - before : 0;
    // All but the unaligned first and last 2 MiB of the table.
    EXPECT_GE(table_on_huge_pages, s.table_bytes - 4 * kMiB)
        << "a table of " << s.table_bytes / kMiB << " MiB had " << table_on_huge_pages / kMiB
        << " MiB on huge pages";
  }
  EXPECT_GE(after_growth, 2) << samples.size() << " collections in all";
}

TEST(HugePagesTest, SwitchedOffTheTableStaysOnSmallPages) {
  ManagerSettings settings;
  settings.initial_nodes = kNodes;
  settings.huge_pages = false;
  const std::uint64_t before = anonymous_huge_page_bytes();
  Manager manager(settings);
  EXPECT_FALSE(manager.stats().huge_pages);
  EXPECT_EQ(manager.stats().huge_pages_refusal, "");  // not asked
  // Under THP "always" the kernel may use huge pages for any mapping, asked or not.
  if (transparent_huge_page_mode() != "always") {
    EXPECT_LT(anonymous_huge_page_bytes() - before, 4 * kMiB);
  }
}

}  // namespace
}  // namespace refract::bdd
