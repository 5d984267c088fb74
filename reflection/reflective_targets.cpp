#include "reflection/reflective_targets.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "reflection/api.hpp"
#include "reflection/target_syntax.hpp"

namespace refract::reflection {

namespace {

using frontend::FactDatabase;

// Which relation a kind's targets go to.
enum class TargetRelation { kClass, kMethod, kField };

// The relation of the log entries and annotation targets of each modelled kind; nothing for
// kinds whose TamiFlex entries the analysis does not take.
std::optional<TargetRelation> logged_relation(ApiKind kind) {
  switch (kind) {
    case ApiKind::kForName:
    case ApiKind::kLoadClass:
    case ApiKind::kClassNewInstance:
    case ApiKind::kArrayNewInstance:
    case ApiKind::kGetMethods:
    case ApiKind::kGetDeclaredMethods:
    case ApiKind::kGetFields:
    case ApiKind::kGetDeclaredFields:
    case ApiKind::kGetConstructors:
    case ApiKind::kGetDeclaredConstructors:
      return TargetRelation::kClass;
    case ApiKind::kConstructorNewInstance:
    case ApiKind::kMethodInvoke:
    case ApiKind::kGetMethod:
    case ApiKind::kGetDeclaredMethod:
    case ApiKind::kGetConstructor:
    case ApiKind::kGetDeclaredConstructor:
      return TargetRelation::kMethod;
    case ApiKind::kFieldGet:
    case ApiKind::kFieldSet:
    case ApiKind::kGetField:
    case ApiKind::kGetDeclaredField:
      return TargetRelation::kField;
    default:
      return std::nullopt;
  }
}

// Whether an annotation of `kind` may say something about a site of API kind `site`
// (reflection/annotations.hpp lists which).
bool annotation_fits(AnnotationKind kind, ApiKind site) {
  switch (kind) {
    case AnnotationKind::kNever:
      return true;
    case AnnotationKind::kClass:
      return logged_relation(site) == TargetRelation::kClass || site == ApiKind::kGetMethod ||
             site == ApiKind::kGetDeclaredMethod || site == ApiKind::kGetField ||
             site == ApiKind::kGetDeclaredField || site == ApiKind::kGetConstructor ||
             site == ApiKind::kGetDeclaredConstructor;
    case AnnotationKind::kMethod:
      return site == ApiKind::kGetMethod || site == ApiKind::kGetDeclaredMethod ||
             site == ApiKind::kGetMethods || site == ApiKind::kGetDeclaredMethods ||
             site == ApiKind::kMethodInvoke;
    case AnnotationKind::kConstructor:
      return site == ApiKind::kGetConstructor || site == ApiKind::kGetDeclaredConstructor ||
             site == ApiKind::kGetConstructors || site == ApiKind::kGetDeclaredConstructors ||
             site == ApiKind::kConstructorNewInstance || site == ApiKind::kClassNewInstance;
    case AnnotationKind::kField:
      return site == ApiKind::kGetField || site == ApiKind::kGetDeclaredField ||
             site == ApiKind::kGetFields || site == ApiKind::kGetDeclaredFields ||
             site == ApiKind::kFieldGet || site == ApiKind::kFieldSet;
  }
  return false;
}

// The API kind of every invocation site whose call resolves to a method of api.hpp's table.
class SiteKinds {
 public:
  explicit SiteKinds(const FactDatabase& facts) {
    const auto& methods = facts.domain("M").names();
    std::vector<std::optional<ApiKind>> method_kinds(methods.size());
    for (std::size_t m = 0; m < methods.size(); ++m) method_kinds[m] = api_kind(methods[m]);
    const std::size_t sites = facts.domain("I").size();
    kinds_.resize(sites);
    std::vector<bool> resolved(sites, false);
    // (relation, column of I, column of M): the resolved target first, then the named one.
    auto take = [&](std::string_view relation, std::size_t target_column, bool resolving) {
      const frontend::FactRelation& r = facts.relation(relation);
      const auto& values = r.raw_values();
      for (std::size_t i = 0; i < values.size(); i += r.arity()) {
        const std::uint64_t site = values[i];
        if (!resolving && resolved[site]) continue;
        if (resolving) resolved[site] = true;
        kinds_[site] = method_kinds[values[i + target_column]];
      }
    };
    take("StaticCall", 1, true);
    take("VirtualCall", 2, true);
    take("SpecialCall", 2, true);
    take("DeclaredTarget", 1, false);
  }

