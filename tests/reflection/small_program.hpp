// A fact database built by hand with the front end's schema: a few callers with calls of the
// reflection API, resolved the ways the front end resolves calls, and the source lines of the
// sites. Shared by the tests of reflective_targets and of bad input.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/fact_database.hpp"
#include "frontend/fact_extractor.hpp"
#include "frontend/fact_schema.hpp"
#include "frontend/names.hpp"
#include "reflection/reflective_targets.hpp"
#include "reflection/target_syntax.hpp"

namespace refract::reflection::test_program {

using frontend::FactDatabase;

inline const std::string kForName = "<java.lang.Class: java.lang.Class forName(java.lang.String)>";
inline const std::string kForName3 =
    "<java.lang.Class: java.lang.Class forName(java.lang.String,boolean,java.lang.ClassLoader)>";
inline const std::string kClassNewInstance = "<java.lang.Class: java.lang.Object newInstance()>";
inline const std::string kGetMethods = "<java.lang.Class: java.lang.reflect.Method[] getMethods()>";
inline const std::string kGetMethod =
    "<java.lang.Class: java.lang.reflect.Method getMethod(java.lang.String,java.lang.Class[])>";
inline const std::string kGetDeclaredField =
    "<java.lang.Class: java.lang.reflect.Field getDeclaredField(java.lang.String)>";
inline const std::string kInvoke =
    "<java.lang.reflect.Method: java.lang.Object invoke(java.lang.Object,java.lang.Object[])>";
inline const std::string kConstructorNewInstance =
    "<java.lang.reflect.Constructor: java.lang.Object newInstance(java.lang.Object[])>";
inline const std::string kGetInt = "<java.lang.reflect.Field: int getInt(java.lang.Object)>";
inline const std::string kFieldSet =
    "<java.lang.reflect.Field: void set(java.lang.Object,java.lang.Object)>";
inline const std::string kArrayNewInstance =
    "<java.lang.reflect.Array: java.lang.Object newInstance(java.lang.Class,int)>";
inline const std::string kLoadClass =
    "<java.lang.ClassLoader: java.lang.Class loadClass(java.lang.String)>";
inline const std::string kPrintln = "<java.io.PrintStream: void println(java.lang.String)>";

inline const std::string kMain = "<app.Main: void main(java.lang.String[])>";
inline const std::string kMainInt = "<app.Main: void main(int)>";
inline const std::string kInit = "<app.Main: void <init>()>";
inline const std::string kRunner =
    "<app.'to'.Runner: void 'with'()>";  // TamiFlex: app.to.Runner.with

inline const std::string kFooInit = "<app.Foo: void <init>()>";
inline const std::string kFooBar = "<app.Foo: int bar(java.lang.String)>";
inline const std::string kValues =
    "<java.lang.'annotation'.RetentionPolicy: java.lang.'annotation'.RetentionPolicy[] values()>";
inline const std::string kFooCount = "<app.Foo: int count>";
inline const std::string kFooFrom = "<app.Foo: java.lang.Object 'from'>";

enum class Call { kStatic, kVirtual, kSpecial, kUnresolved };

// The sites of SmallProgram::add_example_calls().
struct ExampleSites {
  std::uint64_t for_name0, for_name1, for_name_int, array, get_methods, get_method,
      get_declared_field, println, constructor, class_new, invoke, get_int, set;
};

// A fact database with the front end's schema, and the positions of its sites.
class SmallProgram {
 public:
  SmallProgram() : db_(frontend::make_fact_schema()) {
    for (const char* t :
         {"app.Foo", "app.Main", "int", "int[]", "java.lang.annotation.RetentionPolicy"})
      db_.domain("T").intern(t);
    for (const std::string& m : {kFooInit, kFooBar, kValues}) db_.domain("M").intern(m);
    for (const std::string& f : {kFooCount, kFooFrom}) db_.domain("F").intern(f);
  }

