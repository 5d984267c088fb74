// A Soot method signature taken apart into the JVM's terms, as the JCG format and other
// bytecode tools name methods: "<a.B$C: int[] m(java.lang.String,long)>" is declaring class
// "La/B$C;", name "m", return type "[I", parameter types ["Ljava/lang/String;", "J"].
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace refract::exporters {

struct JvmMethod {
  std::string name;
  std::string declaring_class;  // field descriptor of the class
  std::string return_type;      // field descriptor, or "V"
  std::vector<std::string> parameter_types;
};

// std::invalid_argument if `signature` is not of the form "<Class: Type name(Type,...)>".
JvmMethod parse_soot_method(std::string_view signature);

// "int" -> "I", "a.B[]" -> "[La/B;", "void" -> "V"; Soot's quotes around reserved words removed.
std::string jvm_descriptor_of_soot_type(std::string_view type);

}  // namespace refract::exporters