  std::optional<ApiKind> kind(std::uint64_t site) const { return kinds_[site]; }

 private:
  std::vector<std::optional<ApiKind>> kinds_;
};

std::optional<std::uint64_t> element(const FactDatabase& facts, std::string_view domain,
                                     std::string_view name) {
  const frontend::FactDomain& d = facts.domain(domain);
  if (!d.contains(name)) return std::nullopt;
  return d.at(name);
}

// The facts' element name for a TARGET of a relation at a site of `kind`: T names unquoted
// Java source form, M and F Soot signatures with quotes. An Array.newInstance TARGET is the
// array type created (as TamiFlex logs it); its element is the component type, the Class
// argument of Array.newInstance(Class, int), which the facts hold far more often than an array
// type the program makes only reflectively (checkstyle: java.lang.Float[], java.sql.Date[]).
std::string element_name(TargetRelation relation, ApiKind kind, std::string_view target) {
  if (relation != TargetRelation::kClass) return soot_signature(parse_member_signature(target));
  std::string type = parse_type_name(target);
  if (kind == ApiKind::kArrayNewInstance && type.ends_with("[]")) type.resize(type.size() - 2);
  return type;
}

// An array object is made of its array type (directed.datalog), which the facts hold only
// where the program names it: without it the rules could make nothing, so the log line is
// listed, and the annotation refused, instead of being taken and dropped.
// The message for an Array.newInstance TARGET whose array type is no T element; nullopt for
// any other kind or a type the facts have.
std::optional<std::string> missing_array_type(const FactDatabase& facts, ApiKind kind,
                                              std::string_view target) {
  if (kind != ApiKind::kArrayNewInstance) return std::nullopt;
  const std::string type = parse_type_name(target);
  if (element(facts, "T", type)) return std::nullopt;
  return "T element " + type + " is not in the facts: the program names no " + type +
         ", so no such array can be made";
}

// The relation an annotation's TARGET goes to (not for never).
TargetRelation annotation_relation(AnnotationKind kind) {
  switch (kind) {
    case AnnotationKind::kClass:
      return TargetRelation::kClass;
    case AnnotationKind::kField:
      return TargetRelation::kField;
    default:
      return TargetRelation::kMethod;
  }
}

bool is_primitive_type(std::string_view name) {
  for (std::string_view p : {"boolean", "byte", "char", "short", "int", "float", "long", "double"})
    if (p == name) return true;
  return false;
}

std::string_view domain_of(TargetRelation relation) {
  switch (relation) {
    case TargetRelation::kClass:
      return "T";
    case TargetRelation::kMethod:
      return "M";
    case TargetRelation::kField:
      return "F";
  }
  return "?";
}

std::vector<SiteTarget>& tuples_of(TargetRelation relation, std::vector<SiteTarget>& classes,
                                   std::vector<SiteTarget>& methods,
                                   std::vector<SiteTarget>& fields) {
  switch (relation) {
    case TargetRelation::kClass:
      return classes;
    case TargetRelation::kMethod:
      return methods;
    default:
      return fields;
  }
}

std::string fitting_kinds(ApiKind site) {
  std::string out;
  for (AnnotationKind k : {AnnotationKind::kNever, AnnotationKind::kClass, AnnotationKind::kMethod,
                           AnnotationKind::kConstructor, AnnotationKind::kField}) {
    if (!annotation_fits(k, site)) continue;
    if (!out.empty()) out += ", ";
    out += annotation_kind_name(k);
  }
  return out;
}

// "a.B.m" of a method signature `<a.'to'.B: R 'm'(P)>` from the facts, unquoted as a TamiFlex
// CALLER names it; nothing for a signature without a parameter list.
std::optional<std::string> caller_key(std::string_view signature) {
  const std::size_t colon = signature.find(": ");
  const std::size_t space = signature.find(' ', colon + 2);
  const std::size_t paren = signature.find('(', space);
  if (signature.empty() || signature.front() != '<' || colon == std::string_view::npos ||
      space == std::string_view::npos || paren == std::string_view::npos)
    return std::nullopt;
  auto unquote = [](std::string_view part) {
    if (part.size() >= 2 && part.front() == '\'' && part.back() == '\'')
      part = part.substr(1, part.size() - 2);
    return part;
  };
  std::string key;
  const std::string_view cls = signature.substr(1, colon - 1);
  for (std::size_t start = 0;;) {
    const std::size_t dot = cls.find('.', start);
    key += unquote(cls.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    key += '.';
    start = dot + 1;
  }
  key += '.';
  key += unquote(signature.substr(space + 1, paren - space - 1));
  return key;
}

// The API call sites of each method, and the methods of the classes read (MethodDeclared: not
// the methods only referred to) by TamiFlex CALLER name.
class CallerIndex {
 public:
  CallerIndex(const FactDatabase& facts, const SiteKinds& kinds) {
    const auto& methods = facts.domain("M").names();
    const frontend::FactRelation& declared = facts.relation("MethodDeclared");
    for (std::size_t i = 0; i < declared.raw_values().size(); i += 2) {
      const std::uint64_t m = declared.raw_values()[i];
      if (auto key = caller_key(methods[m])) by_name_[*key].push_back(m);
    }
    const frontend::FactRelation& call_in = facts.relation("CallIn");
    const auto& values = call_in.raw_values();
    for (std::size_t i = 0; i < values.size(); i += 2)
      if (kinds.kind(values[i])) sites_[values[i + 1]].push_back(values[i]);
  }

  const std::vector<std::uint64_t>* methods_named(const std::string& caller) const {
    const auto it = by_name_.find(caller);
    return it == by_name_.end() ? nullptr : &it->second;
  }
  const std::vector<std::uint64_t>& api_sites(std::uint64_t method) const {
    static const std::vector<std::uint64_t> kNone;
    const auto it = sites_.find(method);
    return it == sites_.end() ? kNone : it->second;
  }

 private:
  std::unordered_map<std::string, std::vector<std::uint64_t>> by_name_;
  std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> sites_;
};

// The sites of `kind` in the CALLER methods, narrowed to LINE when some are on it.
std::vector<std::uint64_t> sites_for(const LogEntry& entry, ApiKind kind,
                                     const std::vector<std::uint64_t>& methods,
                                     const CallerIndex& callers, const SiteKinds& kinds,
                                     std::span<const frontend::InvocationPosition> positions) {
  std::vector<std::uint64_t> sites;
  for (std::uint64_t m : methods)
    for (std::uint64_t site : callers.api_sites(m))
      if (kinds.kind(site) == kind) sites.push_back(site);
  if (!entry.line) return sites;
  std::vector<std::uint64_t> on_line;
  for (std::uint64_t site : sites)
    if (site < positions.size() && positions[site].line == entry.line) on_line.push_back(site);
  return on_line.empty() ? sites : on_line;
}

void sort_unique(std::vector<SiteTarget>& tuples) {
  std::sort(tuples.begin(), tuples.end());
  tuples.erase(std::unique(tuples.begin(), tuples.end()), tuples.end());
}

}  // namespace

std::string_view unmatched_reason_name(UnmatchedReason reason) {
  switch (reason) {
    case UnmatchedReason::kCallerNotInFacts:
      return "caller not in the facts";
    case UnmatchedReason::kNoSiteOfKind:
      return "no call site of the kind in the caller";
    case UnmatchedReason::kTargetNotInFacts:
      return "target not in the facts";
  }
  return "?";
}

AnnotatedTargets resolve_annotations(const FactDatabase& facts,
                                     std::span<const Annotation> annotations) {
  AnnotatedTargets out;
  if (annotations.empty()) return out;
  const SiteKinds kinds(facts);
  for (const Annotation& a : annotations) {
    const std::optional<std::uint64_t> site = element(facts, "I", a.site);
    if (!site) throw InputError(a.where, "no invocation site " + a.site + " in the facts");
    const std::optional<ApiKind> kind = kinds.kind(*site);
    if (!kind) throw InputError(a.where, "site " + a.site + " is no call of the reflection API");
    if (!annotation_fits(a.kind, *kind)) {
      throw InputError(a.kind_where, "kind " + std::string(annotation_kind_name(a.kind)) +
                                         " does not fit a " + std::string(kind_name(*kind)) +
                                         " site (it takes " + fitting_kinds(*kind) + ")");
    }
    if (a.kind == AnnotationKind::kNever) {
      out.never.push_back(*site);
      continue;
    }
    const TargetRelation relation = annotation_relation(a.kind);
    if (*kind == ApiKind::kArrayNewInstance && !parse_type_name(a.target).ends_with("[]")) {
      throw InputError(a.target_where,
                       "an Array.newInstance site instantiates an array: TARGET is its type, " +
                           parse_type_name(a.target) + "[] for an array of " +
                           parse_type_name(a.target));
    }
    const std::string name = element_name(relation, *kind, a.target);
    const std::optional<std::uint64_t> target = element(facts, domain_of(relation), name);
    if (!target) {
      throw InputError(a.target_where, std::string(annotation_kind_name(a.kind)) + " " + name +
                                           " is not in the facts");
    }
    if (const auto missing = missing_array_type(facts, *kind, a.target))
      throw InputError(a.target_where, *missing);
    tuples_of(relation, out.classes, out.methods, out.fields).push_back({*site, *target});
  }
  std::sort(out.never.begin(), out.never.end());
  out.never.erase(std::unique(out.never.begin(), out.never.end()), out.never.end());
  sort_unique(out.classes);
  sort_unique(out.methods);
  sort_unique(out.fields);
  return out;
}

LoggedTargets resolve_log(const FactDatabase& facts,
                          std::span<const frontend::InvocationPosition> positions,
                          std::span<const LogEntry> entries) {
  LoggedTargets out;
  if (entries.empty()) return out;
  const SiteKinds kinds(facts);
  const CallerIndex callers(facts, kinds);
  for (const LogEntry& entry : entries) {
    const std::optional<TargetRelation> relation =
        entry.kind ? logged_relation(*entry.kind) : std::nullopt;
    if (!relation) {
      ++out.skipped_kinds[entry.kind_text];
      continue;
    }
    auto unmatched = [&](UnmatchedReason reason, std::string detail) {
      out.unmatched.push_back({entry, reason, std::move(detail)});
    };
    const CallerName caller = parse_caller(entry.caller);
    const std::string key = caller.declaring_class + "." + caller.method;
    const std::vector<std::uint64_t>* methods = callers.methods_named(key);
    if (methods == nullptr) {
      unmatched(UnmatchedReason::kCallerNotInFacts, "no method " + key + " in the facts");
      continue;
    }
    const std::vector<std::uint64_t> sites =
        sites_for(entry, *entry.kind, *methods, callers, kinds, positions);
    if (sites.empty()) {
      std::string detail = "no " + std::string(kind_name(*entry.kind)) + " call in " + key;
      // TamiFlex skips java.lang.invoke frames, so the JDK's LambdaMetafactory instantiating a
      // lambda class shows as a Constructor.newInstance in the method of the lambda expression.
      if (entry.target.find("$$Lambda") != std::string::npos)
        detail +=
            " (a lambda object made by the JDK's LambdaMetafactory; the facts model it as "
            "an allocation at the invokedynamic site)";
      unmatched(UnmatchedReason::kNoSiteOfKind, std::move(detail));
      continue;
    }
    const std::string name = element_name(*relation, *entry.kind, entry.target);
    const std::optional<std::uint64_t> target = element(facts, domain_of(*relation), name);
    if (!target) {
      unmatched(UnmatchedReason::kTargetNotInFacts,
                std::string(domain_of(*relation)) + " element " + name + " is not in the facts");
      continue;
    }
    if (auto missing = missing_array_type(facts, *entry.kind, entry.target)) {
      unmatched(UnmatchedReason::kTargetNotInFacts, std::move(*missing));
      continue;
    }
    auto& tuples = tuples_of(*relation, out.classes, out.methods, out.fields);
    for (std::uint64_t site : sites) tuples.push_back({site, *target});
    ++out.matched_entries;
  }
  sort_unique(out.classes);
  sort_unique(out.methods);
  sort_unique(out.fields);
  return out;
}

std::vector<std::string> classes_to_read(std::span<const LogEntry> entries,
                                         std::span<const Annotation> annotations) {
  std::set<std::string> names;
  auto add_class = [&](std::string name) {
    if (name.find('/') != std::string::npos) return;  // a hidden class: never on a class path
    std::replace(name.begin(), name.end(), '.', '/');
    names.insert(std::move(name));
  };
  auto add_type = [&](std::string_view type) {
    std::string element = parse_type_name(type);
    while (element.ends_with("[]")) element.resize(element.size() - 2);
    if (!is_primitive_type(element)) add_class(std::move(element));
  };
  auto add_target = [&](TargetRelation relation, std::string_view target) {
    if (relation == TargetRelation::kClass) {
      add_type(target);
      return;
    }
    add_class(parse_member_signature(target).declaring_class);
  };
  for (const LogEntry& e : entries) {
    const std::optional<TargetRelation> relation = e.kind ? logged_relation(*e.kind) : std::nullopt;
    if (!relation) continue;
    add_class(parse_caller(e.caller).declaring_class);
    add_target(*relation, e.target);
  }
  for (const Annotation& a : annotations) {
    if (a.site.starts_with("<jvm>")) continue;
    add_class(parse_member_signature(a.site.substr(0, a.site.find(">/") + 1)).declaring_class);
    if (a.kind != AnnotationKind::kNever) add_target(annotation_relation(a.kind), a.target);
  }
  return {names.begin(), names.end()};
}

void add_reflective_target_relations(FactDatabase& facts, const AnnotatedTargets& annotated,
                                     const LoggedTargets& logged) {
  auto declare = [&](const char* name, std::vector<frontend::FactAttribute> attributes,
                     const char* meaning) -> frontend::FactRelation& {
    for (const frontend::FactRelation& r : facts.relations())
      if (r.name() == name) throw std::logic_error(std::string("relation ") + name + " exists");
    return facts.add_relation(name, std::move(attributes), meaning);
  };
  auto fill = [](frontend::FactRelation& r, const std::vector<SiteTarget>& tuples) {
    for (const SiteTarget& t : tuples) r.add({t.invoke, t.target});
  };
  frontend::FactRelation& never =
      declare("AnnotatedNever", {{"invoke", "I"}}, "annotated: the site never runs");
  for (std::uint64_t site : annotated.never) never.add({site});
  fill(declare("AnnotatedClass", {{"invoke", "I"}, {"type", "T"}},
               "annotated: the class a Class-valued site returns, instantiates or inspects"),
       annotated.classes);
  fill(declare("AnnotatedMethod", {{"invoke", "I"}, {"method", "M"}},
               "annotated: a method or constructor the site returns or calls"),
       annotated.methods);
  fill(declare("AnnotatedField", {{"invoke", "I"}, {"field", "F"}},
               "annotated: a field the site returns or accesses"),
       annotated.fields);
  fill(declare("LoggedClass", {{"invoke", "I"}, {"type", "T"}},
               "TamiFlex: the class a site returned, instantiated (arrays: the array type) or "
               "inspected"),
       logged.classes);
  fill(declare("LoggedMethod", {{"invoke", "I"}, {"method", "M"}},
               "TamiFlex: a method or constructor a site returned or called"),
       logged.methods);
  fill(declare("LoggedField", {{"invoke", "I"}, {"field", "F"}},
               "TamiFlex: a field a site returned or accessed"),
       logged.fields);
}

}  // namespace refract::reflection
