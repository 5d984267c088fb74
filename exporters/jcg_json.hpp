// callgraph.json in the JCG format of OPAL's call-graph test suite (../shared/FORMATS.md):
// every reachable method with its call sites, each with its declared target, line, pc and
// the methods it may call; methods as name, declaringClass, returnType, parameterTypes in
// JVM descriptors.
#pragma once

#include <filesystem>
#include <iosfwd>

#include "exporters/call_graph.hpp"

namespace refract::exporters {

void write_jcg_json(std::ostream& out, const CallGraph& graph);
void write_jcg_json(const std::filesystem::path& file, const CallGraph& graph);

}  // namespace refract::exporters
