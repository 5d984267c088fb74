#include "reflection/report.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

#include "support/atomic_file.hpp"
#include "support/json.hpp"

namespace refract::reflection {

namespace {

using Tuple = std::vector<std::uint64_t>;

std::set<std::uint64_t> first_column(const ReportInputs& in, const std::string& relation) {
  std::set<std::uint64_t> out;
  for (const Tuple& t : tuples_if_declared(in, relation)) out.insert(t[0]);
  return out;
}

// Side-effect calls whose targets come from a metaobject (a Method, Constructor, Field or Class
// object reaching the call): where "no metaobject reaches it" means something.
bool takes_metaobject(ApiKind kind) {
  switch (kind) {
    case ApiKind::kClassNewInstance:
    case ApiKind::kConstructorNewInstance:
    case ApiKind::kMethodInvoke:
    case ApiKind::kFieldGet:
    case ApiKind::kFieldSet:
      return true;
    default:
      return false;
  }
}

// site -> target name -> rules
using Targets = std::map<std::uint64_t, std::map<std::string, std::set<std::string>>>;

void add_targets(const ReportInputs& in, const std::string& relation, const std::string& domain,
                 Targets& targets) {
  const std::vector<std::string>& names = in.facts.domain(domain).names();
  const std::vector<std::string>& rules = in.facts.domain("R").names();
  for (const Tuple& t : tuples_if_declared(in, relation))
    targets[t[0]][names[t[1]]].insert(rules[t[2]]);
}

void write_strings(std::ostream& out, const std::vector<std::string>& items) {
  out << "[";
  for (std::size_t i = 0; i < items.size(); ++i)
    out << (i > 0 ? ", " : "") << json_string(items[i]);
  out << "]";
}

std::uint64_t imprecision(const ReportSite& site) {
  return site.kind == ApiKind::kClassNewInstance || site.kind == ApiKind::kConstructorNewInstance
             ? site.lazy_types
             : site.targets.size();
}

std::string where(const ReportSite& site) {
  return site.line ? "line " + std::to_string(*site.line) : "no line";
}

}  // namespace

std::vector<std::vector<std::uint64_t>> tuples_if_declared(const ReportInputs& in,
                                                           const std::string& relation) {
  if (in.program.find_relation(relation) == nullptr) return {};
  return in.engine.tuples(relation);
}

ReflectionReport build_report(const ReportInputs& in) {
  ReflectionReport report;
  const std::vector<std::string>& invokes = in.facts.domain("I").names();
  const std::vector<std::string>& methods = in.facts.domain("M").names();
  std::map<std::uint64_t, std::uint64_t> caller;
  for (const auto& t : in.facts.relation("CallIn").sorted_tuples()) caller[t[0]] = t[1];
  std::set<std::uint64_t> reachable;
  for (const Tuple& t : in.engine.tuples("ReachableMethod")) reachable.insert(t[0]);

  Targets targets;
  add_targets(in, "ReflectionClassTarget", "T", targets);
  add_targets(in, "ReflectionMethodTarget", "M", targets);
  add_targets(in, "ReflectionFieldTarget", "F", targets);
  std::map<std::uint64_t, std::vector<std::string>> reasons;
  for (const auto& [relation, reason] :
       {std::pair<const char*, const char*>{"UnsoundInvoke", "criterion (4)"},
        {"UnsoundGet", "criterion (5)"},
        {"UnsoundSet", "criterion (6)"},
        {"UnresolvedName", "a name that is not a string constant"},
        {"UnsoundArrayNewInstance",
         "an array of an unknown class, or of one whose array type the program never names"},
        {"NoReceiverOfItsClass",
         "no object of its targets' classes reaches its receiver, yet they are instance members: "
         "the points-to analysis missed what it runs on"},
        {"UnknownClassToMethodHandles",
         "its unknown class reaches java.lang.invoke (method handles), which no rule models"},
        {"ModelledTargetAt",
         "a target is a method that a model gives at its own call sites (the reflection API, "
         "Unsafe, doPrivileged): called reflectively, neither the model nor its body runs"},
        {"UnmodelledModuleForName",
         "Class.forName(Module, String) outside ServiceLoader: no rule resolves its name, it "
         "returns what the JDK's body of forName returns"},
        {"UnreadModuleProviders",
         "a ServiceLoader is made for a service whose providers the JDK's modules declare and "
         "the front end did not read (--jdk-providers read reads them)"},
        {"UnknownFieldOffset",
         "a Field object of a field whose name is unknown, which it returns, reaches "
         "Unsafe.objectFieldOffset: no rule follows the Unsafe accesses at that offset"}}) {
    for (const std::uint64_t i : first_column(in, relation)) reasons[i].push_back(reason);
  }
  std::map<std::uint64_t, std::set<std::string>> unknown;
  const std::vector<std::string>& heaps = in.facts.domain("H").names();
  for (const Tuple& t : tuples_if_declared(in, "ReflectionUnknownObject"))
    unknown[t[0]].insert(heaps[t[1]]);
  // newInstance site -> (cast var -> types made there)
  std::map<std::uint64_t, std::map<std::uint64_t, std::uint64_t>> lazy_casts;
  for (const Tuple& t : tuples_if_declared(in, "LazyCastType")) ++lazy_casts[t[0]][t[1]];
  std::map<std::uint64_t, std::uint64_t> cast_type;
  for (const auto& t : in.facts.relation("Cast").sorted_tuples()) cast_type[t[0]] = t[2];
  const std::vector<std::string>& variables = in.facts.domain("V").names();
  const std::vector<std::string>& types = in.facts.domain("T").names();
  const std::set<std::uint64_t> with_metaobject = first_column(in, "HasMetaobject");
  const std::set<std::uint64_t> annotated = first_column(in, "AnnotatedSite");
  std::map<std::uint64_t, std::set<std::string>> lookups, entries;
  for (const Tuple& t : tuples_if_declared(in, "AnnotationLookupSite"))
    lookups[t[0]].insert(invokes[t[1]]);
  for (const Tuple& t : tuples_if_declared(in, "AnnotationEntrySite"))
    entries[t[0]].insert(invokes[t[1]]);

  for (const auto& [invoke, kind] : api_call_sites(in.facts)) {
    const auto in_method = caller.find(invoke);
    if (in_method == caller.end() || reachable.count(in_method->second) == 0) continue;
    ReportSite site;
    site.site = invokes[invoke];
    site.caller = methods[in_method->second];
    if (invoke < in.positions.size()) site.line = in.positions[invoke].line;
    site.kind = kind;
    for (const auto& [target, rules] : targets[invoke]) {
      site.targets.push_back({target, {rules.begin(), rules.end()}});
      if (rules.count("L-Cast") != 0) ++site.lazy_types;
    }
    site.unknown = {unknown[invoke].begin(), unknown[invoke].end()};
    for (const auto& [var, count] : lazy_casts[invoke])
      site.lazy_casts.push_back({variables[var], types[cast_type[var]], count});
    std::stable_sort(site.lazy_casts.begin(), site.lazy_casts.end(),
                     [](const LazyCast& a, const LazyCast& b) { return a.types > b.types; });
    site.unsound_reasons = reasons[invoke];
    site.no_metaobject = takes_metaobject(kind) && site.targets.empty() &&
                         with_metaobject.count(invoke) == 0 && annotated.count(invoke) == 0;
    site.annotate_lookups = {lookups[invoke].begin(), lookups[invoke].end()};
    site.annotate_entries = {entries[invoke].begin(), entries[invoke].end()};
    report.sites.push_back(std::move(site));
  }
  std::sort(report.sites.begin(), report.sites.end(),
            [](const ReportSite& a, const ReportSite& b) { return a.site < b.site; });
  return report;
}

std::vector<std::size_t> imprecise_sites(const ReflectionReport& report, std::uint64_t threshold) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < report.sites.size(); ++k) {
    if (is_side_effect(report.sites[k].kind) && imprecision(report.sites[k]) > threshold)
      out.push_back(k);
  }
  std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
    return imprecision(report.sites[a]) > imprecision(report.sites[b]);
  });
  return out;
}

