#include "reflection/sites_so_far.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <ostream>
#include <set>
#include <utility>

#include "support/atomic_file.hpp"
#include "support/stopwatch.hpp"

namespace refract::reflection {

namespace {

using Tuple = std::vector<std::uint64_t>;

// Per site, the uses that typed its objects listed in the text: the rest are counted.
constexpr std::size_t kCastsShown = 10;
// Per site, the calls its metaobjects came from listed in the text, and per lookup the entry
// calls that made the unknown classes it ran on.
constexpr std::size_t kSourcesShown = 5;
constexpr std::size_t kEntriesShown = 3;

std::string where(const std::optional<std::uint32_t>& line) {
  return line ? "line " + std::to_string(*line) : "no line";
}

void write_sources(std::ostream& out, const SiteMetaobjects& m) {
  out << "\t\t\t  metaobjects " << m.metaobjects << " (" << m.partial
      << " with class or member unknown), returned by:\n";
  const std::size_t shown = std::min(m.sources.size(), kSourcesShown);
  for (std::size_t k = 0; k < shown; ++k) {
    const MetaobjectSource& s = m.sources[k];
    out << "\t\t\t    " << s.metaobjects << " at " << s.site << "  (" << kind_name(s.kind) << ", "
        << where(s.line) << ")";
    const std::size_t entries = std::min(s.unknown_classes_from.size(), kEntriesShown);
    for (std::size_t e = 0; e < entries; ++e)
      out << (e == 0 ? "; on unknown classes from " : ", ") << s.unknown_classes_from[e];
    if (entries < s.unknown_classes_from.size())
      out << " and " << s.unknown_classes_from.size() - entries << " more";
    out << "\n";
  }
  if (shown < m.sources.size())
    out << "\t\t\t    ... and " << m.sources.size() - shown << " more calls\n";
  if (m.unsourced > 0)
    out << "\t\t\t    " << m.unsourced << " returned by no entry or member-introspecting call\n";
}

bool makes_objects(ApiKind kind) {
  return kind == ApiKind::kClassNewInstance || kind == ApiKind::kConstructorNewInstance;
}

// The side-effect calls run on a metaobject (SiteMetaVar, sites.datalog): newInstance, invoke,
// get and set; Array.newInstance and the array accessors take theirs as an argument.
bool runs_on_metaobject(ApiKind kind) {
  return makes_objects(kind) || kind == ApiKind::kMethodInvoke || kind == ApiKind::kFieldGet ||
         kind == ApiKind::kFieldSet;
}

std::uint64_t spread(const SiteSoFar& site) {
  return makes_objects(site.kind) ? site.lazy_types : site.targets;
}

// A target of any domain, told apart by the domain's letter.
using Target = std::pair<char, std::uint64_t>;

// site -> its targets: (relation, column of the site, column of the target, domain)
std::map<std::uint64_t, std::set<Target>> targets_so_far(const ReportInputs& in) {
  struct Source {
    const char* relation;
    std::size_t site, target;
    char domain;
  };
  const Source sources[] = {{"EntryClass", 1, 2, 'T'},
                            {"ReflectiveNew", 1, 2, 'T'},
                            {"LazyNew", 1, 2, 'T'},
                            {"SiteMethodTarget", 1, 2, 'M'},
                            {"SiteFieldTarget", 1, 2, 'F'}};
  std::map<std::uint64_t, std::set<Target>> out;
  for (const Source& s : sources) {
    for (const Tuple& t : tuples_if_declared(in, s.relation))
      out[t[s.site]].insert({s.domain, t[s.target]});
  }
  return out;
}

}  // namespace

std::vector<SiteSoFar> sites_so_far(const ReportInputs& in, std::ostream* progress) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::string>& invokes = in.facts.domain("I").names();
  const std::vector<std::string>& methods = in.facts.domain("M").names();
  const std::vector<std::string>& variables = in.facts.domain("V").names();
  const std::vector<std::string>& types = in.facts.domain("T").names();
  std::map<std::uint64_t, std::uint64_t> caller, cast_type;
  for (const auto& t : in.facts.relation("CallIn").sorted_tuples()) caller[t[0]] = t[1];
  for (const auto& t : in.facts.relation("Cast").sorted_tuples()) cast_type[t[0]] = t[2];

  const std::map<std::uint64_t, std::set<Target>> targets = targets_so_far(in);
  std::map<std::uint64_t, std::set<std::uint64_t>> lazy;  // site -> classes made lazily
  for (const Tuple& t : tuples_if_declared(in, "LazyNew")) lazy[t[1]].insert(t[2]);
  // site -> variable typing its objects -> classes ([L-Cast] at a cast, [L-Inv]/[L-GSet] at a
  // reflective call's receiver)
  std::map<std::uint64_t, std::map<std::uint64_t, std::set<std::uint64_t>>> typed_at;
  for (const Tuple& t : tuples_if_declared(in, "LazyTyped")) typed_at[t[3]][t[1]].insert(t[4]);

