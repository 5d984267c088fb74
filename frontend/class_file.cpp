#include "frontend/class_file.hpp"

#include <array>
#include <bit>
#include <cstdio>
#include <stdexcept>

#include "frontend/byte_reader.hpp"

namespace refract::frontend {

std::string_view constant_tag_name(ConstantTag tag) {
  switch (tag) {
    case ConstantTag::kUnusable:
      return "unusable slot";
    case ConstantTag::kUtf8:
      return "Utf8";
    case ConstantTag::kInteger:
      return "Integer";
    case ConstantTag::kFloat:
      return "Float";
    case ConstantTag::kLong:
      return "Long";
    case ConstantTag::kDouble:
      return "Double";
    case ConstantTag::kClass:
      return "Class";
    case ConstantTag::kString:
      return "String";
    case ConstantTag::kFieldref:
      return "Fieldref";
    case ConstantTag::kMethodref:
      return "Methodref";
    case ConstantTag::kInterfaceMethodref:
      return "InterfaceMethodref";
    case ConstantTag::kNameAndType:
      return "NameAndType";
    case ConstantTag::kMethodHandle:
      return "MethodHandle";
    case ConstantTag::kMethodType:
      return "MethodType";
    case ConstantTag::kDynamic:
      return "Dynamic";
    case ConstantTag::kInvokeDynamic:
      return "InvokeDynamic";
    case ConstantTag::kModule:
      return "Module";
    case ConstantTag::kPackage:
      return "Package";
  }
  return "unknown";
}

// ---------------------------------------------------------------------------------------------
// Constant pool

namespace {

// "a Class", "an Integer", "a Utf8".
std::string with_article(std::string_view name) {
  const bool vowel_sound =
      !name.empty() && std::string_view("AEIOaeiou").find(name[0]) != std::string_view::npos;
  return (vowel_sound ? "an " : "a ") + std::string(name);
}

}  // namespace

ConstantTag ConstantPool::tag(std::uint32_t index) const {
  return index < entries_.size() ? entries_[index].tag : ConstantTag::kUnusable;
}

const Constant& ConstantPool::at(std::uint32_t index) const {
  if (index >= entries_.size()) {
    throw std::logic_error("constant pool index " + std::to_string(index) + " out of range");
  }
  return entries_[index];
}

const Constant& ConstantPool::expect(std::uint32_t index,
                                     std::initializer_list<ConstantTag> allowed,
                                     const std::string& origin, std::uint64_t where,
                                     std::string_view what) const {
  if (index != 0 && index < entries_.size()) {
    const Constant& entry = entries_[index];
    for (const ConstantTag tag : allowed) {
      if (entry.tag == tag && tag != ConstantTag::kUnusable) return entry;
    }
  }
  const std::string prefix = std::string(what) + ": constant pool index " + std::to_string(index);
  if (index == 0 || index >= entries_.size()) {
    throw ClassFormatError(origin, where,
                           prefix + " is out of range (1.." +
                               std::to_string(entries_.empty() ? 0 : entries_.size() - 1) + ")");
  }
  const Constant& entry = entries_[index];
  if (entry.tag == ConstantTag::kUnusable) {
    throw ClassFormatError(origin, where, prefix + " is the unusable slot after a Long or Double");
  }
  std::string expected;
  for (const ConstantTag tag : allowed) {
    if (!expected.empty()) expected += " or ";
    expected += constant_tag_name(tag);
  }
  throw ClassFormatError(
      origin, where,
      prefix + " is " + with_article(constant_tag_name(entry.tag)) + ", expected " + expected);
}

const Constant& ConstantPool::checked(std::uint32_t index, ConstantTag tag) const {
  const Constant& entry = at(index);
  if (entry.tag != tag) {
    throw std::logic_error("constant pool entry " + std::to_string(index) + " is a " +
                           std::string(constant_tag_name(entry.tag)) + ", not a " +
                           std::string(constant_tag_name(tag)));
  }
  return entry;
}

std::string_view ConstantPool::utf8(std::uint32_t index) const {
  return checked(index, ConstantTag::kUtf8).text;
}
std::string_view ConstantPool::class_name(std::uint32_t index) const {
  return utf8(checked(index, ConstantTag::kClass).first);
}
std::string_view ConstantPool::string(std::uint32_t index) const {
  return utf8(checked(index, ConstantTag::kString).first);
}
std::int32_t ConstantPool::integer(std::uint32_t index) const {
  return static_cast<std::int32_t>(
      static_cast<std::uint32_t>(checked(index, ConstantTag::kInteger).bits));
}
float ConstantPool::float_value(std::uint32_t index) const {
  return std::bit_cast<float>(static_cast<std::uint32_t>(checked(index, ConstantTag::kFloat).bits));
}
std::int64_t ConstantPool::long_value(std::uint32_t index) const {
  return static_cast<std::int64_t>(checked(index, ConstantTag::kLong).bits);
}
double ConstantPool::double_value(std::uint32_t index) const {
  return std::bit_cast<double>(checked(index, ConstantTag::kDouble).bits);
}
NameAndType ConstantPool::name_and_type(std::uint32_t index) const {
  const Constant& entry = checked(index, ConstantTag::kNameAndType);
  return {utf8(entry.first), utf8(entry.second)};
}
MemberRef ConstantPool::member_ref(std::uint32_t index) const {
  const Constant& entry = at(index);
  if (entry.tag != ConstantTag::kFieldref && entry.tag != ConstantTag::kMethodref &&
      entry.tag != ConstantTag::kInterfaceMethodref) {
    throw std::logic_error("constant pool entry " + std::to_string(index) + " is a " +
                           std::string(constant_tag_name(entry.tag)) + ", not a member ref");
  }
  const NameAndType nat = name_and_type(entry.second);
  return {entry.tag, class_name(entry.first), nat.name, nat.descriptor};
}
MethodHandleRef ConstantPool::method_handle(std::uint32_t index) const {
  const Constant& entry = checked(index, ConstantTag::kMethodHandle);
  return {entry.reference_kind, entry.first};
}
std::string_view ConstantPool::method_type(std::uint32_t index) const {
  return utf8(checked(index, ConstantTag::kMethodType).first);
}
DynamicRef ConstantPool::dynamic(std::uint32_t index) const {
  const Constant& entry = at(index);
  if (entry.tag != ConstantTag::kDynamic && entry.tag != ConstantTag::kInvokeDynamic) {
    throw std::logic_error("constant pool entry " + std::to_string(index) + " is a " +
                           std::string(constant_tag_name(entry.tag)) + ", not a dynamic constant");
  }
  const NameAndType nat = name_and_type(entry.second);
  return {entry.first, nat.name, nat.descriptor};
}
std::string_view ConstantPool::module_name(std::uint32_t index) const {
  return utf8(checked(index, ConstantTag::kModule).first);
}
std::string_view ConstantPool::package_name(std::uint32_t index) const {
  return utf8(checked(index, ConstantTag::kPackage).first);
}

// ---------------------------------------------------------------------------------------------
// Modified UTF-8

namespace {

void append_utf8(std::string& out, std::uint32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

std::string hex_byte(std::uint8_t byte) {
  std::array<char, 8> text{};
  std::snprintf(text.data(), text.size(), "0x%02x", byte);
  return text.data();
}

}  // namespace

std::string parse_modified_utf8(std::span<const std::uint8_t> bytes, const std::string& origin,
                                std::uint64_t base) {
  std::string out;
  out.reserve(bytes.size());
  std::size_t i = 0;
  // Decodes the 3-byte unit at position j (a UTF-16 code unit), or returns nothing.
  const auto three_byte_unit = [&](std::size_t j) -> std::optional<std::uint32_t> {
    if (j + 2 >= bytes.size() || (bytes[j] & 0xF0) != 0xE0 || (bytes[j + 1] & 0xC0) != 0x80 ||
        (bytes[j + 2] & 0xC0) != 0x80) {
      return std::nullopt;
    }
    return ((bytes[j] & 0x0Fu) << 12) | ((bytes[j + 1] & 0x3Fu) << 6) | (bytes[j + 2] & 0x3Fu);
  };
  const auto fail = [&](std::size_t at, const std::string& message) {
    throw ClassFormatError(origin, base + at,
                           "invalid modified UTF-8 in CONSTANT_Utf8: " + message);
  };
  while (i < bytes.size()) {
    const std::uint8_t b = bytes[i];
    if (b >= 0x01 && b < 0x80) {
      out += static_cast<char>(b);
      ++i;
    } else if ((b & 0xE0) == 0xC0) {
      if (i + 1 >= bytes.size() || (bytes[i + 1] & 0xC0) != 0x80) {
        fail(i, "byte " + hex_byte(b) + " is not followed by a continuation byte");
      }
      append_utf8(out, ((b & 0x1Fu) << 6) | (bytes[i + 1] & 0x3Fu));
      i += 2;
    } else if ((b & 0xF0) == 0xE0) {
      const auto unit = three_byte_unit(i);
      if (!unit) fail(i, "byte " + hex_byte(b) + " does not start a complete 3-byte sequence");
      if (*unit >= 0xD800 && *unit <= 0xDBFF) {
        const auto low = three_byte_unit(i + 3);
        if (low && *low >= 0xDC00 && *low <= 0xDFFF) {
          append_utf8(out, 0x10000 + ((*unit - 0xD800) << 10) + (*low - 0xDC00));
          i += 6;
          continue;
        }
      }
      append_utf8(out, *unit);  // includes unpaired surrogates, kept as 3 bytes
      i += 3;
    } else {
      fail(i, "byte " + hex_byte(b) + " cannot appear in modified UTF-8");
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Parser

namespace {

// The attributes this front end reads. Others are skipped by their length.
enum class Attr {
  kConstantValue,
  kCode,
  kExceptions,
  kSourceFile,
  kLineNumberTable,
  kLocalVariableTable,
  kInnerClasses,
  kSignature,
  kBootstrapMethods,
  kNestHost,
  kNestMembers,
  kRecord,
  kPermittedSubclasses,
  kModule,
};

enum Where : unsigned {
  kOnClass = 1,
  kOnField = 2,
  kOnMethod = 4,
  kOnCode = 8,
  kOnRecordComponent = 16,
};

struct AttrInfo {
  Attr id;
  std::string_view name;
  std::string_view context;   // for messages
  std::uint16_t first_major;  // JVMS table 4.7-B: recognised from this class file version on
  unsigned where;             // JVMS table 4.7-C
  bool unique;                // "at most one" in its attributes table
};

constexpr std::array<AttrInfo, 14> kAttributes = {{
    {Attr::kConstantValue, "ConstantValue", "ConstantValue attribute", 45, kOnField, true},
    {Attr::kCode, "Code", "Code attribute", 45, kOnMethod, true},
    {Attr::kExceptions, "Exceptions", "Exceptions attribute", 45, kOnMethod, true},
    {Attr::kSourceFile, "SourceFile", "SourceFile attribute", 45, kOnClass, true},
    {Attr::kLineNumberTable, "LineNumberTable", "LineNumberTable attribute", 45, kOnCode, false},
    {Attr::kLocalVariableTable, "LocalVariableTable", "LocalVariableTable attribute", 45, kOnCode,
     false},
    {Attr::kInnerClasses, "InnerClasses", "InnerClasses attribute", 45, kOnClass, true},
    {Attr::kSignature, "Signature", "Signature attribute", 49,
     kOnClass | kOnField | kOnMethod | kOnRecordComponent, true},
    {Attr::kBootstrapMethods, "BootstrapMethods", "BootstrapMethods attribute", 51, kOnClass, true},
    {Attr::kNestHost, "NestHost", "NestHost attribute", 55, kOnClass, true},
    {Attr::kNestMembers, "NestMembers", "NestMembers attribute", 55, kOnClass, true},
    {Attr::kRecord, "Record", "Record attribute", 60, kOnClass, true},
    {Attr::kPermittedSubclasses, "PermittedSubclasses", "PermittedSubclasses attribute", 61,
     kOnClass, true},
    {Attr::kModule, "Module", "Module attribute", 53, kOnClass, true},
}};

class Parser {
 public:
  Parser(std::span<const std::uint8_t> bytes, std::string origin) : bytes_(bytes) {
    cf_.origin = std::move(origin);
  }

  ClassFile run() {
    ByteReader r(bytes_, cf_.origin, 0, "class file");
    const std::uint32_t magic = r.u4("magic");
    if (magic != 0xCAFEBABE) {
      std::array<char, 16> text{};
      std::snprintf(text.data(), text.size(), "0x%08x", magic);
      r.fail_at(0, std::string("bad magic ") + text.data() + " (not a class file)");
    }
    const std::uint64_t version_at = r.offset();
    cf_.minor_version = r.u2("minor_version");
    cf_.major_version = r.u2("major_version");
    const bool minor_ok = cf_.major_version < 56 || cf_.minor_version == 0 ||
                          cf_.minor_version == 0xFFFF;  // JVMS 4.1: 0 or preview
    if (cf_.major_version < kMinMajorVersion || cf_.major_version > kMaxMajorVersion || !minor_ok) {
      r.fail_at(version_at, "unsupported class file version " + std::to_string(cf_.major_version) +
                                "." + std::to_string(cf_.minor_version));
    }

    read_constant_pool(r);
    const std::uint64_t flags_at = r.offset();
    cf_.access_flags = r.u2("access_flags");
    validate_constant_pool(flags_at);

    std::uint64_t at = r.offset();
    cf_.this_class = std::string(class_ref(r.u2("this_class"), at, "this_class"));
    at = r.offset();
    const std::uint16_t super_index = r.u2("super_class");
    if (super_index != 0) cf_.super_class = std::string(class_ref(super_index, at, "super_class"));
    const std::uint16_t interface_count = r.u2("interfaces_count");
    cf_.interfaces.reserve(interface_count);
    for (unsigned i = 0; i < interface_count; ++i) {
      at = r.offset();
      cf_.interfaces.emplace_back(class_ref(r.u2("interfaces"), at, "interfaces"));
    }

    const std::uint16_t field_count = r.u2("fields_count");
    cf_.fields.reserve(std::min<std::size_t>(field_count, r.remaining() / 8));
    for (unsigned i = 0; i < field_count; ++i) read_field(r);
    const std::uint16_t method_count = r.u2("methods_count");
    cf_.methods.reserve(std::min<std::size_t>(method_count, r.remaining() / 8));
    for (unsigned i = 0; i < method_count; ++i) read_method(r);
    read_class_attributes(r);

    if (!r.at_end()) {
      r.fail(std::to_string(r.remaining()) + " unexpected bytes after the end of the class file");
    }
    check_bootstrap_references();
    return std::move(cf_);
  }

 private:
  const ConstantPool& pool() const { return cf_.constant_pool; }

  const Constant& expect(std::uint32_t index, std::initializer_list<ConstantTag> allowed,
                         std::uint64_t where, std::string_view what) const {
    return pool().expect(index, allowed, cf_.origin, where, what);
  }
  std::string_view utf8_ref(std::uint32_t index, std::uint64_t where, std::string_view what) const {
    return expect(index, {ConstantTag::kUtf8}, where, what).text;
  }
  std::string_view class_ref(std::uint32_t index, std::uint64_t where,
                             std::string_view what) const {
    expect(index, {ConstantTag::kClass}, where, what);
    return pool().class_name(index);
  }
  // Reads a u2 Utf8 index and returns its text.
  std::string read_utf8(ByteReader& r, std::string_view what) const {
    const std::uint64_t at = r.offset();
    return std::string(utf8_ref(r.u2(what), at, what));
  }
  std::string read_class(ByteReader& r, std::string_view what) const {
    const std::uint64_t at = r.offset();
    return std::string(class_ref(r.u2(what), at, what));
  }
  std::optional<std::string> read_optional_class(ByteReader& r, std::string_view what) const {
    const std::uint64_t at = r.offset();
    const std::uint16_t index = r.u2(what);
    if (index == 0) return std::nullopt;
    return std::string(class_ref(index, at, what));
  }

  // --- constant pool ---------------------------------------------------------------------

  static std::uint16_t first_major_for(ConstantTag tag) {
    switch (tag) {
      case ConstantTag::kMethodHandle:
      case ConstantTag::kMethodType:
      case ConstantTag::kInvokeDynamic:
        return 51;
      case ConstantTag::kModule:
      case ConstantTag::kPackage:
        return 53;
      case ConstantTag::kDynamic:
        return 55;
      default:
        return 45;
    }
  }

  void read_constant_pool(ByteReader& r) {
    const std::uint16_t count = r.u2("constant_pool_count");
    if (count == 0) r.fail_at(r.offset() - 2, "constant_pool_count is 0 (must be at least 1)");
    std::vector<Constant> entries(count);
    for (std::uint32_t i = 1; i < count; ++i) {
      Constant& c = entries[i];
      c.offset = static_cast<std::uint32_t>(r.offset());
      const std::uint8_t tag = r.u1("constant pool tag");
      const auto label = [i] { return "constant pool entry #" + std::to_string(i); };
      switch (tag) {
        case 1: {
          c.tag = ConstantTag::kUtf8;
          const std::uint16_t length = r.u2("Utf8 length");
          const std::uint64_t text_at = r.offset();
          c.text = parse_modified_utf8(r.bytes(length, "Utf8 bytes"), cf_.origin, text_at);
          break;
        }
        case 3:
        case 4:
          c.tag = tag == 3 ? ConstantTag::kInteger : ConstantTag::kFloat;
          c.bits = r.u4("4-byte constant");
          break;
        case 5:
        case 6: {
          c.tag = tag == 5 ? ConstantTag::kLong : ConstantTag::kDouble;
          const std::uint64_t high = r.u4("high_bytes");
          c.bits = (high << 32) | r.u4("low_bytes");
          if (i + 1 >= count) {
            r.fail_at(c.offset, label() + " is a " + std::string(constant_tag_name(c.tag)) +
                                    " in the last slot; it needs two");
          }
          ++i;  // the next slot is valid but unusable (JVMS 4.4.5)
          entries[i].offset = c.offset;
          break;
        }
        case 7:
        case 8:
        case 16:
        case 19:
        case 20:
          c.tag = static_cast<ConstantTag>(tag);
          c.first = r.u2("name or descriptor index");
          break;
        case 9:
        case 10:
        case 11:
        case 12:
        case 17:
        case 18:
          c.tag = static_cast<ConstantTag>(tag);
          c.first = r.u2("first index");
          c.second = r.u2("second index");
          break;
        case 15: {
          c.tag = ConstantTag::kMethodHandle;
          const std::uint8_t kind = r.u1("reference_kind");
          if (kind < 1 || kind > 9) {
            r.fail_at(r.offset() - 1,
                      label() + ": invalid method handle reference_kind " + std::to_string(kind));
          }
          c.reference_kind = static_cast<ReferenceKind>(kind);
          c.first = r.u2("reference_index");
          break;
        }
        default:
          r.fail_at(c.offset, label() + ": invalid constant pool tag " + std::to_string(tag));
      }
      const std::uint16_t first_major = first_major_for(c.tag);
      if (cf_.major_version < first_major) {
        r.fail_at(c.offset, label() + ": " + std::string(constant_tag_name(c.tag)) +
                                " constants need class file version " +
                                std::to_string(first_major) + " or later");
      }
    }
    cf_.constant_pool = ConstantPool(std::move(entries));
  }

  // Like expect(), but the description is only built when the check fails.
  template <typename Describe>
  const Constant& require(std::uint32_t index, std::initializer_list<ConstantTag> allowed,
                          std::uint64_t where, Describe&& describe) const {
    const ConstantTag actual = pool().tag(index);
    if (index != 0 && actual != ConstantTag::kUnusable) {
      for (const ConstantTag tag : allowed) {
        if (tag == actual) return pool().at(index);
      }
    }
    return expect(index, allowed, where, describe());
  }

  // Errors point at the offending index: the tag byte is at c.offset, the first index follows
  // it (after the kind byte for a MethodHandle), the second index two bytes later.
  void validate_constant_pool(std::uint64_t flags_at) {
    const auto& entries = pool().entries();
    for (std::uint32_t i = 1; i < entries.size(); ++i) {
      const Constant& c = entries[i];
      const auto label = [&c, i] {
        return "constant pool entry #" + std::to_string(i) + " (" +
               std::string(constant_tag_name(c.tag)) + ")";
      };
      switch (c.tag) {
        case ConstantTag::kClass:
        case ConstantTag::kString:
        case ConstantTag::kMethodType:
          require(c.first, {ConstantTag::kUtf8}, c.offset + 1, label);
          break;
        case ConstantTag::kModule:
        case ConstantTag::kPackage:
          if (!cf_.is_module()) {
            throw ClassFormatError(cf_.origin, c.offset,
                                   label() +
                                       " is only allowed in a module-info class "
                                       "(access_flags at offset " +
                                       std::to_string(flags_at) + " lack ACC_MODULE)");
          }
          require(c.first, {ConstantTag::kUtf8}, c.offset + 1, label);
          break;
        case ConstantTag::kFieldref:
        case ConstantTag::kMethodref:
        case ConstantTag::kInterfaceMethodref:
          require(c.first, {ConstantTag::kClass}, c.offset + 1,
                  [&] { return label() + " class_index"; });
          require(c.second, {ConstantTag::kNameAndType}, c.offset + 3,
                  [&] { return label() + " name_and_type_index"; });
          break;
        case ConstantTag::kNameAndType:
          require(c.first, {ConstantTag::kUtf8}, c.offset + 1,
                  [&] { return label() + " name_index"; });
          require(c.second, {ConstantTag::kUtf8}, c.offset + 3,
                  [&] { return label() + " descriptor_index"; });
          break;
        case ConstantTag::kDynamic:
        case ConstantTag::kInvokeDynamic:
          require(c.second, {ConstantTag::kNameAndType}, c.offset + 3,
                  [&] { return label() + " name_and_type_index"; });
          break;
        default:
          break;
      }
    }
    // Method handles last: they look through a member ref whose own indices must be valid.
    for (std::uint32_t i = 1; i < entries.size(); ++i) {
      if (entries[i].tag == ConstantTag::kMethodHandle) validate_method_handle(entries[i], i);
    }
  }

  // JVMS 4.4.8: the tag and name a method handle may refer to depend on its kind.
  void validate_method_handle(const Constant& c, std::uint32_t index) const {
    const auto label = [index] {
      return "constant pool entry #" + std::to_string(index) + " (MethodHandle)";
    };
    const auto what = [&] { return label() + " reference_index"; };
    const Constant* target = nullptr;
    switch (c.reference_kind) {
      case ReferenceKind::kGetField:
      case ReferenceKind::kGetStatic:
      case ReferenceKind::kPutField:
      case ReferenceKind::kPutStatic:
        target = &require(c.first, {ConstantTag::kFieldref}, c.offset + 2, what);
        break;
      case ReferenceKind::kInvokeVirtual:
      case ReferenceKind::kNewInvokeSpecial:
        target = &require(c.first, {ConstantTag::kMethodref}, c.offset + 2, what);
        break;
      case ReferenceKind::kInvokeStatic:
      case ReferenceKind::kInvokeSpecial:
        target =
            cf_.major_version < 52
                ? &require(c.first, {ConstantTag::kMethodref}, c.offset + 2, what)
                : &require(c.first, {ConstantTag::kMethodref, ConstantTag::kInterfaceMethodref},
                           c.offset + 2, what);
        break;
      case ReferenceKind::kInvokeInterface:
        target = &require(c.first, {ConstantTag::kInterfaceMethodref}, c.offset + 2, what);
        break;
    }
    if (target->tag == ConstantTag::kFieldref) return;
    const std::string_view name = pool().name_and_type(target->second).name;
    const bool is_init = name == "<init>";
    if (c.reference_kind == ReferenceKind::kNewInvokeSpecial) {
      if (!is_init) {
        throw ClassFormatError(
            cf_.origin, c.offset,
            label() + ": REF_newInvokeSpecial must refer to <init>, not " + std::string(name));
      }
    } else if (is_init || name == "<clinit>") {
      throw ClassFormatError(cf_.origin, c.offset,
                             label() + ": reference kind " +
                                 std::to_string(static_cast<int>(c.reference_kind)) +
                                 " cannot refer to " + std::string(name));
    }
  }

  void check_bootstrap_references() const {
    const auto& entries = pool().entries();
    for (std::uint32_t i = 1; i < entries.size(); ++i) {
      const Constant& c = entries[i];
      if (c.tag != ConstantTag::kDynamic && c.tag != ConstantTag::kInvokeDynamic) continue;
      if (c.first >= cf_.bootstrap_methods.size()) {
        throw ClassFormatError(cf_.origin, c.offset,
                               "constant pool entry #" + std::to_string(i) + " (" +
                                   std::string(constant_tag_name(c.tag)) +
                                   ") refers to bootstrap method " + std::to_string(c.first) +
                                   " but the BootstrapMethods attribute has " +
                                   std::to_string(cf_.bootstrap_methods.size()));
      }
    }
  }

  // --- attributes ------------------------------------------------------------------------

  // Reads an attributes table; `handle(info, body, attribute_offset)` is called for each
  // attribute this front end reads in this place and must consume the whole body.
  template <typename Handler>
  void read_attributes(ByteReader& r, unsigned where, std::string_view owner, Handler&& handle) {
    const std::uint16_t count = r.u2("attributes_count");
    std::array<bool, kAttributes.size()> seen{};
    for (unsigned i = 0; i < count; ++i) {
      const std::uint64_t at = r.offset();
      const std::string_view name =
          utf8_ref(r.u2("attribute_name_index"), at, "attribute_name_index");
      const std::uint32_t length = r.u4("attribute_length");
      if (length > r.remaining()) {
        r.fail_at(at, "attribute " + std::string(name) + " is " + std::to_string(length) +
                          " bytes long but only " + std::to_string(r.remaining()) +
                          " bytes of the " + std::string(owner) + " remain");
      }
      const AttrInfo* info = nullptr;
      for (const AttrInfo& candidate : kAttributes) {
        if (candidate.name == name && (candidate.where & where) != 0 &&
            cf_.major_version >= candidate.first_major) {
          info = &candidate;
        }
      }
      if (info == nullptr) {
        r.bytes(length, "attribute_info");  // not read by this front end: skipped (JVMS 4.7)
        continue;
      }
      auto& already = seen[static_cast<std::size_t>(info->id)];
      if (info->unique && already) {
        r.fail_at(at,
                  std::string(owner) + " has more than one " + std::string(name) + " attribute");
      }
      already = true;
      ByteReader body = r.sub(length, "attribute_info", info->context);
      handle(*info, body, at);
      if (!body.at_end()) {
        body.fail(std::to_string(body.remaining()) + " unexpected bytes at the end of the " +
                  std::string(info->context));
      }
    }
  }

  void read_field(ByteReader& r) {
    FieldInfo field;
    field.offset = static_cast<std::uint32_t>(r.offset());
    field.access_flags = r.u2("field access_flags");
    field.name = read_utf8(r, "field name_index");
    field.descriptor = read_utf8(r, "field descriptor_index");
    read_attributes(r, kOnField, "field_info",
                    [&](const AttrInfo& info, ByteReader& body, std::uint64_t) {
                      switch (info.id) {
                        case Attr::kConstantValue: {
                          const std::uint64_t at = body.offset();
                          field.constant_value_index = body.u2("constantvalue_index");
                          expect(field.constant_value_index,
                                 {ConstantTag::kInteger, ConstantTag::kFloat, ConstantTag::kLong,
                                  ConstantTag::kDouble, ConstantTag::kString},
                                 at, "ConstantValue");
                          break;
                        }
                        case Attr::kSignature:
                          field.signature = read_utf8(body, "signature_index");
                          break;
                        default:
                          break;
                      }
                    });
    cf_.fields.push_back(std::move(field));
  }

  void read_method(ByteReader& r) {
    MethodInfo method;
    method.offset = static_cast<std::uint32_t>(r.offset());
    method.access_flags = r.u2("method access_flags");
    method.name = read_utf8(r, "method name_index");
    method.descriptor = read_utf8(r, "method descriptor_index");
    read_attributes(r, kOnMethod, "method_info",
                    [&](const AttrInfo& info, ByteReader& body, std::uint64_t at) {
                      switch (info.id) {
                        case Attr::kCode:
                          method.code = read_code(body, at);
                          break;
                        case Attr::kExceptions: {
                          const std::uint16_t count = body.u2("number_of_exceptions");
                          method.exceptions.reserve(count);
                          for (unsigned i = 0; i < count; ++i) {
                            method.exceptions.push_back(read_class(body, "exception_index_table"));
                          }
                          break;
                        }
                        case Attr::kSignature:
                          method.signature = read_utf8(body, "signature_index");
                          break;
                        default:
                          break;
                      }
                    });
    cf_.methods.push_back(std::move(method));
  }

  Code read_code(ByteReader& body, std::uint64_t at) {
    Code code;
    code.offset = static_cast<std::uint32_t>(at);
    code.max_stack = body.u2("max_stack");
    code.max_locals = body.u2("max_locals");
    const std::uint64_t length_at = body.offset();
    const std::uint32_t length = body.u4("code_length");
    if (length == 0 || length >= 65536) {
      body.fail_at(length_at, "code_length " + std::to_string(length) + " is not in 1..65535");
    }
    code.bytes_offset = static_cast<std::uint32_t>(body.offset());
    const auto bytes = body.bytes(length, "code");
    code.bytes.assign(bytes.begin(), bytes.end());

    const std::uint16_t handler_count = body.u2("exception_table_length");
    code.exception_table.reserve(std::min<std::size_t>(handler_count, body.remaining() / 8));
    for (unsigned i = 0; i < handler_count; ++i) {
      ExceptionHandler handler;
      handler.offset = static_cast<std::uint32_t>(body.offset());
      handler.start_pc = body.u2("start_pc");
      handler.end_pc = body.u2("end_pc");
      handler.handler_pc = body.u2("handler_pc");
      if (handler.start_pc >= handler.end_pc || handler.end_pc > length ||
          handler.handler_pc >= length) {
        body.fail_at(handler.offset, "exception handler [" + std::to_string(handler.start_pc) +
                                         ", " + std::to_string(handler.end_pc) + ") -> " +
                                         std::to_string(handler.handler_pc) +
                                         " does not fit in code of length " +
                                         std::to_string(length));
      }
      handler.catch_type_index = body.u2("catch_type");
      if (handler.catch_type_index != 0) {
        handler.catch_type =
            std::string(class_ref(handler.catch_type_index, handler.offset + 6, "catch_type"));
      }
      code.exception_table.push_back(std::move(handler));
    }

    read_attributes(
        body, kOnCode, "Code attribute", [&](const AttrInfo& info, ByteReader& sub, std::uint64_t) {
          if (info.id == Attr::kLineNumberTable) {
            const std::uint16_t count = sub.u2("line_number_table_length");
            for (unsigned i = 0; i < count; ++i) {
              const std::uint64_t entry_at = sub.offset();
              LineNumber line;
              line.start_pc = sub.u2("start_pc");
              line.line = sub.u2("line_number");
              if (line.start_pc >= length) {
                sub.fail_at(entry_at, "line number start_pc " + std::to_string(line.start_pc) +
                                          " is outside code of length " + std::to_string(length));
              }
              code.line_numbers.push_back(line);
            }
          } else if (info.id == Attr::kLocalVariableTable) {
            const std::uint16_t count = sub.u2("local_variable_table_length");
            for (unsigned i = 0; i < count; ++i) {
              const std::uint64_t entry_at = sub.offset();
              LocalVariable variable;
              variable.start_pc = sub.u2("start_pc");
              variable.length = sub.u2("length");
              variable.name = read_utf8(sub, "local variable name_index");
              variable.descriptor = read_utf8(sub, "local variable descriptor_index");
              variable.slot = sub.u2("index");
              if (variable.start_pc >= length ||
                  std::uint32_t{variable.start_pc} + variable.length > length) {
                sub.fail_at(entry_at, "local variable range " + std::to_string(variable.start_pc) +
                                          "+" + std::to_string(variable.length) +
                                          " is outside code of length " + std::to_string(length));
              }
              code.local_variables.push_back(std::move(variable));
            }
          }
        });
    return code;
  }

  void read_class_attributes(ByteReader& r) {
    read_attributes(
        r, kOnClass, "ClassFile", [&](const AttrInfo& info, ByteReader& body, std::uint64_t) {
          switch (info.id) {
            case Attr::kSourceFile:
              cf_.source_file = read_utf8(body, "sourcefile_index");
              break;
            case Attr::kSignature:
              cf_.signature = read_utf8(body, "signature_index");
              break;
            case Attr::kInnerClasses: {
              const std::uint16_t count = body.u2("number_of_classes");
              cf_.inner_classes.reserve(std::min<std::size_t>(count, body.remaining() / 8));
              for (unsigned i = 0; i < count; ++i) {
                InnerClass inner;
                inner.inner_class = read_class(body, "inner_class_info_index");
                inner.outer_class = read_optional_class(body, "outer_class_info_index");
                const std::uint64_t name_at = body.offset();
                const std::uint16_t name_index = body.u2("inner_name_index");
                if (name_index != 0) {
                  inner.inner_name = std::string(utf8_ref(name_index, name_at, "inner_name_index"));
                }
                inner.access_flags = body.u2("inner_class_access_flags");
                cf_.inner_classes.push_back(std::move(inner));
              }
              break;
            }
            case Attr::kBootstrapMethods: {
              const std::uint16_t count = body.u2("num_bootstrap_methods");
              cf_.bootstrap_methods.reserve(std::min<std::size_t>(count, body.remaining() / 4));
              for (unsigned i = 0; i < count; ++i) {
                BootstrapMethod method;
                const std::uint64_t ref_at = body.offset();
                method.method_handle_index = body.u2("bootstrap_method_ref");
                expect(method.method_handle_index, {ConstantTag::kMethodHandle}, ref_at,
                       "bootstrap_method_ref");
                const std::uint16_t argument_count = body.u2("num_bootstrap_arguments");
                method.arguments.reserve(
                    std::min<std::size_t>(argument_count, body.remaining() / 2));
                for (unsigned j = 0; j < argument_count; ++j) {
                  const std::uint64_t arg_at = body.offset();
                  const std::uint16_t argument = body.u2("bootstrap_arguments");
                  expect(
                      argument,
                      {ConstantTag::kInteger, ConstantTag::kFloat, ConstantTag::kLong,
                       ConstantTag::kDouble, ConstantTag::kClass, ConstantTag::kString,
                       ConstantTag::kMethodHandle, ConstantTag::kMethodType, ConstantTag::kDynamic},
                      arg_at, "bootstrap_arguments");
                  method.arguments.push_back(argument);
                }
                cf_.bootstrap_methods.push_back(std::move(method));
              }
              break;
            }
            case Attr::kNestHost:
              cf_.nest_host = read_class(body, "host_class_index");
              break;
            case Attr::kNestMembers:
              cf_.nest_members = read_class_list(body, "nest members");
              break;
            case Attr::kPermittedSubclasses:
              cf_.permitted_subclasses = read_class_list(body, "permitted subclasses");
              break;
            case Attr::kModule:
              cf_.module = read_module(body);
              break;
            case Attr::kRecord: {
              std::vector<RecordComponent> components;
              const std::uint16_t count = body.u2("components_count");
              components.reserve(std::min<std::size_t>(count, body.remaining() / 6));
              for (unsigned i = 0; i < count; ++i) {
                RecordComponent component;
                component.name = read_utf8(body, "record component name_index");
                component.descriptor = read_utf8(body, "record component descriptor_index");
                read_attributes(body, kOnRecordComponent, "record_component_info",
                                [&](const AttrInfo& sub_info, ByteReader& sub, std::uint64_t) {
                                  if (sub_info.id == Attr::kSignature) {
                                    component.signature = read_utf8(sub, "signature_index");
                                  }
                                });
                components.push_back(std::move(component));
              }
              cf_.record = std::move(components);
              break;
            }
            default:
              break;
          }
        });
  }

  // JVMS 4.7.25. Only a module-info class may have one: its constant pool alone may hold the
  // Module and Package entries the attribute names.
  ModuleInfo read_module(ByteReader& body) const {
    if (!cf_.is_module()) {
      body.fail_at(body.offset(), "a Module attribute is only allowed in a module-info class");
    }
    ModuleInfo module;
    module.name = read_named(body, ConstantTag::kModule, "module_name_index");
    module.open = (body.u2("module_flags") & access::kModuleOpen) != 0;
    body.u2("module_version_index");
    const std::uint16_t requires_count = body.u2("requires_count");
    for (unsigned i = 0; i < requires_count; ++i) {
      read_named(body, ConstantTag::kModule, "requires_index");
      body.u2("requires_flags");
      body.u2("requires_version_index");
    }
    module.exports = read_module_packages(body, "exports");
    module.opens = read_module_packages(body, "opens");
    const std::uint16_t uses_count = body.u2("uses_count");
    for (unsigned i = 0; i < uses_count; ++i) read_class(body, "uses_index");
    const std::uint16_t provides_count = body.u2("provides_count");
    for (unsigned i = 0; i < provides_count; ++i) {
      ModuleProvides entry;
      entry.service = read_class(body, "provides_index");
      const std::uint16_t with_count = body.u2("provides_with_count");
      for (unsigned j = 0; j < with_count; ++j)
        entry.with.push_back(read_class(body, "provides_with_index"));
      module.provides.push_back(std::move(entry));
    }
    return module;
  }

  // The exports or opens table: each a package, flags and the modules it is qualified to.
  std::vector<ModulePackage> read_module_packages(ByteReader& body, std::string_view what) const {
    const std::string label(what);
    const std::uint16_t count = body.u2(label + "_count");
    std::vector<ModulePackage> out;
    out.reserve(std::min<std::size_t>(count, body.remaining() / 6));
    for (unsigned i = 0; i < count; ++i) {
      ModulePackage entry;
      entry.package = read_named(body, ConstantTag::kPackage, label + "_index");
      body.u2(label + "_flags");
      const std::uint16_t to_count = body.u2(label + "_to_count");
      for (unsigned j = 0; j < to_count; ++j) {
        entry.to.push_back(read_named(body, ConstantTag::kModule, label + "_to_index"));
      }
      out.push_back(std::move(entry));
    }
    return out;
  }

  // A u2 index of a Module or Package constant: the name it points to.
  std::string read_named(ByteReader& r, ConstantTag tag, const std::string& what) const {
    const std::uint64_t at = r.offset();
    const Constant& c = expect(r.u2(what), {tag}, at, what);
    return std::string(pool().utf8(c.first));
  }

  std::vector<std::string> read_class_list(ByteReader& body, std::string_view what) const {
    const std::uint16_t count = body.u2("number_of_classes");
    std::vector<std::string> out;
    out.reserve(std::min<std::size_t>(count, body.remaining() / 2));
    for (unsigned i = 0; i < count; ++i) out.push_back(read_class(body, what));
    return out;
  }

  std::span<const std::uint8_t> bytes_;
  ClassFile cf_;
};

}  // namespace

ClassFile parse_class_file(std::span<const std::uint8_t> bytes, std::string origin) {
  return Parser(bytes, std::move(origin)).run();
}

}  // namespace refract::frontend
