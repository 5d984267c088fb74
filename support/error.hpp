// Errors about bad input carry where the input was bad, so every message a user
// sees starts with FILE:LINE:COL (or FILE:OFFSET for binary input).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace refract {

struct SourceLocation {
  std::string file;
  std::uint64_t line = 0;    // 1-based; 0 = whole file
  std::uint64_t column = 0;  // 1-based; 0 = whole line

  std::string to_string() const;
};

// Bad user input: the message is printed as "FILE:LINE:COL: message".
class InputError : public std::runtime_error {
 public:
  InputError(SourceLocation where, const std::string& message);
  const SourceLocation& where() const { return where_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation where_;
  std::string message_;
};

}  // namespace refract
