// Minimal JSON text helpers for the reports refract writes (no parser needed).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace refract {

// A JSON string literal, quotes included, with control characters escaped.
std::string json_string(std::string_view text);
// ["a", "b"], in the set's order.
std::string json_string_array(const std::set<std::string>& items);
// {"key": "value", ...}, in the map's order.
std::string json_string_object(const std::map<std::string, std::string>& items);

}  // namespace refract
