#include "reflection/sites_so_far.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <utility>

#include "support/atomic_file.hpp"

namespace refract::reflection {

namespace {

using Tuple = std::vector<std::uint64_t>;

// Per site, the uses that typed its objects listed in the text: the rest are counted.
constexpr std::size_t kCastsShown = 10;

bool makes_objects(ApiKind kind) {
  return kind == ApiKind::kClassNewInstance || kind == ApiKind::kConstructorNewInstance;
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

std::vector<SiteSoFar> sites_so_far(const ReportInputs& in) {
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

  std::vector<SiteSoFar> out;
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
    out.push_back(std::move(site));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const SiteSoFar& a, const SiteSoFar& b) { return spread(a) > spread(b); });
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
         "finish on.\n\n"
      << sites.size() << " sites with targets so far\n"
      << "rank\tlazy\ttargets\tsite  (kind, line)\n";
  std::size_t rank = 0;
  for (const SiteSoFar& s : sites) {
    out << ++rank << "\t" << s.lazy_types << "\t" << s.targets << "\t" << s.site << "  ("
        << kind_name(s.kind) << ", " << (s.line ? "line " + std::to_string(*s.line) : "no line")
        << ")\n";
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
  }
  file_out.commit();
}

}  // namespace refract::reflection
