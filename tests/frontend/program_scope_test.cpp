// Which classes ProgramScope reads from a root, here with --string-classes off and on
// (ProgramScope::set_string_classes), over the fixture classes without the JDK: the JDK's
// classes are phantoms, so each walk reads a handful of classes.
#include "frontend/program_scope.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/java_inputs.hpp"
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
  scope.set_string_classes(string_classes ? StringClasses::kAllCode : StringClasses::kNone);
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

namespace refract::frontend {
namespace {

// A JDK of three classes, read from the machine's JDK 17: enough for late roots to name one
// the main class's walk does not.
std::filesystem::path tiny_jdk(const std::filesystem::path& dir) {
  const auto jdk = find_default_jdk();
  if (!jdk) throw std::runtime_error("no JDK 17 (scripts/setup-debian.sh installs it)");
  ClassPath real;
  real.add_jdk(*jdk);
  test::ZipEntries entries;
  for (const char* name : {"java/lang/Object", "java/lang/String", "java/lang/Runnable"})
    entries.emplace_back(std::string("classes/") + name + ".class", real.read(name)->bytes);
  test::write_bytes(dir / "jmods" / "java.base.jmod", test::jmod_bytes(entries));
  return dir;
}

Walk walk_with_late_root(bool late) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("refract_late_roots_" + std::to_string(late));
  ClassPath path;
  path.add(REFRACT_FIXTURE_CLASSES);
  path.add_jdk(tiny_jdk(dir));
  ClassHierarchy hierarchy(path);
  ProgramScope scope(hierarchy, false);
  scope.add_root("pointsto/statics/Main");
  if (late) {
    scope.add_late_root("pointsto/threads/Task");
  } else {
    scope.add_root("pointsto/threads/Task");
  }
  Walk out;
  scope.run(
      [&](const ClassFile& cls, const std::vector<MethodIr>&) { out.read.insert(cls.this_class); },
      nullptr);
  for (const Phantom& p : hierarchy.phantoms()) out.phantoms.insert(p.name);
  std::filesystem::remove_all(dir);
  return out;
}

// pointsto.threads.Task implements Runnable, which pointsto.statics.Main's walk never names: as a
// late root (the JDK sealed) Task is read and Runnable is a phantom; as a root both are read.
// Object, which the main walk reaches, is read either way.
TEST(ProgramScopeTest, JdkClassesOnlyLateRootsNameStayOut) {
  const Walk late = walk_with_late_root(true);
  const Walk root = walk_with_late_root(false);
  EXPECT_EQ(late.read.count("pointsto/threads/Task"), 1U);
  EXPECT_EQ(late.read.count("java/lang/Runnable"), 0U);
  EXPECT_EQ(late.phantoms.count("java/lang/Runnable"), 1U);
  EXPECT_EQ(late.read.count("java/lang/Object"), 1U);
  EXPECT_EQ(root.read.count("java/lang/Runnable"), 1U);
  EXPECT_EQ(root.phantoms.count("java/lang/Runnable"), 0U);
}

}  // namespace
}  // namespace refract::frontend
