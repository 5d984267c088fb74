#include "cli/analyze_reflection.hpp"

#include <iostream>

#include "frontend/names.hpp"
#include "reflection/reflective_targets.hpp"
#include "reflection/report.hpp"
#include "reflection/service_providers.hpp"
#include "reflection/sites_so_far.hpp"

namespace refract::cli {

namespace {

// "reason: KIND;TARGET;CALLER;LINE (detail)", for the report's list.
std::string unmatched_line(const reflection::UnmatchedEntry& u) {
  const reflection::LogEntry& e = u.entry;
  return std::string(reflection::unmatched_reason_name(u.reason)) + ": " + e.kind_text + ";" +
         e.target + ";" + e.caller + ";" + (e.line ? std::to_string(*e.line) : "") + " (" +
         u.detail + ")";
}

// TamiFlex's CALLER of a method: `declaring.Class.name`, without Soot's quotes.
std::string log_caller(const std::string& signature) {
  const std::size_t colon = signature.find(": ");
  std::string owner = signature.substr(1, colon == std::string::npos ? 0 : colon - 1);
  std::string unquoted;
  for (const char c : owner)
    if (c != '\'') unquoted += c;
  return unquoted + "." + frontend::member_name(signature);
}

// The resolved targets of the Soot kinds, as TamiFlex log lines (Soot's cg reflection-log
// reads them): one per (kind, target, caller, line).
std::vector<reflection::LogEntry> log_entries(const reflection::ReflectionReport& report) {
  std::vector<reflection::LogEntry> entries;
  for (const reflection::ReportSite& site : report.sites) {
    const std::string_view kind = reflection::kind_name(site.kind);
    if (!reflection::is_soot_log_kind(kind)) continue;
    for (const reflection::ReportTarget& target : site.targets) {
      reflection::LogEntry e;
      e.kind_text = std::string(kind);
      e.kind = site.kind;
      e.target = target.target;
      e.caller = log_caller(site.caller);
      e.line = site.line;
      entries.push_back(std::move(e));
    }
  }
  return entries;
}

}  // namespace

std::vector<std::string> ReflectionInputs::classes_to_read() const {
  return reflection::classes_to_read(log, annotations);
}

ReflectionInputs read_reflection_inputs(const ReflectionArguments& args) {
  ReflectionInputs inputs;
  if (args.annotations) inputs.annotations = reflection::read_annotations(*args.annotations);
  if (args.mode.log) inputs.log = reflection::read_tamiflex_log(*args.mode.log);
  return inputs;
}

ReflectionFacts add_reflection(const ReflectionInputs& inputs,
                               const std::vector<frontend::ServiceProvider>& service_providers,
                               const std::vector<frontend::ModuleProvider>& module_providers,
                               const std::vector<frontend::ModuleProvider>& unread_module_providers,
                               frontend::FactDatabase& facts,
                               const std::vector<frontend::InvocationPosition>& positions) {
  ReflectionFacts added;
  const reflection::AnnotatedTargets annotated =
      reflection::resolve_annotations(facts, inputs.annotations);
  const reflection::LoggedTargets logged = reflection::resolve_log(facts, positions, inputs.log);
  for (const reflection::UnmatchedEntry& u : logged.unmatched)
    added.unmatched_log.push_back(unmatched_line(u));
  reflection::add_reflective_target_relations(facts, annotated, logged);
  for (const std::string& w : reflection::add_service_provider_relations(
           facts, service_providers, module_providers, unread_module_providers))
    std::cerr << "warning: " << w << '\n';
  added.metaobjects = reflection::add_reflection_facts(facts);
  return added;
}

void write_reflection_results(const std::filesystem::path& out, const pointsto::Analysis& analysis,
                              const frontend::FactDatabase& facts,
                              const std::vector<frontend::InvocationPosition>& positions,
                              const std::string& mode, const std::optional<std::string>& notice,
                              const ReflectionFacts& added) {
  reflection::ReflectionReport report =
      reflection::build_report({analysis.program(), analysis.engine(), facts, positions});
  report.mode = mode;
  report.notice = notice;
  report.metaobjects = added.metaobjects;
  report.unmatched_log = added.unmatched_log;
  reflection::write_report_json(out / "reflection.json", report);
  reflection::write_report_text(out / "reflection.txt", report);
  const std::vector<reflection::LogEntry> entries = log_entries(report);
  reflection::write_tamiflex_log(out / "refl.log", entries);
}

void write_reflection_at_stop(const std::filesystem::path& out, const pointsto::Analysis& analysis,
                              const frontend::FactDatabase& facts,
                              const std::vector<frontend::InvocationPosition>& positions,
                              const std::string& mode, const std::string& stopped,
                              std::ostream* progress) {
  if (progress)
    *progress << "[at-stop] writing " << (out / "reflection.at-stop.txt").string() << "\n";
  const std::vector<reflection::SiteSoFar> sites =
      reflection::sites_so_far({analysis.program(), analysis.engine(), facts, positions}, progress);
  reflection::write_sites_so_far(out / "reflection.at-stop.txt", mode, stopped, sites);
}

}  // namespace refract::cli
