// Which classes ProgramScope reads from a root, here with --string-classes off and on
// (ProgramScope::set_string_classes), over the fixture classes without the JDK: the JDK's
// classes are phantoms, so each walk reads a handful of classes.
#include "frontend/program_scope.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "frontend/class_path.hpp"
#include "frontend/hierarchy.hpp"
#include "frontend/ir_builder.hpp"

namespace refract::frontend {
namespace {

struct Walk {
  std::set<std::string> read;  // classes visited, internal names
  std::set<std::string> phantoms;
};

Walk walk_from_refl_facts(bool string_classes) {
  ClassPath path;
  path.add(REFRACT_FIXTURE_CLASSES);
  ClassHierarchy hierarchy(path);
  ProgramScope scope(hierarchy, false);
  scope.set_string_classes(string_classes);
  scope.add_root("reflfacts/ReflFacts");
  Walk out;
  scope.run(
      [&](const ClassFile& cls, const std::vector<MethodIr>&) { out.read.insert(cls.this_class); },
      nullptr);
  for (const Phantom& p : hierarchy.phantoms()) out.phantoms.insert(p.name);
  return out;
}

TEST(ProgramScopeTest, StringConstantsNameNoClassByDefault) {
  const Walk walk = walk_from_refl_facts(false);
  EXPECT_EQ(walk.read.count("reflfacts/ReflFacts"), 1U);
  EXPECT_EQ(walk.read.count("reflfacts/Loader"), 1U);  // named by code: new Loader()
  EXPECT_EQ(walk.read.count("reflfacts/Named$Inner"), 0U);
  EXPECT_EQ(walk.phantoms.count("java/lang/Object"), 1U);  // no JDK on this class path
}

// "reflfacts.Named$Inner" is read; "reflfacts/Named" is no binary name (slashes) and
// "reflfacts.NoSuchClass" names no class: neither is read nor made a phantom.
TEST(ProgramScopeTest, StringClassesReadsTheClassesStringConstantsName) {
  const Walk off = walk_from_refl_facts(false);
  const Walk on = walk_from_refl_facts(true);
  EXPECT_EQ(on.read.count("reflfacts/Named$Inner"), 1U);
  EXPECT_EQ(on.read.count("reflfacts/Named"), 0U);
  std::vector<std::string> added;
  std::set_difference(on.read.begin(), on.read.end(), off.read.begin(), off.read.end(),
                      std::back_inserter(added));
  EXPECT_EQ(added, std::vector<std::string>{"reflfacts/Named$Inner"});
  EXPECT_EQ(on.phantoms.count("reflfacts/NoSuchClass"), 0U);
  EXPECT_EQ(on.phantoms, off.phantoms);
}

// The strings of main that may be class names, in internal form; the class path decides.
TEST(ProgramScopeTest, ClassNamesInStringsAreTheStringsThatMayBeBinaryNames) {
  ClassPath path;
  path.add(REFRACT_FIXTURE_CLASSES);
  ClassHierarchy hierarchy(path);
  const ClassFile* cls = hierarchy.find("reflfacts/ReflFacts");
  ASSERT_NE(cls, nullptr);
  const auto main = std::find_if(cls->methods.begin(), cls->methods.end(),
                                 [](const MethodInfo& m) { return m.name == "main"; });
  ASSERT_NE(main, cls->methods.end());
  EXPECT_EQ(class_names_in_strings(build_method_ir(*cls, *main)),
            (std::vector<std::string>{"a", "b", "open", "reflfacts/Loader", "reflfacts/Named$Inner",
                                      "reflfacts/NoSuchClass", "value"}));
}

}  // namespace
}  // namespace refract::frontend
