#include "frontend/program_scope.hpp"

#include <ostream>
#include <stdexcept>

#include "frontend/fact_extractor.hpp"
#include "frontend/format_error.hpp"
#include "frontend/ir_builder.hpp"
#include "frontend/names.hpp"

namespace refract::frontend {

namespace {

void add_type(const JavaType& t, std::set<std::string>& out) {
  if (t.base == BaseKind::kReference) out.insert(internal_name(JavaType::object(t.class_name)));
}

void add_descriptor(const MethodDescriptor& d, std::set<std::string>& out) {
  for (const JavaType& p : d.parameters) add_type(p, out);
  add_type(d.return_type, out);
}

}  // namespace

std::vector<std::string> classes_named_by(const MethodIr& ir) {
  std::set<std::string> out;
  for (const JavaType& t : ir.types) add_type(t, out);
  for (const FieldRef& f : ir.fields) {
    add_type(f.owner, out);
    add_type(f.type, out);
  }
  for (const MethodRef& m : ir.methods) {
    add_type(m.owner, out);
    add_descriptor(m.signature, out);
  }
  for (const MethodHandleInfo& h : ir.method_handles) add_type(h.owner, out);
  for (const LambdaInfo& l : ir.lambdas) {
    add_type(l.interface_type, out);
    add_type(l.implementation.owner, out);
    for (const JavaType& marker : l.marker_interfaces) add_type(marker, out);
  }
  for (const CatchClause& c : ir.catches) {
    for (const JavaType& t : c.types) add_type(t, out);
  }
  return {out.begin(), out.end()};
}

namespace {

// Whether `text` can be a binary class name with dots: identifiers separated by single dots,
// none holding a character JVMS 4.2.2 forbids in an unqualified name ('.', ';', '[', '/').
bool may_be_binary_name(std::string_view text) {
  if (text.empty() || text.front() == '.' || text.back() == '.') return false;
  char previous = 0;
  for (const char c : text) {
    if (c == '/' || c == ';' || c == '[') return false;
    if (c == '.' && previous == '.') return false;
    previous = c;
  }
  return true;
}

}  // namespace

std::vector<std::string> class_names_in_strings(const MethodIr& ir) {
  std::set<std::string> out;
  for (const Statement& s : ir.statements) {
    if (s.kind != StatementKind::kStringConstant) continue;
    const std::string& text = ir.strings[s.payload];
    if (!may_be_binary_name(text)) continue;
    std::string name = text;
    for (char& c : name) {
      if (c == '.') c = '/';
    }
    out.insert(std::move(name));
  }
  return {out.begin(), out.end()};
}

ProgramScope::ProgramScope(ClassHierarchy& hierarchy, bool skip_bad_classes)
    : hierarchy_(hierarchy), skip_bad_classes_(skip_bad_classes) {
  hierarchy_.set_skip_bad_classes(skip_bad_classes);
}

void ProgramScope::add_root(std::string internal_name) {
  enqueue(internal_name, {});
}

void ProgramScope::add_late_root(std::string internal_name) {
  late_roots_.push_back(std::move(internal_name));
}

void ProgramScope::enqueue(std::string_view name, std::string_view referrer) {
  if (phantoms_.count(name) != 0) {
    hierarchy_.note_reference(name, referrer);  // every referrer of a phantom is listed
    return;
  }
  if (!seen_.emplace(name).second) return;
  if (!referrer.empty() && hierarchy_.note_reference(name, referrer)) {
    phantoms_.emplace(name);
    return;
  }
  queue_.emplace_back(name);
}

// Asking the hierarchy would make a phantom of a string that names nothing; the class path
// is asked once per string.
void ProgramScope::enqueue_if_on_class_path(const std::string& name, std::string_view referrer) {
  if (seen_.count(name) != 0 || not_on_class_path_.count(name) != 0) return;
  if (!hierarchy_.class_path().contains(name)) {
    not_on_class_path_.insert(name);
    return;
  }
  enqueue(name, referrer);
}

void ProgramScope::run(const Visitor& visit, std::ostream* progress) {
  walk(visit, progress);
  if (late_roots_.empty()) return;
  hierarchy_.seal_jdk();
  for (const std::string& name : late_roots_) enqueue(name, {});
  late_roots_.clear();
  walk(visit, progress);
}

void ProgramScope::walk(const Visitor& visit, std::ostream* progress) {
  for (; next_ < queue_.size(); ++next_) {
    const std::string name = queue_[next_];
    const ClassFile* cls = hierarchy_.find(name);
    if (cls == nullptr) {
      hierarchy_.note_reference(name, "(root)");
      continue;
    }
    std::vector<MethodIr> methods;
    try {
      for (const MethodInfo& method : cls->methods)
        methods.push_back(build_method_ir(*cls, method));
    } catch (const ClassFormatError& e) {
      if (!skip_bad_classes_) throw;
      untranslated_.push_back({name, e.what()});
      continue;
    }
    ++visited_;
    if (cls->super_class) enqueue(*cls->super_class, cls->this_class);
    for (const std::string& i : cls->interfaces) enqueue(i, cls->this_class);
    const bool strings_name_classes = string_classes_ == StringClasses::kAllCode ||
                                      (string_classes_ == StringClasses::kApplicationCode &&
                                       !hierarchy_.class_path().in_jdk(cls->this_class));
    for (const MethodIr& ir : methods) {
      const std::string referrer = soot_method_signature(cls->this_class, ir.name, ir.signature);
      for (const std::string& named : classes_named_by(ir)) enqueue(named, referrer);
      if (!strings_name_classes) continue;
      for (const std::string& named : class_names_in_strings(ir)) {
        enqueue_if_on_class_path(named, referrer);
      }
    }
    visit(*cls, methods);
    if (progress != nullptr && visited_ % 1000 == 0) {
      *progress << "[facts] " << visited_ << " classes read, " << queue_.size() - next_ - 1
                << " queued, " << hierarchy_.phantom_count() << " phantoms\n";
    }
  }
}

void ProgramScope::resume_after(const std::vector<std::string>& classes) {
  if (!queue_.empty() || !late_roots_.empty()) {
    throw std::logic_error("only a fresh scope resumes after another's walk");
  }
  queue_ = classes;
  seen_.insert(classes.begin(), classes.end());
  next_ = visited_ = queue_.size();
}

std::vector<SkippedClass> ProgramScope::skipped() const {
  std::vector<SkippedClass> all = hierarchy_.skipped_classes();
  all.insert(all.end(), untranslated_.begin(), untranslated_.end());
  return all;
}

}  // namespace refract::frontend
