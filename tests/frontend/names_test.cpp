// Soot signatures, Jimple quoting and Doop-style site names (frontend/names.hpp), and the
// signatures of real classes checked against what `javap -s -p` prints for them.
#include "frontend/names.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "frontend/hierarchy.hpp"
#include "frontend/test_util.hpp"

namespace refract::frontend {
namespace {

TEST(NamesTest, ReservedWordsAreSootsList) {
  // Every word of Soot's Scene.setReservedNames() (FORMATS.md), and nothing else.
  const char* reserved[] = {"newarray",      "newmultiarray", "nop",         "ret",
                            "specialinvoke", "staticinvoke",  "tableswitch", "virtualinvoke",
                            "null_type",     "unknown",       "cmp",         "cmpg",
                            "cmpl",          "entermonitor",  "exitmonitor", "interfaceinvoke",
                            "lengthof",      "lookupswitch",  "neg",         "if",
                            "abstract",      "annotation",    "boolean",     "break",
                            "byte",          "case",          "catch",       "char",
                            "class",         "enum",          "final",       "native",
                            "public",        "protected",     "private",     "static",
                            "synchronized",  "transient",     "volatile",    "interface",
                            "void",          "short",         "int",         "long",
                            "float",         "double",        "extends",     "implements",
                            "breakpoint",    "default",       "goto",        "instanceof",
                            "new",           "return",        "throw",       "throws",
                            "null",          "from",          "to",          "with",
                            "cls",           "dynamicinvoke", "strictfp"};
  for (const char* word : reserved) EXPECT_TRUE(is_jimple_reserved(word)) << word;
  // Java keywords Soot does not reserve, and near misses.
  for (const char* word :
       {"this",    "super",  "else",   "for",    "while",    "do",     "try", "finally",
        "package", "import", "assert", "const",  "continue", "switch", "var", "record",
        "yield",   "From",   "to_",    "<init>", "<clinit>", "",       "ints"}) {
    EXPECT_FALSE(is_jimple_reserved(word)) << word;
  }
}

TEST(NamesTest, QuotingIsPerDotSeparatedPart) {
  EXPECT_EQ(soot_quote("from"), "'from'");
  EXPECT_EQ(soot_quote("a.to.B"), "a.'to'.B");
  EXPECT_EQ(soot_quote("a.from.cls"), "a.'from'.'cls'");
  EXPECT_EQ(soot_quote("java.lang.String"), "java.lang.String");
  // A word inside a part is not a part: Soot compares whole parts only.
  EXPECT_EQ(soot_quote("a.Outer$to"), "a.Outer$to");
  EXPECT_EQ(soot_quote("a.tool.intern"), "a.tool.intern");
  // Soot also quotes parts that start with '-' (legal in class files, not in Java).
  EXPECT_EQ(soot_quote("a.-x.B"), "a.'-x'.B");
  EXPECT_EQ(soot_quote("<init>"), "<init>");
  EXPECT_EQ(soot_quote("<clinit>"), "<clinit>");
  EXPECT_EQ(soot_quote(""), "");
}

TEST(NamesTest, ClassNamesAreDottedBinaryNames) {
  EXPECT_EQ(soot_class_name("java/util/HashMap$Node"), "java.util.HashMap$Node");
  EXPECT_EQ(soot_class_name("a/B$1"), "a.B$1");
  EXPECT_EQ(soot_class_name("a/B$1Local"), "a.B$1Local");
  EXPECT_EQ(soot_class_name("a.to.B"), "a.'to'.B");
  EXPECT_EQ(soot_class_name("Top"), "Top");
}

TEST(NamesTest, TypesInJavaSourceFormWithQuotes) {
  EXPECT_EQ(soot_type(parse_field_descriptor("I")), "int");
  EXPECT_EQ(soot_type(parse_field_descriptor("Z")), "boolean");
  EXPECT_EQ(soot_type(parse_field_descriptor("[[J")), "long[][]");
  EXPECT_EQ(soot_type(parse_field_descriptor("[Ljava/lang/String;")), "java.lang.String[]");
  EXPECT_EQ(soot_type(parse_field_descriptor("La/with/B$C;")), "a.'with'.B$C");
  EXPECT_EQ(soot_type(parse_field_descriptor("[La/cls;")), "a.'cls'[]");
}

TEST(NamesTest, MethodSignatures) {
  EXPECT_EQ(soot_method_signature("a/B", "m", "(Ljava/lang/String;[I)I"),
            "<a.B: int m(java.lang.String,int[])>");
  EXPECT_EQ(soot_method_signature("java/lang/Object", "<init>", "()V"),
            "<java.lang.Object: void <init>()>");
  EXPECT_EQ(soot_method_signature("a/B", "<clinit>", "()V"), "<a.B: void <clinit>()>");
  EXPECT_EQ(soot_method_signature("a/to/B", "from", "()V"), "<a.'to'.B: void 'from'()>");
  EXPECT_EQ(soot_method_signature("a/B$C", "with", "(La/to/D;[[Z)La/cls;"),
            "<a.B$C: a.'cls' 'with'(a.'to'.D,boolean[][])>");
  EXPECT_EQ(soot_method_subsignature("main", parse_method_descriptor("([Ljava/lang/String;)V")),
            "void main(java.lang.String[])");
  EXPECT_THROW(soot_method_signature("a/B", "m", "(Q)V"), DescriptorError);
}

TEST(NamesTest, FieldSignatures) {
  EXPECT_EQ(soot_field_signature("a/B", "f", "Ljava/lang/Object;"), "<a.B: java.lang.Object f>");
  EXPECT_EQ(soot_field_signature("a/from/B", "to", "[La/from/B;"),
            "<a.'from'.B: a.'from'.B[] 'to'>");
  EXPECT_THROW(soot_field_signature("a/B", "f", "L;"), DescriptorError);
}

TEST(NamesTest, VariablesAndSites) {
  const std::string m = "<a.B: void m()>";
  EXPECT_EQ(variable_name(m, "x"), "<a.B: void m()>/x");
  EXPECT_EQ(allocation_site_name(m, parse_field_descriptor("La/to/C;"), 0),
            "<a.B: void m()>/new a.to.C/0");
  EXPECT_EQ(allocation_site_name(m, parse_field_descriptor("[[I"), 2),
            "<a.B: void m()>/new int[][]/2");
  EXPECT_EQ(invocation_site_name(m, "java/io/PrintStream", "println", 1),
            "<a.B: void m()>/java.io.PrintStream.println/1");
  EXPECT_EQ(invocation_site_name(m, "[I", "clone", 0), "<a.B: void m()>/java.lang.Object.clone/0");
}

TEST(NamesTest, SiteNamerCountsPerTypeAndPerDeclName) {
  SiteNamer namer("<a.B: void m()>");
  const JavaType object = parse_field_descriptor("Ljava/lang/Object;");
  const JavaType ints = parse_field_descriptor("[I");
  EXPECT_EQ(namer.next_allocation(object), "<a.B: void m()>/new java.lang.Object/0");
  EXPECT_EQ(namer.next_allocation(ints), "<a.B: void m()>/new int[]/0");
  EXPECT_EQ(namer.next_allocation(object), "<a.B: void m()>/new java.lang.Object/1");
  EXPECT_EQ(namer.next_invocation("java/lang/Object", "<init>"),
            "<a.B: void m()>/java.lang.Object.<init>/0");
  EXPECT_EQ(namer.next_invocation("a/B", "<init>"), "<a.B: void m()>/a.B.<init>/0");
  EXPECT_EQ(namer.next_invocation("java/lang/Object", "<init>"),
            "<a.B: void m()>/java.lang.Object.<init>/1");
  // Calls on arrays are calls of Object's methods and share their count.
  EXPECT_EQ(namer.next_invocation("java/lang/Object", "clone"),
            "<a.B: void m()>/java.lang.Object.clone/0");
  EXPECT_EQ(namer.next_invocation("[Ljava/lang/String;", "clone"),
            "<a.B: void m()>/java.lang.Object.clone/1");
  EXPECT_EQ(namer.variable("this"), "<a.B: void m()>/this");
}

// --- javap -------------------------------------------------------------------------------

// One member as javap prints it: the declaration line (without ';') and the descriptor.
struct JavapMember {
  std::string declaration;
  std::string descriptor;
};

struct JavapClass {
  std::string name;  // dotted binary name
  std::vector<JavapMember> members;
};

// The standard output of a shell command; fails the test if it does not exit with 0.
std::string run_command(const std::string& command) {
  struct Close {
    void operator()(FILE* pipe) const { ::pclose(pipe); }
  };
  std::unique_ptr<FILE, Close> pipe(::popen(command.c_str(), "r"));
  if (!pipe) {
    ADD_FAILURE() << "cannot run " << command;
    return {};
  }
  std::string out;
  char buffer[65536];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0) out.append(buffer, n);
  const int status = ::pclose(pipe.release());
  EXPECT_EQ(status, 0) << command;
  return out;
}

// Splits javap -s -p output into classes and members.
std::vector<JavapClass> parse_javap(const std::string& text) {
  std::vector<JavapClass> classes;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.starts_with("Compiled from") || line == "}") continue;
    if (line.front() != ' ' && line.back() == '{') {
      // "public final class a.B<T> extends ... {": the name follows "class" or "interface".
      std::istringstream words(line);
      std::string word, previous;
      while (words >> word && previous != "class" && previous != "interface") previous = word;
      classes.push_back({word.substr(0, word.find('<')), {}});
    } else if (line.starts_with("    descriptor: ")) {
      if (!classes.empty() && !classes.back().members.empty()) {
        classes.back().members.back().descriptor = line.substr(16);
      }
    } else if (line.starts_with("  ") && line.back() == ';' && !classes.empty()) {
      classes.back().members.push_back({line.substr(2, line.size() - 3), {}});
    }
  }
  return classes;
}

