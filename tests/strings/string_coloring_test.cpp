// String constants colored by their conflicts (coloring paper, Sec. 4): constants naming
// distinct members of one class never share an object, class names and the strings of
// reflective methods stay apart, everything else shares.
#include "strings/string_coloring.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "frontend/fact_extractor.hpp"

namespace refract::strings {
namespace {

using frontend::FactDatabase;
using frontend::string_literal;

// The facts the coloring reads, built by hand: classes with methods and fields, string
// constants allocated in methods.
class Program {
 public:
  Program() {
    for (const char* d : {"H", "T", "M", "F", "V", "I"}) db_.add_domain(d, "");
    db_.add_relation("StringConstant", {{"heap", "H"}}, "");
    db_.add_relation("MethodDeclared", {{"method", "M"}, {"type", "T"}}, "");
    db_.add_relation("FieldDeclared", {{"field", "F"}, {"type", "T"}}, "");
    db_.add_relation("SubtypeOf", {{"sub", "T"}, {"super", "T"}}, "");
    db_.add_relation("Alloc", {{"var", "V"}, {"heap", "H"}}, "");
    db_.add_relation("VarMethod", {{"var", "V"}, {"method", "M"}}, "");
    db_.add_relation("ReflectiveCall", {{"invoke", "I"}, {"method", "M"}}, "");
    db_.add_relation("CallIn", {{"invoke", "I"}, {"method", "M"}}, "");
  }

  // A class and its superclasses (SubtypeOf is reflexive and transitive in the facts).
  void add_class(const std::string& name, const std::vector<std::string>& supers = {}) {
    const std::uint64_t t = type(name);
    db_.relation("SubtypeOf").add({t, t});
    for (const std::string& s : supers) db_.relation("SubtypeOf").add({t, type(s)});
  }
  std::uint64_t add_method(const std::string& owner, const std::string& name) {
    const std::uint64_t m = db_.domain("M").intern("<" + owner + ": void " + name + "()>");
    db_.relation("MethodDeclared").add({m, type(owner)});
    return m;
  }
  void add_field(const std::string& owner, const std::string& name) {
    const std::uint64_t f = db_.domain("F").intern("<" + owner + ": int " + name + ">");
    db_.relation("FieldDeclared").add({f, type(owner)});
  }
  // The constant `text`, allocated in `method`.
  std::uint64_t add_string(const std::string& text, std::uint64_t method) {
    const std::uint64_t h = db_.domain("H").intern(string_literal(text));
    const std::uint64_t v = db_.domain("V").intern("v" + std::to_string(h));
    db_.relation("StringConstant").add({h});
    db_.relation("Alloc").add({v, h});
    db_.relation("VarMethod").add({v, method});
    return h;
  }
  void add_reflective_call(std::uint64_t method) {
    const std::uint64_t i = db_.domain("I").intern("i" + std::to_string(method));
    db_.relation("ReflectiveCall").add({i, method});
    db_.relation("CallIn").add({i, method});
  }
  std::uint64_t type(const std::string& name) { return db_.domain("T").intern(name); }
  const FactDatabase& facts() const { return db_; }

