// The names a TamiFlex log and an annotation file use for classes, methods and fields, parsed
// and checked: binary class names (`a.B$C`), types in Java source form (`int[]`, `a.B[][]`) or
// in the JVM's Class.getName() form for arrays (`[I`, `[[La.B;`), Soot signatures
// (`<a.B: int m(java.lang.String)>`, `<a.B: int f>`) and TamiFlex callers (`a.B.m`).
//
// TamiFlex writes names unquoted; refract's facts name methods and fields with Soot's quoting of
// Jimple-reserved words (`<a.'to'.B: void 'from'()>`). Parsing accepts both and keeps the
// unquoted names; soot_signature() rebuilds the name the facts use.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace refract::reflection {

// A malformed name: what is wrong and at which byte of the parsed text.
class NameSyntaxError : public std::runtime_error {
 public:
  NameSyntaxError(std::size_t offset, const std::string& message)
      : std::runtime_error(message), offset_(offset) {}
  std::size_t offset() const { return offset_; }

 private:
  std::size_t offset_;
};

// A method or field named by a Soot signature, its names unquoted.
struct MemberSignature {
  std::string declaring_class;  // binary name, `a.B$C`
  std::string type;             // return type (`void` too) or field type, Java source form
  std::string name;             // `m`, `<init>`, `<clinit>`
  std::optional<std::vector<std::string>> parameters;  // methods only, Java source form

  bool is_method() const { return parameters.has_value(); }
  bool is_constructor() const { return is_method() && name == "<init>"; }
  bool operator==(const MemberSignature&) const = default;
};

// A TamiFlex CALLER `declaring.Class.methodName`, its names unquoted.
struct CallerName {
  std::string declaring_class;
  std::string method;
};

// A class, interface, primitive or array type, returned in Java source form as the facts name
// T elements: `a.B$C`, `int`, `int[]`, `a.B[][]` (from `[I`, `[[La.B;` too). A hidden class's
// `/suffix` (`a.B$$Lambda$1/0x0800`) is accepted and kept. NameSyntaxError otherwise.
std::string parse_type_name(std::string_view text);

// A Soot method or field signature. NameSyntaxError when malformed.
MemberSignature parse_member_signature(std::string_view text);

// A TamiFlex CALLER: a binary class name, '.', a method name. NameSyntaxError when malformed.
CallerName parse_caller(std::string_view text);

// An invocation site `<caller sig>/Decl.name/n` (frontend/FACTS.md, domain I), returned as the
// facts name it: the caller's signature with Soot's quoting, Decl.name unquoted. A site the
// JVM makes itself starts with `<jvm>`. NameSyntaxError when malformed.
std::string parse_invocation_site(std::string_view text);

// The signature as the facts' M and F domains name it: Soot's format and quoting.
std::string soot_signature(const MemberSignature& member);

}  // namespace refract::reflection
