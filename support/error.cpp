#include "support/error.hpp"

namespace refract {

std::string SourceLocation::to_string() const {
  std::string out = file.empty() ? "<input>" : file;
  if (line > 0) {
    // Appending piecewise: GCC 12 reports a false -Wrestrict for ":" + to_string(...).
    out += ':';
    out += std::to_string(line);
    if (column > 0) {
      out += ':';
      out += std::to_string(column);
    }
  }
  return out;
}

InputError::InputError(SourceLocation where, const std::string& message)
    : std::runtime_error(where.to_string() + ": " + message),
      where_(std::move(where)),
      message_(message) {}

}  // namespace refract
