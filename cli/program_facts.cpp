#include "cli/program_facts.hpp"

#include "frontend/names.hpp"
#include "frontend/program_scope.hpp"
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

}  // namespace

std::string internal_class_name(std::string binary_name) {
  for (char& c : binary_name) {
    if (c == '.') c = '/';
  }
  return binary_name;
}

std::unique_ptr<ExtractedProgram> extract_program(const ClassPathArguments& class_path,
                                                  const std::optional<std::string>& main_class,
                                                  std::ostream* progress,
                                                  const ScopeChoices& scope_choices) {
  auto program = std::make_unique<ExtractedProgram>();
  program->path = std::make_unique<frontend::ClassPath>(open_class_path(class_path));
  program->hierarchy = std::make_unique<frontend::ClassHierarchy>(*program->path);
  frontend::ProgramScope scope(*program->hierarchy, class_path.skip_bad_classes);
  scope.set_string_classes(scope_choices.string_classes);
  program->extractor = std::make_unique<frontend::FactExtractor>(*program->hierarchy);
  if (main_class) {
    program->extractor->add_entry(main_method(*program->hierarchy, *main_class));
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
  scope.run(
      [&](const frontend::ClassFile& cls, const std::vector<frontend::MethodIr>& methods) {
        program->extractor->add_class(cls, methods);
        if (const auto module = program->path->jdk_module_access(cls.this_class)) {
          program->extractor->add_module_access(cls, *module);
        }
      },
      progress);
  program->extractor->finish();
  program->skipped = scope.skipped();
  return program;
}

}  // namespace refract::cli
