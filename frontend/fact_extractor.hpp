// Turns classes and the IR of their methods into the fact relations of frontend/FACTS.md.
// Member references are resolved through the class hierarchy as the JVM links them, so a call
// names the method it resolves to and a field access the field it resolves to; what cannot be
// resolved (phantom classes, missing members) is counted and listed, never dropped silently.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/class_path.hpp"
#include "frontend/fact_database.hpp"
#include "frontend/hierarchy.hpp"
#include "frontend/ir.hpp"

namespace refract::frontend {

struct ExactArray;

// Something the facts do not model, with where it is.
struct UnmodelledSite {
  std::string method;  // Soot signature
  std::uint32_t pc = 0;
  std::string what;
};

struct FactCounts {
  std::size_t classes = 0;
  std::size_t methods = 0;
  std::size_t methods_with_code = 0;
  std::size_t instructions = 0;
  std::size_t statements = 0;
  std::size_t lambdas = 0;
  std::size_t string_concats = 0;
  std::vector<UnmodelledSite> unsupported_invokedynamic;
  std::vector<UnmodelledSite> dynamic_constants;
  std::vector<UnmodelledSite> unresolved;  // member references that did not resolve
};

// Where an invocation site is in its method's bytecode, for call-graph exports (JCG's callSites).
// A synthetic lambda method's one call has neither (it has no bytecode).
struct InvocationPosition {
  std::optional<std::uint32_t> pc;
  std::optional<std::uint32_t> line;  // from LineNumberTable, when the class has one
};

// What an extractor holds besides its facts, taken after finish(), when no class waits for
// one: enough for another extractor over the same class path to go on reading classes as this
// one would (frontend/extractor_snapshot.hpp keeps the JDK's start-up part so, issue 35).
struct ExtractorResumeState {
  FactCounts counts;
  std::vector<JavaType> types;  // the T domain's elements as types, by number
  std::map<std::string, std::vector<JavaType>> lambda_classes;  // synthetic class -> supertypes
  std::vector<InvocationPosition> positions;                    // by I element
  bool jvm_objects = false;        // add_entry or add_jvm_objects was called
  bool jvm_objects_added = false;  // and finish() added them
};

class FactExtractor {
 public:
  explicit FactExtractor(ClassHierarchy& hierarchy);

  // The class's type, field and method facts, and the statement facts of `methods` (the IR of
  // its methods, in declaration order).
  void add_class(const ClassFile& cls, const std::vector<MethodIr>& methods);
  // The module facts of a class read from a named module (ModuleType, ExportedType, OpenType);
  // the application's classes, in the unnamed module, have none.
  void add_module_access(const ClassFile& cls, const ModuleAccess& access);
  // Marks a method as an entry point (EntryMethod); finish() then also adds the objects and
  // the call site the JVM itself makes (the `<jvm>/...` elements of FACTS.md).
  void add_entry(const std::string& method_signature);
  // finish() adds the JVM's objects and call site without an entry method too: for the JDK's
  // start-up part, read before the program's classes (cli/program_facts.cpp).
  void add_jvm_objects() { jvm_objects_ = true; }
  // Adds what needs every class first: dispatch tables of the concrete classes and of the
  // array types, the subtype closure over every type met, and one Class object per type.
  // Call after the last add_class. A later call, after more classes, adds what those need,
  // and what they add to the earlier types' facts (array supertypes, field names), numbering
  // new elements after the elements of the earlier calls.
  void finish();
  // Records the elements numbered so far as the JDK's part (FactDatabase::mark_jdk_part).
  void mark_jdk_part() { db_.mark_jdk_part(); }

  const FactDatabase& facts() const { return db_; }
  const FactCounts& counts() const { return counts_; }
  // The state resume() takes; std::logic_error when classes were added since the last finish().
  ExtractorResumeState resume_state() const;
  // Goes on from `facts` and `state` (another extractor's, over the same class path) as that
  // extractor would; std::logic_error unless this one is fresh, std::invalid_argument when
  // `state` does not fit `facts` (a type per T element, a position per I element).
  void resume(FactDatabase facts, ExtractorResumeState state);
  // Indexed by I element; sites the JVM makes itself (`<jvm>/...`) have no position.
  const std::vector<InvocationPosition>& invocation_positions() const { return positions_; }

