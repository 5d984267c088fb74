// The exit codes of commands.hpp in one place: every subcommand parses its arguments, then
// runs, and each kind of failure ends the same way whatever the command.
#pragma once

#include <iostream>
#include <optional>
#include <string>

#include "cli/commands.hpp"
#include "solver/engine.hpp"
#include "support/error.hpp"

namespace refract::cli {

// parse() returns the arguments, or nothing when it printed --help; it throws
// UsageError (boost::program_options::error) for bad usage: exit 2
// with a pointer to --help. run(arguments) returns the exit code; an InputError (located
// message) exits 1, a solver limit (--time-limit, --evaluation-limit) 4, any other exception
// is an internal error, exit 3.
template <typename UsageError, typename Parse, typename Run>
int run_command(const std::string& command, Parse&& parse, Run&& run) {
  decltype(parse()) args;
  try {
    args = parse();
    if (!args) return kExitOk;
  } catch (const UsageError& e) {
    std::cerr << "refract " << command << ": " << e.what() << "\nrun 'refract " << command
              << " --help' for usage\n";
    return kExitUsage;
  }
  try {
    return run(*args);
  } catch (const solver::LimitReached& e) {
    std::cerr << e.what() << '\n';
    return kExitTimeLimit;
  } catch (const InputError& e) {
    std::cerr << e.what() << '\n';
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "refract " << command << ": internal error: " << e.what() << '\n';
    return kExitInternal;
  }
}

}  // namespace refract::cli
