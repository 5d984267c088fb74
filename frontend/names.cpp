#include "frontend/names.hpp"

#include <algorithm>
#include <array>

namespace refract::frontend {
namespace {

// Soot's Jimple-reserved words (soot/Scene.java, setReservedNames(); the same list as
// ../shared/FORMATS.md), sorted for binary search.
constexpr auto kReserved = [] {
  std::array<std::string_view, 63> words = {
      "newarray",      "newmultiarray", "nop",         "ret",
      "specialinvoke", "staticinvoke",  "tableswitch", "virtualinvoke",
      "null_type",     "unknown",       "cmp",         "cmpg",
      "cmpl",          "entermonitor",  "exitmonitor", "interfaceinvoke",
      "lengthof",      "lookupswitch",  "neg",         "if",
      "abstract",      "annotation",    "boolean",     "break",
      "byte",          "case",          "catch",       "char",
      "class",         "enum",          "final",       "native",
      "public",        "protected",     "private",     "static",
      "synchronized",  "transient",     "volatile",    "interface",
      "void",          "short",         "int",         "long",
      "float",         "double",        "extends",     "implements",
      "breakpoint",    "default",       "goto",        "instanceof",
      "new",           "return",        "throw",       "throws",
      "null",          "from",          "to",          "with",
      "cls",           "dynamicinvoke", "strictfp",
  };
  std::sort(words.begin(), words.end());
  return words;
}();

// Appends one dot-separated part, quoted when Soot's quotedNameOf() would quote it.
void append_part(std::string& out, std::string_view part) {
  if ((!part.empty() && part.front() == '-') || is_jimple_reserved(part)) {
    out += '\'';
    out += part;
    out += '\'';
  } else {
    out += part;
  }
}

// The dotted form of a binary name written with '/' or '.'.
std::string dotted(std::string_view binary_name) {
  return binary_name_to_java(binary_name);
}

// "Decl.name" of an invocation site. JVMS 5.4.3.3: the methods of an array class are those of
// java.lang.Object, so a reference naming an array class names Object's method.
std::string invocation_middle(std::string_view declaring_class, std::string_view name) {
  std::string out = !declaring_class.empty() && declaring_class.front() == '['
                        ? std::string("java.lang.Object")
                        : dotted(declaring_class);
  out += '.';
  out += name;
  return out;
}

}  // namespace

bool is_jimple_reserved(std::string_view word) {
  return std::binary_search(kReserved.begin(), kReserved.end(), word);
}

std::string soot_quote(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 2);
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = name.find('.', start);
    append_part(out, name.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    out += '.';
    start = dot + 1;
  }
  return out;
}

std::string soot_class_name(std::string_view binary_name) {
  return soot_quote(dotted(binary_name));
}

std::string soot_type(const JavaType& type) {
  std::string out = type.base == BaseKind::kReference ? soot_quote(type.class_name)
                                                      : std::string(base_kind_name(type.base));
  for (unsigned i = 0; i < type.dims; ++i) out += "[]";
  return out;
}

std::string soot_method_subsignature(std::string_view name, const MethodDescriptor& descriptor) {
  std::string out = soot_type(descriptor.return_type);
  out += ' ';
  out += soot_quote(name);
  out += '(';
  for (std::size_t i = 0; i < descriptor.parameters.size(); ++i) {
    if (i > 0) out += ',';
    out += soot_type(descriptor.parameters[i]);
  }
  out += ')';
  return out;
}

std::string soot_method_signature(std::string_view owner, std::string_view name,
                                  const MethodDescriptor& descriptor) {
  return "<" + soot_class_name(owner) + ": " + soot_method_subsignature(name, descriptor) + ">";
}

std::string soot_method_signature(std::string_view owner, std::string_view name,
                                  std::string_view descriptor) {
  return soot_method_signature(owner, name, parse_method_descriptor(descriptor));
}

std::string member_name(std::string_view signature) {
  std::size_t end = signature.find('(');
  if (end == std::string_view::npos) end = signature.size() - (signature.ends_with('>') ? 1 : 0);
  const std::size_t space = signature.rfind(' ', end);
  const std::size_t begin = space == std::string_view::npos ? 0 : space + 1;
  std::string_view name = signature.substr(begin, end - begin);
  if (name.size() >= 2 && name.front() == '\'' && name.back() == '\'')
    name = name.substr(1, name.size() - 2);
  return std::string(name);
}

std::string soot_field_signature(std::string_view owner, std::string_view name,
                                 const JavaType& type) {
  return "<" + soot_class_name(owner) + ": " + soot_type(type) + " " + soot_quote(name) + ">";
}

std::string soot_field_signature(std::string_view owner, std::string_view name,
                                 std::string_view descriptor) {
  return soot_field_signature(owner, name, parse_field_descriptor(descriptor));
}

std::string variable_name(std::string_view method_signature, std::string_view local_name) {
  std::string out(method_signature);
  out += '/';
  out += local_name;
  return out;
}

std::string allocation_site_name(std::string_view method_signature, const JavaType& type,
                                 unsigned n) {
  return std::string(method_signature) + "/new " + type.to_java() + "/" + std::to_string(n);
}

std::string invocation_site_name(std::string_view method_signature,
                                 std::string_view declaring_class, std::string_view name,
                                 unsigned n) {
  return std::string(method_signature) + "/" + invocation_middle(declaring_class, name) + "/" +
         std::to_string(n);
}

std::string SiteNamer::next_allocation(const JavaType& type) {
  const std::string key = type.to_java();
  auto it = allocations_.try_emplace(key, 0).first;
  return allocation_site_name(method_signature_, type, it->second++);
}

std::string SiteNamer::next_invocation(std::string_view declaring_class, std::string_view name) {
  // The counter key is the middle part itself, so `[I.clone` and `[J.clone` (both
  // java.lang.Object.clone) share one count, as they share one name.
  auto it = invocations_.try_emplace(invocation_middle(declaring_class, name), 0).first;
  return std::string(method_signature_) + "/" + it->first + "/" + std::to_string(it->second++);
}

}  // namespace refract::frontend