// The member name a javap declaration declares ("<init>" for constructors).
std::string javap_member_name(const std::string& class_name, const JavapMember& member) {
  if (member.declaration == "static {}") return "<clinit>";
  if (member.descriptor.starts_with("(")) {
    const std::size_t paren = member.declaration.find('(');
    const std::size_t space = member.declaration.rfind(' ', paren);
    const std::string name = member.declaration.substr(space + 1, paren - space - 1);
    return name == class_name ? "<init>" : name;
  }
  return member.declaration.substr(member.declaration.rfind(' ') + 1);
}

// A Java source type as javap prints it, with Soot's quoting: primitives are never quoted,
// class names part by part; varargs "T..." is the array "T[]".
std::string quote_java_type(std::string type) {
  if (type.ends_with("...")) type = type.substr(0, type.size() - 3) + "[]";
  const std::size_t brackets = type.find('[');
  const std::string base = type.substr(0, brackets);
  const std::string dims = brackets == std::string::npos ? "" : type.substr(brackets);
  static const std::set<std::string> primitives = {"boolean", "byte",  "char",   "short", "int",
                                                   "long",    "float", "double", "void"};
  return (primitives.contains(base) ? base : soot_quote(base)) + dims;
}

// The Soot signature of a non-generic javap declaration, built from its Java source text alone.
std::string signature_from_javap(const std::string& class_name, const JavapMember& member) {
  const std::string name = javap_member_name(class_name, member);
  const std::string& d = member.declaration;
  if (!member.descriptor.starts_with("(")) {
    const std::size_t name_at = d.rfind(' ');
    const std::size_t type_at = d.rfind(' ', name_at - 1);
    const std::string type = d.substr(type_at + 1, name_at - type_at - 1);
    return "<" + soot_quote(class_name) + ": " + quote_java_type(type) + " " + soot_quote(name) +
           ">";
  }
  std::string return_type = "void";
  std::string parameters;
  if (name != "<clinit>") {
    const std::size_t open = d.find('(');
    const std::size_t close = d.find(')', open);
    std::istringstream list(d.substr(open + 1, close - open - 1));
    std::string parameter;
    while (std::getline(list, parameter, ',')) {
      if (parameter.starts_with(" ")) parameter.erase(0, 1);
      if (!parameters.empty()) parameters += ',';
      parameters += quote_java_type(parameter);
    }
    if (name != "<init>") {
      const std::size_t name_at = d.rfind(' ', open);
      const std::size_t type_at = d.rfind(' ', name_at - 1);
      return_type = d.substr(type_at + 1, name_at - type_at - 1);
    }
  }
  return "<" + soot_quote(class_name) + ": " + quote_java_type(return_type) + " " +
         soot_quote(name) + "(" + parameters + ")>";
}

