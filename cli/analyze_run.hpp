// `refract analyze` in two halves: reading the program (classes, facts, reflection inputs), and
// everything after (heap merging, string coloring, the solve, the results). `refract compare`
// reads the program once and runs the second half for each variant, in a process of its own;
// `refract order-search` also prepares the facts once and solves them under many orders.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>

#include "cli/analyze_arguments.hpp"
#include "cli/analyze_reflection.hpp"
#include "cli/jdk_facts_cache.hpp"
#include "cli/program_facts.hpp"
#include "frontend/fact_database.hpp"
#include "pointsto/analysis.hpp"
#include "strings/string_coloring.hpp"

namespace refract::cli {

struct JdkCacheUse;

// What `refract analyze` reads before it solves.
struct AnalyzeInputs {
  ReflectionInputs reflection;  // the annotations and the TamiFlex log, when reflection is on
  std::unique_ptr<ExtractedProgram> program;
  // Unless --no-cache: the cached facts of the JDK's start-up part, and what the read did.
  std::optional<JdkFactsCache> jdk_facts;
};

// The reflection inputs and the program's facts, as `args` choose them (the class path, the main
// class, reflection's closed world). InputError for bad classes, annotations or logs.
AnalyzeInputs read_analyze_inputs(const AnalyzeArguments& args, std::ostream* progress);

// Allocation sites merged one object per type, and the objects they became.
struct MergedSites {
  std::uint64_t sites = 0;
  std::uint64_t objects = 0;
};

// What the heap abstraction did before encoding.
struct HeapSummary {
  std::uint64_t heap_objects = 0;  // elements of H after merging
  MergedSites exceptions;
  MergedSites string_builders;
  MergedSites primitive_arrays;
  MergedSites allocated_strings;
  std::uint64_t context_free = 0;  // objects with the empty heap context under every flavour
  std::optional<strings::StringColoring> strings;  // with --string-merging coloring
  double coloring_seconds = 0;                     // the time color_string_constants took
};

// What `refract analyze` solves, made from what it read: the facts with reflection's
// additions, heaps merged and numbered, and the options of the solve (its order, limits and
// work folder are the arguments'; `refract order-search` sets its own before each solve).
struct PreparedAnalysis {
  const ExtractedProgram* program = nullptr;
  pointsto::AnalysisOptions options;
  std::optional<frontend::FactDatabase> reflective;  // the program's facts and reflection's
  ReflectionFacts reflection_added;
  std::optional<frontend::FactDatabase> merged;  // after heap merging and numbering, if any
  HeapSummary heaps;

  const frontend::FactDatabase& extracted() const {
    return reflective ? *reflective : program->extractor->facts();
  }
  const frontend::FactDatabase& facts() const { return merged ? *merged : extracted(); }
};

// Heap merging, string coloring and heap numbering on `inputs` as `args` choose them (which
// must agree with the arguments `inputs` were read with), and the analysis options; progress
// names what was merged. InputError for an annotation the facts contradict.
PreparedAnalysis prepare_analysis(const AnalyzeArguments& args, const AnalyzeInputs& inputs,
                                  std::ostream* progress);

// The rest of `refract analyze` on `inputs` (read with arguments that agree with `args` on the
// class path, main class and reflection): results and stats.json in args.out, whose seconds
// count from `start`. Returns the exit code; throws what run_command maps to the others.
// `cache`: the JDK cache as start_jdk_cache found it before the facts were read (cli/
// jdk_cache.hpp), or nullptr to look it up here.
// `after`: kEndProcess ends the process with the exit code once the outputs are committed,
// without destroying what the run built (`refract analyze` itself).
enum class AfterOutputs { kReturn, kEndProcess };
int analyze_extracted(const AnalyzeArguments& args, const AnalyzeInputs& inputs,
                      std::chrono::steady_clock::time_point start, JdkCacheUse* cache = nullptr,
                      AfterOutputs after = AfterOutputs::kReturn);

}  // namespace refract::cli
