#include "cli/analyze_reflection.hpp"

#include "reflection/report.hpp"

namespace refract::cli {

ReflectionFacts add_reflection(const ReflectionArguments& args, frontend::FactDatabase& facts,
                               const std::vector<frontend::InvocationPosition>& positions) {
  (void)positions;
  ReflectionFacts added;
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
}

}  // namespace refract::cli