void write_report_json(const std::filesystem::path& file, const ReflectionReport& report) {
  AtomicOutputFile file_out(file);
  std::ostream& out = file_out.stream();
  const MetaobjectCounts& m = report.metaobjects;
  out << "{\n  \"mode\": " << json_string(report.mode)
      << ",\n  \"notice\": " << (report.notice ? json_string(*report.notice) : "null")
      << ",\n  \"metaobjects\": {\"member_objects\": " << m.member_objects
      << ", \"partial_objects\": " << m.partial_objects
      << ", \"unknown_classes\": " << m.unknown_classes
      << ", \"unknown_objects\": " << m.unknown_objects
      << ", \"reflective_objects\": " << m.reflective_objects
      << ", \"metaobject_arrays\": " << m.metaobject_arrays
      << ", \"member_naming_strings\": " << m.member_naming_strings << "},\n  \"sites\": [";
  for (std::size_t k = 0; k < report.sites.size(); ++k) {
    const ReportSite& s = report.sites[k];
    out << (k > 0 ? ",\n" : "\n") << "    {\"site\": " << json_string(s.site)
        << ", \"caller\": " << json_string(s.caller)
        << ", \"line\": " << (s.line ? std::to_string(*s.line) : "null")
        << ", \"kind\": " << json_string(kind_name(s.kind)) << ", \"targets\": [";
    for (std::size_t t = 0; t < s.targets.size(); ++t) {
      out << (t > 0 ? ", " : "") << "{\"target\": " << json_string(s.targets[t].target)
          << ", \"rules\": ";
      write_strings(out, s.targets[t].rules);
      out << "}";
    }
    out << "], \"unknown\": ";
    write_strings(out, s.unknown);
    out << ", \"possibly_unsound\": ";
    write_strings(out, s.unsound_reasons);
    out << ", \"no_metaobject\": " << (s.no_metaobject ? "true" : "false")
        << ", \"lazy_types\": " << s.lazy_types << ", \"lazy_casts\": [";
    for (std::size_t c = 0; c < s.lazy_casts.size(); ++c) {
      out << (c > 0 ? ", " : "") << "{\"var\": " << json_string(s.lazy_casts[c].var)
          << ", \"type\": " << json_string(s.lazy_casts[c].type)
          << ", \"types\": " << s.lazy_casts[c].types << "}";
    }
    out << "], \"annotate_lookups\": ";
    write_strings(out, s.annotate_lookups);
    out << ", \"annotate_entries\": ";
    write_strings(out, s.annotate_entries);
    out << "}";
  }
  out << (report.sites.empty() ? "]" : "\n  ]") << ",\n  \"possibly_imprecise\": [";
  const std::vector<std::size_t> imprecise = imprecise_sites(report, 1);
  for (std::size_t k = 0; k < imprecise.size(); ++k) {
    const ReportSite& s = report.sites[imprecise[k]];
    out << (k > 0 ? ", " : "") << "{\"site\": " << json_string(s.site)
        << ", \"measure\": " << imprecision(s) << "}";
  }
  out << "],\n  \"unmatched_log_entries\": ";
  write_strings(out, report.unmatched_log);
  out << "\n}\n";
  file_out.commit();
}

