// Log entries and annotations resolved against a small fact database built by hand: a few
// callers with calls of the reflection API, resolved the ways the front end resolves them.
#include "reflection/reflective_targets.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "cli/run_refract.hpp"
#include "frontend/names.hpp"
#include "reflection/small_program.hpp"

namespace refract::reflection {
namespace {

using frontend::FactDatabase;
using namespace test_program;

class ReflectiveTargetsTest : public ::testing::Test {
 protected:
  ReflectiveTargetsTest() : s(p.add_example_calls()) {}

  std::uint64_t type(std::string_view name) const { return p.element("T", name); }
  std::uint64_t method(std::string_view name) const { return p.element("M", name); }
  std::uint64_t field(std::string_view name) const { return p.element("F", name); }
  // The message of the InputError resolving `text` throws, and where it points.
  std::string annotation_error(const std::string& text, SourceLocation* where) const {
    try {
      p.annotate(text);
    } catch (const InputError& e) {
      *where = e.where();
      return e.message();
    }
    return "";
  }

  SmallProgram p;
  ExampleSites s;
};

using Tuples = std::vector<SiteTarget>;

TEST_F(ReflectiveTargetsTest, ForNameWithoutLineGoesToEverySiteOfEveryOverload) {
  const LoggedTargets t = p.resolve("Class.forName;app.Foo;app.Main.main;;;1\n");
  EXPECT_EQ(t.classes, (Tuples{{s.for_name0, type("app.Foo")},
                               {s.for_name1, type("app.Foo")},
                               {s.for_name_int, type("app.Foo")}}));
  EXPECT_EQ(t.matched_entries, 1u);
  EXPECT_TRUE(t.unmatched.empty());
}

TEST_F(ReflectiveTargetsTest, LineNarrowsToTheSitesOnItWhenThereAreAny) {
  EXPECT_EQ(p.resolve("Class.forName;app.Foo;app.Main.main;12;;1\n").classes,
            (Tuples{{s.for_name1, type("app.Foo")}}));
  EXPECT_EQ(p.resolve("Class.forName;app.Foo;app.Main.main;30;;1\n").classes,
            (Tuples{{s.for_name_int, type("app.Foo")}}));
  // No site on line 99: every site of the kind in the CALLER methods.
  EXPECT_EQ(p.resolve("Class.forName;app.Foo;app.Main.main;99;;1\n").classes.size(), 3u);
}

TEST_F(ReflectiveTargetsTest, EachKindGoesToItsRelation) {
  const LoggedTargets t = p.resolve(
      "Array.newInstance;int[];app.Main.main;14;;1\n"
      "Class.getMethods;app.Foo;app.Main.main;15;;\n"
      "Class.getMethod;<app.Foo: int bar(java.lang.String)>;app.Main.main;16;isAccessible=false;1\n"
      "Class.getDeclaredField;<app.Foo: int count>;app.Main.main;;isAccessible=false;1\n"
      "Constructor.newInstance;<app.Foo: void <init>()>;app.Main.<init>;20;isAccessible=true;1\n"
      "Class.newInstance;app.Foo;app.Main.<init>;21;;1\n"
      "Method.invoke;<java.lang.annotation.RetentionPolicy: "
      "java.lang.annotation.RetentionPolicy[] values()>;app.to.Runner.with;5;isAccessible=true;1\n"
      "Field.get*;<app.Foo: int count>;app.to.Runner.with;6;;1\n"
      "Field.set*;<app.Foo: java.lang.Object from>;app.to.Runner.with;7;;\n");
  // Array.newInstance: TARGET the array created, the element its component type.
  EXPECT_EQ(t.classes, (Tuples{{s.array, type("int")},
                               {s.get_methods, type("app.Foo")},
                               {s.class_new, type("app.Foo")}}));
  EXPECT_EQ(t.methods, (Tuples{{s.get_method, method(kFooBar)},
                               {s.constructor, method(kFooInit)},
                               {s.invoke, method(kValues)}}));
  EXPECT_EQ(t.fields, (Tuples{{s.get_declared_field, field(kFooCount)},
                              {s.get_int, field(kFooCount)},
                              {s.set, field(kFooFrom)}}));
  EXPECT_EQ(t.matched_entries, 9u);
  EXPECT_TRUE(t.unmatched.empty());
  EXPECT_TRUE(t.skipped_kinds.empty());
}

TEST_F(ReflectiveTargetsTest, WhatDoesNotMatchIsListedWithItsReason) {
  const LoggedTargets t = p.resolve(
      "Class.forName;app.Foo;app.Gone.main;3;;1\n"
      "Method.invoke;<app.Foo: int bar(java.lang.String)>;app.Main.main;3;;1\n"
      "Class.newInstance;jdk.proxy1.$Proxy0;app.Main.<init>;21;;1\n"
      "Method.invoke;<app.Gone: void m()>;app.to.Runner.with;5;;1\n"
      // app.Foo.bar is an M element (a target) but no method of a class read.
      "Class.forName;app.Foo;app.Foo.bar;;;1\n"
      // checkstyle/refl.log: the JDK making a lambda object, seen from the lambda's method.
      "Constructor.newInstance;<app.Main$$Lambda$121: void <init>()>;app.Main.main;14;"
      "isAccessible=true;1\n");
  EXPECT_TRUE(t.classes.empty());
  EXPECT_TRUE(t.methods.empty());
  EXPECT_EQ(t.matched_entries, 0u);
  ASSERT_EQ(t.unmatched.size(), 6u);
  EXPECT_EQ(t.unmatched[0].reason, UnmatchedReason::kCallerNotInFacts);
  EXPECT_EQ(t.unmatched[0].detail, "no method app.Gone.main in the facts");
  EXPECT_EQ(t.unmatched[0].entry.where.line, 1u);
  EXPECT_EQ(t.unmatched[1].reason, UnmatchedReason::kNoSiteOfKind);
  EXPECT_EQ(t.unmatched[1].detail, "no Method.invoke call in app.Main.main");
  EXPECT_EQ(t.unmatched[2].reason, UnmatchedReason::kTargetNotInFacts);
  EXPECT_EQ(t.unmatched[2].detail, "T element jdk.proxy1.$Proxy0 is not in the facts");
  EXPECT_EQ(t.unmatched[3].reason, UnmatchedReason::kTargetNotInFacts);
  EXPECT_EQ(t.unmatched[4].reason, UnmatchedReason::kCallerNotInFacts);
  EXPECT_EQ(t.unmatched[5].reason, UnmatchedReason::kNoSiteOfKind);
  EXPECT_NE(t.unmatched[5].detail.find("LambdaMetafactory"), std::string::npos);
}

TEST_F(ReflectiveTargetsTest, KindsTheAnalysisDoesNotTakeAreCounted) {
  const LoggedTargets t = p.resolve(
      "Method.getName;<app.Foo: int bar(java.lang.String)>;app.Main.main;;isAccessible=false;3\n"
      "Method.getName;<app.Foo: void <init>()>;app.Main.main;;isAccessible=false;3\n"
      "Proxy.newProxyInstance;app.Foo;app.Main.main;;;\n");
  EXPECT_EQ(t.skipped_kinds, (std::map<std::string, std::size_t, std::less<>>{
                                 {"Method.getName", 2}, {"Proxy.newProxyInstance", 1}}));
  EXPECT_TRUE(t.unmatched.empty());
  EXPECT_EQ(t.matched_entries, 0u);
}

TEST_F(ReflectiveTargetsTest, SiteKindIsTheResolvedTargetsThenTheNamedOne) {
  // Named through a subclass that inherits loadClass: the resolved method is the API's.
  const std::uint64_t inherited =
      p.call(kMain, "app/MyLoader", "loadClass", 0,
             "<app.MyLoader: java.lang.Class loadClass(java.lang.String)>", Call::kVirtual, 40,
             kLoadClass);
  // Named as the API's but resolved to an override: not an API call.
  p.call(kMainInt, "java/lang/ClassLoader", "loadClass", 0, kLoadClass, Call::kVirtual, 41,
         "<app.MyLoader: java.lang.Class loadClass(java.lang.String)>");
  // Unresolved (a phantom java.lang.Class): the named method decides.
  const std::uint64_t unresolved =
      p.call(kInit, "java/lang/Class", "forName", 0, kForName, Call::kUnresolved, 42);
  const LoggedTargets t = p.resolve(
      "ClassLoader.loadClass;app.Foo;app.Main.main;;;\n"
      "Class.forName;app.Foo;app.Main.<init>;;;\n");
  EXPECT_EQ(t.classes, (Tuples{{inherited, type("app.Foo")}, {unresolved, type("app.Foo")}}));
}

TEST_F(ReflectiveTargetsTest, AnnotationsResolveToTheirRelations) {
  auto site = [](const std::string& caller, std::string_view decl, std::string_view name) {
    return frontend::invocation_site_name(caller, decl, name, 0);
  };
  const AnnotatedTargets t = p.annotate(
      "# all kinds\n" + site(kMain, "java/lang/Class", "forName") + "\tnever\n" +
      site(kMain, "java/lang/Class", "forName") + "\tclass\tapp.Foo\n" +
      site(kMain, "java/lang/Class", "getMethod") + "\tclass\tapp.Main\n" +
      site(kMain, "java/lang/Class", "getMethod") +
      "\tmethod\t<app.Foo: int bar(java.lang.String)>\n" +
      // Unquoted as a user would write it from the source.
      "<app.to.Runner: void with()>/java.lang.reflect.Method.invoke/0\tmethod\t"
      "<java.lang.annotation.RetentionPolicy: java.lang.annotation.RetentionPolicy[] values()>\n" +
      site(kInit, "java/lang/Class", "newInstance") + "\tconstructor\t<app.Foo: void <init>()>\n" +
      site(kRunner, "java/lang/reflect/Field", "set") +
      "\tfield\t<app.Foo: java.lang.Object from>\n" +
      site(kMain, "java/lang/reflect/Array", "newInstance") + "\tclass\tint[]\n");
  EXPECT_EQ(t.never, (std::vector<std::uint64_t>{s.for_name0}));
  EXPECT_EQ(t.classes, (Tuples{{s.for_name0, type("app.Foo")},
                               {s.array, type("int")},
                               {s.get_method, type("app.Main")}}));
  EXPECT_EQ(t.methods, (Tuples{{s.get_method, method(kFooBar)},
                               {s.class_new, method(kFooInit)},
                               {s.invoke, method(kValues)}}));
  EXPECT_EQ(t.fields, (Tuples{{s.set, field(kFooFrom)}}));
}

// The rules make an array object of its array type, which the facts hold only where the
// program names it (app.Foo[] here is not): such a line is listed, never taken and dropped.
TEST_F(ReflectiveTargetsTest, AnArrayTypeTheFactsLackIsListedNotTaken) {
  const LoggedTargets t = p.resolve(
      "Array.newInstance;app.Foo[];app.Main.main;14;;1\n"
      "Array.newInstance;int[];app.Main.main;14;;1\n");
  EXPECT_EQ(t.classes, (Tuples{{s.array, type("int")}}));
  ASSERT_EQ(t.unmatched.size(), 1u);
  EXPECT_EQ(t.unmatched[0].reason, UnmatchedReason::kTargetNotInFacts);
  EXPECT_EQ(t.unmatched[0].detail,
            "T element app.Foo[] is not in the facts: the program names no app.Foo[], so no such "
            "array can be made");
}

TEST_F(ReflectiveTargetsTest, AnnotationErrorsNameFileLineAndColumn) {
  const std::string for_name =
      frontend::invocation_site_name(kMain, "java/lang/Class", "forName", 0);
  SourceLocation where;
  const std::string missing =
      frontend::invocation_site_name(kMain, "java/lang/Class", "forName", 7);
  EXPECT_EQ(annotation_error("\n" + missing + "\tnever\n", &where),
            "no invocation site " + missing + " in the facts");
  EXPECT_EQ(where.to_string(), "notes.txt:2:1");

  const std::string print =
      frontend::invocation_site_name(kMain, "java/io/PrintStream", "println", 0);
  EXPECT_EQ(annotation_error(print + "\tnever\n", &where),
            "site " + print + " is no call of the reflection API");
  EXPECT_EQ(where.column, 1u);

  EXPECT_EQ(annotation_error(for_name + "\tfield\t<app.Foo: int count>\n", &where),
            "kind field does not fit a Class.forName site (it takes never, class)");
  EXPECT_EQ(where.column, for_name.size() + 2);

  EXPECT_EQ(annotation_error(for_name + "\tclass\tapp.Nope\n", &where),
            "class app.Nope is not in the facts");
  EXPECT_EQ(where.column, for_name.size() + 8);

  const std::string array_site =
      frontend::invocation_site_name(kMain, "java/lang/reflect/Array", "newInstance", 0);
  EXPECT_EQ(annotation_error(array_site + "\tclass\tint\n", &where),
            "an Array.newInstance site instantiates an array: TARGET is its type, int[] for an "
            "array of int");
  EXPECT_EQ(where.column, array_site.size() + 8);
  EXPECT_EQ(annotation_error(array_site + "\tclass\tapp.Foo[]\n", &where),
            "T element app.Foo[] is not in the facts: the program names no app.Foo[], so no such "
            "array can be made");
  EXPECT_EQ(where.column, array_site.size() + 8);

  const std::string invoke_site =
      frontend::invocation_site_name(kRunner, "java/lang/reflect/Method", "invoke", 0);
  EXPECT_EQ(annotation_error(invoke_site + "\tmethod\t<app.Foo: int baz()>\n", &where),
            "method <app.Foo: int baz()> is not in the facts");
  EXPECT_EQ(annotation_error(invoke_site + "\tconstructor\t<app.Foo: void <init>()>\n", &where),
            "kind constructor does not fit a Method.invoke site (it takes never, method)");
}

TEST_F(ReflectiveTargetsTest, RelationsAreDeclaredEvenWhenEmpty) {
  FactDatabase& db = p.db();
  add_reflective_target_relations(db, {}, {});
  const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>
      expected = {
          {"AnnotatedNever", {{"invoke", "I"}}},
          {"AnnotatedClass", {{"invoke", "I"}, {"type", "T"}}},
          {"AnnotatedMethod", {{"invoke", "I"}, {"method", "M"}}},
          {"AnnotatedField", {{"invoke", "I"}, {"field", "F"}}},
          {"LoggedClass", {{"invoke", "I"}, {"type", "T"}}},
          {"LoggedMethod", {{"invoke", "I"}, {"method", "M"}}},
          {"LoggedField", {{"invoke", "I"}, {"field", "F"}}},
      };
  for (const auto& [name, attributes] : expected) {
    const frontend::FactRelation& r = db.relation(name);
    ASSERT_EQ(r.arity(), attributes.size()) << name;
    for (std::size_t i = 0; i < attributes.size(); ++i) {
      EXPECT_EQ(r.attributes()[i].name, attributes[i].first) << name;
      EXPECT_EQ(r.attributes()[i].domain, attributes[i].second) << name;
    }
    EXPECT_EQ(r.raw_size(), 0u) << name;
  }
  EXPECT_THROW(add_reflective_target_relations(db, {}, {}), std::logic_error);
}

TEST_F(ReflectiveTargetsTest, RelationsHoldTheTuplesAndReachTheRuleFiles) {
  const LoggedTargets logged = p.resolve(
      "Class.forName;app.Foo;app.Main.main;10;;1\n"
      "Method.invoke;<java.lang.annotation.RetentionPolicy: "
      "java.lang.annotation.RetentionPolicy[] values()>;app.to.Runner.with;5;;1\n");
  const AnnotatedTargets annotated = p.annotate(
      frontend::invocation_site_name(kRunner, "java/lang/reflect/Field", "getInt", 0) +
      "\tfield\t<app.Foo: int count>\n" +
      frontend::invocation_site_name(kInit, "java/lang/Class", "newInstance", 0) + "\tnever\n");
  FactDatabase& db = p.db();
  add_reflective_target_relations(db, annotated, logged);
  using Rows = std::vector<std::vector<std::uint64_t>>;
  EXPECT_EQ(db.relation("LoggedClass").sorted_tuples(), (Rows{{s.for_name0, type("app.Foo")}}));
  EXPECT_EQ(db.relation("LoggedMethod").sorted_tuples(), (Rows{{s.invoke, method(kValues)}}));
  EXPECT_EQ(db.relation("AnnotatedField").sorted_tuples(), (Rows{{s.get_int, field(kFooCount)}}));
  EXPECT_EQ(db.relation("AnnotatedNever").sorted_tuples(), (Rows{{s.class_new}}));
  EXPECT_EQ(db.relation("LoggedField").raw_size(), 0u);

  test::TempDir dir;
  frontend::write_fact_database(db, dir.path());
  const std::string program = test::read_file(dir / "facts.datalog");
  EXPECT_NE(program.find("LoggedClass (invoke : I, type : T) inputtuples"), std::string::npos);
  EXPECT_NE(program.find("AnnotatedNever (invoke : I) inputtuples"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir / "LoggedField.tuples"));
}

TEST(ClassesToReadTest, CallersTargetsAndDeclaringClassesOfModelledKinds) {
  const auto entries = parse_tamiflex_log(
      "Class.forName;a.B$C;x.Caller.m;1;;1\n"
      "Array.newInstance;int[][];x.Caller.m;;;\n"
      "Array.newInstance;p.Q[];x.Caller.m;;;\n"
      "Class.getMethods;[Lr.S;;x.Caller.m;;;\n"
      "Method.invoke;<m.N: void f(o.P)>;y.Z.<init>;;;\n"
      "Method.getName;<s.T: void f()>;u.V.m;;;\n"
      "Field.get*;<f.'to'.G: int h>;y.Z.<init>;;;\n",
      "refl.log");
  const auto annotations = parse_annotations(
      "<q.R: void run()>/java.lang.Class.forName/0\tclass\tk.L\n"
      "<q.R: void run()>/java.lang.Class.forName/1\tnever\n"
      "<q.R2: void run()>/java.lang.reflect.Method.invoke/0\tmethod\t<k.M: void n()>\n",
      "notes.txt");
  EXPECT_EQ(classes_to_read(entries, annotations),
            (std::vector<std::string>{"a/B$C", "f/to/G", "k/L", "k/M", "m/N", "p/Q", "q/R", "q/R2",
                                      "r/S", "x/Caller", "y/Z"}));
  EXPECT_TRUE(classes_to_read({}, {}).empty());
}

}  // namespace
}  // namespace refract::reflection
