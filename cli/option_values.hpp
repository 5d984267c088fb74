// Command-line handling the subcommands share: parsing argv with --help, and numeric values.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace refract::cli {

// Parses argv against `options`. On --help prints the options and `help_epilogue` to stdout
// and returns nothing; a bad command line throws boost::program_options::error.
std::optional<boost::program_options::variables_map> parse_command_line(
    int argc, char** argv, const boost::program_options::options_description& options,
    const std::string& help_epilogue = "");

// The same for a command with one positional argument, PROGRAM.datalog, stored as "program"
// (refract solve, check, order-search); --help does not list it.
std::optional<boost::program_options::variables_map> parse_command_line_with_program(
    int argc, char** argv, const boost::program_options::options_description& options,
    const std::string& help_epilogue = "");

// The value of a positive integer option (--nodes, --cache, ...); a
// boost::program_options::error naming the option otherwise.
std::uint64_t positive_count(const std::string& option, const std::string& text);
// --tuple-joins, as solve and analyze describe it (with the engine's default).
std::string tuple_joins_help();
// --tuple-deltas, likewise (solver::EngineOptions::tuple_delta_max).
std::string tuple_deltas_help();
// A positive, finite number of seconds (--time-limit 300, 0.5); an error naming the option
// otherwise.
double positive_seconds(const std::string& option, const std::string& text);
// --time-limit, as solve and analyze describe it.
constexpr const char* kTimeLimitHelp =
    "stop solving after SECONDS (checked between rule evaluations): exit 4, no results, and the "
    "--stats/--rule-stats report of the run so far, saying where it stopped";

// --max-memory MIB, as solve and analyze describe it, with this machine's default.
std::string max_memory_help();
// The BDD manager's memory budget: --max-memory's MiB when given, else 80% of the machine's
// physical memory (leaving room for the rest of the system, so that a run too big for the
// machine ends in a named error, not in the kernel's OOM killer).
std::uint64_t memory_budget_bytes(const std::optional<std::uint64_t>& max_memory_mib);

// --schedule NAME, as solve and analyze describe it (solver/schedule.hpp), with what the
// command runs without it.
std::string schedule_help(const std::string& default_text);
// A schedule's name; a boost::program_options::error naming the known ones otherwise.
std::string schedule_name(const std::string& text);

// The same for an option where 0 means "off" (--tuple-joins).
std::uint64_t count(const std::string& option, const std::string& text);

}  // namespace refract::cli
