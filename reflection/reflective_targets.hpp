// Reflective targets that come from outside the analysis, as tuples over the facts' domains:
// the user's annotations and the entries of a TamiFlex log, resolved to invocation sites (I),
// types (T), methods (M) and fields (F). The rule files read them as input relations:
//   AnnotatedNever(invoke:I)                 the site never runs
//   AnnotatedClass(invoke:I, type:T)         annotation kind class
//   AnnotatedMethod(invoke:I, method:M)      kinds method and constructor
//   AnnotatedField(invoke:I, field:F)        kind field
//   LoggedClass(invoke:I, type:T)            Class.forName, Class.newInstance, Array.newInstance
//                                            (the component type), Class.getMethods, ...Fields
//                                            (the receiver class), ClassLoader.loadClass
//   LoggedMethod(invoke:I, method:M)         Method.invoke, Constructor.newInstance,
//                                            Class.get[Declared]Method, ...Constructor
//   LoggedField(invoke:I, field:F)           Field.get*, Field.set*, Class.get[Declared]Field
//
// A site's kind is reflection/api.hpp's api_kind() of the method the call resolves to (its
// StaticCall, VirtualCall or SpecialCall target; DeclaredTarget when it does not resolve).
// At an Array.newInstance site, the log's TARGET and a `class` annotation's TARGET are the
// array type created (`java.lang.String[]`); the T element of AnnotatedClass and LoggedClass is
// its component type (`java.lang.String`): the Class argument of Array.newInstance(Class, int),
// one dimension less for Array.newInstance(Class, int[]) calls of several dimensions.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "frontend/fact_database.hpp"
#include "frontend/fact_extractor.hpp"
#include "reflection/annotations.hpp"
#include "reflection/tamiflex_log.hpp"

namespace refract::reflection {

// A site and one of its targets, as element numbers of the facts' domains.
struct SiteTarget {
  std::uint64_t invoke = 0;
  std::uint64_t target = 0;
  auto operator<=>(const SiteTarget&) const = default;
};

struct AnnotatedTargets {
  std::vector<std::uint64_t> never;
  std::vector<SiteTarget> classes;
  std::vector<SiteTarget> methods;  // methods and constructors
  std::vector<SiteTarget> fields;
};

// Checks every annotation against the facts and resolves it. An InputError at the
// annotation's FILE:LINE:COL for a SITE that is no I element, a site whose call is not of an
// API kind the KIND fits (e.g. `field` on a Class.forName site), a TARGET that is no T, M or F
// element.
AnnotatedTargets resolve_annotations(const frontend::FactDatabase& facts,
                                     std::span<const Annotation> annotations);

// Why a log entry gave no tuple; the report prints these.
enum class UnmatchedReason {
  kCallerNotInFacts,  // no method of CALLER's class and name in the classes read
  kNoSiteOfKind,      // the CALLER methods have no call of the entry's kind
  kTargetNotInFacts,  // TARGET is no T, M or F element (a class not read, a generated class)
};
std::string_view unmatched_reason_name(UnmatchedReason reason);

struct UnmatchedEntry {
  LogEntry entry;
  UnmatchedReason reason;
  std::string detail;  // a sentence naming what is missing
};

struct LoggedTargets {
  std::vector<SiteTarget> classes;
  std::vector<SiteTarget> methods;
  std::vector<SiteTarget> fields;
  std::size_t matched_entries = 0;        // entries that gave at least one tuple
  std::vector<UnmatchedEntry> unmatched;  // in log order
  // Entries of kinds the analysis does not take from a log (Method.getName, Proxy...), by KIND.
  std::map<std::string, std::size_t, std::less<>> skipped_kinds;
};

// Maps each entry to the call sites of its kind in the methods named by CALLER (every
// overload); when LINE is given and some of those sites are on that source line
// (`positions`, indexed by I element), to those only. Never an error: what does not match is
// listed in `unmatched`.
LoggedTargets resolve_log(const frontend::FactDatabase& facts,
                          std::span<const frontend::InvocationPosition> positions,
                          std::span<const LogEntry> entries);

// The classes the entries of modelled kinds and the annotations name (CALLER and SITE
// classes, TARGET classes, array element classes, declaring classes of TARGET members), in
// internal form ("a/B"), sorted: roots for the front end to read besides the classes reachable
// by name, since a class a program reaches only by reflection is named nowhere in its code
// (antlr's antlr.JavaCodeGenerator, a JDBC driver), and a target or caller the facts do not
// hold cannot be resolved. Hidden classes (`a.B$$Lambda$1/0x...`) are left out.
std::vector<std::string> classes_to_read(std::span<const LogEntry> entries,
                                         std::span<const Annotation> annotations);

// Declares the seven relations above in `facts` and fills them; with default-constructed
// arguments they are declared empty, so the rule files can always read them. A relation of
// one of these names already in `facts` is a std::logic_error.
void add_reflective_target_relations(frontend::FactDatabase& facts,
                                     const AnnotatedTargets& annotated,
                                     const LoggedTargets& logged);

}  // namespace refract::reflection
