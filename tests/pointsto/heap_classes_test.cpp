// The class element K-type gives each object (pointsto/heap_classes.hpp).
#include "pointsto/heap_classes.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace refract::pointsto {
namespace {

using Pairs = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

TEST(HeapClassesTest, AnObjectIsTheClassOfItsAllocatingMethodOrItsTypeWhenSeveralAllocateIt) {
  frontend::FactDatabase facts;
  auto& types = facts.add_domain("T", "");
  for (const char* t : {"A", "B", "java.lang.String", "java.io.IOException"}) types.intern(t);
  auto& methods = facts.add_domain("M", "");
  for (const char* m : {"<A: void f()>", "<B: void g()>"}) methods.intern(m);
  auto& vars = facts.add_domain("V", "");
  for (const char* v : {"a1", "a2", "b1", "b2"}) vars.intern(v);
  auto& heaps = facts.add_domain("H", "");
  for (const char* h : {"<A: void f()>/new A/0", "\"shared\"", "<exception java.io.IOException>",
                        "<B: void g()>/new B/0"}) {
    heaps.intern(h);
  }
  auto& declared = facts.add_relation("MethodDeclared", {{"method", "M"}, {"type", "T"}}, "");
  declared.add({0, 0});
  declared.add({1, 1});
  auto& var_method = facts.add_relation("VarMethod", {{"var", "V"}, {"method", "M"}}, "");
  for (const auto& [v, m] : Pairs{{0, 0}, {1, 0}, {2, 1}, {3, 1}}) var_method.add({v, m});
  auto& heap_type = facts.add_relation("HeapType", {{"heap", "H"}, {"type", "T"}}, "");
  for (const auto& [h, t] : Pairs{{0, 0}, {1, 2}, {2, 3}, {3, 1}}) heap_type.add({h, t});
  auto& alloc = facts.add_relation("Alloc", {{"var", "V"}, {"heap", "H"}}, "");
  // A's f allocates its A, the shared string and the exception; B's g the string, the
  // exception and its B.
  for (const auto& [v, h] : Pairs{{0, 0}, {0, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 3}}) {
    alloc.add({v, h});
  }
  // One class each: A for A's object, B for B's, and their own types (String, IOException)
  // for the two objects both classes allocate.
  EXPECT_EQ(heap_classes(facts, {}), (Pairs{{0, 0}, {1, 2}, {2, 3}, {3, 1}}));
}

// Objects no method of the program allocates (the JVM's own, `<jvm>/new T/n`, and the Class
// objects of class constants) must have an element too: K-type's Merge is empty for an object
// without one, so every call on it was dropped (1-type lost 50 of 65 call edges on the
// `fields` fixture, among them Thread.<init>'s chain on the JVM's main thread).
TEST(HeapClassesTest, AnObjectNoMethodAllocatesIsItsOwnType) {
  frontend::FactDatabase facts;
  auto& types = facts.add_domain("T", "");
  for (const char* t : {"A", "java.lang.Thread", "java.lang.Class"}) types.intern(t);
  auto& methods = facts.add_domain("M", "");
  methods.intern("<A: void f()>");
  auto& vars = facts.add_domain("V", "");
  vars.intern("a1");
  auto& heaps = facts.add_domain("H", "");
  for (const char* h : {"<A: void f()>/new A/0", "<jvm>/new java.lang.Thread/0", "<class A>"}) {
    heaps.intern(h);
  }
  facts.add_relation("MethodDeclared", {{"method", "M"}, {"type", "T"}}, "").add({0, 0});
  facts.add_relation("VarMethod", {{"var", "V"}, {"method", "M"}}, "").add({0, 0});
  auto& heap_type = facts.add_relation("HeapType", {{"heap", "H"}, {"type", "T"}}, "");
  for (const auto& [h, t] : Pairs{{0, 0}, {1, 1}, {2, 2}}) heap_type.add({h, t});
  facts.add_relation("Alloc", {{"var", "V"}, {"heap", "H"}}, "").add({0, 0});
  EXPECT_EQ(heap_classes(facts, {}), (Pairs{{0, 0}, {1, 1}, {2, 2}}));
}

// A string constant one class allocates is its type all the same: it is interned, allocated by
// no one method, and a program that adds a second allocating class must not change its class
// from what the JDK's cached part gave it (antlr adds 3 such: "class ", "> ", "warning: ").
TEST(HeapClassesTest, AnObjectWithoutHeapContextIsItsOwnTypeEvenWhereOneClassAllocatesIt) {
  frontend::FactDatabase facts;
  auto& types = facts.add_domain("T", "");
  for (const char* t : {"A", "java.lang.String"}) types.intern(t);
  facts.add_domain("M", "").intern("<A: void f()>");
  facts.add_domain("V", "").intern("a1");
  auto& heaps = facts.add_domain("H", "");
  for (const char* h : {"<A: void f()>/new A/0", "\"class \""}) heaps.intern(h);
  facts.add_relation("MethodDeclared", {{"method", "M"}, {"type", "T"}}, "").add({0, 0});
  facts.add_relation("VarMethod", {{"var", "V"}, {"method", "M"}}, "").add({0, 0});
  auto& heap_type = facts.add_relation("HeapType", {{"heap", "H"}, {"type", "T"}}, "");
  for (const auto& [h, t] : Pairs{{0, 0}, {1, 1}}) heap_type.add({h, t});
  auto& alloc = facts.add_relation("Alloc", {{"var", "V"}, {"heap", "H"}}, "");
  alloc.add({0, 0});
  alloc.add({0, 1});
  EXPECT_EQ(heap_classes(facts, {}), (Pairs{{0, 0}, {1, 0}}));
  EXPECT_EQ(heap_classes(facts, {1}), (Pairs{{0, 0}, {1, 1}}));
}

}  // namespace
}  // namespace refract::pointsto
