#include "reflection/service_providers.hpp"

#include <map>
#include <utility>

#include "frontend/names.hpp"

namespace refract::reflection {

std::vector<std::string> add_service_provider_relations(
    frontend::FactDatabase& facts, const std::vector<frontend::ServiceProvider>& providers,
    const std::vector<frontend::ModuleProvider>& module_providers,
    const std::vector<frontend::ModuleProvider>& unread_module_providers) {
  std::vector<std::string> warnings;
  frontend::FactRelation& listed =
      facts.add_relation("ServiceProvider", {{"service", "T"}, {"provider", "T"}},
                         "a META-INF/services file of the class path lists provider for service");
  frontend::FactRelation& declared =
      facts.add_relation("ModuleServiceProvider", {{"service", "T"}, {"provider", "T"}},
                         "a JDK module's module-info provides service with provider");
  const frontend::FactDomain& types = facts.domain("T");
  // Adds (service, provider) to `relation`, or says which of the two was not read.
  const auto add = [&](frontend::FactRelation& relation, const std::string& where,
                       const std::string& service_name, const std::string& provider_name) {
    const std::string service = frontend::soot_class_name(service_name);
    const std::string provider = frontend::soot_class_name(provider_name);
    if (!types.contains(provider) || !types.contains(service)) {
      warnings.push_back(where + ": provider " + provider + " of " + service + ": " +
                         (types.contains(provider) ? service : provider) +
                         " was not read, the provider is ignored");
      return;
    }
    relation.add({types.at(service), types.at(provider)});
  };
  for (const frontend::ServiceProvider& p : providers)
    add(listed, p.where.to_string(), p.service, p.provider);
  for (const frontend::ModuleProvider& p : module_providers)
    add(declared, p.origin, p.service, p.provider);
  frontend::FactRelation& unread = facts.add_relation(
      "ModuleServiceUnread", {{"service", "T"}},
      "a JDK module's module-info provides service with a provider the front end did not read");
  for (const frontend::ModuleProvider& p : unread_module_providers) {
    const std::string service = frontend::soot_class_name(p.service);
    if (types.contains(service)) unread.add({types.at(service)});
  }
  return warnings;
}

namespace {

using Id = std::uint64_t;

// ServiceLoader's methods that take the service's Class object, and that argument's index.
const std::pair<const char*, const char*> kLoadMethods[] = {
    {"<java.util.ServiceLoader: java.util.ServiceLoader load(java.lang.Class)>", "1"},
    {"<java.util.ServiceLoader: java.util.ServiceLoader "
     "load(java.lang.Class,java.lang.ClassLoader)>",
     "1"},
    {"<java.util.ServiceLoader: java.util.ServiceLoader loadInstalled(java.lang.Class)>", "1"},
    {"<java.util.ServiceLoader: java.util.ServiceLoader "
     "load(java.lang.ModuleLayer,java.lang.Class)>",
     "2"},
};

// The relations the search reads, indexed.
struct CallFacts {
  std::multimap<Id, Id> copied_from;                // Assign: to -> from
  std::multimap<Id, Id> literal;                    // ClassConstant: var -> type
  std::map<Id, std::pair<Id, Id>> parameter;        // FormalParam: var -> (method, index)
  std::multimap<std::pair<Id, Id>, Id> calls_with;  // (declared target, index) -> argument
};

CallFacts index_call_facts(const frontend::FactDatabase& facts) {
  CallFacts out;
  for (const auto& t : facts.relation("Assign").sorted_tuples())
    out.copied_from.insert({t[0], t[1]});
  for (const auto& t : facts.relation("ClassConstant").sorted_tuples())
    out.literal.insert({t[0], t[1]});
  for (const auto& t : facts.relation("FormalParam").sorted_tuples())
    out.parameter[t[2]] = {t[0], t[1]};
  std::map<Id, Id> target;
  for (const auto& t : facts.relation("DeclaredTarget").sorted_tuples()) target[t[0]] = t[1];
  for (const auto& t : facts.relation("ActualArg").sorted_tuples()) {
    const auto it = target.find(t[0]);
    if (it != target.end()) out.calls_with.insert({{it->second, t[1]}, t[2]});
  }
  return out;
}

// The variables `var`'s value may be copied from, `var` included.
std::set<Id> copy_sources(const CallFacts& calls, Id var) {
  std::set<Id> seen{var};
  std::vector<Id> work{var};
  while (!work.empty()) {
    const Id v = work.back();
    work.pop_back();
    const auto [from, to] = calls.copied_from.equal_range(v);
    for (auto it = from; it != to; ++it)
      if (seen.insert(it->second).second) work.push_back(it->second);
  }
  return seen;
}

}  // namespace

std::set<std::string> services_given_to_service_loader(const frontend::FactDatabase& facts) {
  std::set<std::string> services;
  const frontend::FactDomain& methods = facts.domain("M");
  const frontend::FactDomain& indexes = facts.domain("Z");
  std::vector<std::pair<Id, Id>> slots;  // (method, argument index) that take the service
  for (const auto& [method, index] : kLoadMethods)
    if (methods.contains(method) && indexes.contains(index))
      slots.push_back({methods.at(method), indexes.at(index)});
  if (slots.empty()) return services;
  const CallFacts calls = index_call_facts(facts);
  const std::vector<std::string>& types = facts.domain("T").names();
  // The literals given to `slot`'s argument are services; its parameters, slots one level on.
  const auto given_to = [&](const std::pair<Id, Id>& slot, std::vector<std::pair<Id, Id>>* next) {
    const auto [from, to] = calls.calls_with.equal_range(slot);
    for (auto it = from; it != to; ++it) {
      for (const Id v : copy_sources(calls, it->second)) {
        const auto [lit, lit_end] = calls.literal.equal_range(v);
        for (auto l = lit; l != lit_end; ++l) services.insert(types[l->second]);
        const auto param = calls.parameter.find(v);
        if (next != nullptr && param != calls.parameter.end()) next->push_back(param->second);
      }
    }
  };
  std::vector<std::pair<Id, Id>> forwarding;
  for (const auto& slot : slots) given_to(slot, &forwarding);
  for (const auto& slot : forwarding) given_to(slot, nullptr);
  return services;
}

}  // namespace refract::reflection
