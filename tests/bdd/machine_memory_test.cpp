#include "bdd/machine_memory.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace refract::bdd {
namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

TEST(MachineMemoryTest, ReadsTotalAndAvailableFromMeminfo) {
  std::istringstream in(
      "MemTotal:       24576000 kB\n"
      "MemFree:         1000000 kB\n"
      "MemAvailable:    9437184 kB\n"
      "Buffers:           12345 kB\n");
  const auto memory = parse_meminfo(in);
  ASSERT_TRUE(memory.has_value());
  EXPECT_EQ(memory->total_bytes, std::uint64_t{24576000} * 1024);
  EXPECT_EQ(memory->available_bytes, std::uint64_t{9437184} * 1024);
}

TEST(MachineMemoryTest, MeminfoWithoutMemAvailableIsNotUsed) {
  std::istringstream old_kernel("MemTotal: 1024 kB\nMemFree: 512 kB\n");
  EXPECT_FALSE(parse_meminfo(old_kernel).has_value());
  std::istringstream malformed("MemTotal: lots kB\nMemAvailable: 512 kB\n");
  EXPECT_FALSE(parse_meminfo(malformed).has_value());
}

TEST(MachineMemoryTest, WithoutMeminfoTheBudgetHolds) {
  EXPECT_EQ(resident_limit(8 * kGiB, 2 * kGiB, std::nullopt), 8 * kGiB);
}

TEST(MachineMemoryTest, AnIdleMachineLeavesTheBudgetAsItIs) {
  // 20 GiB of 24 free: the process could reach 21.8 GiB before the reserve; its budget is less.
  const MachineMemory idle{24 * kGiB, 20 * kGiB};
  EXPECT_EQ(resident_limit(16 * kGiB, 3 * kGiB, idle), 16 * kGiB);
}

TEST(MachineMemoryTest, OtherProcessesHoldTheLimitBelowTheBudget) {
  // Another analysis holds 5 GiB: of 24 GiB only 6 GiB are free while this one holds 12 GiB.
  // It may grow by the free memory less a twentieth of the machine (1.2 GiB), not to 19 GiB.
  const MachineMemory shared{24 * kGiB, 6 * kGiB};
  EXPECT_EQ(resident_limit(19 * kGiB, 12 * kGiB, shared), 18 * kGiB - 24 * kGiB / 20);
}

TEST(MachineMemoryTest, AMachineBelowItsReserveAllowsNoGrowth) {
  // 1 GiB resident and nothing free: under the 1.2-GiB reserve already.
  const MachineMemory full{24 * kGiB, 0};
  EXPECT_EQ(resident_limit(19 * kGiB, 1 * kGiB, full), 0U);
}

TEST(MachineMemoryTest, ThisMachineHasAMeminfo) {
  const auto memory = read_machine_memory();
  ASSERT_TRUE(memory.has_value());
  EXPECT_GT(memory->total_bytes, 0U);
  EXPECT_LE(memory->available_bytes, memory->total_bytes);
}

}  // namespace
}  // namespace refract::bdd
