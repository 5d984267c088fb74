#include "cli/program_facts.hpp"

#include <algorithm>
#include <set>

#include "cli/jdk_facts_cache.hpp"
#include "frontend/names.hpp"
#include "frontend/program_scope.hpp"
#include "reflection/service_providers.hpp"
#include "support/error.hpp"

namespace refract::cli {

namespace {

// The entry point of --main: public static void main(String[]) of the class itself.
std::string main_method(frontend::ClassHierarchy& hierarchy, const std::string& main_class) {
  const std::string name = internal_class_name(main_class);
  const frontend::ClassFile* cls = hierarchy.find(name);
  if (cls == nullptr) {
    // Under --skip-bad-classes a main class that failed to parse is absent too: say why.
    for (const frontend::SkippedClass& s : hierarchy.skipped_classes()) {
      if (s.name == name) {
        throw InputError({"--main"}, "class " + main_class + " cannot be read: " + s.message);
      }
    }
    throw InputError({"--main"}, "class " + main_class + " is not on the class path");
  }
  for (const frontend::MethodInfo& m : cls->methods) {
    if (m.name == "main" && m.descriptor == "([Ljava/lang/String;)V" &&
        (m.access_flags & frontend::access::kStatic) != 0) {
      return frontend::soot_method_signature(name, m.name, m.descriptor);
    }
  }
  throw InputError({"--main"}, "class " + main_class + " has no static main(String[]) method");
}

// The providers of every META-INF/services file of the class path into `program`; a provider
// the class path does not have is a warning, as a malformed line is.
void read_service_providers(ExtractedProgram& program) {
  for (const frontend::ServiceFile& file : program.path->service_files()) {
    const std::string text(file.bytes.begin(), file.bytes.end());
    frontend::ServiceProviders read = frontend::parse_service_file(file.service, text, file.origin);
    for (frontend::ServiceWarning& w : read.warnings)
      program.service_warnings.push_back(std::move(w));
    for (frontend::ServiceProvider& p : read.providers) {
      if (!program.path->contains(internal_class_name(p.provider))) {
        program.service_warnings.push_back(
            {p.where, "provider " + p.provider + " of " + p.service +
                          " is not on the class path; ServiceLoader would fail on it, it is "
                          "ignored"});
        continue;
      }
      program.service_providers.push_back(std::move(p));
    }
  }
}

// The classes the JVM's start-up initialises or calls into (pointsto/rules/startup.datalog),
// java.lang.Object above them all: what these reach is the JDK's part of every program's facts.
const std::vector<std::string>& jdk_start_up_classes() {
  static const std::vector<std::string> classes = {"java/lang/Object",      "java/lang/String",
                                                   "java/lang/System",      "java/lang/Class",
                                                   "java/lang/ThreadGroup", "java/lang/Thread"};
  return classes;
}

// The program's class path, hierarchy and extractor, before any class is read.
std::unique_ptr<ExtractedProgram> open_program(const ClassPathArguments& class_path) {
  auto program = std::make_unique<ExtractedProgram>();
  program->path = std::make_unique<frontend::ClassPath>(open_class_path(class_path));
  program->hierarchy = std::make_unique<frontend::ClassHierarchy>(*program->path);
  program->extractor = std::make_unique<frontend::FactExtractor>(*program->hierarchy);
  return program;
}

frontend::ProgramScope::Visitor class_visitor(ExtractedProgram& program) {
  return
      [&program](const frontend::ClassFile& cls, const std::vector<frontend::MethodIr>& methods) {
        program.extractor->add_class(cls, methods);
        if (const auto module = program.path->jdk_module_access(cls.this_class)) {
          program.extractor->add_module_access(cls, *module);
        }
      };
}

// With `read`, the providers the JDK's modules declare for the services whose class literal the
// code read so far gives ServiceLoader (reflection::services_given_to_service_loader), read as
// roots, again until the newly read code gives it no further service; the others, unread. Every
// service named, or every class literal, read 68 of JDK 17's providers on antlr and tripled its
// classes. A service only the late roots (ScopeChoices::application_classes) give is left out, as
// the JDK classes they alone name are.
void read_module_providers(ExtractedProgram& program, frontend::ProgramScope& scope,
                           std::ostream* progress, bool read) {
  std::vector<frontend::ModuleProvider> pending = program.path->jdk_module_providers();
  for (bool added = read; added;) {
    added = false;
    const std::set<std::string> loaded =
        reflection::services_given_to_service_loader(program.extractor->facts());
    std::vector<frontend::ModuleProvider> rest;
    for (frontend::ModuleProvider& p : pending) {
      if (loaded.count(frontend::soot_class_name(p.service)) == 0) {
        rest.push_back(std::move(p));
        continue;
      }
      scope.add_root(p.provider);
      program.module_providers.push_back(std::move(p));
      added = true;
    }
    pending = std::move(rest);
    if (added) scope.run_before_late_roots(class_visitor(program), progress);
  }
  program.unread_module_providers = std::move(pending);
}

// Reads the JDK's start-up part when the class path has a JDK: its classes, the JVM's own
// objects, what finish() adds for them; then marks it (FactDatabase::mark_jdk_part). With
// `cache`, from the cached facts when they are there, else into them.
void read_jdk_part(ExtractedProgram& program, frontend::ProgramScope& scope, std::ostream* progress,
                   JdkFactsCache* cache) {
  if (std::none_of(jdk_start_up_classes().begin(), jdk_start_up_classes().end(),
                   [&](const std::string& name) { return program.path->in_jdk(name); })) {
    if (cache) cache->status = "off: the class path has no JDK";
    return;
  }
  if (cache && resume_jdk_part(*cache, program, scope, progress)) return;
  for (const std::string& name : jdk_start_up_classes())
    if (program.path->in_jdk(name)) scope.add_root(name);
  scope.run(class_visitor(program), progress);
  program.extractor->add_jvm_objects();
  program.extractor->finish();
  program.extractor->mark_jdk_part();
  if (cache) save_jdk_part(*cache, program, scope);
}

}  // namespace

std::string internal_class_name(std::string binary_name) {
  for (char& c : binary_name) {
    if (c == '.') c = '/';
  }
  return binary_name;
}

std::unique_ptr<ExtractedProgram> extract_jdk_part(const ClassPathArguments& class_path,
                                                   std::ostream* progress, JdkFactsCache* cache) {
  std::unique_ptr<ExtractedProgram> program = open_program(class_path);
  frontend::ProgramScope scope(*program->hierarchy, class_path.skip_bad_classes);
  read_jdk_part(*program, scope, progress, cache);
  program->skipped = scope.skipped();
  return program;
}

std::unique_ptr<ExtractedProgram> extract_program(const ClassPathArguments& class_path,
                                                  const std::optional<std::string>& main_class,
                                                  std::ostream* progress,
                                                  const ScopeChoices& scope_choices,
                                                  JdkFactsCache* cache) {
  std::unique_ptr<ExtractedProgram> program = open_program(class_path);
  frontend::ProgramScope scope(*program->hierarchy, class_path.skip_bad_classes);
  scope.set_string_classes(scope_choices.string_classes);
  if (main_class) {
    // The JDK's start-up part first, numbered alike for every program (issue 35's stable
    // numbers): what the program adds comes after it.
    const std::string entry = main_method(*program->hierarchy, *main_class);
    // Strings of the JDK's code naming classes make its part depend on the class path.
    if (cache && scope_choices.string_classes == frontend::StringClasses::kAllCode) {
      cache->status = "off: the strings of the JDK's code name classes (--string-classes)";
      cache = nullptr;
    }
    read_jdk_part(*program, scope, progress, cache);
    program->extractor->add_entry(entry);
    scope.add_root(internal_class_name(*main_class));
  }
  if (!main_class) {
    for (const std::string& name : program->path->class_names(false)) scope.add_root(name);
  } else if (scope_choices.application_classes) {
    for (const std::string& name : program->path->class_names(false)) scope.add_late_root(name);
  }
  for (const std::string& name : scope_choices.extra_roots)
    if (program->path->contains(name)) scope.add_root(name);
  if (scope_choices.service_providers) {
    read_service_providers(*program);
    for (const frontend::ServiceProvider& p : program->service_providers)
      scope.add_root(internal_class_name(p.provider));
  }
  if (scope_choices.service_providers) {
    // before the late roots seal the JDK: the providers are the JDK's classes
    scope.run_before_late_roots(class_visitor(*program), progress);
    read_module_providers(*program, scope, progress, scope_choices.jdk_providers);
  }
  scope.run(class_visitor(*program), progress);
  program->extractor->finish();
  program->skipped = scope.skipped();
  return program;
}

}  // namespace refract::cli
