// The call graph as the exporters receive it: plain names, no BDDs. Methods are Soot
// signatures, call sites `<caller sig>/Decl.name/n` (frontend/FACTS.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace refract::exporters {

struct CallSite {
  std::string caller;           // the method the site is in
  std::string declared_target;  // the method the instruction names
  std::optional<std::uint32_t> line;
  std::optional<std::uint32_t> pc;
};

struct CallGraph {
  std::vector<std::string> reachable_methods;              // sorted, unique
  std::vector<std::pair<std::string, std::string>> edges;  // (call site, callee), sorted
  std::map<std::string, CallSite> sites;                   // every site an edge names
};

}  // namespace refract::exporters
