#include "frontend/descriptor.hpp"

#include <utility>

namespace refract::frontend {
namespace {

constexpr unsigned kMaxDims = 255;  // JVMS 4.3.2

[[noreturn]] void fail(std::string_view what, std::string_view text, const std::string& why) {
  throw DescriptorError("invalid " + std::string(what) + " \"" + std::string(text) + "\": " + why);
}

// A class name in internal form (JVMS 4.2.1): unqualified names, none empty, separated by '/'
// and free of '.', ';' and '['.
bool valid_internal_name(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.back() == '/') return false;
  char previous = 0;
  for (const char c : name) {
    if (c == '.' || c == ';' || c == '[') return false;
    if (c == '/' && previous == '/') return false;
    previous = c;
  }
  return true;
}

std::optional<BaseKind> primitive_kind(char c) {
  switch (c) {
    case 'Z':
      return BaseKind::kBoolean;
    case 'B':
      return BaseKind::kByte;
    case 'C':
      return BaseKind::kChar;
    case 'S':
      return BaseKind::kShort;
    case 'I':
      return BaseKind::kInt;
    case 'J':
      return BaseKind::kLong;
    case 'F':
      return BaseKind::kFloat;
    case 'D':
      return BaseKind::kDouble;
    default:
      return std::nullopt;
  }
}

char descriptor_char(BaseKind kind) {
  switch (kind) {
    case BaseKind::kBoolean:
      return 'Z';
    case BaseKind::kByte:
      return 'B';
    case BaseKind::kChar:
      return 'C';
    case BaseKind::kShort:
      return 'S';
    case BaseKind::kInt:
      return 'I';
    case BaseKind::kLong:
      return 'J';
    case BaseKind::kFloat:
      return 'F';
    case BaseKind::kDouble:
      return 'D';
    case BaseKind::kVoid:
      return 'V';
    case BaseKind::kReference:
      return 'L';
  }
  return '?';
}

// Reads one field type starting at text[pos]; advances pos past it. On failure returns
// nothing and sets `why`.
std::optional<JavaType> read_field_type(std::string_view text, std::size_t& pos, std::string& why) {
  unsigned dims = 0;
  while (pos < text.size() && text[pos] == '[') {
    ++dims;
    ++pos;
  }
  if (dims > kMaxDims) {
    why = "more than 255 array dimensions";
    return std::nullopt;
  }
  if (pos >= text.size()) {
    why = "unexpected end";
    return std::nullopt;
  }
  const char c = text[pos];
  JavaType type;
  type.dims = static_cast<std::uint8_t>(dims);
  if (c == 'L') {
    const std::size_t end = text.find(';', pos + 1);
    if (end == std::string_view::npos) {
      why = "class type without ';'";
      return std::nullopt;
    }
    const std::string_view name = text.substr(pos + 1, end - pos - 1);
    if (!valid_internal_name(name)) {
      why = "invalid class name \"" + std::string(name) + "\"";
      return std::nullopt;
    }
    type.base = BaseKind::kReference;
    type.class_name = binary_name_to_java(name);
    pos = end + 1;
    return type;
  }
  if (const auto kind = primitive_kind(c)) {
    type.base = *kind;
    ++pos;
    return type;
  }
  why = "unexpected character '" + std::string(1, c) + "' at position " + std::to_string(pos);
  return std::nullopt;
}

std::optional<JavaType> parse_field(std::string_view text, std::string& why) {
  std::size_t pos = 0;
  auto type = read_field_type(text, pos, why);
  if (type && pos != text.size()) {
    why = "trailing characters after position " + std::to_string(pos);
    return std::nullopt;
  }
  return type;
}

std::optional<MethodDescriptor> parse_method(std::string_view text, std::string& why) {
  if (text.empty() || text.front() != '(') {
    why = "does not start with '('";
    return std::nullopt;
  }
  MethodDescriptor out;
  std::size_t pos = 1;
  unsigned slots = 0;
  while (pos < text.size() && text[pos] != ')') {
    auto type = read_field_type(text, pos, why);
    if (!type) return std::nullopt;
    slots += type->slots();
    out.parameters.push_back(std::move(*type));
  }
  if (pos >= text.size()) {
    why = "no ')'";
    return std::nullopt;
  }
  // JVMS 4.3.3: at most 255 slots of parameters, counting `this` for instance methods; the
  // receiver is unknown here, so only the static limit is checked.
  if (slots > 255) {
    why = "parameters take more than 255 slots";
    return std::nullopt;
  }
  ++pos;  // ')'
  if (pos < text.size() && text[pos] == 'V') {
    out.return_type = JavaType::primitive(BaseKind::kVoid);
    ++pos;
  } else {
    auto type = read_field_type(text, pos, why);
    if (!type) return std::nullopt;
    out.return_type = std::move(*type);
  }
  if (pos != text.size()) {
    why = "trailing characters after position " + std::to_string(pos);
    return std::nullopt;
  }
  return out;
}

}  // namespace