 private:
  FactDatabase db_;
};

TEST(StringColoringTest, MemberNamesOfOneClassGetDistinctObjectsAndTheRestShareOne) {
  Program p;
  p.add_class("A");
  p.add_class("B", {"A"});
  p.add_class("C");
  const std::uint64_t main = p.add_method("A", "foo");
  p.add_method("A", "bar");
  p.add_method("B", "qux");
  p.add_method("C", "qux");
  p.add_method("C", "zap");
  p.add_field("A", "count");
  const auto foo = p.add_string("foo", main), bar = p.add_string("bar", main),
             qux = p.add_string("qux", main), zap = p.add_string("zap", main),
             count = p.add_string("count", main), hello = p.add_string("hello", main),
             world = p.add_string("world", main), class_name = p.add_string("B", main);
  const StringColoring c = color_string_constants(p.facts());
  auto object = [&](std::uint64_t h) { return c.merge.at(h); };
  EXPECT_EQ(c.merge.count(class_name), 0u);  // a class name stays apart
  EXPECT_EQ(c.kept_apart, 1u);
  // B has foo, bar (inherited) and qux: a clique of three; C has qux and zap.
  EXPECT_NE(object(foo), object(bar));
  EXPECT_NE(object(foo), object(qux));
  EXPECT_NE(object(bar), object(qux));
  EXPECT_NE(object(qux), object(zap));
  EXPECT_EQ(c.largest_clique, 3u);
  // Lexicographic order: bar 0, foo 1, qux 2 (after bar and foo in B), zap 3 (after qux).
  EXPECT_EQ(object(bar), "<string constants, color 0>");
  EXPECT_EQ(object(foo), "<string constants, color 1>");
  EXPECT_EQ(object(qux), "<string constants, color 2>");
  EXPECT_EQ(object(zap), "<string constants, color 3>");
  // A field name conflicts with no method name, and strings naming nothing with nothing.
  EXPECT_EQ(object(count), "<string constants, color 0>");
  EXPECT_EQ(object(hello), "<string constants, color 0>");
  EXPECT_EQ(object(world), "<string constants, color 0>");
  EXPECT_EQ(c.string_constants, 8u);
  EXPECT_EQ(c.member_names, 5u);
  EXPECT_EQ(c.colors, 4u);
}

// Issue 35: under a JDK's part, the JDK's constants get the colors the JDK's part alone gives
// them, whatever the program adds, and the program's constants colors of their own.
TEST(StringColoringTest, ByPartTheJdkConstantsAreColoredAsTheJdkAloneColorsThem) {
  Program jdk;
  jdk.add_class("J");
  const std::uint64_t boot = jdk.add_method("J", "boot");
  jdk.add_method("J", "aa");
  const auto aa = jdk.add_string("aa", boot), zz = jdk.add_string("zz", boot);
  FactDatabase alone = jdk.facts();
  alone.mark_jdk_part();
  const StringColoring alone_colors = color_string_constants_by_part(alone);

  Program whole = jdk;
  // The program's class P has members named by both JDK constants: in one coloring of the
  // whole program they would get distinct colors; by part they keep the JDK's.
  FactDatabase before = whole.facts();
  before.mark_jdk_part();
  whole.add_class("P");
  const std::uint64_t run = whole.add_method("P", "aa");
  whole.add_method("P", "zz");
  const auto mine = whole.add_string("mine", run);
  FactDatabase facts = whole.facts();
  for (const frontend::FactDomain& d : before.domains())
    facts.set_jdk_part_size(d.name(), before.jdk_part_size(d.name()));
  const StringColoring colors = color_string_constants_by_part(facts);
  EXPECT_EQ(colors.merge.at(aa), alone_colors.merge.at(aa));
  EXPECT_EQ(colors.merge.at(zz), alone_colors.merge.at(zz));
  EXPECT_EQ(colors.merge.at(aa), colors.merge.at(zz));  // both color 0 for the JDK alone
  const StringColoring whole_colors = color_string_constants(facts);
  EXPECT_NE(whole_colors.merge.at(aa), whole_colors.merge.at(zz));
  EXPECT_EQ(colors.merge.at(mine), "<program string constants, color 0>");
  EXPECT_EQ(colors.string_constants, 3u);
}

// Soot quotes member names that are Jimple-reserved words ("<A: void 'from'()>"); the string
// constant that names such a member has no quotes, and must still conflict with the others.
TEST(StringColoringTest, MembersWithReservedNamesConflictThroughTheirUnquotedName) {
  Program p;
  p.add_class("A");
  const std::uint64_t main = p.add_method("A", "'from'");
  p.add_method("A", "now");
  const auto from = p.add_string("from", main), now = p.add_string("now", main);
  const StringColoring c = color_string_constants(p.facts());
  EXPECT_NE(c.merge.at(from), c.merge.at(now));
  EXPECT_EQ(c.member_names, 2u);
}

TEST(StringColoringTest, StringsOfMethodsMakingReflectiveCallsStayApart) {
  Program p;
  p.add_class("A");
  const std::uint64_t plain = p.add_method("A", "plain");
  const std::uint64_t reflective = p.add_method("A", "reflective");
  p.add_reflective_call(reflective);
  const auto kept = p.add_string("someMethodName", reflective);
  const auto merged = p.add_string("message", plain);
  const StringColoring c = color_string_constants(p.facts());
  EXPECT_EQ(c.merge.count(kept), 0u);
  EXPECT_EQ(c.merge.count(merged), 1u);
  EXPECT_EQ(c.kept_apart, 1u);
}

// The invariant the merge rests on, over random class hierarchies and strings: two constants
// naming distinct members of the same kind of one class (inherited ones included) never
// share an object.
TEST(StringColoringTest, ConflictingConstantsNeverShareAnObjectOnRandomPrograms) {
  std::mt19937_64 random(7);
  auto below = [&](std::uint64_t n) { return random() % n; };
  for (int round = 0; round < 200; ++round) {
    Program p;
    const std::uint64_t classes = 1 + below(12), names = 2 + below(20);
    std::vector<std::string> class_names;
    std::map<std::string, std::set<std::string>> methods, fields;  // declared, by class
    std::map<std::string, std::set<std::string>> supers;           // reflexive
    for (std::uint64_t c = 0; c < classes; ++c) {
      const std::string name = "C" + std::to_string(c);
      std::vector<std::string> own_supers;
      if (c > 0 && below(2) == 0) {
        const std::string parent = class_names[below(c)];
        own_supers.assign(supers[parent].begin(), supers[parent].end());
      }
      p.add_class(name, own_supers);
      supers[name] = {own_supers.begin(), own_supers.end()};
      supers[name].insert(name);
      class_names.push_back(name);
      for (std::uint64_t k = below(5); k > 0; --k) {
        const std::string member = "n" + std::to_string(below(names));
        if (below(3) == 0) {
          p.add_field(name, member);
          fields[name].insert(member);
        } else {
          p.add_method(name, member);
          methods[name].insert(member);
        }
      }
    }
    const std::uint64_t owner = p.add_method("C0", "main");
    methods["C0"].insert("main");
    std::map<std::string, std::uint64_t> heap_of;
    for (std::uint64_t n = 0; n < names; ++n) {
      if (below(4) != 0)
        heap_of["n" + std::to_string(n)] = p.add_string("n" + std::to_string(n), owner);
    }
    const StringColoring coloring = color_string_constants(p.facts());
    for (const std::string& cls : class_names) {
      for (const auto* kind : {&methods, &fields}) {
        std::set<std::string> members;
        for (const std::string& s : supers[cls]) {
          const auto it = kind->find(s);
          if (it != kind->end()) members.insert(it->second.begin(), it->second.end());
        }
        std::map<std::string, std::string> object_owner;  // object -> a member name it holds
        for (const std::string& member : members) {
          const auto h = heap_of.find(member);
          if (h == heap_of.end()) continue;
          const std::string& object = coloring.merge.at(h->second);
          const auto [it, fresh] = object_owner.emplace(object, member);
          EXPECT_TRUE(fresh) << "round " << round << ": " << it->second << " and " << member
                             << " of " << cls << " share " << object;
        }
      }
    }
  }
}

}  // namespace
}  // namespace refract::strings
