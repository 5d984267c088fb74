#include "support/json.hpp"

#include <cstdio>

namespace refract {

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
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
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_string_array(const std::set<std::string>& items) {
  std::string out = "[";
  for (const std::string& item : items) out += (out.size() > 1 ? ", " : "") + json_string(item);
  return out + "]";
}

std::string json_string_object(const std::map<std::string, std::string>& items) {
  std::string out = "{";
  for (const auto& [key, value] : items)
    out += (out.size() > 1 ? ", " : "") + json_string(key) + ": " + json_string(value);
  return out + "}";
}

}  // namespace refract
