// The class file format of JVMS 17 chapter 4 (class file versions 45 to 69 are accepted),
// parsed into plain data. Parsing checks the structure, every constant pool cross reference
// and the attributes this front end reads; other attributes are skipped by their length, as
// JVMS 4.7 prescribes. Malformed input is a ClassFormatError "ORIGIN:OFFSET: message".
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/format_error.hpp"

namespace refract::frontend {

inline constexpr std::uint16_t kMinMajorVersion = 45;
inline constexpr std::uint16_t kMaxMajorVersion = 69;  // Java 25

// Access flags (JVMS tables 4.1-B, 4.5-A, 4.6-A, 4.7.6-A). Some bits mean different things on
// classes, fields and methods, hence the aliases.
namespace access {
inline constexpr std::uint16_t kPublic = 0x0001;
inline constexpr std::uint16_t kPrivate = 0x0002;
inline constexpr std::uint16_t kProtected = 0x0004;
inline constexpr std::uint16_t kStatic = 0x0008;
inline constexpr std::uint16_t kFinal = 0x0010;
inline constexpr std::uint16_t kSuper = 0x0020;         // class
inline constexpr std::uint16_t kSynchronized = 0x0020;  // method
inline constexpr std::uint16_t kVolatile = 0x0040;      // field
inline constexpr std::uint16_t kBridge = 0x0040;        // method
inline constexpr std::uint16_t kTransient = 0x0080;     // field
inline constexpr std::uint16_t kVarargs = 0x0080;       // method
inline constexpr std::uint16_t kNative = 0x0100;
inline constexpr std::uint16_t kInterface = 0x0200;
inline constexpr std::uint16_t kAbstract = 0x0400;
inline constexpr std::uint16_t kStrict = 0x0800;
inline constexpr std::uint16_t kSynthetic = 0x1000;
inline constexpr std::uint16_t kAnnotation = 0x2000;
inline constexpr std::uint16_t kEnum = 0x4000;
inline constexpr std::uint16_t kModule = 0x8000;      // class
inline constexpr std::uint16_t kModuleOpen = 0x0020;  // module_flags of a Module attribute
}  // namespace access

// Constant pool tags (JVMS table 4.4-B); kUnusable marks index 0 and the slot after a Long or
// Double.
enum class ConstantTag : std::uint8_t {
  kUnusable = 0,
  kUtf8 = 1,
  kInteger = 3,
  kFloat = 4,
  kLong = 5,
  kDouble = 6,
  kClass = 7,
  kString = 8,
  kFieldref = 9,
  kMethodref = 10,
  kInterfaceMethodref = 11,
  kNameAndType = 12,
  kMethodHandle = 15,
  kMethodType = 16,
  kDynamic = 17,
  kInvokeDynamic = 18,
  kModule = 19,
  kPackage = 20,
};

// "Utf8", "Methodref", ...
std::string_view constant_tag_name(ConstantTag tag);

// Method handle reference kinds (JVMS table 5.4.3.5-A).
enum class ReferenceKind : std::uint8_t {
  kGetField = 1,
  kGetStatic = 2,
  kPutField = 3,
  kPutStatic = 4,
  kInvokeVirtual = 5,
  kInvokeStatic = 6,
  kInvokeSpecial = 7,
  kNewInvokeSpecial = 8,
  kInvokeInterface = 9,
};

// One constant pool slot. Which members are meaningful depends on the tag:
//   Utf8: text (modified UTF-8 decoded to UTF-8; see parse_modified_utf8)
//   Integer, Float: bits (low 32 bits); Long, Double: bits
//   Class, String, MethodType, Module, Package: first = Utf8 index
//   Fieldref, Methodref, InterfaceMethodref: first = Class index, second = NameAndType index
//   NameAndType: first = name Utf8 index, second = descriptor Utf8 index
//   MethodHandle: reference_kind, first = reference index
//   Dynamic, InvokeDynamic: first = BootstrapMethods index, second = NameAndType index
struct Constant {
  ConstantTag tag = ConstantTag::kUnusable;
  std::uint32_t offset = 0;  // file offset of the tag byte
  std::uint16_t first = 0;
  std::uint16_t second = 0;
  ReferenceKind reference_kind = ReferenceKind::kGetField;
  std::uint64_t bits = 0;
  std::string text;
};

struct NameAndType {
  std::string_view name;
  std::string_view descriptor;
};

// A Fieldref, Methodref or InterfaceMethodref, resolved to names.
struct MemberRef {
  ConstantTag tag;
  std::string_view owner;  // binary class name, or an array descriptor for array methods
  std::string_view name;
  std::string_view descriptor;
};

struct MethodHandleRef {
  ReferenceKind kind;
  std::uint16_t reference_index;  // a Fieldref, Methodref or InterfaceMethodref
};

// A Dynamic or InvokeDynamic constant.
struct DynamicRef {
  std::uint16_t bootstrap_method;  // index into ClassFile::bootstrap_methods
  std::string_view name;
  std::string_view descriptor;
};

// The constant pool after validation: every cross reference between entries has the right
// tag. The accessors below check the tag of the entry they are asked for; a wrong index or tag
// there is a programming error (std::logic_error), since the parser and the bytecode decoder
// check every index that comes from the class file with expect() first.
class ConstantPool {
 public:
  ConstantPool() = default;
  explicit ConstantPool(std::vector<Constant> entries) : entries_(std::move(entries)) {}