struct JavapComparison {
  std::size_t members = 0;     // members javap and our parser agree exist
  std::size_t signatures = 0;  // of which non-generic, with the signature compared
};

// Runs javap over `classes` (dotted names) and compares every member with what our class file
// parser and names.hpp make of the same class.
JavapComparison compare_with_javap(const std::filesystem::path& javap, const std::string& options,
                                   const std::vector<std::string>& classes,
                                   ClassHierarchy& hierarchy) {
  std::string command = "'" + javap.string() + "' -s -p " + options;
  for (const std::string& c : classes) command += " '" + c + "'";
  const std::vector<JavapClass> parsed = parse_javap(run_command(command + " 2>&1"));
  EXPECT_EQ(parsed.size(), classes.size()) << command;
  JavapComparison result;
  for (const JavapClass& jc : parsed) {
    std::string binary = jc.name;
    for (char& c : binary) c = c == '.' ? '/' : c;
    const ClassFile* cls = hierarchy.find(binary);
    if (cls == nullptr) {
      ADD_FAILURE() << "not on the class path: " << binary;
      continue;
    }
    // Ours: name + descriptor -> signature, and whether a Signature attribute made javap print
    // generic types.
    std::map<std::pair<std::string, std::string>, std::pair<std::string, bool>> ours;
    for (const MethodInfo& m : cls->methods) {
      ours[{m.name, m.descriptor}] = {MethodDecl{cls, &m}.signature(), m.signature.has_value()};
    }
    for (const FieldInfo& f : cls->fields) {
      ours[{f.name, f.descriptor}] = {FieldDecl{cls, &f}.signature(), f.signature.has_value()};
    }
    std::set<std::pair<std::string, std::string>> seen;
    for (const JavapMember& member : jc.members) {
      const auto key = std::pair(javap_member_name(jc.name, member), member.descriptor);
      seen.insert(key);
      const auto it = ours.find(key);
      if (it == ours.end()) {
        ADD_FAILURE() << jc.name << ": javap lists " << key.first << key.second << ", we do not";
        continue;
      }
      ++result.members;
      if (it->second.second) continue;  // generic: javap prints the Signature attribute's types
      ++result.signatures;
      EXPECT_EQ(it->second.first, signature_from_javap(jc.name, member))
          << jc.name << ": " << member.declaration;
    }
    for (const auto& [key, value] : ours) {
      EXPECT_TRUE(seen.contains(key))
          << jc.name << ": we list " << key.first << key.second << ", javap does not";
    }
  }
  return result;
}

