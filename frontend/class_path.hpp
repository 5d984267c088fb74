// A class path: jars, jmods and class folders, plus a JDK, searched by binary class name
// ("java/lang/String"). Archive entry names and folder listings are indexed when an entry is
// added; class bytes are read only when a class is asked for. JDK classes take precedence over
// the application's, as under the JVM's parent-first class loading; among application entries
// the first one added wins. Multi-release jars (manifest "Multi-Release: true") supply, for
// a/B.class, the META-INF/versions/N/a/B.class with the highest N <= the target release.
// A ClassPath is not safe for concurrent use by several threads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace refract::frontend {

// The bytes of one class and where they came from: "JAR!a/B.class",
// "JMOD!classes/a/B.class" or "DIR/a/B.class" (the prefix of messages about the class).
struct ClassBytes {
  std::string origin;
  std::vector<std::uint8_t> bytes;
};

// A provider-configuration file of the service-provider mechanism, META-INF/services/SERVICE
// (frontend/service_files.hpp reads it).
struct ServiceFile {
  std::string origin;   // "JAR!META-INF/services/a.B" or "DIR/META-INF/services/a.B"
  std::string service;  // the entry's name after META-INF/services/: "a.B"
  std::vector<std::uint8_t> bytes;
};

// What the module system lets code of other modules reach in a JDK class's package (JLS 7.7):
// reflection from outside the module may use only public members of public classes of an
// exported package, and any member of an open one (AccessibleObject.setAccessible).
struct ModuleAccess {
  std::string module;     // "java.base"
  bool exported = false;  // exported to every module
  bool open = false;      // opened to every module
};

// A service provider a JDK module declares: `provides SERVICE with PROVIDER` in its
// module-info, which ServiceLoader loads with Class.forName(Module, String).
struct ModuleProvider {
  std::string service;   // internal form: "java/util/random/RandomGenerator"
  std::string provider;  // internal form: "java/util/Random"
  std::string origin;    // "JMOD!classes/module-info.class"
};

class ClassPath {
 public:
  static constexpr int kDefaultRelease = 17;

  explicit ClassPath(int target_release = kDefaultRelease);
  ClassPath(ClassPath&&) noexcept;
  ClassPath& operator=(ClassPath&&) noexcept;
  ~ClassPath();

  int target_release() const { return target_release_; }

  // Adds a jar (any zip), a jmod or a class folder after the entries added so far.
  void add(const std::filesystem::path& entry);
  // Adds the JDK installed at `home` (`--jdk DIR`): every home/jmods/*.jmod, in name order.
  void add_jdk(const std::filesystem::path& home);

  bool contains(std::string_view binary_name) const;
  // The class is the JDK's: read from the JDK's jmods (which come before the application's
  // entries).
  bool in_jdk(std::string_view binary_name) const;
  // For a class of the JDK: its module and what that module exports and opens of its package,
  // from the jmod's classes/module-info.class (read once per jmod). A jmod without one counts
  // as exporting and opening everything. Nothing for the application's classes, which are in
  // the unnamed module. A malformed module-info is a ClassFormatError naming it.
  std::optional<ModuleAccess> jdk_module_access(std::string_view binary_name) const;
  // The origin the class would be read from, without reading it.
  std::optional<std::string> locate(std::string_view binary_name) const;
  // Reads the class; nothing if no entry has it. Read errors are InputErrors naming the origin.
  std::optional<ClassBytes> read(std::string_view binary_name) const;

  // Every class name that resolves to an entry, sorted and each once; module-info is not a
  // class and is left out. Without `include_jdk`, only names that resolve to application
  // entries (the scope of --all).
  std::vector<std::string> class_names(bool include_jdk) const;

  // The provider-configuration files of the application's entries (the JDK's modules declare
  // their providers in module-info instead), entry by entry in class-path order, each entry's
  // sorted by service name. Read errors are InputErrors naming the origin.
  std::vector<ServiceFile> service_files() const;
  // The providers the JDK's modules declare, jmod by jmod in name order, each in its
  // module-info's order (the application's module-info files are not read: on the class path
  // its jars are the unnamed module, whose providers come from META-INF/services). A malformed
  // module-info is a ClassFormatError naming it.
  std::vector<ModuleProvider> jdk_module_providers() const;

  // For looking at the entries themselves (`refract ir --all`), whatever the JDK shadows:
  // every class name the added entries hold, and a class read from the first entry holding it.
  std::vector<std::string> entry_class_names() const;
  std::optional<ClassBytes> read_from_entries(std::string_view binary_name) const;

 private:
  struct Source;
  // A class found in a source: the source, and the archive entry index or file path.
  struct Found {
    const Source* source;
    const std::variant<std::size_t, std::string>* where;
  };
  std::optional<Found> find(std::string_view binary_name, bool jdk_only) const;
  void add_source(const std::filesystem::path& entry, bool jdk);

  int target_release_;
  std::vector<std::unique_ptr<Source>> jdk_;
  std::vector<std::unique_ptr<Source>> application_;
};

// The default JDK: `java` found on `path_variable` (a PATH value), resolved through symbolic
// links, whose home is two levels up; else the first (in name order) `jvm_dir`/java-17-openjdk-*.
// Only JDKs with a jmods folder count.
std::optional<std::filesystem::path> find_default_jdk(
    std::string_view path_variable, const std::filesystem::path& jvm_dir = "/usr/lib/jvm");
// The same, with the PATH of this process.
std::optional<std::filesystem::path> find_default_jdk();

// The feature release of the JDK at `home`, from JAVA_VERSION in its `release` file
// ("17.0.15" -> 17, "1.8.0_402" -> 8); nothing if the file or the field is missing.
std::optional<int> jdk_release(const std::filesystem::path& home);

}  // namespace refract::frontend
