#include "reflection/metaobject_sources.hpp"

#include <algorithm>
#include <set>
#include <span>
#include <stdexcept>
#include <unordered_map>

#include "relations/relation.hpp"
#include "solver/engine.hpp"

namespace refract::reflection {

namespace {

using Heaps = std::set<std::uint64_t>;

// The heap column of `relation`'s tuples whose `key` is `value`, the other columns projected
// away: a lookup of one variable's (or one array's) objects, not an enumeration of the
// relation, which a stopped deep run holds by the hundred million.
Heaps heaps_where(const rel::Relation& relation, const std::string& key, std::uint64_t value) {
  std::vector<std::string> away;
  for (const rel::Attribute& a : relation.attributes())
    if (a.name != "heap") away.push_back(a.name);
  const rel::Relation only = rel::project_away(rel::select_equal(relation, key, value), away);
  Heaps out;
  only.for_each_tuple([&](std::span<const std::uint64_t> t) { out.insert(t[0]); });
  return out;
}

std::map<std::uint64_t, std::vector<std::uint64_t>> by_first(
    const std::vector<std::vector<std::uint64_t>>& tuples, std::size_t key, std::size_t value) {
  std::map<std::uint64_t, std::vector<std::uint64_t>> out;
  for (const auto& t : tuples) out[t[key]].push_back(t[value]);
  return out;
}

std::vector<std::vector<std::uint64_t>> fact_tuples(const ReportInputs& in, const char* name) {
  if (!in.facts.has_relation(name)) return {};
  return in.facts.relation(name).sorted_tuples();
}

}  // namespace

std::map<std::uint64_t, SiteMetaobjects> metaobject_sources(
    const ReportInputs& in, const std::vector<std::uint64_t>& sites) {
  if (sites.size() > 32) throw std::invalid_argument("metaobject_sources: more than 32 sites");
  std::map<std::uint64_t, SiteMetaobjects> out;
  if (in.program.find_relation("VarPointsTo") == nullptr) return out;
  const rel::Relation& var_points_to = in.engine.relation("VarPointsTo");
  const rel::Relation& array_points_to = in.engine.relation("ArrayPointsTo");
  const std::vector<std::string>& invokes = in.facts.domain("I").names();

  const auto meta_var = by_first(tuples_if_declared(in, "SiteMetaVar"), 0, 1);
  const auto result_var = by_first(fact_tuples(in, "CallResult"), 0, 1);
  const auto meta_array = by_first(fact_tuples(in, "MetaArray"), 1, 0);
  const auto receiver = by_first(tuples_if_declared(in, "LookupReceiver"), 0, 1);
  Heaps partial;
  for (const char* name : {"PartialMethodObject", "PartialFieldObject", "PartialConstructorObject"})
    for (const auto& t : fact_tuples(in, name)) partial.insert(t[0]);
  std::map<std::uint64_t, std::uint64_t> unknown_class_made_at;  // c^u -> its entry call
  for (const auto& t : fact_tuples(in, "UnknownClassObject")) {
    partial.insert(t[0]);
    unknown_class_made_at[t[0]] = t[1];
  }

  // the objects at each site's metaobject variable
  std::map<std::uint64_t, Heaps> at_site, sourced;
  for (const std::uint64_t site : sites) {
    const auto vars = meta_var.find(site);
    if (vars == meta_var.end()) continue;
    Heaps& heaps = at_site[site];
    for (const std::uint64_t var : vars->second)
      heaps.merge(heaps_where(var_points_to, "var", var));
    SiteMetaobjects& entry = out[site];
    entry.metaobjects = heaps.size();
    entry.partial = static_cast<std::uint64_t>(std::count_if(
        heaps.begin(), heaps.end(), [&](std::uint64_t h) { return partial.count(h) > 0; }));
  }

  // which of the sites each object reaches, as bits: a getMethods call may return every
  // Method object there is, so each object it returns is looked up once
  std::vector<std::uint64_t> order;
  std::unordered_map<std::uint64_t, std::uint32_t> reaches;
  for (const auto& [site, objects] : at_site) {
    for (const std::uint64_t h : objects) reaches[h] |= std::uint32_t{1} << order.size();
    order.push_back(site);
  }

  // what each entry or member-introspecting call returns so far, set against the sites
  for (const auto& [call, kind] : api_call_sites(in.facts)) {
    if (!returns_metaobjects(kind)) continue;
    Heaps heaps;
    if (const auto r = result_var.find(call); r != result_var.end())
      for (const std::uint64_t var : r->second) heaps.merge(heaps_where(var_points_to, "var", var));
    if (const auto a = meta_array.find(call); a != meta_array.end())
      for (const std::uint64_t array : a->second)
        heaps.merge(heaps_where(array_points_to, "base", array));
    std::vector<std::uint64_t> shared(order.size(), 0);
    for (const std::uint64_t h : heaps) {
      const auto found = reaches.find(h);
      if (found == reaches.end()) continue;
      for (std::size_t k = 0; k < order.size(); ++k) {
        if ((found->second >> k & 1U) == 0) continue;
        ++shared[k];
        sourced[order[k]].insert(h);
      }
    }
    if (std::all_of(shared.begin(), shared.end(), [](std::uint64_t n) { return n == 0; })) continue;
    MetaobjectSource source;
    source.site = invokes[call];
    source.kind = kind;
    if (call < in.positions.size()) source.line = in.positions[call].line;
    // a lookup on c^u ([P-GetMtd] and the like): the entry call made the class it ran on
    if (const auto c = receiver.find(call); c != receiver.end()) {
      std::set<std::uint64_t> entries;
      for (const std::uint64_t var : c->second)
        for (const std::uint64_t h : heaps_where(var_points_to, "var", var))
          if (const auto made = unknown_class_made_at.find(h); made != unknown_class_made_at.end())
            entries.insert(made->second);
      for (const std::uint64_t e : entries) source.unknown_classes_from.push_back(invokes[e]);
    }
    for (std::size_t k = 0; k < order.size(); ++k) {
      if (shared[k] == 0) continue;
      source.metaobjects = shared[k];
      out[order[k]].sources.push_back(source);
    }
  }
  for (auto& [site, entry] : out) {
    entry.unsourced = entry.metaobjects - sourced[site].size();
    std::stable_sort(entry.sources.begin(), entry.sources.end(),
                     [](const MetaobjectSource& a, const MetaobjectSource& b) {
                       return a.metaobjects > b.metaobjects;
                     });
  }
  return out;
}

}  // namespace refract::reflection