TEST(NamesJavapTest, SignaturesAgreeWithJavap) {
  const auto home = testing::find_jdk17();
  if (!home) GTEST_SKIP() << "no JDK 17 with jmods on this machine";
  // The javap of the JDK whose java.base we read, else whichever javap is on the PATH.
  std::filesystem::path javap = *home / "bin" / "javap";
  if (!std::filesystem::exists(javap)) javap = "javap";
  ClassPath path;
  path.add(*home / "jmods" / "java.base.jmod");
  path.add(REFRACT_FIXTURE_CLASSES);
  ClassHierarchy hierarchy(path);
  // JDK classes with nested classes, generics, varargs, enums, signature polymorphic methods
  // and methods named with Jimple-reserved words (LocalDate.from, LocalDate.with).
  const JavapComparison jdk = compare_with_javap(
      javap, "",
      {"java.lang.String", "java.util.HashMap", "java.util.HashMap$Node",
       "java.util.HashMap$TreeNode", "java.util.Map$Entry", "java.lang.Thread$State",
       "java.time.LocalDate", "java.lang.invoke.MethodHandle", "java.util.Arrays",
       "java.util.concurrent.ConcurrentHashMap$TreeBin"},
      hierarchy);
  const JavapComparison fixtures = compare_with_javap(
      javap, "-cp '" + std::string(REFRACT_FIXTURE_CLASSES) + "'",
      {"basic.Hello", "hierarchy.from.cls", "hierarchy.from.cls$with", "hierarchy.nested.Outer",
       "hierarchy.nested.Outer$Inner", "hierarchy.nested.Outer$1", "hierarchy.nested.Outer$1Local",
       "hierarchy.nested.Outer$Box", "hierarchy.nested.Outer$Dog",
       "hierarchy.defaults.Defaults$WithPrivate", "hierarchy.pkgb.B"},
      hierarchy);
  std::cout << "javap: " << jdk.members << " JDK members (" << jdk.signatures
            << " signatures compared), " << fixtures.members << " fixture members ("
            << fixtures.signatures << " signatures compared)\n";
  EXPECT_GT(jdk.signatures, 500u);
  EXPECT_GT(fixtures.signatures, 30u);
}

}  // namespace
}  // namespace refract::frontend

namespace refract::frontend {
namespace {

TEST(MemberNameTest, TheOwnNameOfMethodsAndFieldsWithoutSootsQuotes) {
  EXPECT_EQ(member_name("<a.B: void m(int,java.lang.String)>"), "m");
  EXPECT_EQ(member_name("<a.B: void 'from'()>"), "from");
  EXPECT_EQ(member_name("<a.'to'.B: int count>"), "count");
  EXPECT_EQ(member_name("<a.B: a.B 'with'>"), "with");
  EXPECT_EQ(member_name("<a.B: void <init>(int)>"), "<init>");
}

}  // namespace
}  // namespace refract::frontend
