// Field and method descriptors (JVMS 4.3) parsed into types. A JavaType names a class in
// binary form with dots ("java.lang.String", "a.Outer$Inner"), the form of Soot signatures and
// of every element name refract writes; to_java() renders it in Java source form ("int",
// "java.lang.String[][]"). Malformed descriptors are a DescriptorError, which callers turn into
// a ClassFormatError at the offset they know.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace refract::frontend {

// The element kind of a type. kVoid occurs only as a method's return type.
enum class BaseKind : std::uint8_t {
  kBoolean,
  kByte,
  kChar,
  kShort,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kVoid,
  kReference,  // a class or interface type (class_name says which)
};

struct JavaType {
  BaseKind base = BaseKind::kVoid;
  std::string class_name;  // binary name with dots, for kReference only; else empty
  std::uint8_t dims = 0;   // array dimensions (JVMS 4.3.2 allows at most 255)

  static JavaType primitive(BaseKind kind) { return JavaType{kind, {}, 0}; }
  // A class type from its binary name with slashes or dots ("java/lang/String").
  static JavaType object(std::string_view binary_name);
  static JavaType array_of(JavaType element, unsigned extra_dims = 1);

  bool is_void() const { return base == BaseKind::kVoid && dims == 0; }
  bool is_array() const { return dims > 0; }
  // A class, interface or array type: what points-to analysis tracks.
  bool is_reference() const { return dims > 0 || base == BaseKind::kReference; }
  bool is_primitive() const { return !is_reference() && base != BaseKind::kVoid; }
  // long and double take two local variable slots and two operand stack words.
  bool is_wide() const {
    return dims == 0 && (base == BaseKind::kLong || base == BaseKind::kDouble);
  }
  unsigned slots() const { return is_void() ? 0 : is_wide() ? 2 : 1; }
  // The type of an element of this array type (dims - 1); only for arrays.
  JavaType element() const;

  // Java source form: "int", "java.lang.String[][]", "void".
  std::string to_java() const;
  // The JVM descriptor: "I", "[[Ljava/lang/String;", "V".
  std::string to_descriptor() const;

  friend bool operator==(const JavaType&, const JavaType&) = default;
};

// A method descriptor: parameter types in order and the return type (possibly void).
struct MethodDescriptor {
  std::vector<JavaType> parameters;
  JavaType return_type;

  // Local variable slots the parameters take, not counting a receiver.
  unsigned parameter_slots() const;
  // "(java.lang.String,int[])", the parameter list of a Soot signature.
  std::string parameters_to_java() const;

  friend bool operator==(const MethodDescriptor&, const MethodDescriptor&) = default;
};

class DescriptorError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// "Ljava/lang/String;" -> java.lang.String, "[I" -> int[]. Throws DescriptorError.
JavaType parse_field_descriptor(std::string_view descriptor);
// "(ILjava/lang/Object;)V" -> (int, java.lang.Object) void. Throws DescriptorError.
MethodDescriptor parse_method_descriptor(std::string_view descriptor);
// The name in a CONSTANT_Class (JVMS 4.4.1): a binary class name ("java/lang/String") or,
// for array classes, an array descriptor ("[Ljava/lang/String;"). Throws DescriptorError.
JavaType parse_class_constant(std::string_view name);

// The same without exceptions: nothing if the text is malformed.
std::optional<JavaType> try_parse_field_descriptor(std::string_view descriptor);
std::optional<MethodDescriptor> try_parse_method_descriptor(std::string_view descriptor);

// "java/lang/String" -> "java.lang.String".
std::string binary_name_to_java(std::string_view binary_name);
// The Java source keyword of a primitive kind ("int", "void"); "" for kReference.
std::string_view base_kind_name(BaseKind kind);

}  // namespace refract::frontend
