#include "exporters/soot_text.hpp"

#include "support/atomic_file.hpp"

namespace refract::exporters {

void write_reachable_methods(const std::filesystem::path& file, const CallGraph& graph) {
  AtomicOutputFile out(file);
  for (const std::string& method : graph.reachable_methods) out.stream() << method << '\n';
  out.commit();
}

void write_call_edges(const std::filesystem::path& file, const CallGraph& graph) {
  AtomicOutputFile out(file);
  for (const auto& [site, callee] : graph.edges) out.stream() << site << '\t' << callee << '\n';
  out.commit();
}

}  // namespace refract::exporters
