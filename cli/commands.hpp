// The subcommands of the refract executable. Each returns the process exit
// code: 0 success, 1 bad input, 2 bad usage, 3 internal or resource error.
#pragma once

namespace refract::cli {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;
constexpr int kExitInternal = 3;
constexpr int kExitTimeLimit = 4;  // --time-limit or --evaluation-limit reached before the fixpoint

int solve_command(int argc, char** argv);
int check_command(int argc, char** argv);
int facts_command(int argc, char** argv);
int ir_command(int argc, char** argv);
int analyze_command(int argc, char** argv);
int compare_command(int argc, char** argv);
int order_search_command(int argc, char** argv);
int cache_command(int argc, char** argv);

}  // namespace refract::cli