  // constant_pool_count: valid indices are 1 .. size()-1.
  std::size_t size() const { return entries_.size(); }
  // kUnusable for 0, the slot after a Long or Double, and out-of-range indices.
  ConstantTag tag(std::uint32_t index) const;
  const Constant& at(std::uint32_t index) const;
  const std::vector<Constant>& entries() const { return entries_; }

  // Checks that `index` names a usable entry whose tag is one of `allowed`; otherwise a
  // ClassFormatError at file offset `where` whose message starts with `what`.
  const Constant& expect(std::uint32_t index, std::initializer_list<ConstantTag> allowed,
                         const std::string& origin, std::uint64_t where,
                         std::string_view what) const;

  std::string_view utf8(std::uint32_t index) const;
  std::string_view class_name(std::uint32_t index) const;
  std::string_view string(std::uint32_t index) const;  // a String constant's value
  std::int32_t integer(std::uint32_t index) const;
  float float_value(std::uint32_t index) const;
  std::int64_t long_value(std::uint32_t index) const;
  double double_value(std::uint32_t index) const;
  NameAndType name_and_type(std::uint32_t index) const;
  MemberRef member_ref(std::uint32_t index) const;
  MethodHandleRef method_handle(std::uint32_t index) const;
  std::string_view method_type(std::uint32_t index) const;  // the descriptor
  DynamicRef dynamic(std::uint32_t index) const;            // Dynamic or InvokeDynamic
  std::string_view module_name(std::uint32_t index) const;
  std::string_view package_name(std::uint32_t index) const;

