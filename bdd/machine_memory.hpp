// What the machine, not only the process, can still give the node table. A budget per process
// does not see other processes: two analyses side by side, each under the default budget of 80%
// of physical memory, ran the machine out of memory and the kernel killed one (antlr 3-obj+2H,
// 19.6 GB resident, beside a 5-GB run on 23 GiB).
#pragma once

#include <cstdint>
#include <istream>
#include <optional>

namespace refract::bdd {

struct MachineMemory {
  std::uint64_t total_bytes = 0;      // MemTotal
  std::uint64_t available_bytes = 0;  // MemAvailable: what processes may still take
};

// MemTotal and MemAvailable of a /proc/meminfo text (values in kB); nullopt when either is
// missing or malformed.
std::optional<MachineMemory> parse_meminfo(std::istream& in);

// /proc/meminfo of this machine; nullopt where it cannot be read.
std::optional<MachineMemory> read_machine_memory();

// The resident size a process now at `resident` bytes may grow to: its `budget`, or less when
// the machine cannot give that much, keeping a twentieth of the machine's memory free for what
// the node table does not cover (caches, tuple buffers, the report).
std::uint64_t resident_limit(std::uint64_t budget, std::uint64_t resident,
                             const std::optional<MachineMemory>& machine);

}  // namespace refract::bdd
