#include "frontend/ir_dynamic.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>

namespace refract::frontend::ir_detail {
namespace {

// LambdaMetafactory.altMetafactory flag bits (java.lang.invoke.LambdaMetafactory).
constexpr std::int32_t kFlagSerializable = 1;
constexpr std::int32_t kFlagMarkers = 2;
constexpr std::int32_t kFlagBridges = 4;

// StringConcatFactory recipe tags: an argument, a constant.
constexpr char kTagArg = '\1';
constexpr char kTagConstant = '\2';

template <typename T>
std::string shortest(T value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  std::string text(buffer.data(), result.ptr);
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

// The text String.valueOf would give for a concat constant (exact for strings and integers,
// which is what compilers put there).
std::string concat_constant_text(const ClassFile& cls, std::uint16_t index) {
  const ConstantPool& pool = cls.constant_pool;
  switch (pool.tag(index)) {
    case ConstantTag::kString:
      return std::string(pool.string(index));
    case ConstantTag::kInteger:
      return std::to_string(pool.integer(index));
    case ConstantTag::kLong:
      return std::to_string(pool.long_value(index));
    case ConstantTag::kFloat:
      return shortest(pool.float_value(index));
    case ConstantTag::kDouble:
      return shortest(pool.double_value(index));
    default:
      return constant_display_text(cls, index);
  }
}

std::optional<std::int32_t> integer_arg(const ClassFile& cls, std::uint16_t index) {
  if (cls.constant_pool.tag(index) != ConstantTag::kInteger) return std::nullopt;
  return cls.constant_pool.integer(index);
}

bool is_owner(const MethodHandleInfo& handle, std::string_view owner) {
  return handle.kind == ReferenceKind::kInvokeStatic && handle.owner.dims == 0 &&
         handle.owner.class_name == owner;
}

std::optional<LambdaInfo> lambda(const ClassFile& cls, const DynamicRef& site,
                                 const BootstrapMethod& bsm, std::uint16_t bsm_index,
                                 const MethodDescriptor& descriptor, bool alt) {
  const ConstantPool& pool = cls.constant_pool;
  const auto& args = bsm.arguments;
  if (args.size() < 3 || (!alt && args.size() != 3)) return std::nullopt;
  if (pool.tag(args[0]) != ConstantTag::kMethodType ||
      pool.tag(args[1]) != ConstantTag::kMethodHandle ||
      pool.tag(args[2]) != ConstantTag::kMethodType) {
    return std::nullopt;
  }
  const JavaType& interface_type = descriptor.return_type;
  if (interface_type.base != BaseKind::kReference || interface_type.dims != 0) {
    return std::nullopt;
  }
  LambdaInfo info;
  info.class_name = binary_name_to_java(cls.this_class) + "$$Lambda$" + std::to_string(bsm_index);
  info.interface_type = interface_type;
  info.method_name = std::string(site.name);
  info.method_descriptor = std::string(pool.method_type(args[0]));
  info.implementation = method_handle_info(cls, args[1]);
  info.instantiated_descriptor = std::string(pool.method_type(args[2]));
  info.alt = alt;
  if (!try_parse_method_descriptor(info.method_descriptor) ||
      !try_parse_method_descriptor(info.instantiated_descriptor)) {
    return std::nullopt;
  }
  if (!alt) return info;
  std::size_t next = 3;
  const auto flags = next < args.size() ? integer_arg(cls, args[next++]) : std::nullopt;
  if (!flags) return std::nullopt;
  info.serializable = (*flags & kFlagSerializable) != 0;
  if ((*flags & kFlagMarkers) != 0) {
    const auto count = next < args.size() ? integer_arg(cls, args[next++]) : std::nullopt;
    if (!count || *count < 0 || args.size() - next < static_cast<std::size_t>(*count)) {
      return std::nullopt;
    }
    for (std::int32_t i = 0; i < *count; ++i) {
      const std::uint16_t arg = args[next++];
      if (pool.tag(arg) != ConstantTag::kClass) return std::nullopt;
      info.marker_interfaces.push_back(parse_class_constant(pool.class_name(arg)));
    }
  }
  if ((*flags & kFlagBridges) != 0) {
    const auto count = next < args.size() ? integer_arg(cls, args[next++]) : std::nullopt;
    if (!count || *count < 0 || args.size() - next < static_cast<std::size_t>(*count)) {
      return std::nullopt;
    }
    for (std::int32_t i = 0; i < *count; ++i) {
      const std::uint16_t arg = args[next++];
      if (pool.tag(arg) != ConstantTag::kMethodType) return std::nullopt;
      info.bridge_descriptors.emplace_back(pool.method_type(arg));
    }
  }
  if (next != args.size()) return std::nullopt;
  return info;
}

void add_text(ConcatInfo& info, std::string_view text) {
  if (text.empty()) return;
  if (!info.parts.empty() && !info.parts.back().is_arg) {
    info.parts.back().text += text;
  } else {
    info.parts.push_back(ConcatPart{false, 0, std::string(text)});
  }
}

std::optional<ConcatInfo> concat(const ClassFile& cls, const BootstrapMethod& bsm,
                                 const MethodDescriptor& descriptor, bool with_constants) {
  const ConstantPool& pool = cls.constant_pool;
  const std::size_t arg_count = descriptor.parameters.size();
  ConcatInfo info;
  info.with_constants = with_constants;
  if (!with_constants) {
    if (!bsm.arguments.empty()) return std::nullopt;
    for (std::size_t i = 0; i < arg_count; ++i) {
      info.parts.push_back(ConcatPart{true, static_cast<std::uint32_t>(i), {}});
    }
    return info;
  }
  if (bsm.arguments.empty() || pool.tag(bsm.arguments[0]) != ConstantTag::kString) {
    return std::nullopt;
  }
  const std::string_view recipe = pool.string(bsm.arguments[0]);
  std::size_t next_arg = 0;
  std::size_t next_constant = 1;
  std::size_t literal_start = 0;
  for (std::size_t i = 0; i <= recipe.size(); ++i) {
    if (i < recipe.size() && recipe[i] != kTagArg && recipe[i] != kTagConstant) continue;
    add_text(info, recipe.substr(literal_start, i - literal_start));
    literal_start = i + 1;
    if (i == recipe.size()) break;
    if (recipe[i] == kTagArg) {
      if (next_arg >= arg_count) return std::nullopt;
      info.parts.push_back(ConcatPart{true, static_cast<std::uint32_t>(next_arg++), {}});
    } else {
      if (next_constant >= bsm.arguments.size()) return std::nullopt;
      add_text(info, concat_constant_text(cls, bsm.arguments[next_constant++]));
    }
  }
  if (next_arg != arg_count || next_constant != bsm.arguments.size()) return std::nullopt;
  return info;
}

}  // namespace

std::string number_text(float value) {
  return shortest(value);
}
std::string number_text(double value) {
  return shortest(value);
}

MethodHandleInfo method_handle_info(const ClassFile& cls, std::uint16_t index) {
  const ConstantPool& pool = cls.constant_pool;
  const MethodHandleRef handle = pool.method_handle(index);
  const MemberRef member = pool.member_ref(handle.reference_index);
  MethodHandleInfo info;
  info.kind = handle.kind;
  info.owner = parse_class_constant(member.owner);
  info.name = std::string(member.name);
  info.descriptor = std::string(member.descriptor);
  info.interface = member.tag == ConstantTag::kInterfaceMethodref;
  if (member.tag == ConstantTag::kFieldref) {
    parse_field_descriptor(info.descriptor);  // validates
  } else {
    parse_method_descriptor(info.descriptor);
  }
  return info;
}

std::string quoted_text(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          std::array<char, 8> escape{};
          std::snprintf(escape.data(), escape.size(), "\\u%04x", byte);
          out += escape.data();
        } else {
          out += c;  // UTF-8 text stays as it is
        }
    }
  }
  out += '"';
  return out;
}

