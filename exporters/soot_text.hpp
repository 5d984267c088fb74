// The plain-text exports: reachable-methods.txt (one Soot signature per line, sorted) and
// call-edges.tsv (CALL_SITE<TAB>CALLEE, sorted). Written atomically.
#pragma once

#include <filesystem>

#include "exporters/call_graph.hpp"

namespace refract::exporters {

void write_reachable_methods(const std::filesystem::path& file, const CallGraph& graph);
void write_call_edges(const std::filesystem::path& file, const CallGraph& graph);

}  // namespace refract::exporters
