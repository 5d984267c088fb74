// The arguments of `refract analyze`, parsed from its command line; `refract compare` parses each
// variant's options with the same parser, so that both accept the same text.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/analyze_reflection.hpp"
#include "cli/class_path_options.hpp"
#include "pointsto/context_flavour.hpp"
#include "pointsto/heap_merging.hpp"
#include "pointsto/heap_numbering.hpp"

namespace refract::cli {

struct AnalyzeArguments {
  ClassPathArguments class_path;
  std::string main_class;
  std::string context = "insens";
  std::optional<pointsto::ContextBits> context_bits;  // default: the flavour's
  std::optional<std::string> order;
  std::optional<std::uint64_t> nodes;
  std::optional<std::uint64_t> cache;
  std::optional<std::uint64_t> max_nodes;
  std::optional<std::uint64_t> max_memory;  // MiB
  std::optional<std::uint64_t> tuple_joins;
  std::optional<std::uint64_t> tuple_deltas;
  std::optional<double> time_limit;
  std::optional<std::uint64_t> evaluation_limit;  // rule evaluations (EngineOptions)
  std::optional<std::string> schedule;            // solver::EngineOptions::schedule
  std::string out;
  std::vector<std::string> dumps;
  std::vector<std::string> bdd_dumps;
  std::optional<std::string> rule_stats;
  std::string rules = REFRACT_SOURCE_RULES_DIR;
  pointsto::SiteMerging exception_objects = pointsto::SiteMerging::kPerType;
  pointsto::SiteMerging string_builders = pointsto::SiteMerging::kPerType;
  pointsto::SiteMerging primitive_arrays = pointsto::SiteMerging::kPerType;
  pointsto::SiteMerging allocated_strings = pointsto::SiteMerging::kPerType;
  bool color_strings = true;  // --string-merging coloring (default) or none
  pointsto::HeapNumbering heap_numbering = pointsto::HeapNumbering::kByType;
  ReflectionArguments reflection;
  // --closed-world application: every class of the class path, and the classes string
  // constants of its code name (default with reflection); reachable: the classes reachable by
  // name from the main class (default without)
  std::optional<bool> application_closed_world;
  // --jdk-providers read: the providers the JDK's modules declare for the services the code
  // gives ServiceLoader are read with the program (reflection/services.datalog); skip (the
  // default): not read, and a ServiceLoader made for such a service is flagged possibly unsound
  bool read_jdk_providers = false;
  // The JDK cache (cli/jdk_cache.hpp): on unless --no-cache, as parse_analyze_arguments reads
  // the command line; off where a command builds its arguments itself (order-search).
  bool jdk_cache = false;
  // --jdk-cache, --cache-dir, --cache-build or --cache-limit: asked for, so a cache that cannot
  // serve the run is a warning, not only a line of stats.json.
  bool jdk_cache_asked = false;
  std::optional<std::string> cache_dir;          // default: default_cache_dir() (cli/jdk_cache.hpp)
  std::optional<std::uint64_t> cache_limit_mib;  // default: kDefaultCacheLimitMib (cache_trim)
  // --cache-build beside (true) or first (false); default: beside with two cores or more
  std::optional<bool> cache_build_beside;
  bool quiet = false;
};

// The options of `refract analyze`, for its --help and its parser.
boost::program_options::options_description analyze_options();

// The arguments of `refract analyze ARGS` (argv[0] is the command's name), or nothing when
// --help printed the options; bad usage throws boost::program_options::error naming the option.
std::optional<AnalyzeArguments> parse_analyze_arguments(int argc, char** argv);

}  // namespace refract::cli
