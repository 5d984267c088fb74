#include "cli/option_values.hpp"

#include <unistd.h>

#include <cmath>
#include <iostream>
#include <limits>

#include "solver/engine.hpp"
#include "solver/schedule.hpp"

namespace refract::cli {

namespace po = boost::program_options;

std::optional<po::variables_map> parse_command_line(int argc, char** argv,
                                                    const po::options_description& options,
                                                    const std::string& help_epilogue) {
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(options).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << options << help_epilogue;
    return std::nullopt;
  }
  return vm;
}

std::optional<po::variables_map> parse_command_line_with_program(
    int argc, char** argv, const po::options_description& options,
    const std::string& help_epilogue) {
  po::options_description all = options;
  all.add_options()("program", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("program", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << options << help_epilogue;
    return std::nullopt;
  }
  return vm;
}

namespace {

std::optional<std::uint64_t> parse_count(const std::string& text) {
  std::uint64_t value = 0;
  std::size_t used = 0;
  try {
    if (!text.empty() && text[0] != '-') value = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) return std::nullopt;
  return value;
}

// The budget bounds the node table only: runs on antlr peaked 5-29% past it (10,330 MiB under
// 8,000 while writing a stopped run's report), hence the margin.
constexpr unsigned kDefaultMemoryPercent = 80;

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

}  // namespace

std::string max_memory_help() {
  return "the BDD node table stops growing where the process would pass MIB mebibytes of "
         "resident memory; a run that needs more ends in the node-table-exhausted error naming "
         "the rule (default: " +
         std::to_string(kDefaultMemoryPercent) + "% of physical memory, " +
         std::to_string((memory_budget_bytes(std::nullopt) >> 20)) + " MiB here)";
}

std::uint64_t memory_budget_bytes(const std::optional<std::uint64_t>& max_memory_mib) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  if (max_memory_mib) return *max_memory_mib > (kMax >> 20) ? kMax : *max_memory_mib << 20;
  return physical_memory_bytes() / 100 * kDefaultMemoryPercent;
}

std::string tuple_joins_help() {
  return "rules evaluated once whose body relations hold at most N tuples each are joined on "
         "explicit tuples, not BDD products (default " +
         std::to_string(solver::EngineOptions{}.tuple_join_max_input) + "; 0: BDD products only)";
}

std::string tuple_deltas_help() {
  return "semi-naive steps whose delta holds at most N tuples may run on explicit tuples, where "
         "timing shows it faster than the BDD product (default " +
         std::to_string(solver::EngineOptions{}.tuple_delta_max) + "; 0: BDD products only)";
}

std::string schedule_help(const std::string& default_text) {
  std::string names;
  for (const std::string& name : solver::schedule_names())
    names += (names.empty() ? "" : ", ") + name;
  return "the order in which a recursive stratum's rules run on what they have not seen: " + names +
         " (default " + default_text + "); every schedule reaches the same fixpoint";
}

std::string schedule_name(const std::string& text) {
  try {
    solver::make_schedule(text, 0);
  } catch (const std::invalid_argument& e) {
    throw po::error(std::string("invalid value for --schedule: ") + e.what());
  }
  return text;
}

std::uint64_t count(const std::string& option, const std::string& text) {
  const std::optional<std::uint64_t> value = parse_count(text);
  if (!value) {
    throw po::error("invalid value '" + text + "' for --" + option +
                    ": expected a non-negative integer");
  }
  return *value;
}

std::uint64_t positive_count(const std::string& option, const std::string& text) {
  const std::optional<std::uint64_t> value = parse_count(text);
  if (!value || *value == 0) {
    throw po::error("invalid value '" + text + "' for --" + option +
                    ": expected a positive integer");
  }
  return *value;
}

double positive_seconds(const std::string& option, const std::string& text) {
  double value = 0;
  std::size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(value) || value <= 0) {
    throw po::error("invalid value '" + text + "' for --" + option +
                    ": expected a positive number of seconds");
  }
  return value;
}

}  // namespace refract::cli