void write_report_text(const std::filesystem::path& file, const ReflectionReport& report) {
  AtomicOutputFile file_out(file);
  std::ostream& out = file_out.stream();
  out << "refract reflection report, mode " << report.mode << "\n";
  if (report.notice) out << "NOTE: " << *report.notice << "\n";
  std::map<std::string, std::size_t> by_kind;
  std::size_t unsound = 0, unreached = 0;
  for (const ReportSite& s : report.sites) {
    ++by_kind[std::string(kind_name(s.kind))];
    unsound += s.unsound_reasons.empty() ? 0 : 1;
    unreached += s.no_metaobject ? 1 : 0;
  }
  out << report.sites.size() << " reflective call sites reached:";
  for (const auto& [kind, n] : by_kind) out << " " << kind << " " << n << ";";
  out << "\n\n== Possibly unsound: " << unsound << " sites (Solar's criteria, Sec. 5.5) ==\n";
  for (const ReportSite& s : report.sites) {
    if (s.unsound_reasons.empty()) continue;
    out << s.site << "  (" << kind_name(s.kind) << ", " << where(s) << ")\n    why:";
    for (const std::string& r : s.unsound_reasons) out << " " << r << ";";
    out << "\n";
    for (const std::string& l : s.annotate_lookups) out << "    annotate lookup: " << l << "\n";
    for (const std::string& e : s.annotate_entries) out << "    annotate entry:  " << e << "\n";
  }
  out << "\n== No metaobject reaches: " << unreached << " sites ==\n";
  for (const ReportSite& s : report.sites)
    if (s.no_metaobject) out << s.site << "  (" << kind_name(s.kind) << ", " << where(s) << ")\n";
  const std::vector<std::size_t> imprecise = imprecise_sites(report, 10);
  out << "\n== Possibly imprecise: " << imprecise.size()
      << " sites with more than 10 types made at casts (newInstance) or targets (Sec. 7.4) ==\n";
  for (const std::size_t k : imprecise) {
    const ReportSite& s = report.sites[k];
    out << imprecision(s) << "\t" << s.site << "  (" << kind_name(s.kind) << ")\n";
    for (const LazyCast& c : s.lazy_casts) {
      if (c.types > 10)
        out << "\t  " << c.types << " types at (" << c.type << ") " << c.var << "\n";
    }
  }
  out << "\n== Every site and its targets ==\n";
  for (const ReportSite& s : report.sites) {
    out << s.site << "  (" << kind_name(s.kind) << ", " << where(s) << ")\n";
    for (const ReportTarget& t : s.targets) {
      out << "    -> " << t.target << "  [";
      for (std::size_t r = 0; r < t.rules.size(); ++r) out << (r > 0 ? ", " : "") << t.rules[r];
      out << "]\n";
    }
    for (const std::string& u : s.unknown) out << "    ?  " << u << "\n";
  }
  if (!report.unmatched_log.empty()) {
    out << "\n== TamiFlex log lines matching no call site: " << report.unmatched_log.size()
        << " ==\n";
    for (const std::string& line : report.unmatched_log) out << line << "\n";
  }
  file_out.commit();
}

}  // namespace refract::reflection
