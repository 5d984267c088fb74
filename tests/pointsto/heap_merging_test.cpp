// The heap abstraction applied before encoding (pointsto/heap_merging.hpp): which allocation
// sites --exception-objects, --string-builders, --primitive-arrays and --allocated-strings
// per-type merge, and the renumbering of every relation over H.
#include "pointsto/heap_merging.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace refract::pointsto {
namespace {

using frontend::FactDatabase;

// A program with two sites of one exception type, one of a subtype of it, a JVM-made
// exception, a string and a plain object.
FactDatabase small_program() {
  FactDatabase facts;
  auto& types = facts.add_domain("T", "types");
  auto& heaps = facts.add_domain("H", "heaps");
  auto& vars = facts.add_domain("V", "vars");
  for (const char* t : {"java.lang.Object", "java.lang.Throwable", "java.io.IOException",
                        "java.io.EOFException", "java.lang.String"}) {
    types.intern(t);
  }
  for (const char* h :
       {"<A: void f()>/new java.io.IOException/0", "\"text\"",
        "<A: void g()>/new java.io.IOException/0", "<A: void g()>/new java.io.EOFException/0",
        "<A: void g()>/new java.lang.Object/0", "<jvm>/new java.io.IOException/0"}) {
    heaps.intern(h);
  }
  for (const char* v : {"a", "b", "c", "d", "e"}) vars.intern(v);
  auto& subtype = facts.add_relation("SubtypeOf", {{"sub", "T"}, {"super", "T"}}, "");
  for (std::uint64_t t = 0; t < 5; ++t) subtype.add({t, t});
  for (std::uint64_t t = 1; t < 5; ++t) subtype.add({t, 0});
  subtype.add({2, 1});
  subtype.add({3, 1});
  subtype.add({3, 2});
  auto& heap_type = facts.add_relation("HeapType", {{"heap", "H"}, {"type", "T"}}, "");
  for (const auto& [h, t] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
           {0, 2}, {1, 4}, {2, 2}, {3, 3}, {4, 0}, {5, 2}}) {
    heap_type.add({h, t});
  }
  auto& alloc = facts.add_relation("Alloc", {{"var", "V"}, {"heap", "H"}}, "");
  for (std::uint64_t h = 0; h < 5; ++h) alloc.add({h, h});
  auto& field = facts.add_relation("Pair", {{"base", "H"}, {"value", "H"}}, "");
  field.add({0, 2});
  field.add({2, 0});
  return facts;
}

std::vector<std::string> named(const FactDatabase& facts, const std::string& relation) {
  std::vector<std::string> out;
  for (const auto& t : facts.relation(relation).sorted_tuples()) {
    std::string line;
    for (std::size_t a = 0; a < t.size(); ++a) {
      const std::string& domain = facts.relation(relation).attributes()[a].domain;
      line += (a ? " | " : "") + facts.domain(domain).names()[t[a]];
    }
    out.push_back(line);
  }
  return out;
}

TEST(HeapMergingTest, ExceptionSitesBecomeOneObjectPerType) {
  const FactDatabase facts = small_program();
  const HeapMerge merge = exception_objects_by_type(facts);
  // The three program sites of exception types; not the string, the Object, the JVM's own.
  EXPECT_EQ(merge, (HeapMerge{{0, "<exception java.io.IOException>"},
                              {2, "<exception java.io.IOException>"},
                              {3, "<exception java.io.EOFException>"}}));
  const FactDatabase merged = merge_heaps(facts, merge);
  EXPECT_EQ(merged.domain("H").names(),
            (std::vector<std::string>{
                "<exception java.io.IOException>", "\"text\"", "<exception java.io.EOFException>",
                "<A: void g()>/new java.lang.Object/0", "<jvm>/new java.io.IOException/0"}));
  EXPECT_EQ(named(merged, "Alloc"),
            (std::vector<std::string>{"a | <exception java.io.IOException>", "b | \"text\"",
                                      "c | <exception java.io.IOException>",
                                      "d | <exception java.io.EOFException>",
                                      "e | <A: void g()>/new java.lang.Object/0"}));
  EXPECT_EQ(named(merged, "HeapType"),
            (std::vector<std::string>{"<exception java.io.IOException> | java.io.IOException",
                                      "\"text\" | java.lang.String",
                                      "<exception java.io.EOFException> | java.io.EOFException",
                                      "<A: void g()>/new java.lang.Object/0 | java.lang.Object",
                                      "<jvm>/new java.io.IOException/0 | java.io.IOException"}));
  // Both columns of a relation over H x H are mapped; the two tuples become one.
  EXPECT_EQ(named(merged, "Pair"), (std::vector<std::string>{"<exception java.io.IOException> | "
                                                             "<exception java.io.IOException>"}));
  // Relations and domains without H are untouched.
  EXPECT_EQ(named(merged, "SubtypeOf"), named(facts, "SubtypeOf"));
  EXPECT_EQ(merged.domain("V").names(), facts.domain("V").names());
}

