#include "exporters/jvm_method.hpp"

#include <map>
#include <stdexcept>

namespace refract::exporters {

namespace {

// Soot single-quotes name parts that are Jimple keywords; the JVM name has no quotes.
std::string unquoted(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c != '\'') out += c;
  }
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

}  // namespace

std::string jvm_descriptor_of_soot_type(std::string_view type) {
  static const std::map<std::string, std::string, std::less<>> kPrimitives{
      {"void", "V"}, {"boolean", "Z"}, {"byte", "B"},  {"char", "C"},  {"short", "S"},
      {"int", "I"},  {"long", "J"},    {"float", "F"}, {"double", "D"}};
  type = trim(type);
  std::string dimensions;
  while (type.size() >= 2 && type.substr(type.size() - 2) == "[]") {
    dimensions += '[';
    type.remove_suffix(2);
  }
  if (type.empty()) throw std::invalid_argument("empty type");
  if (const auto p = kPrimitives.find(type); p != kPrimitives.end()) {
    if (p->second == "V" && !dimensions.empty()) throw std::invalid_argument("array of void");
    return dimensions + p->second;
  }
  std::string name = unquoted(type);
  for (char& c : name) {
    if (c == '.') c = '/';
  }
  return dimensions + "L" + name + ";";
}

JvmMethod parse_soot_method(std::string_view signature) {
  const auto bad = [&](const char* why) {
    return std::invalid_argument("not a Soot method signature (" + std::string(why) +
                                 "): " + std::string(signature));
  };
  if (signature.size() < 2 || signature.front() != '<' || signature.back() != '>') {
    throw bad("no <...>");
  }
  const std::string_view inner = signature.substr(1, signature.size() - 2);
  const std::size_t colon = inner.find(": ");
  const std::size_t open = inner.find('(', colon == std::string_view::npos ? 0 : colon);
  if (colon == std::string_view::npos || open == std::string_view::npos || inner.back() != ')') {
    throw bad("no 'Class: Type name(...)'");
  }
  const std::string_view head = inner.substr(colon + 2, open - colon - 2);
  const std::size_t space = head.rfind(' ');
  if (space == std::string_view::npos) throw bad("no return type");
  JvmMethod out;
  out.declaring_class = jvm_descriptor_of_soot_type(inner.substr(0, colon));
  out.return_type = jvm_descriptor_of_soot_type(head.substr(0, space));
  out.name = unquoted(head.substr(space + 1));
  std::string_view parameters = inner.substr(open + 1, inner.size() - open - 2);
  while (!parameters.empty()) {
    const std::size_t comma = parameters.find(',');
    out.parameter_types.push_back(jvm_descriptor_of_soot_type(parameters.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    parameters.remove_prefix(comma + 1);
    if (parameters.empty()) throw bad("empty parameter type");
  }
  return out;
}

}  // namespace refract::exporters
