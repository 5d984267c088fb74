// Which classes a run of `refract facts` reads: every class reachable by name from the roots
// (the main class, or every class of the class path under --all), following superclasses,
// superinterfaces and every class a method body names (types it allocates, casts to or
// catches, owners and descriptor types of the fields and methods it uses, lambda interfaces
// and implementations). Classes are read as the walk reaches them; a name that is not on the
// class path is a phantom of the hierarchy, listed with the methods that referred to it.
// Optionally (set_string_classes), a string constant of the code that is the binary name of a
// class on the class path names that class too: a closed world for reflection. Only the
// application's code may count (StringClasses::kApplicationCode): the JDK's own code holds
// thousands of class names its reflection uses, which would double the JDK read.
#pragma once

#include <functional>
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "frontend/hierarchy.hpp"
#include "frontend/ir.hpp"

namespace refract::frontend {

// Every class `ir` names, in internal form ("a/B"; arrays by their element class), each once.
std::vector<std::string> classes_named_by(const MethodIr& ir);
// The string constants (ldc) of `ir` that can be binary class names ("a.b.C$D"), in internal
// form ("a/b/C$D"), each once: the classes they name if the class path has them.
std::vector<std::string> class_names_in_strings(const MethodIr& ir);

// Whose string constants name classes (ProgramScope::set_string_classes).
enum class StringClasses {
  kNone,
  kApplicationCode,  // strings in classes of the class path that are not the JDK's
  kAllCode,
};

class ProgramScope {
 public:
  using Visitor = std::function<void(const ClassFile&, const std::vector<MethodIr>&)>;

  // With `skip_bad_classes`, a class that fails to parse or translate is listed in skipped()
  // and left out; otherwise its error (an InputError naming file and offset) ends the walk.
  ProgramScope(ClassHierarchy& hierarchy, bool skip_bad_classes);

  void add_root(std::string internal_name);
  // A root walked after everything the other roots reach, with the JDK sealed
  // (ClassHierarchy::seal_jdk): the JDK classes only late roots name are phantoms. For
  // reflection's closed world of every application class (`--closed-world application`),
  // without the thousands of JDK classes code the main class never reaches names (antlr's
  // debugging GUI names Swing's).
  void add_late_root(std::string internal_name);
  // Also read the classes of the class path that string constants name
  // (class_names_in_strings) in the code `which` says; a string naming no class makes no
  // phantom. kNone by default.
  void set_string_classes(StringClasses which) { string_classes_ = which; }
  // Walks breadth first from the roots; `visit` sees each class once with the IR of all its
  // methods. `progress` (may be null) gets a line every 1,000 classes. May be called again
  // after adding roots: it then walks only what those reach that no earlier walk did, so the
  // classes of the first walk (the JDK's start-up, cli/program_facts.cpp) come first whatever
  // the later roots are.
  void run(const Visitor& visit, std::ostream* progress);
  // As run, but leaves the late roots for a later run: the JDK is not sealed yet, so roots
  // added after it may still be JDK classes (the providers of the JDK's modules,
  // cli/program_facts.cpp).
  void run_before_late_roots(const Visitor& visit, std::ostream* progress) {
    walk(visit, progress);
  }

  std::size_t visited() const { return visited_; }
  // Every class the walks have queued, in the order they were queued: the classes read, and
  // the phantoms and untranslated classes among them.
  const std::vector<std::string>& queued() const { return queue_; }
  // Goes on as a scope would whose walks read `classes` (another scope's queued(), every one
  // read): they are not read again. std::logic_error unless this scope is fresh.
  void resume_after(const std::vector<std::string>& classes);
  // Classes left out under skip_bad_classes: the hierarchy's parse failures, then the
  // classes whose methods did not translate.
  std::vector<SkippedClass> skipped() const;

 private:
  void enqueue(std::string_view name, std::string_view referrer);
  // Reads the queue from next_ until it is empty.
  void walk(const Visitor& visit, std::ostream* progress);
  void enqueue_if_on_class_path(const std::string& name, std::string_view referrer);

  ClassHierarchy& hierarchy_;
  bool skip_bad_classes_;
  StringClasses string_classes_ = StringClasses::kNone;
  std::vector<std::string> queue_;
  std::size_t next_ = 0;  // the first class of queue_ no walk has read
  std::vector<std::string> late_roots_;
  std::set<std::string, std::less<>> seen_;
  std::set<std::string, std::less<>> phantoms_;
  std::set<std::string, std::less<>> not_on_class_path_;  // strings that name no class
  std::size_t visited_ = 0;
  std::vector<SkippedClass> untranslated_;
};

}  // namespace refract::frontend