  // A call in `caller` naming `declared`, resolved to `resolved` (`declared` when empty).
  std::uint64_t call(const std::string& caller, std::string_view decl, std::string_view name,
                     unsigned n, const std::string& declared, Call how,
                     std::optional<std::uint32_t> line, std::string resolved = "") {
    if (resolved.empty()) resolved = declared;
    const std::uint64_t site =
        db_.domain("I").intern(frontend::invocation_site_name(caller, decl, name, n));
    const std::uint64_t in = db_.domain("M").intern(caller);
    const std::uint64_t named = db_.domain("M").intern(declared);
    const std::uint64_t target = db_.domain("M").intern(resolved);
    const std::uint64_t base = db_.domain("V").intern(caller + "/r" + std::to_string(site));
    const std::uint64_t declaring =
        db_.domain("T").intern(parse_member_signature(caller).declaring_class);
    db_.relation("MethodDeclared").add({in, declaring});
    db_.relation("CallIn").add({site, in});
    db_.relation("DeclaredTarget").add({site, named});
    switch (how) {
      case Call::kStatic:
        db_.relation("StaticCall").add({site, target});
        break;
      case Call::kVirtual:
        db_.relation("VirtualCall").add({site, base, target});
        break;
      case Call::kSpecial:
        db_.relation("SpecialCall").add({site, base, target});
        break;
      case Call::kUnresolved:
        break;
    }
    positions_.resize(site + 1);
    positions_[site].line = line;
    return site;
  }

  // Calls of the API in app.Main.main(String[]) (three forName on lines 10, 12 and, in the
  // main(int) overload, 30; Array.newInstance, getMethods, getMethod, getDeclaredField, and a
  // println that is no API call), app.Main.<init> (Constructor.newInstance, Class.newInstance)
  // and app.'to'.Runner.'with' (Method.invoke, Field.getInt, Field.set).
  ExampleSites add_example_calls() {
    ExampleSites s{};
    s.for_name0 = call(kMain, "java/lang/Class", "forName", 0, kForName, Call::kStatic, 10);
    s.for_name1 = call(kMain, "java/lang/Class", "forName", 1, kForName3, Call::kStatic, 12);
    s.for_name_int = call(kMainInt, "java/lang/Class", "forName", 0, kForName, Call::kStatic, 30);
    s.array = call(kMain, "java/lang/reflect/Array", "newInstance", 0, kArrayNewInstance,
                   Call::kStatic, 14);
    s.get_methods =
        call(kMain, "java/lang/Class", "getMethods", 0, kGetMethods, Call::kVirtual, 15);
    s.get_method = call(kMain, "java/lang/Class", "getMethod", 0, kGetMethod, Call::kVirtual, 16);
    s.get_declared_field = call(kMain, "java/lang/Class", "getDeclaredField", 0, kGetDeclaredField,
                                Call::kVirtual, 17);
    s.println = call(kMain, "java/io/PrintStream", "println", 0, kPrintln, Call::kVirtual, 18);
    s.constructor = call(kInit, "java/lang/reflect/Constructor", "newInstance", 0,
                         kConstructorNewInstance, Call::kVirtual, 20);
    s.class_new =
        call(kInit, "java/lang/Class", "newInstance", 0, kClassNewInstance, Call::kVirtual, 21);
    s.invoke = call(kRunner, "java/lang/reflect/Method", "invoke", 0, kInvoke, Call::kVirtual, 5);
    s.get_int = call(kRunner, "java/lang/reflect/Field", "getInt", 0, kGetInt, Call::kVirtual, 6);
    s.set = call(kRunner, "java/lang/reflect/Field", "set", 0, kFieldSet, Call::kVirtual, 7);
    return s;
  }

  FactDatabase& db() { return db_; }
  std::uint64_t element(std::string_view domain, std::string_view name) const {
    return db_.domain(domain).at(name);
  }

  LoggedTargets resolve(std::string_view log) const {
    return resolve_entries(parse_tamiflex_log(log, "refl.log"));
  }
  LoggedTargets resolve_entries(const std::vector<LogEntry>& entries) const {
    return resolve_log(db_, positions_, entries);
  }
  AnnotatedTargets annotate(const std::string& text) const {
    const auto annotations = parse_annotations(text, "notes.txt");
    return resolve_annotations(db_, annotations);
  }

 private:
  FactDatabase db_;
  std::vector<frontend::InvocationPosition> positions_;
};

}  // namespace refract::reflection::test_program
