// The part of the Java reflection API the reflection analysis models (Solar paper, Sec. 2.2 and
// 6: entry, member-introspecting and side-effect methods), by the Soot signature of the method
// a call resolves to. The rule files name the same methods; this table is what the report,
// the TamiFlex log and the annotations use to say what kind of call a site is.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "frontend/fact_database.hpp"

namespace refract::reflection {

enum class ApiKind {
  // entry methods: a Class object from a name
  kForName,    // Class.forName(String[, boolean, ClassLoader])
  kLoadClass,  // ClassLoader.loadClass(String)
  // Class objects from Class objects
  kGetSuperclass,
  kGetInterfaces,
  kGetComponentType,
  // member-introspecting methods
  kGetMethod,
  kGetDeclaredMethod,
  kGetMethods,
  kGetDeclaredMethods,
  kGetField,
  kGetDeclaredField,
  kGetFields,
  kGetDeclaredFields,
  kGetConstructor,
  kGetDeclaredConstructor,
  kGetConstructors,
  kGetDeclaredConstructors,
  // side-effect methods
  kClassNewInstance,        // Class.newInstance()
  kConstructorNewInstance,  // Constructor.newInstance(Object[])
  kMethodInvoke,            // Method.invoke(Object, Object[])
  kFieldGet,                // Field.get(Object) and the primitive getters
  kFieldSet,                // Field.set(Object, Object) and the primitive setters
  kArrayNewInstance,        // Array.newInstance(Class, int) and (Class, int[])
  kArrayGet,                // Array.get(Object, int)
  kArraySet,                // Array.set(Object, int, Object)
  kClassCast,               // Class.cast(Object)
  kProxyNewInstance,        // Proxy.newProxyInstance: reported, not modelled (as in Solar)
};

struct ApiMethod {
  std::string_view signature;  // Soot signature
  ApiKind kind;
};

// Every modelled API method, signatures sorted.
std::span<const ApiMethod> api_methods();

// The kind of the API method with this Soot signature, if it is one.
std::optional<ApiKind> api_kind(std::string_view signature);

// How TamiFlex's refl.log names the kind ("Class.forName", "Method.invoke", "Field.get*", ...)
// and how the report names it; kinds TamiFlex does not log get a name of the same shape
// ("ClassLoader.loadClass", "Array.get").
std::string_view kind_name(ApiKind kind);

// The kind a refl.log KIND field names, if it is one of the API kinds above.
std::optional<ApiKind> kind_from_log_name(std::string_view name);

// Side-effect kinds: where Solar's soundness criteria and the imprecision ranking apply.
bool is_side_effect(ApiKind kind);

// Kinds whose result is a metaobject: entry calls, Class objects from Class objects, and
// member-introspecting calls. Not Class.cast, which returns whatever object it is given.
bool returns_metaobjects(ApiKind kind);

// The API kind of each call site of `facts` whose resolved target (StaticCall, VirtualCall,
// SpecialCall) is a modelled reflection method, by I element.
std::map<std::uint64_t, ApiKind> api_call_sites(const frontend::FactDatabase& facts);

}  // namespace refract::reflection
