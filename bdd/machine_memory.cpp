#include "bdd/machine_memory.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace refract::bdd {

std::optional<MachineMemory> parse_meminfo(std::istream& in) {
  std::optional<std::uint64_t> total_kb, available_kb;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string key, unit;
    std::uint64_t kb = 0;
    if (!(fields >> key >> kb >> unit) || unit != "kB") continue;
    if (key == "MemTotal:") total_kb = kb;
    if (key == "MemAvailable:") available_kb = kb;
  }
  if (!total_kb || !available_kb) return std::nullopt;
  return MachineMemory{*total_kb * 1024, *available_kb * 1024};
}

std::optional<MachineMemory> read_machine_memory() {
  std::ifstream in("/proc/meminfo");
  if (!in) return std::nullopt;
  return parse_meminfo(in);
}

std::uint64_t resident_limit(std::uint64_t budget, std::uint64_t resident,
                             const std::optional<MachineMemory>& machine) {
  if (!machine) return budget;
  const std::uint64_t reserve = machine->total_bytes / 20;
  const std::uint64_t reachable = resident + machine->available_bytes;
  return std::min(budget, reachable > reserve ? reachable - reserve : 0);
}

}  // namespace refract::bdd
