// Errors about bytes that do not form a valid class file (or a valid method body), located
// by the byte offset in the class file: "FILE:OFFSET: message" for a plain file and
// "FILE!ENTRY:OFFSET: message" for an entry of a jar or jmod.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "support/error.hpp"

namespace refract::frontend {

// Names an entry of an archive as "ARCHIVE!ENTRY", the form used in every message and origin.
std::string entry_origin(const std::filesystem::path& archive, std::string_view entry);

// A class file (or code in it) is malformed. It is an InputError whose location is the origin
// followed by ":OFFSET", so what() is exactly "ORIGIN:OFFSET: message".
class ClassFormatError : public InputError {
 public:
  ClassFormatError(std::string origin, std::uint64_t offset, const std::string& message);

  // "FILE" or "FILE!ENTRY", without the offset.
  const std::string& origin() const { return origin_; }
  // Byte offset in the class file where the problem was found.
  std::uint64_t offset() const { return offset_; }

 private:
  std::string origin_;
  std::uint64_t offset_;
};

}  // namespace refract::frontend
