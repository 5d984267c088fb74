// Golden tests of the printed IR of small fixture methods (tests/data/frontend/ir/*.ir). A
// golden file starts with '#' comment lines saying what to look for in it; the rest is the
// exact output of print_method_ir for the listed methods, in order.
//
// After a deliberate change of the IR, REFRACT_UPDATE_GOLDEN=1 rewrites the files (keeping
// their comments); read the diff before committing it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "frontend/ir_test_util.hpp"
#include "frontend/test_util.hpp"

namespace refract::frontend {
namespace {

const std::filesystem::path kIrGoldenDir =
    std::filesystem::path(REFRACT_TEST_DATA) / "frontend" / "ir";

struct Golden {
  std::string file;
  std::vector<std::string> classes;  // printed in this order
  std::vector<std::string> methods;  // empty: all, in class file order
};

// Names the case in test logs instead of gtest's byte dump.
void PrintTo(const Golden& golden, std::ostream* out) {
  *out << golden.file;
}

std::string printed(const Golden& golden) {
  std::ostringstream out;
  for (const std::string& name : golden.classes) {
    const ClassFile cls = testing::fixture_class(name);
    for (const MethodInfo& m : cls.methods) {
      if (!golden.methods.empty() &&
          std::find(golden.methods.begin(), golden.methods.end(), m.name) == golden.methods.end()) {
        continue;
      }
      print_method_ir(out, build_method_ir(cls, m));
    }
  }
  return out.str();
}

class IrGoldenTest : public ::testing::TestWithParam<Golden> {};

TEST_P(IrGoldenTest, MatchesGoldenFile) {
  const Golden& golden = GetParam();
  const std::filesystem::path path = kIrGoldenDir / golden.file;
  const std::string actual = printed(golden);
  auto [comments, expected] = testing::split_golden(path);
  if (std::getenv("REFRACT_UPDATE_GOLDEN") != nullptr) {
    std::filesystem::create_directories(kIrGoldenDir);
    std::ofstream(path) << comments << actual;
    expected = actual;
  }
  ASSERT_FALSE(comments.empty()) << path << " needs a comment header";
  EXPECT_EQ(actual, expected) << "golden file " << path;
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, IrGoldenTest,
    ::testing::Values(
        Golden{"Simple.ir", {"ir/Simple"}, {}},
        Golden{
            "Lambdas.ir", {"ir/Lambdas"}, {"captureThisAndLocal", "lambda$captureThisAndLocal$1"}},
        Golden{
            "MethodRefs.ir",
            {"ir/Lambdas"},
            {"noCapture", "staticRef", "boundRef", "unboundRef", "constructorRef", "serializable"}},
        Golden{"TryCatch.ir", {"ir/TryCatch"}, {"withFinally", "multiCatch"}},
        Golden{"Arrays.ir", {"ir/Arrays"}, {"cube", "sum"}},
        Golden{"SlotReuse.ir", {"ir/SlotReuse"}, {"reuse"}},
        Golden{"Switches.ir", {"ir/Switches"}, {"onEnum"}},
        Golden{"StringSwitch.ir", {"ir/Switches"}, {"onString"}},
        Golden{"EnumSwitchMap.ir", {"ir/Switches$1", "ir/Switches$Color"}, {}},
        Golden{"Wide.ir", {"ir/Wide"}, {"mix"}}, Golden{"Concat.ir", {"ir/Concat"}, {}},
        Golden{"Nested.ir",
               {"ir/Nested", "ir/Nested$StaticNested", "ir/Nested$Inner", "ir/Nested$1",
                "ir/Nested$1Local"},
               {}},
        Golden{"Record.ir", {"ir/Point"}, {}}, Golden{"Interface.ir", {"ir/Shape"}, {}},
        Golden{"Bridge.ir", {"ir/Bridge"}, {}}, Golden{"StaticInit.ir", {"ir/StaticInit"}, {}}),
    [](const ::testing::TestParamInfo<Golden>& info) {
      return info.param.file.substr(0, info.param.file.find('.'));
    });

}  // namespace
}  // namespace refract::frontend
