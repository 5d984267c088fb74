// Minimal JSON text helpers for the reports refract writes (no parser needed).
#pragma once

#include <string>
#include <string_view>

namespace refract {

// A JSON string literal, quotes included, with control characters escaped.
std::string json_string(std::string_view text);

}  // namespace refract
