// The names refract gives to program elements in facts, maps and exports: Soot signatures for
// methods and fields, Java source forms for types, and the Doop-style names of variables,
// allocation sites and invocation sites.
//
// Where the conventions come from (checked against the tools' sources, read only):
// - Soot, soot/Scene.java (soot-oss/soot): setReservedNames() lists the Jimple-reserved words
//   (the list below; it equals the one in ../shared/FORMATS.md), and quotedNameOf() splits a
//   name at '.' and single-quotes each part that is reserved or starts with '-'. Only whole
//   dot-separated parts are compared, so "a.Outer$to" is not quoted but "a.to.B" becomes
//   "a.'to'.B". <init> and <clinit> are never reserved, so never quoted.
// - Soot, soot/SootMethod.java: getSignature() is "<" + quotedNameOf(class) + ": " + the
//   sub-signature + ">", the sub-signature is returnType.toQuotedString() + " " +
//   quotedNameOf(name) + "(" + parameter types' toQuotedString() joined by "," + ")";
//   RefType.toQuotedString() is quotedNameOf(className), so class names inside parameter and
//   return types are quoted too. soot/SootField.java: "<" + class + ": " + type + " " + name + ">"
//   with the same quoting.
// - Doop, generators/fact-generator-common/.../JavaRepresentation.java and
//   generators/soot-fact-generator/.../Representation.java (plast-lab/doop): a local is
//   METHOD + "/" + name; an allocation site METHOD + "/new " + TYPE + "/" + n; an invocation
//   site METHOD + "/" + DECLARING_CLASS + "." + name + "/" + n, where n comes from a per-method
//   SessionCounter that counts from 0 separately for each middle part ("new T", "Decl.name") in
//   the order the instructions are visited. Doop writes TYPE with Soot's Type.toString() and
//   the declaring class with SootClass.getName(), both unquoted, and so do we; unlike Doop we
//   keep Soot's quotes in the METHOD part, because our method names are Soot signatures.
//   (Tai-e names call sites differently, "<caller>[index@Lline]"; we follow Doop.)
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "frontend/descriptor.hpp"

namespace refract::frontend {

// Whether `word` is one of Soot's Jimple-reserved words (Scene.setReservedNames()).
bool is_jimple_reserved(std::string_view word);

// Soot's Scene.quotedNameOf(): `dotted` split at '.', each part that is a Jimple-reserved word
// or starts with '-' put in single quotes. "a.to.B" -> "a.'to'.B", "from" -> "'from'".
std::string soot_quote(std::string_view dotted);

// A class named by its binary name, with '/' or '.' separators, as Soot names it: dotted and
// quoted. "a/to/B$C" -> "a.'to'.B$C".
std::string soot_class_name(std::string_view binary_name);

// A type in Java source form with Soot's quoting (Type.toQuotedString()): "int",
// "java.lang.String[][]", "a.'to'.B[]".
std::string soot_type(const JavaType& type);

// The sub-signature "ret name(p1,p2)" (the part after ": " in a method signature).
std::string soot_method_subsignature(std::string_view name, const MethodDescriptor& descriptor);

// "<a.B: ret name(p1,p2)>" for a method of the class with binary name `owner`.
std::string soot_method_signature(std::string_view owner, std::string_view name,
                                  const MethodDescriptor& descriptor);
// The same from a descriptor string; a malformed one is a DescriptorError.
std::string soot_method_signature(std::string_view owner, std::string_view name,
                                  std::string_view descriptor);

// "<a.B: type name>" for a field of the class with binary name `owner`.
std::string soot_field_signature(std::string_view owner, std::string_view name,
                                 const JavaType& type);
// The same from a descriptor string; a malformed one is a DescriptorError.
std::string soot_field_signature(std::string_view owner, std::string_view name,
                                 std::string_view descriptor);

// The member's own name in a Soot method or field signature, Soot's quotes removed (a string
// constant that names it has no quotes): "<a.B: void 'from'(int)>" -> "from", "<a.B: int f>"
// -> "f", "<a.B: void <init>()>" -> "<init>".
std::string member_name(std::string_view signature);

// A variable of a method: "<method sig>/name".
std::string variable_name(std::string_view method_signature, std::string_view local_name);

// The n-th (from 0) allocation of `type` within a method: "<method sig>/new T/n", T in Java
// source form without quotes (Doop's Type.toString()).
std::string allocation_site_name(std::string_view method_signature, const JavaType& type,
                                 unsigned n);

// The n-th (from 0) invocation of `declaring_class`.`name` within a method:
// "<method sig>/Decl.name/n". `declaring_class` is the class named by the instruction's
// method reference (binary name, '/' or '.'), not the resolved one. A reference whose class is
// an array type (e.g. `[I`.clone()) names a method of java.lang.Object (JVMS 5.4.3.3 looks
// methods of array classes up in Object), so Decl is java.lang.Object there.
std::string invocation_site_name(std::string_view method_signature,
                                 std::string_view declaring_class, std::string_view name,
                                 unsigned n);

// Numbers the allocation and invocation sites of one method. Call it for the sites in
// bytecode order; each kind of site counts from 0 separately per allocated type and per
// Decl.name, as Doop's SessionCounter does.
class SiteNamer {
 public:
  explicit SiteNamer(std::string method_signature)
      : method_signature_(std::move(method_signature)) {}

  const std::string& method_signature() const { return method_signature_; }
  std::string variable(std::string_view local_name) const {
    return variable_name(method_signature_, local_name);
  }
  // The name of the next allocation of `type` in this method.
  std::string next_allocation(const JavaType& type);
  // The name of the next invocation of `declaring_class`.`name` in this method.
  std::string next_invocation(std::string_view declaring_class, std::string_view name);

 private:
  std::string method_signature_;
  std::map<std::string, unsigned, std::less<>> allocations_;
  std::map<std::string, unsigned, std::less<>> invocations_;
};

}  // namespace refract::frontend
