// The JSON reader of support/ under the names the tests use for refract's JSON outputs.
#pragma once

#include "support/json_reader.hpp"

namespace refract::test {

using JsonValue = refract::JsonValue;
using JsonReader = refract::JsonReader;

}  // namespace refract::test