 private:
  struct MethodContext;

  std::uint64_t type(const JavaType& t);
  // The V element of an IR variable; nothing for variables that do not hold references.
  std::optional<std::uint64_t> variable(MethodContext& m, VarId v);
  // The same for the variables whose values the rules follow: references, and `long`s, which
  // carry Unsafe field offsets (pointsto/rules/natives.datalog, "Unsafe offsets as values").
  std::optional<std::uint64_t> value_variable(MethodContext& m, VarId v);
  std::uint64_t position(std::size_t index);
  std::uint64_t method(const std::string& signature) { return db_.domain("M").intern(signature); }
  void add_method(const ClassFile& cls, const MethodIr& ir);
  void add_statement(MethodContext& m, const Statement& s);
  template <typename Visit>
  void for_each_handler(MethodContext& m, std::uint32_t pc, Visit&& visit);
  void add_invoke(MethodContext& m, const Statement& s);
  void note_reflection_site(MethodContext& m, const Statement& s, std::uint64_t site,
                            const MethodRef& ref, const MethodLookup& resolved, bool reflective);
  void add_reflection_flow(MethodContext& m);
  void add_exact_args(std::uint64_t invoke, MethodContext& m, const ExactArray& array);
  void add_lambda(MethodContext& m, const Statement& s);
  void add_concat(MethodContext& m, const Statement& s);
  void add_field_access(MethodContext& m, const Statement& s);
  struct ResolvedField {
    std::string signature;
    JavaType declaring;
  };
  ResolvedField resolved_field(MethodContext& m, const FieldRef& ref, std::uint32_t pc);
  std::uint64_t string_heap(const std::string& text);
  void add_subtype_closure();
  void add_array_dispatch();
  void add_class_objects();
  void add_field_names();
  void add_jvm_elements();
  void add_parameter_types(std::uint64_t method, const std::vector<JavaType>& parameters);
  void add_result_cast(std::uint64_t invoke, const JavaType& cast);
  void add_deferred_types();

  ClassHierarchy& hierarchy_;
  FactDatabase db_;
  FactCounts counts_;
  // internal names, for dispatch tables: those added since the last finish()
  std::set<std::string> concrete_classes_;
  std::size_t finished_types_ = 0;  // the T elements the last finish() made facts for
  std::map<std::string, std::vector<JavaType>> lambda_classes_;  // synthetic class -> supertypes
  std::vector<JavaType> type_list_;            // the T domain's elements as types, by number
  std::vector<InvocationPosition> positions_;  // by I element
  bool jvm_objects_ = false;        // add_entry or add_jvm_objects: the JVM's own objects
  bool jvm_objects_added_ = false;  // finish() added them
  // MethodParamType and ResultCast tuples whose type is new when met (a primitive type only
  // parameters name, say), added by finish() before the closure over all types: interning it
  // at once would renumber the T elements the other relations name.
  struct DeferredParameterType {
    std::uint64_t method;
    std::size_t index;  // from 1
    JavaType type;
  };
  struct DeferredResultCast {
    std::uint64_t invoke;
    JavaType type;
  };
  std::vector<DeferredParameterType> deferred_parameter_types_;
  std::vector<DeferredResultCast> deferred_result_casts_;
};

// "java/lang/String" for java.lang.String, "[I" for int[]: how the hierarchy names a type.
std::string internal_name(const JavaType& type);
// A string constant's heap element name: the text as a Java string literal.
std::string string_literal(std::string_view text);
// The string constants (StringConstant's heap elements) of `facts`, by their names.
std::unordered_map<std::string, std::uint64_t> string_constants_by_literal(
    const FactDatabase& facts);

}  // namespace refract::frontend
