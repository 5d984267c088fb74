// Internal to the IR builder: method handle constants, and what an invokedynamic or a dynamic
// constant becomes, decided by its bootstrap method. LambdaMetafactory and StringConcatFactory
// are modelled (their contracts are in the java.lang.invoke API documentation); any other
// bootstrap, or one of those with arguments that do not fit its contract (the JVM would throw
// BootstrapMethodError when linking it), is an unsupported DynamicSite.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "frontend/class_file.hpp"
#include "frontend/ir.hpp"

namespace refract::frontend::ir_detail {

// Resolves CONSTANT_MethodHandle `index`. Throws DescriptorError for a malformed owner name
// or descriptor.
MethodHandleInfo method_handle_info(const ClassFile& cls, std::uint16_t index);

// A loadable constant (a bootstrap argument) as display text: strings quoted and escaped,
// numbers as Java literals, classes as their Java type, handles and method types spelled out.
std::string constant_display_text(const ClassFile& cls, std::uint16_t index);

// Java-like literals: the shortest text that reads back as the same value ("1.5", "NaN").
std::string number_text(float value);
std::string number_text(double value);

// Quotes and escapes a string the way the IR printer shows string constants.
std::string quoted_text(std::string_view text);

// What an invokedynamic becomes. `descriptor` is its (parsed) call site descriptor.
using DynamicTranslation = std::variant<LambdaInfo, ConcatInfo, DynamicSite>;
DynamicTranslation translate_invokedynamic(const ClassFile& cls, std::uint16_t constant,
                                           const MethodDescriptor& descriptor);

// The description of a Dynamic or InvokeDynamic constant's call site, for unsupported ones.
DynamicSite dynamic_site(const ClassFile& cls, std::uint16_t constant);

}  // namespace refract::frontend::ir_detail
