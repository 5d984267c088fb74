#include "frontend/service_files.hpp"

#include <set>
#include <utility>

namespace refract::frontend {
namespace {

bool is_identifier_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

bool is_identifier_part(unsigned char c) {
  return is_identifier_start(c) || (c >= '0' && c <= '9');
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f';
}

void add_warning(ServiceProviders& result, SourceLocation where, std::string message) {
  ServiceWarning warning;
  warning.where = std::move(where);
  warning.message = std::move(message);
  result.warnings.push_back(std::move(warning));
}

}  // namespace

std::string ServiceWarning::to_string() const {
  return where.to_string() + ": " + message;
}

bool is_binary_class_name(std::string_view name) {
  bool part_start = true;
  for (const char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '.') {
      if (part_start) return false;  // empty part: "..", a leading '.'
      part_start = true;
      continue;
    }
    if (part_start ? !is_identifier_start(c) : !is_identifier_part(c)) return false;
    part_start = false;
  }
  return !part_start;  // not empty, no trailing '.'
}

ServiceProviders parse_service_file(std::string_view service, std::string_view text,
                                    const std::string& origin) {
  ServiceProviders result;
  if (!is_binary_class_name(service)) {
    add_warning(result, {origin, 0, 0},
                "the service name \"" + std::string(service) +
                    "\" is not a binary class name; no ServiceLoader reads this file, it is "
                    "ignored");
    return result;
  }
  std::set<std::string, std::less<>> listed;
  std::uint64_t line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    const std::size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    std::size_t first = 0;
    while (first < line.size() && is_blank(line[first])) ++first;
    std::size_t last = line.size();
    while (last > first && is_blank(line[last - 1])) --last;
    if (first == last) continue;
    const std::string_view name = line.substr(first, last - first);
    const SourceLocation where{origin, line_number, first + 1};
    if (!is_binary_class_name(name)) {
      add_warning(result, where,
                  "\"" + std::string(name) +
                      "\" is not a binary class name (dot-separated Java identifiers); "
                      "ServiceLoader would fail on it, the line is ignored");
      continue;
    }
    if (!listed.insert(std::string(name)).second) continue;  // ServiceLoader lists it once
    result.providers.push_back({std::string(service), std::string(name), where});
  }
  return result;
}

}  // namespace refract::frontend
