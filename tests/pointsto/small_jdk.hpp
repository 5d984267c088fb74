// A JDK home made of the few real JDK classes the points-to fixtures use (java.lang.Thread,
// System, AccessController, ..., copied from the machine's JDK 17 java.base.jmod): the rest of
// the JDK is phantom, so that analysing a fixture takes a second, not minutes.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "cli/java_inputs.hpp"
#include "cli/run_refract.hpp"
#include "frontend/class_path.hpp"

namespace refract::test {

// The JDK classes the fixtures use, with what their code needs of each other.
inline const char* const kJdkClasses[] = {
    "java/lang/Object",
    "java/lang/String",
    "java/lang/Class",
    "java/lang/System",
    "java/lang/Thread",
    "java/lang/Runnable",
    "java/lang/ThreadGroup",
    "java/lang/Throwable",
    "java/lang/Exception",
    "java/lang/RuntimeException",
    "java/lang/Cloneable",
    "java/lang/CloneNotSupportedException",
    "java/io/Serializable",
    "java/security/AccessController",
    "java/security/PrivilegedAction",
    "java/security/PrivilegedExceptionAction",
    "java/security/PrivilegedActionException",
    "java/util/Objects",
    "java/util/function/Function",
    "java/util/function/Supplier",
    "jdk/internal/misc/Unsafe",
};

// A JDK home whose jmods/java.base.jmod holds `classes` (internal names), read from the
// machine's JDK 17, in a new folder that is removed with it.
inline std::unique_ptr<TempDir> make_small_jdk(std::span<const char* const> classes) {
  auto dir = std::make_unique<TempDir>();
  const auto jdk = frontend::find_default_jdk();
  if (!jdk) throw std::runtime_error("no JDK 17 with jmods (scripts/setup-debian.sh installs it)");
  frontend::ClassPath path;
  path.add_jdk(*jdk);
  ZipEntries entries;
  for (const char* name : classes) {
    const auto bytes = path.read(name);
    if (!bytes) throw std::runtime_error(std::string("the JDK has no ") + name);
    entries.emplace_back(std::string("classes/") + name + ".class", bytes->bytes);
  }
  // java.base's own module-info (its jmod comes first), so that the small JDK's packages are
  // exported and encapsulated as the real one's (reflection/access.datalog)
  const auto module_info = path.read("module-info");
  if (!module_info) throw std::runtime_error("the JDK has no java.base module-info");
  entries.emplace_back("classes/module-info.class", module_info->bytes);
  write_bytes(dir->path() / "jmods" / "java.base.jmod", jmod_bytes(entries));
  return dir;
}

// The small JDK of kJdkClasses. Made once for all tests of this binary, removed at exit.
inline const std::filesystem::path& small_jdk() {
  static const std::unique_ptr<TempDir> home = make_small_jdk(kJdkClasses);
  return home->path();
}

}  // namespace refract::test
