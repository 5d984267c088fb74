#include "frontend/format_error.hpp"

#include <utility>

namespace refract::frontend {

std::string entry_origin(const std::filesystem::path& archive, std::string_view entry) {
  std::string out = archive.string();
  out += '!';
  out += entry;
  return out;
}

namespace {
std::string offset_origin(const std::string& origin, std::uint64_t offset) {
  std::string out = origin;
  out += ':';
  out += std::to_string(offset);
  return out;
}
}  // namespace

ClassFormatError::ClassFormatError(std::string origin, std::uint64_t offset,
                                   const std::string& message)
    : InputError(SourceLocation{offset_origin(origin, offset), 0, 0}, message),
      origin_(std::move(origin)),
      offset_(offset) {}

}  // namespace refract::frontend
