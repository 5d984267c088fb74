// `refract analyze` in two halves: reading the program (classes, facts, reflection inputs), and
// everything after (heap merging, string coloring, the solve, the results). `refract compare`
// reads the program once and runs the second half for each variant, in a process of its own.
#pragma once

#include <chrono>
#include <iosfwd>
#include <memory>

#include "cli/analyze_arguments.hpp"
#include "cli/analyze_reflection.hpp"
#include "cli/program_facts.hpp"

namespace refract::cli {

// What `refract analyze` reads before it solves.
struct AnalyzeInputs {
  ReflectionInputs reflection;  // the annotations and the TamiFlex log, when reflection is on
  std::unique_ptr<ExtractedProgram> program;
};

// The reflection inputs and the program's facts, as `args` choose them (the class path, the main
// class, reflection's closed world). InputError for bad classes, annotations or logs.
AnalyzeInputs read_analyze_inputs(const AnalyzeArguments& args, std::ostream* progress);

// The rest of `refract analyze` on `inputs` (read with arguments that agree with `args` on the
// class path, main class and reflection): results and stats.json in args.out, whose seconds
// count from `start`. Returns the exit code; throws what run_command maps to the others.
int analyze_extracted(const AnalyzeArguments& args, const AnalyzeInputs& inputs,
                      std::chrono::steady_clock::time_point start);

}  // namespace refract::cli
