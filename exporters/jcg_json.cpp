#include "exporters/jcg_json.hpp"

#include <map>
#include <ostream>
#include <set>

#include "exporters/jvm_method.hpp"
#include "support/atomic_file.hpp"
#include "support/json.hpp"

namespace refract::exporters {

namespace {

void write_method(std::ostream& out, const std::string& signature) {
  const JvmMethod m = parse_soot_method(signature);
  out << "{\"name\": " << json_string(m.name)
      << ", \"declaringClass\": " << json_string(m.declaring_class)
      << ", \"returnType\": " << json_string(m.return_type) << ", \"parameterTypes\": [";
  for (std::size_t i = 0; i < m.parameter_types.size(); ++i) {
    out << (i > 0 ? ", " : "") << json_string(m.parameter_types[i]);
  }
  out << "]}";
}

}  // namespace

void write_jcg_json(std::ostream& out, const CallGraph& graph) {
  // Sites by caller, targets by site; edges are sorted by site, so targets come sorted.
  std::map<std::string, std::vector<std::string>> targets;
  std::map<std::string, std::set<std::string>> sites_of;
  for (const auto& [site, callee] : graph.edges) {
    targets[site].push_back(callee);
    sites_of[graph.sites.at(site).caller].insert(site);
  }
  out << "{\"reachableMethods\": [";
  bool first_method = true;
  for (const std::string& method : graph.reachable_methods) {
    out << (first_method ? "\n  " : ",\n  ") << "{\"method\": ";
    first_method = false;
    write_method(out, method);
    out << ", \"callSites\": [";
    bool first_site = true;
    for (const std::string& site : sites_of[method]) {
      const CallSite& info = graph.sites.at(site);
      out << (first_site ? "\n    " : ",\n    ") << "{\"declaredTarget\": ";
      first_site = false;
      write_method(out, info.declared_target);
      out << ", \"line\": " << (info.line ? std::to_string(*info.line) : "-1")
          << ", \"pc\": " << (info.pc ? std::to_string(*info.pc) : "-1") << ", \"targets\": [";
      const auto& callees = targets[site];
      for (std::size_t i = 0; i < callees.size(); ++i) {
        out << (i > 0 ? ", " : "");
        write_method(out, callees[i]);
      }
      out << "]}";
    }
    out << (first_site ? "]}" : "\n  ]}");
  }
  out << (first_method ? "]}\n" : "\n]}\n");
}

void write_jcg_json(const std::filesystem::path& file, const CallGraph& graph) {
  AtomicOutputFile out(file);
  write_jcg_json(out.stream(), graph);
  out.commit();
}

}  // namespace refract::exporters