  std::vector<std::pair<std::uint64_t, SiteSoFar>> ranked;
  for (const auto& [invoke, kind] : api_call_sites(in.facts)) {
    const auto found = targets.find(invoke);
    if (found == targets.end()) continue;
    SiteSoFar site;
    site.site = invokes[invoke];
    if (const auto c = caller.find(invoke); c != caller.end()) site.caller = methods[c->second];
    if (invoke < in.positions.size()) site.line = in.positions[invoke].line;
    site.kind = kind;
    site.targets = found->second.size();
    site.lazy_types = lazy[invoke].size();
    for (const auto& [var, made] : typed_at[invoke]) {
      const auto cast = cast_type.find(var);
      site.lazy_casts.push_back(
          {variables[var], cast == cast_type.end() ? "" : types[cast->second], made.size()});
    }
    std::stable_sort(site.lazy_casts.begin(), site.lazy_casts.end(),
                     [](const LazyCast& a, const LazyCast& b) { return a.types > b.types; });
    ranked.emplace_back(invoke, std::move(site));
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return spread(a.second) > spread(b.second);
  });
  if (progress)
    *progress << "[at-stop] " << ranked.size() << " sites with targets ranked in "
              << seconds_since(start) << " s\n";
  const auto sources_start = std::chrono::steady_clock::now();
  std::vector<std::uint64_t> first;
  for (const auto& [invoke, site] : ranked) {
    if (first.size() == kSitesWithSources) break;
    if (runs_on_metaobject(site.kind)) first.push_back(invoke);
  }
  std::map<std::uint64_t, SiteMetaobjects> sources = metaobject_sources(in, first);
  if (progress)
    *progress << "[at-stop] the metaobject sources of " << first.size() << " sites in "
              << seconds_since(sources_start) << " s\n";
  std::vector<SiteSoFar> out;
  for (auto& [invoke, site] : ranked) {
    if (auto found = sources.find(invoke); found != sources.end())
      site.metaobjects = std::move(found->second);
    out.push_back(std::move(site));
  }
  return out;
}

void write_sites_so_far(const std::filesystem::path& file, const std::string& mode,
                        const std::string& stopped, const std::vector<SiteSoFar>& sites) {
  AtomicOutputFile file_out(file);
  std::ostream& out = file_out.stream();
  out << "refract reflection, mode " << mode << ": the call sites as far as the solve got\n"
      << "STOPPED: " << stopped << "\n"
      << "These are the targets derived before the stop, not results: the soundness criteria "
         "and the report did not run.\nA newInstance site is ranked by the classes lazy heap "
         "modelling made for its objects ([L-Cast], [L-Inv], [L-GSet]), any other site by its "
         "targets\n(Solar paper, Sec. 7.4). Annotating the sites that spread most (README, "
         "\"Annotation file\") is how the paper\nmade Solar finish on programs it did not "
         "finish on. For the "
      << kSitesWithSources
      << " newInstance, invoke, get and set calls ranked first, the calls that returned "
         "their\nmetaobjects (Class, Method, Field, Constructor objects) are listed: annotating "
         "those cuts the targets where\nthey are made (Fig. 14).\n\n"
      << sites.size() << " sites with targets so far\n"
      << "rank\tlazy\ttargets\tsite  (kind, line)\n";
  std::size_t rank = 0;
  for (const SiteSoFar& s : sites) {
    out << ++rank << "\t" << s.lazy_types << "\t" << s.targets << "\t" << s.site << "  ("
        << kind_name(s.kind) << ", " << where(s.line) << ")\n";
    // the casts that typed most; a use that is no cast is a reflective call's receiver
    // ([L-Inv], [L-GSet]) or Class.cast's result
    const std::size_t shown = std::min<std::size_t>(s.lazy_casts.size(), kCastsShown);
    for (std::size_t k = 0; k < shown; ++k) {
      const LazyCast& c = s.lazy_casts[k];
      out << "\t\t\t  " << c.types << " classes at "
          << (c.type.empty() ? "the use of " : "(" + c.type + ") ") << c.var << "\n";
    }
    if (shown < s.lazy_casts.size())
      out << "\t\t\t  ... and " << s.lazy_casts.size() - shown << " more uses\n";
    if (s.metaobjects) write_sources(out, *s.metaobjects);
  }
  file_out.commit();
}

}  // namespace refract::reflection
