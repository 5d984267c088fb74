// The reflection report (Solar paper, Sec. 4.4-4.5 and 7.3-7.4): every reflective call site the
// analysis reached, what it resolved there and which rules found it; the sites the mode's
// soundness criteria flag as possibly unsound, with the calls to annotate for each (Fig. 14's
// shape); the sites ranked as possibly imprecise as Sec. 7.4 ranks them. Written as
// OUT/reflection.json and a readable OUT/reflection.txt, and the targets as a TamiFlex log.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "frontend/fact_database.hpp"
#include "frontend/fact_extractor.hpp"
#include "reflection/api.hpp"
#include "reflection/metaobjects.hpp"
#include "solver/ast.hpp"
#include "solver/engine.hpp"

namespace refract::reflection {

struct ReportTarget {
  std::string target;              // class name, or Soot method or field signature
  std::vector<std::string> rules;  // the rules that found it, sorted
};

// A cast that an object of unknown type reaches, and the types [L-Cast] makes there.
struct LazyCast {
  std::string var;   // the cast's result variable
  std::string type;  // the type cast to
  std::uint64_t types = 0;
};

struct ReportSite {
  std::string site;    // invocation site id, `<caller>/Decl.name/n`
  std::string caller;  // Soot signature of the calling method
  std::optional<std::uint32_t> line;
  ApiKind kind = ApiKind::kForName;
  std::vector<ReportTarget> targets;  // sorted by target
  // metaobjects with an unknown part it returns or receives (`<unknown class from ...>`,
  // `<reflect public methods of ?>`, ...): what it could not resolve, sorted
  std::vector<std::string> unknown;
  // why the mode's soundness criteria flag it (e.g. "(4)", "non-constant name"); empty if not
  std::vector<std::string> unsound_reasons;
  bool no_metaobject = false;                 // a side-effect call no metaobject reaches
  std::vector<std::string> annotate_lookups;  // member-introspecting calls feeding a flagged one
  std::vector<std::string> annotate_entries;  // entry calls feeding those
  std::uint64_t lazy_types = 0;               // newInstance: types made at casts ([L-Cast])
  std::vector<LazyCast> lazy_casts;           // newInstance: the casts, most types first
};

struct ReflectionReport {
  std::string mode;                   // the mode that produced the results
  std::optional<std::string> notice;  // e.g. that Probe ran because Solar ran out of budget
  MetaobjectCounts metaobjects;
  std::vector<ReportSite> sites;           // reached API call sites, sorted by site id
  std::vector<std::string> unmatched_log;  // TamiFlex log lines that matched no site, and why
};

struct ReportInputs {
  const solver::Program& program;
  const solver::Engine& engine;
  const frontend::FactDatabase& facts;  // the facts the engine solved (merged)
  const std::vector<frontend::InvocationPosition>& positions;
};

// The tuples of a relation the program declares; none if the mode's rules do not declare it
// (the string baseline has no criterion (4), the TamiFlex mode no criteria, Probe no LazyNew).
std::vector<std::vector<std::uint64_t>> tuples_if_declared(const ReportInputs& inputs,
                                                           const std::string& relation);

// The report of a solved analysis that included a reflection mode's rules.
ReflectionReport build_report(const ReportInputs& inputs);

// Possibly imprecise sites, most imprecise first (Sec. 7.4): newInstance sites by the types
// [L-Cast] made for their objects, the other side-effect sites by their targets. Indices into
// report.sites; only sites with more than `threshold` types or targets.
std::vector<std::size_t> imprecise_sites(const ReflectionReport& report, std::uint64_t threshold);

void write_report_json(const std::filesystem::path& file, const ReflectionReport& report);
void write_report_text(const std::filesystem::path& file, const ReflectionReport& report);

}  // namespace refract::reflection
