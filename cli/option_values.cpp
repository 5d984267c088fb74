#include "cli/option_values.hpp"

#include <cmath>
#include <iostream>

#include "solver/engine.hpp"

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

}  // namespace

std::string tuple_joins_help() {
  return "rules evaluated once whose body relations hold at most N tuples each are joined on "
         "explicit tuples, not BDD products (default " +
         std::to_string(solver::EngineOptions{}.tuple_join_max_input) + "; 0: BDD products only)";
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
