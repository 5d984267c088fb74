// The order the heap domain numbers its objects in (pointsto/heap_numbering.hpp) and the
// renumbering merge_heaps applies with it.
#include "pointsto/heap_numbering.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pointsto/heap_merging.hpp"

namespace refract::pointsto {
namespace {

using frontend::FactDatabase;

// Classes Object > A > {C, B > D} and an interface I that A implements, interned out of
// hierarchy order; an array type; objects of each, interned out of type order, and one object
// with no type.
FactDatabase hierarchy_program() {
  FactDatabase facts;
  auto& types = facts.add_domain("T", "types");
  for (const char* t : {"D", "I", "C", "java.lang.Object", "A[]", "B", "A"}) types.intern(t);
  const auto type = [&](const char* name) { return types.at(name); };
  auto& classes = facts.add_relation("ClassType", {{"type", "T"}}, "");
  for (const char* c : {"D", "C", "java.lang.Object", "B", "A"}) classes.add({type(c)});
  auto& supers = facts.add_relation("DirectSuper", {{"sub", "T"}, {"super", "T"}}, "");
  for (const auto& [sub, super] :
       std::vector<std::pair<const char*, const char*>>{{"A", "java.lang.Object"},
                                                        {"A", "I"},
                                                        {"I", "java.lang.Object"},
                                                        {"B", "A"},
                                                        {"C", "A"},
                                                        {"D", "B"},
                                                        {"A[]", "java.lang.Object"}}) {
    supers.add({type(sub), type(super)});
  }
  auto& heaps = facts.add_domain("H", "heaps");
  auto& heap_type = facts.add_relation("HeapType", {{"heap", "H"}, {"type", "T"}}, "");
  for (const auto& [heap, t] :
       std::vector<std::pair<const char*, const char*>>{{"new D/0", "D"},
                                                        {"new A[]/0", "A[]"},
                                                        {"new C/0", "C"},
                                                        {"new A/0", "A"},
                                                        {"new B/0", "B"},
                                                        {"new Object/0", "java.lang.Object"},
                                                        {"new D/1", "D"},
                                                        {"new A/1", "A"}}) {
    heap_type.add({heaps.intern(heap), type(t)});
  }
  heaps.intern("untyped");
  auto& alloc = facts.add_relation("Pair", {{"from", "H"}, {"to", "H"}}, "");
  alloc.add({heaps.at("new D/0"), heaps.at("new A/1")});
  return facts;
}

const std::vector<std::string> kByType = {"new Object/0", "new A/0",   "new A/1",
                                          "new C/0",      "new B/0",   "new D/0",
                                          "new D/1",      "new A[]/0", "untyped"};

std::vector<std::string> names_in(const FactDatabase& facts,
                                  const std::vector<std::uint64_t>& order) {
  std::vector<std::string> out;
  for (const std::uint64_t h : order) out.push_back(facts.domain("H").names()[h]);
  return out;
}

TEST(HeapNumberingTest, ByTypeGroupsObjectsByTypeInHierarchyPreorder) {
  const FactDatabase facts = hierarchy_program();
  // Object, A, then A's subclasses in element order (C was interned before B), each followed
  // by its own (D after B); then the array type, which is no class; first-seen order within a
  // type; the untyped object last.
  EXPECT_EQ(names_in(facts, heaps_in_type_order(facts)), kByType);
}

TEST(HeapNumberingTest, AClassAndItsSubclassesAreOneRange) {
  const FactDatabase facts = hierarchy_program();
  const std::vector<std::uint64_t> order = heaps_in_type_order(facts);
  std::vector<std::string> type_of(facts.domain("H").size(), "-");
  for (const auto& t : facts.relation("HeapType").sorted_tuples())
    type_of[t[0]] = facts.domain("T").names()[t[1]];
  for (const std::vector<std::string>& subtree :
       std::vector<std::vector<std::string>>{{"A", "B", "C", "D"}, {"B", "D"}, {"C"}}) {
    std::vector<std::size_t> positions;
    for (std::size_t k = 0; k < order.size(); ++k) {
      if (std::find(subtree.begin(), subtree.end(), type_of[order[k]]) != subtree.end())
        positions.push_back(k);
    }
    ASSERT_FALSE(positions.empty());
    EXPECT_EQ(positions.back() - positions.front() + 1, positions.size()) << subtree.front();
  }
}

TEST(HeapNumberingTest, MergeHeapsNumbersInTheGivenOrderAndMapsEveryRelation) {
  const FactDatabase facts = hierarchy_program();
  const FactDatabase renumbered = merge_heaps(facts, {}, heaps_in_type_order(facts));
  EXPECT_EQ(renumbered.domain("H").names(), kByType);
  const auto& h = renumbered.domain("H");
  EXPECT_EQ(renumbered.relation("Pair").sorted_tuples(),
            (std::vector<std::vector<std::uint64_t>>{{h.at("new D/0"), h.at("new A/1")}}));
  EXPECT_EQ(renumbered.relation("HeapType").sorted_tuples().size(), 8U);
  for (const auto& t : renumbered.relation("HeapType").sorted_tuples()) {
    const std::string& heap = h.names()[t[0]];
    const std::string& type = renumbered.domain("T").names()[t[1]];
    EXPECT_EQ(heap.substr(4, heap.find('/') - 4), type == "java.lang.Object" ? "Object" : type);
  }
}

TEST(HeapNumberingTest, AMergedObjectIsNumberedWhereItsFirstSiteIsInTheOrder) {
  const FactDatabase facts = hierarchy_program();
  const auto& h = facts.domain("H");
  const HeapMerge merge = {{h.at("new D/0"), "<D>"}, {h.at("new D/1"), "<D>"}};
  const FactDatabase merged = merge_heaps(facts, merge, heaps_in_type_order(facts));
  EXPECT_EQ(merged.domain("H").names(),
            (std::vector<std::string>{"new Object/0", "new A/0", "new A/1", "new C/0", "new B/0",
                                      "<D>", "new A[]/0", "untyped"}));
}

// Issue 35's stable numbers: the JDK's part (here the first four objects) is ordered by type on
// its own and stays a prefix, merged objects included, whatever the program's objects are.
TEST(HeapNumberingTest, TheJdkPartIsOrderedApartAndStaysAPrefix) {
  FactDatabase facts = hierarchy_program();
  facts.set_jdk_part_size("H", 4);  // new D/0, new A[]/0, new C/0, new A/0
  const std::vector<std::uint64_t> order = heaps_in_type_order(facts);
  EXPECT_EQ(names_in(facts, order),
            (std::vector<std::string>{"new A/0", "new C/0", "new D/0", "new A[]/0", "new Object/0",
                                      "new A/1", "new B/0", "new D/1", "untyped"}));
  const auto& h = facts.domain("H");
  const HeapMerge merge = {{h.at("new D/0"), "<D>"}, {h.at("new D/1"), "<D>"}};
  const FactDatabase merged = merge_heaps(facts, merge, order);
  EXPECT_EQ(merged.domain("H").names(),
            (std::vector<std::string>{"new A/0", "new C/0", "<D>", "new A[]/0", "new Object/0",
                                      "new A/1", "new B/0", "untyped"}));
  EXPECT_EQ(merged.jdk_part_size("H"), 4u);
  // An order that puts a program object among the JDK's leaves no part that is stable.
  std::vector<std::uint64_t> mixed(h.size());
  std::iota(mixed.begin(), mixed.end(), 0);
  std::swap(mixed[0], mixed[5]);
  EXPECT_EQ(merge_heaps(facts, {}, mixed).jdk_part_size("H"), 0u);
}

// Hostile class files can make two classes each other's superclass: both follow the tree, in
// element order, and the walk ends.
TEST(HeapNumberingTest, ClassesOnASuperclassCycleFollowTheTree) {
  FactDatabase facts = hierarchy_program();
  auto& types = facts.domain("T");
  const std::uint64_t x = types.intern("X"), y = types.intern("Y");
  facts.relation("ClassType").add({x});
  facts.relation("ClassType").add({y});
  facts.relation("DirectSuper").add({x, y});
  facts.relation("DirectSuper").add({y, x});
  auto& heaps = facts.domain("H");
  facts.relation("HeapType").add({heaps.intern("new Y/0"), y});
  facts.relation("HeapType").add({heaps.intern("new X/0"), x});
  const std::vector<std::string> names = names_in(facts, heaps_in_type_order(facts));
  std::vector<std::string> expected = kByType;
  expected.insert(expected.end() - 1, {"new X/0", "new Y/0"});
  EXPECT_EQ(names, expected);
}

TEST(HeapNumberingTest, MergeHeapsRejectsAnOrderThatIsNoPermutation) {
  const FactDatabase facts = hierarchy_program();
  std::vector<std::uint64_t> order = heaps_in_type_order(facts);
  order.pop_back();
  EXPECT_THROW(merge_heaps(facts, {}, order), std::invalid_argument);
  order.push_back(order.front());
  EXPECT_THROW(merge_heaps(facts, {}, order), std::invalid_argument);
  order.back() = 99;
  EXPECT_THROW(merge_heaps(facts, {}, order), std::invalid_argument);
}

TEST(HeapNumberingTest, ParsesBothValuesAndNamesABadOne) {
  EXPECT_EQ(parse_heap_numbering("by-type", "--heap-numbering"), HeapNumbering::kByType);
  EXPECT_EQ(parse_heap_numbering("first-seen", "--heap-numbering"), HeapNumbering::kFirstSeen);
  EXPECT_STREQ(to_string(HeapNumbering::kByType), "by-type");
  EXPECT_STREQ(to_string(HeapNumbering::kFirstSeen), "first-seen");
  try {
    parse_heap_numbering("random", "--heap-numbering");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--heap-numbering value 'random'"), std::string::npos);
  }
}

}  // namespace
}  // namespace refract::pointsto