// The names of the objects context_free_heaps finds in `merged`, the facts after `merge`.
std::vector<std::string> context_free_names(const FactDatabase& merged, const HeapMerge& merge) {
  std::vector<std::string> out;
  for (const std::uint64_t h : context_free_heaps(merged, merge))
    out.push_back(merged.domain("H").names()[h]);
  return out;
}

TEST(HeapMergingTest, StringConstantsAndMergedExceptionObjectsHaveNoHeapContext) {
  FactDatabase facts = small_program();
  facts.add_relation("StringConstant", {{"heap", "H"}}, "").add({1});
  const HeapMerge merge = exception_objects_by_type(facts);
  const FactDatabase merged = merge_heaps(facts, merge);
  // Not the plain object, nor the JVM's own exception (not merged).
  EXPECT_EQ(context_free_names(merged, merge),
            (std::vector<std::string>{"<exception java.io.IOException>", "\"text\"",
                                      "<exception java.io.EOFException>"}));
  // Exception objects per site are objects like any other.
  EXPECT_EQ(context_free_heaps(facts, {}), (std::vector<std::uint64_t>{1}));
}

// A program whose site i, named sites[i].first, allocates type sites[i].second into variable
// 'a' + i.
FactDatabase program_allocating(const std::vector<std::string>& types,
                                const std::vector<std::pair<std::string, std::uint64_t>>& sites) {
  FactDatabase facts;
  auto& type_domain = facts.add_domain("T", "types");
  for (const std::string& t : types) type_domain.intern(t);
  auto& heaps = facts.add_domain("H", "heaps");
  auto& vars = facts.add_domain("V", "vars");
  auto& heap_type = facts.add_relation("HeapType", {{"heap", "H"}, {"type", "T"}}, "");
  auto& alloc = facts.add_relation("Alloc", {{"var", "V"}, {"heap", "H"}}, "");
  for (const auto& [name, type] : sites) {
    const std::uint64_t h = heaps.intern(name);
    heap_type.add({h, type});
    alloc.add({vars.intern(std::string(1, static_cast<char>('a' + h))), h});
  }
  facts.add_relation("StringConstant", {{"heap", "H"}}, "");
  return facts;
}

// Two StringBuilder sites, a StringBuffer site, the JVM's own StringBuilder and a plain object.
FactDatabase program_with_builders() {
  return program_allocating(
      {"java.lang.Object", "java.lang.StringBuilder", "java.lang.StringBuffer"},
      {{"<A: void f()>/new java.lang.StringBuilder/0", 1},
       {"<A: void f()>/new java.lang.Object/0", 0},
       {"<A: void g()>/new java.lang.StringBuilder/0", 1},
       {"<A: void g()>/new java.lang.StringBuffer/0", 2},
       {"<jvm>/new java.lang.StringBuilder/0", 1}});
}

TEST(HeapMergingTest, StringBuilderSitesBecomeOneObjectPerTypeWithoutHeapContext) {
  const FactDatabase facts = program_with_builders();
  const HeapMerge merge = string_builders_by_type(facts);
  // The program's builder sites; not the Object, nor the JVM's own builder.
  EXPECT_EQ(merge, (HeapMerge{{0, "<string builder java.lang.StringBuilder>"},
                              {2, "<string builder java.lang.StringBuilder>"},
                              {3, "<string builder java.lang.StringBuffer>"}}));
  const FactDatabase merged = merge_heaps(facts, merge);
  EXPECT_EQ(named(merged, "Alloc"),
            (std::vector<std::string>{"a | <string builder java.lang.StringBuilder>",
                                      "b | <A: void f()>/new java.lang.Object/0",
                                      "c | <string builder java.lang.StringBuilder>",
                                      "d | <string builder java.lang.StringBuffer>",
                                      "e | <jvm>/new java.lang.StringBuilder/0"}));
  EXPECT_EQ(context_free_names(merged, merge),
            (std::vector<std::string>{"<string builder java.lang.StringBuilder>",
                                      "<string builder java.lang.StringBuffer>"}));
}

