#include "reflection/service_providers.hpp"

#include "frontend/names.hpp"

namespace refract::reflection {

std::vector<std::string> add_service_provider_relation(
    frontend::FactDatabase& facts, const std::vector<frontend::ServiceProvider>& providers) {
  std::vector<std::string> warnings;
  frontend::FactRelation& relation =
      facts.add_relation("ServiceProvider", {{"service", "T"}, {"provider", "T"}},
                         "a META-INF/services file of the class path lists provider for service");
  const frontend::FactDomain& types = facts.domain("T");
  for (const frontend::ServiceProvider& p : providers) {
    const std::string service = frontend::soot_class_name(p.service);
    const std::string provider = frontend::soot_class_name(p.provider);
    if (!types.contains(provider) || !types.contains(service)) {
      warnings.push_back(p.where.to_string() + ": provider " + p.provider + " of " + p.service +
                         ": " + (types.contains(provider) ? p.service : p.provider) +
                         " was not read, the provider is ignored");
      continue;
    }
    relation.add({types.at(service), types.at(provider)});
  }
  return warnings;
}

}  // namespace refract::reflection
