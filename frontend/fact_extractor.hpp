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
#include <vector>

#include "frontend/fact_database.hpp"
#include "frontend/hierarchy.hpp"
#include "frontend/ir.hpp"

namespace refract::frontend {

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

class FactExtractor {
 public:
  explicit FactExtractor(ClassHierarchy& hierarchy);

  // The class's type, field and method facts, and the statement facts of `methods` (the IR of
  // its methods, in declaration order).
  void add_class(const ClassFile& cls, const std::vector<MethodIr>& methods);
  // Marks a method as an entry point (EntryMethod).
  void add_entry(const std::string& method_signature);
  // Adds what needs every class first: dispatch tables of the concrete classes and the
  // subtype closure over every type met. Call once, after the last add_class.
  void finish();

  const FactDatabase& facts() const { return db_; }
  const FactCounts& counts() const { return counts_; }

 private:
  struct MethodContext;

  std::uint64_t type(const JavaType& t);
  // The V element of an IR variable; nothing for variables that do not hold references.
  std::optional<std::uint64_t> variable(MethodContext& m, VarId v);
  std::uint64_t position(std::size_t index);
  std::uint64_t method(const std::string& signature) { return db_.domain("M").intern(signature); }
  void add_method(const ClassFile& cls, const MethodIr& ir);
  void add_statement(MethodContext& m, const Statement& s);
  void add_invoke(MethodContext& m, const Statement& s);
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

  ClassHierarchy& hierarchy_;
  FactDatabase db_;
  FactCounts counts_;
  std::set<std::string> concrete_classes_;  // internal names, for dispatch tables
  std::map<std::string, std::vector<JavaType>> lambda_classes_;  // synthetic class -> supertypes
  std::vector<JavaType> type_list_;  // the T domain's elements as types, by number
};

// "java/lang/String" for java.lang.String, "[I" for int[]: how the hierarchy names a type.
std::string internal_name(const JavaType& type);
// A string constant's heap element name: the text as a Java string literal.
std::string string_literal(std::string_view text);

}  // namespace refract::frontend