JavaType JavaType::object(std::string_view binary_name) {
  return JavaType{BaseKind::kReference, binary_name_to_java(binary_name), 0};
}

JavaType JavaType::array_of(JavaType element, unsigned extra_dims) {
  element.dims = static_cast<std::uint8_t>(element.dims + extra_dims);
  return element;
}

JavaType JavaType::element() const {
  JavaType out = *this;
  if (out.dims > 0) --out.dims;
  return out;
}

std::string JavaType::to_java() const {
  std::string out = base == BaseKind::kReference ? class_name : std::string(base_kind_name(base));
  for (unsigned i = 0; i < dims; ++i) out += "[]";
  return out;
}

std::string JavaType::to_descriptor() const {
  std::string out(dims, '[');
  if (base == BaseKind::kReference) {
    out += 'L';
    for (const char c : class_name) out += (c == '.' ? '/' : c);
    out += ';';
  } else {
    out += descriptor_char(base);
  }
  return out;
}

unsigned MethodDescriptor::parameter_slots() const {
  unsigned slots = 0;
  for (const JavaType& p : parameters) slots += p.slots();
  return slots;
}

std::string MethodDescriptor::parameters_to_java() const {
  std::string out = "(";
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (i > 0) out += ',';
    out += parameters[i].to_java();
  }
  out += ')';
  return out;
}

JavaType parse_field_descriptor(std::string_view descriptor) {
  std::string why;
  auto type = parse_field(descriptor, why);
  if (!type) fail("field descriptor", descriptor, why);
  return std::move(*type);
}

MethodDescriptor parse_method_descriptor(std::string_view descriptor) {
  std::string why;
  auto method = parse_method(descriptor, why);
  if (!method) fail("method descriptor", descriptor, why);
  return std::move(*method);
}

JavaType parse_class_constant(std::string_view name) {
  if (!name.empty() && name.front() == '[') {
    std::string why;
    auto type = parse_field(name, why);
    if (!type) fail("array class name", name, why);
    return std::move(*type);
  }
  if (!valid_internal_name(name)) fail("class name", name, "not a binary name in internal form");
  return JavaType::object(name);
}

std::optional<JavaType> try_parse_field_descriptor(std::string_view descriptor) {
  std::string why;
  return parse_field(descriptor, why);
}

std::optional<MethodDescriptor> try_parse_method_descriptor(std::string_view descriptor) {
  std::string why;
  return parse_method(descriptor, why);
}

std::string binary_name_to_java(std::string_view binary_name) {
  std::string out(binary_name);
  for (char& c : out) {
    if (c == '/') c = '.';
  }
  return out;
}

std::string_view base_kind_name(BaseKind kind) {
  switch (kind) {
    case BaseKind::kBoolean:
      return "boolean";
    case BaseKind::kByte:
      return "byte";
    case BaseKind::kChar:
      return "char";
    case BaseKind::kShort:
      return "short";
    case BaseKind::kInt:
      return "int";
    case BaseKind::kLong:
      return "long";
    case BaseKind::kFloat:
      return "float";
    case BaseKind::kDouble:
      return "double";
    case BaseKind::kVoid:
      return "void";
    case BaseKind::kReference:
      return "";
  }
  return "";
}

}  // namespace refract::frontend
