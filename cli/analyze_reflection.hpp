// The reflection part of `refract analyze` (issue 31, reflection/README.md): the annotation
// file and the TamiFlex log read before any work, the metaobject facts and the given targets
// added before the heap domain is encoded, and the report and the TamiFlex log written after
// the solve.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "frontend/fact_database.hpp"
#include "frontend/fact_extractor.hpp"
#include "frontend/service_files.hpp"
#include "pointsto/analysis.hpp"
#include "reflection/annotations.hpp"
#include "reflection/metaobjects.hpp"
#include "reflection/mode.hpp"
#include "reflection/tamiflex_log.hpp"

namespace refract::cli {

struct ReflectionArguments {
  reflection::Mode mode;  // default: solar
  std::optional<std::filesystem::path> annotations;
  std::optional<double> budget_seconds;  // Solar's, after which Probe runs instead
  std::filesystem::path rules = REFRACT_SOURCE_REFLECTION_RULES_DIR;
};

// The annotation file and the TamiFlex log of the arguments, read and checked (InputError at
// FILE:LINE:COL for a malformed line).
struct ReflectionInputs {
  std::vector<reflection::Annotation> annotations;
  std::vector<reflection::LogEntry> log;

  // Classes the front end must read besides those reachable by name ("a/B"): the callers and
  // targets the log and the annotations name (reflection/reflective_targets.hpp).
  std::vector<std::string> classes_to_read() const;
};
ReflectionInputs read_reflection_inputs(const ReflectionArguments& args);

// What adding reflection to the facts made, for the report.
struct ReflectionFacts {
  reflection::MetaobjectCounts metaobjects;
  std::vector<std::string> unmatched_log;  // TamiFlex log lines that matched no call site
};

// Adds the targets of the annotations and of the log, the service providers of the class
// path's META-INF/services files (a provider that was not read is a warning on stderr), the
// metaobjects and the helper relations to `facts` (unmerged). InputError for an annotation the
// facts contradict.
ReflectionFacts add_reflection(const ReflectionInputs& inputs,
                               const std::vector<frontend::ServiceProvider>& service_providers,
                               const std::vector<frontend::ModuleProvider>& module_providers,
                               const std::vector<frontend::ModuleProvider>& unread_module_providers,
                               frontend::FactDatabase& facts,
                               const std::vector<frontend::InvocationPosition>& positions);

// Writes OUT/reflection.json, OUT/reflection.txt and OUT/refl.log from a solved analysis.
void write_reflection_results(const std::filesystem::path& out, const pointsto::Analysis& analysis,
                              const frontend::FactDatabase& facts,
                              const std::vector<frontend::InvocationPosition>& positions,
                              const std::string& mode, const std::optional<std::string>& notice,
                              const ReflectionFacts& added);

// Where a limit stopped a reflective run: OUT/reflection.at-stop.txt, the call sites ranked by
// what the inference had derived at each (reflection/sites_so_far.hpp). `stopped` says where;
// `progress` (none under --quiet) hears what it is doing and how long each phase took.
void write_reflection_at_stop(const std::filesystem::path& out, const pointsto::Analysis& analysis,
                              const frontend::FactDatabase& facts,
                              const std::vector<frontend::InvocationPosition>& positions,
                              const std::string& mode, const std::string& stopped,
                              std::ostream* progress);

}  // namespace refract::cli
