// Reading a program for `refract facts` and `refract analyze`: the class path, every class
// reachable by name from the main class (or all of them), and the facts extracted from them.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/class_path_options.hpp"
#include "frontend/class_path.hpp"
#include "frontend/fact_extractor.hpp"
#include "frontend/hierarchy.hpp"
#include "frontend/program_scope.hpp"
#include "frontend/service_files.hpp"

namespace refract::cli {

struct ExtractedProgram {
  std::unique_ptr<frontend::ClassPath> path;
  std::unique_ptr<frontend::ClassHierarchy> hierarchy;
  std::unique_ptr<frontend::FactExtractor> extractor;
  std::vector<frontend::SkippedClass> skipped;
  // With ScopeChoices::service_providers: the providers the class path's
  // META-INF/services files list (only those on the class path), and what is wrong with lines
  // and names that list none.
  std::vector<frontend::ServiceProvider> service_providers;
  std::vector<frontend::ServiceWarning> service_warnings;
  // With ScopeChoices::service_providers: the providers the JDK's modules declare
  // (module-info `provides`) for the services whose class literal the program's code gives
  // ServiceLoader (reflection::services_given_to_service_loader).
  std::vector<frontend::ModuleProvider> module_providers;
  // With ScopeChoices::service_providers: those the JDK's modules declare that were not read.
  std::vector<frontend::ModuleProvider> unread_module_providers;
};

// Choices about which classes a program has, beyond what its code names: reflection's closed
// world (Solar paper, Assumption 1), in which a class named only by a string the program
// builds at run time is still a class the analysis knows.
struct ScopeChoices {
  // Also the classes whose binary names are string constants of the code (`--string-classes`:
  // all code; ProgramScope::set_string_classes).
  frontend::StringClasses string_classes = frontend::StringClasses::kNone;
  // Every class of the class path (not the JDK's) is a root besides the main class, read
  // after what the main class reaches, with the JDK sealed (ProgramScope::add_late_root): the
  // JDK classes only such classes name are left out, as phantoms.
  bool application_classes = false;
  // And these classes ("a/B"), where the class path has them: what a TamiFlex log or the
  // annotations name.
  std::vector<std::string> extra_roots;
  // And the providers the class path's META-INF/services files list: the classes
  // java.util.ServiceLoader loads by name (reflection/services.datalog).
  bool service_providers = false;
  // With service_providers: also the providers the JDK's modules declare for a service whose
  // class literal read code gives ServiceLoader (`--jdk-providers read`).
  bool jdk_providers = false;
};

struct JdkFactsCache;

// `main_class` (a binary name with dots) selects the classes reachable from it and makes its
// main(String[]) the entry; without it, every class of the class path (not the JDK's) is a
// root; `scope_choices` adds more. InputError for a missing main class or method, and for bad
// classes unless skipped. With `cache`, the JDK's start-up part comes from the cached facts
// (cli/jdk_facts_cache.hpp) or goes into them; its status says which.
std::unique_ptr<ExtractedProgram> extract_program(const ClassPathArguments& class_path,
                                                  const std::optional<std::string>& main_class,
                                                  std::ostream* progress,
                                                  const ScopeChoices& scope_choices = {},
                                                  JdkFactsCache* cache = nullptr);

// The JDK's start-up part alone: the classes that the JVM's start-up (java.lang.System,
// Thread, ThreadGroup, String, Class, Object) reaches, the JVM's own objects, and no entry
// method. Every extract_program with a main class over the same JDK numbers these elements
// alike, first, and its facts hold these tuples (more may name them: an array type the
// program adds is a subtype of theirs). Empty facts when the class path has no JDK.
std::unique_ptr<ExtractedProgram> extract_jdk_part(const ClassPathArguments& class_path,
                                                   std::ostream* progress,
                                                   JdkFactsCache* cache = nullptr);

// "a.b.C" -> "a/b/C".
std::string internal_class_name(std::string binary_name);

}  // namespace refract::cli
