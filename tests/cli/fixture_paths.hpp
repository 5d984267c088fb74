// Where the build put the Java fixtures, and where the bundled example and the points-to
// fixtures' sources are, for the test binaries CMake gives the fixtures to
// (refract_tests(... NEEDS_FIXTURES)).
#pragma once

#include <filesystem>

namespace refract::test {

inline const std::filesystem::path kFixtureClasses = REFRACT_FIXTURE_CLASSES;
inline const std::filesystem::path kPointstoExample =
    std::filesystem::path(REFRACT_SOURCE_DIR) / "examples" / "pointsto";
// The Java sources of the points-to fixtures (their expected results are beside them).
inline const std::filesystem::path kPointstoFixtureSources =
    std::filesystem::path(REFRACT_SOURCE_DIR) / "tests" / "fixtures" / "java" / "pointsto";

}  // namespace refract::test