// Arrays of primitives of one and two dimensions, arrays of references (one of a class whose
// name starts like a primitive's), and the JVM's own byte[].
TEST(HeapMergingTest, PrimitiveArraySitesBecomeOneObjectPerTypeWithoutHeapContext) {
  const FactDatabase facts = program_allocating(
      {"java.lang.Object", "byte[]", "int[][]", "java.lang.Object[]", "bytes[]", "int"},
      {{"<A: void f()>/new byte[]/0", 1},
       {"<A: void f()>/new int[][]/0", 2},
       {"<A: void g()>/new byte[]/0", 1},
       {"<A: void g()>/new java.lang.Object[]/0", 3},
       {"<A: void g()>/new bytes[]/0", 4},
       {"<jvm>/new byte[]/0", 1}});
  const HeapMerge merge = primitive_arrays_by_type(facts);
  EXPECT_EQ(merge, (HeapMerge{{0, "<primitive array byte[]>"},
                              {1, "<primitive array int[][]>"},
                              {2, "<primitive array byte[]>"}}));
  const FactDatabase merged = merge_heaps(facts, merge);
  EXPECT_EQ(named(merged, "Alloc"),
            (std::vector<std::string>{
                "a | <primitive array byte[]>", "b | <primitive array int[][]>",
                "c | <primitive array byte[]>", "d | <A: void g()>/new java.lang.Object[]/0",
                "e | <A: void g()>/new bytes[]/0", "f | <jvm>/new byte[]/0"}));
  EXPECT_EQ(context_free_names(merged, merge),
            (std::vector<std::string>{"<primitive array byte[]>", "<primitive array int[][]>"}));
}

// Two `new String` sites, a string constant, a concatenation, the JVM's own string and a plain
// object: the two allocations become one object; the constant and the concatenation, whose
// text reflection may resolve, stay apart, as does the JVM's own string.
TEST(HeapMergingTest, AllocatedStringSitesBecomeOneObjectButConstantsAndConcatenationsStay) {
  FactDatabase facts = program_allocating({"java.lang.Object", "java.lang.String"},
                                          {{"<A: void f()>/new java.lang.String/0", 1},
                                           {"\"name\"", 1},
                                           {"<A: void f()>/new java.lang.Object/0", 0},
                                           {"<A: void g()>/concat/0", 1},
                                           {"<A: void g()>/new java.lang.String/0", 1},
                                           {"<jvm>/new java.lang.String/0", 1}});
  facts.relation("StringConstant").add({1});
  facts.add_domain("Z", "positions");
  facts.add_relation("ConcatArg", {{"heap", "H"}, {"index", "Z"}, {"var", "V"}}, "");
  facts.add_relation("ConcatText", {{"heap", "H"}, {"index", "Z"}, {"text", "H"}}, "")
      .add({3, 0, 1});
  const HeapMerge merge = allocated_strings_by_type(facts);
  EXPECT_EQ(merge, (HeapMerge{{0, "<allocated string java.lang.String>"},
                              {4, "<allocated string java.lang.String>"}}));
  const FactDatabase merged = merge_heaps(facts, merge);
  EXPECT_EQ(named(merged, "Alloc"),
            (std::vector<std::string>{
                "a | <allocated string java.lang.String>", "b | \"name\"",
                "c | <A: void f()>/new java.lang.Object/0", "d | <A: void g()>/concat/0",
                "e | <allocated string java.lang.String>", "f | <jvm>/new java.lang.String/0"}));
  EXPECT_EQ(context_free_names(merged, merge),
            (std::vector<std::string>{"<allocated string java.lang.String>", "\"name\""}));
}

TEST(HeapMergingTest, AProgramWithoutBuildersMergesNoBuilder) {
  EXPECT_TRUE(string_builders_by_type(small_program()).empty());
}

TEST(HeapMergingTest, NoMergeLeavesTheFactsAsTheyAre) {
  const FactDatabase facts = small_program();
  const FactDatabase same = merge_heaps(facts, {});
  EXPECT_EQ(same.domain("H").names(), facts.domain("H").names());
  EXPECT_EQ(named(same, "Alloc"), named(facts, "Alloc"));
}

TEST(HeapMergingTest, AProgramWithoutThrowableMergesNothing) {
  FactDatabase facts;
  facts.add_domain("T", "").intern("java.lang.Object");
  facts.add_domain("H", "").intern("<A: void f()>/new java.lang.Object/0");
  facts.add_relation("SubtypeOf", {{"sub", "T"}, {"super", "T"}}, "").add({0, 0});
  facts.add_relation("HeapType", {{"heap", "H"}, {"type", "T"}}, "").add({0, 0});
  EXPECT_TRUE(exception_objects_by_type(facts).empty());
}

// --exception-objects, --string-builders, --primitive-arrays and --allocated-strings take the
// same two values.
TEST(HeapMergingTest, SiteMergingValuesAreParsedOrNamed) {
  for (const char* option :
       {"--exception-objects", "--string-builders", "--primitive-arrays", "--allocated-strings"}) {
    EXPECT_EQ(parse_site_merging("per-type", option), SiteMerging::kPerType);
    EXPECT_EQ(parse_site_merging("per-site", option), SiteMerging::kPerSite);
    for (const char* bad : {"per-class", "merged"}) {
      try {
        parse_site_merging(bad, option);
        FAIL() << "no error";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find(option), std::string::npos);
      }
    }
  }
  EXPECT_STREQ(to_string(SiteMerging::kPerType), "per-type");
  EXPECT_STREQ(to_string(SiteMerging::kPerSite), "per-site");
}

}  // namespace
}  // namespace refract::pointsto