std::string constant_display_text(const ClassFile& cls, std::uint16_t index) {
  const ConstantPool& pool = cls.constant_pool;
  switch (pool.tag(index)) {
    case ConstantTag::kString:
      return quoted_text(pool.string(index));
    case ConstantTag::kInteger:
      return std::to_string(pool.integer(index));
    case ConstantTag::kLong:
      return std::to_string(pool.long_value(index)) + "L";
    case ConstantTag::kFloat:
      return shortest(pool.float_value(index)) + "F";
    case ConstantTag::kDouble:
      return shortest(pool.double_value(index));
    case ConstantTag::kClass: {
      const std::string_view name = pool.class_name(index);
      const auto type = try_parse_field_descriptor(name);
      if (!name.empty() && name.front() == '[' && type) return type->to_java() + ".class";
      return binary_name_to_java(name) + ".class";
    }
    case ConstantTag::kMethodType:
      return "methodtype " + std::string(pool.method_type(index));
    case ConstantTag::kMethodHandle:
      try {
        return "methodhandle " + method_handle_text(method_handle_info(cls, index));
      } catch (const DescriptorError&) {
        return "methodhandle #" + std::to_string(index);
      }
    case ConstantTag::kDynamic: {
      const DynamicRef dynamic = pool.dynamic(index);
      return "dynamic " + std::string(dynamic.name) + ":" + std::string(dynamic.descriptor);
    }
    default:
      return "#" + std::to_string(index);
  }
}

DynamicSite dynamic_site(const ClassFile& cls, std::uint16_t constant) {
  const DynamicRef ref = cls.constant_pool.dynamic(constant);
  const BootstrapMethod& bsm = cls.bootstrap_methods.at(ref.bootstrap_method);
  DynamicSite site;
  site.bootstrap = method_handle_info(cls, bsm.method_handle_index);
  for (const std::uint16_t arg : bsm.arguments) {
    site.bootstrap_args.push_back(constant_display_text(cls, arg));
  }
  site.name = std::string(ref.name);
  site.descriptor = std::string(ref.descriptor);
  return site;
}

DynamicTranslation translate_invokedynamic(const ClassFile& cls, std::uint16_t constant,
                                           const MethodDescriptor& descriptor) {
  const DynamicRef ref = cls.constant_pool.dynamic(constant);
  const BootstrapMethod& bsm = cls.bootstrap_methods.at(ref.bootstrap_method);
  const MethodHandleInfo handle = method_handle_info(cls, bsm.method_handle_index);
  if (is_owner(handle, "java.lang.invoke.LambdaMetafactory") &&
      (handle.name == "metafactory" || handle.name == "altMetafactory")) {
    if (auto info = lambda(cls, ref, bsm, ref.bootstrap_method, descriptor,
                           handle.name == "altMetafactory")) {
      return std::move(*info);
    }
  } else if (is_owner(handle, "java.lang.invoke.StringConcatFactory") &&
             (handle.name == "makeConcatWithConstants" || handle.name == "makeConcat")) {
    if (descriptor.return_type == JavaType::object("java/lang/String")) {
      if (auto info = concat(cls, bsm, descriptor, handle.name == "makeConcatWithConstants")) {
        return std::move(*info);
      }
    }
  }
  return dynamic_site(cls, constant);
}

}  // namespace refract::frontend::ir_detail