 private:
  const Constant& checked(std::uint32_t index, ConstantTag tag) const;
  std::vector<Constant> entries_;
};

// Decodes the modified UTF-8 of a CONSTANT_Utf8 (JVMS 4.4.7) to UTF-8. The null character
// (0xC0 0x80) becomes a 0 byte, and a surrogate pair becomes one 4-byte sequence; an unpaired
// surrogate, which Java strings may hold, is kept as its 3-byte form. Invalid bytes are a
// ClassFormatError at `base` + their position.
std::string parse_modified_utf8(std::span<const std::uint8_t> bytes, const std::string& origin,
                                std::uint64_t base);

struct ExceptionHandler {
  std::uint32_t offset = 0;  // file offset of the exception_table entry
  std::uint16_t start_pc = 0;
  std::uint16_t end_pc = 0;  // exclusive
  std::uint16_t handler_pc = 0;
  std::uint16_t catch_type_index = 0;  // 0: any exception (finally)
  std::optional<std::string> catch_type;
};

struct LineNumber {
  std::uint16_t start_pc = 0;
  std::uint16_t line = 0;
};

struct LocalVariable {
  std::uint16_t start_pc = 0;
  std::uint16_t length = 0;
  std::string name;
  std::string descriptor;
  std::uint16_t slot = 0;
};

struct Code {
  std::uint32_t offset = 0;  // file offset of the Code attribute
  std::uint16_t max_stack = 0;
  std::uint16_t max_locals = 0;
  std::vector<std::uint8_t> bytes;
  std::uint32_t bytes_offset = 0;  // file offset of bytes[0]: pc p is at bytes_offset + p
  std::vector<ExceptionHandler> exception_table;
  std::vector<LineNumber> line_numbers;        // all LineNumberTable attributes, concatenated
  std::vector<LocalVariable> local_variables;  // all LocalVariableTable attributes
};

struct FieldInfo {
  std::uint32_t offset = 0;  // file offset of the field_info
  std::uint16_t access_flags = 0;
  std::string name;
  std::string descriptor;
  std::optional<std::string> signature;
  std::uint16_t constant_value_index = 0;  // ConstantValue: 0 if absent
};

struct MethodInfo {
  std::uint32_t offset = 0;  // file offset of the method_info
  std::uint16_t access_flags = 0;
  std::string name;
  std::string descriptor;
  std::optional<std::string> signature;
  std::vector<std::string> exceptions;  // Exceptions attribute
  std::optional<Code> code;
};

struct InnerClass {
  std::string inner_class;
  std::optional<std::string> outer_class;
  std::optional<std::string> inner_name;  // absent for anonymous classes
  std::uint16_t access_flags = 0;
};

struct BootstrapMethod {
  std::uint16_t method_handle_index = 0;
  std::vector<std::uint16_t> arguments;  // loadable constant indices
};

struct RecordComponent {
  std::string name;
  std::string descriptor;
  std::optional<std::string> signature;
};

// One `exports` or `opens` entry of a Module attribute (JVMS 4.7.25).
struct ModulePackage {
  std::string package;          // internal form: "java/lang"
  std::vector<std::string> to;  // the modules it is exported (opened) to; empty: to all
};

// One `provides` entry of a Module attribute (JVMS 4.7.25): the classes ServiceLoader loads
// from the module for a service (java.util.ServiceLoader's "deploying service providers as
// modules").
struct ModuleProvides {
  std::string service;            // internal form: "java/nio/file/spi/FileSystemProvider"
  std::vector<std::string> with;  // the providers, internal form, in attribute order
};

// The Module attribute of a module-info class: what its module exports and opens, which
// decides what code outside the module may reach by reflection (JLS 7.7, JVMS 5.4.4), and the
// service providers it declares.
struct ModuleInfo {
  std::string name;  // "java.base"
  std::vector<ModulePackage> exports;
  std::vector<ModulePackage> opens;
  std::vector<ModuleProvides> provides;
  bool open = false;  // ACC_OPEN: every package is open
};

struct ClassFile {
  std::string origin;  // "FILE" or "FILE!ENTRY", the prefix of every message about this class
  std::uint16_t minor_version = 0;
  std::uint16_t major_version = 0;
  ConstantPool constant_pool;
  std::uint16_t access_flags = 0;
  std::string this_class;                  // binary name, e.g. "java/lang/String"
  std::optional<std::string> super_class;  // absent for java/lang/Object and module-info
  std::vector<std::string> interfaces;
  std::vector<FieldInfo> fields;
  std::vector<MethodInfo> methods;

  std::optional<std::string> source_file;
  std::optional<std::string> signature;
  std::vector<InnerClass> inner_classes;
  std::vector<BootstrapMethod> bootstrap_methods;
  std::optional<std::string> nest_host;
  std::vector<std::string> nest_members;
  std::optional<std::vector<RecordComponent>> record;  // present iff a Record attribute is
  std::optional<std::vector<std::string>> permitted_subclasses;
  std::optional<ModuleInfo> module;  // the Module attribute of a module-info class

  bool is_interface() const { return (access_flags & access::kInterface) != 0; }
  bool is_module() const { return (access_flags & access::kModule) != 0; }
};

// Parses a whole class file; `origin` ("FILE" or "FILE!ENTRY") prefixes every error message.
ClassFile parse_class_file(std::span<const std::uint8_t> bytes, std::string origin);

}  // namespace refract::frontend
