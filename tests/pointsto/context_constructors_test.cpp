// The context constructors of each flavour, checked tuple by tuple against a plain model of
// contexts as lists of elements, on domains small enough to enumerate every tuple.
#include "pointsto/context_constructors.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bdd/var_order.hpp"
#include "relations/domain_space.hpp"
#include "support/error.hpp"

namespace refract::pointsto {
namespace {

using Tuple = std::vector<std::uint64_t>;
// A context as its fields' raw bits, field 0 first: 0 is an empty field, a filled one is
// its presence bit followed by the element. Raw bits, so that the model also says what
// happens to bit patterns no run produces (absent with a non-zero value).
using Fields = std::vector<std::uint64_t>;

constexpr std::uint64_t kHeaps = 3;
constexpr std::uint64_t kInvokes = 2;
constexpr std::uint64_t kTypes = 2;
constexpr std::uint64_t kMethods = 2;          // callees: only cloning's constructors look at them
constexpr std::uint64_t kContextFreeHeap = 1;  // allocated with the empty heap context

Fields decode(std::uint64_t value, unsigned fields, unsigned field_bits) {
  Fields out;
  for (unsigned f = 0; f < fields; ++f) {
    out.push_back((value >> ((fields - 1 - f) * field_bits)) &
                  ((std::uint64_t{1} << field_bits) - 1));
  }
  return out;
}

std::uint64_t encode(const Fields& fields, unsigned field_bits) {
  std::uint64_t value = 0;
  for (const std::uint64_t f : fields) value = (value << field_bits) | f;
  return value;
}

// The element `e` as a filled field.
std::uint64_t filled(std::uint64_t e, unsigned field_bits) {
  return (std::uint64_t{1} << (field_bits - 1)) | e;
}

// `head` (if any) then the fields of `from`, cut or padded with empty fields to `n`.
Fields shifted(std::optional<std::uint64_t> head, const Fields& from, unsigned n) {
  Fields out;
  if (head) out.push_back(*head);
  for (const std::uint64_t f : from) {
    if (out.size() < n) out.push_back(f);
  }
  while (out.size() < n) out.push_back(0);
  return out;
}

struct Space {
  rel::DomainSpace space{bdd::ManagerSettings{200'000, 20'000}};
  ContextConstructors constructors;

  Space(const std::string& flavour_text, std::uint64_t element_count,
        ContextBits bits = ContextBits::kConsecutive) {
    constructors.flavour = parse_context_flavour(flavour_text, "--context");
    constructors.layout = context_layout(constructors.flavour, element_count, "--context");
    constructors.heap_classes = {{0, 1}, {1, 0}, {2, 1}};
    constructors.context_free_heaps = {kContextFreeHeap};
    constructors.heap_elements = kHeaps;
    for (const auto& [name, size] : std::vector<std::pair<std::string, std::uint64_t>>{
             {"H", kHeaps},
             {"I", kInvokes},
             {"T", kTypes},
             {"M", kMethods},
             {"C", constructors.layout.context_size},
             {"HC", constructors.layout.heap_context_size}}) {
      space.add_domain(name, size);
    }
    // As refract analyze lays them out.
    for (const auto& [name, lanes] : context_lanes(constructors.flavour, bits))
      space.set_lanes(*space.find_domain(name), lanes);
    space.lay_out(bdd::parse_var_order("H0_I0_M0_T0_C0xC1_HC0", space.instance_names()));
  }

  rel::Relation relation(const std::string& name, const std::vector<std::string>& instances) {
    std::vector<rel::Attribute> attributes;
    for (std::size_t a = 0; a < instances.size(); ++a) {
      const rel::PhysicalId p = *space.find_physical(instances[a]);
      attributes.push_back({"a" + std::to_string(a), space.physical(p).domain, p});
    }
    return rel::Relation(space, name, attributes);
  }

  // Tuples of `r` whose values are inside their domains.
  std::set<Tuple> tuples(const rel::Relation& r) const {
    bdd::Bdd valid = r.bdd();
    for (const rel::Attribute& a : r.attributes()) valid &= space.valid_values(a.physical);
    rel::Relation restricted = r;
    restricted.set_bdd(valid);
    std::set<Tuple> out;
    restricted.for_each_tuple(
        [&](std::span<const std::uint64_t> t) { out.emplace(t.begin(), t.end()); });
    return out;
  }

  unsigned k() const { return constructors.flavour.depth; }
  unsigned h() const { return constructors.flavour.heap_depth; }
  unsigned bits() const { return constructors.layout.field_bits; }
};

// The expected Merge tuples of a flavour, from the model.
std::set<Tuple> expected_merge(const Space& s) {
  std::set<Tuple> out;
  const ContextKind kind = s.constructors.flavour.kind;
  for (std::uint64_t heap = 0; heap < kHeaps; ++heap) {
    for (std::uint64_t hctx = 0; hctx < s.constructors.layout.heap_context_size; ++hctx) {
      for (std::uint64_t invoke = 0; invoke < kInvokes; ++invoke) {
        for (std::uint64_t ctx = 0; ctx < s.constructors.layout.context_size; ++ctx) {
          std::uint64_t callee = 0;
          const Fields heap_fields = decode(hctx, s.h(), s.bits());
          if (kind == ContextKind::kCall) {
            callee = encode(shifted(filled(invoke, s.bits()), decode(ctx, s.k(), s.bits()), s.k()),
                            s.bits());
          } else if (kind == ContextKind::kObject) {
            callee = encode(shifted(filled(heap, s.bits()), heap_fields, s.k()), s.bits());
          } else if (kind == ContextKind::kType) {
            const std::uint64_t type = heap == 1 ? 0 : 1;  // heap_classes above
            callee = encode(shifted(filled(type, s.bits()), heap_fields, s.k()), s.bits());
          } else if (ctx != 0 || hctx != 0) {
            continue;  // insens: the one context
          }
          for (std::uint64_t m = 0; m < kMethods; ++m)
            out.insert({heap, hctx, invoke, m, ctx, callee});
        }
      }
    }
  }
  return out;
}

struct ConstructorCase {
  std::string flavour;
  ContextBits bits = ContextBits::kConsecutive;
};

void PrintTo(const ConstructorCase& c, std::ostream* out) {
  *out << c.flavour << " " << to_string(c.bits);
}

// The relations do not depend on how the order places the context fields, only their BDDs.
class ContextConstructorsTest : public ::testing::TestWithParam<ConstructorCase> {};

TEST_P(ContextConstructorsTest, MergeMatchesTheModelOfContextsAsElementLists) {
  const std::string flavour = GetParam().flavour;
  const ContextKind kind = parse_context_flavour(flavour, "--context").kind;
  Space s(flavour,
          kind == ContextKind::kCall   ? kInvokes
          : kind == ContextKind::kType ? kTypes
                                       : kHeaps,
          GetParam().bits);
  rel::Relation merge = s.relation("Merge", {"H0", "HC0", "I0", "M0", "C0", "C1"});
  s.constructors.build_merge(merge);
  EXPECT_EQ(s.tuples(merge), expected_merge(s));
}

TEST_P(ContextConstructorsTest, RecordKeepsTheFirstFieldsOfTheAllocatingContextOrNone) {
  const std::string flavour = GetParam().flavour;
  const ContextKind kind = parse_context_flavour(flavour, "--context").kind;
  Space s(flavour,
          kind == ContextKind::kCall   ? kInvokes
          : kind == ContextKind::kType ? kTypes
                                       : kHeaps,
          GetParam().bits);
  rel::Relation record = s.relation("Record", {"H0", "C0", "HC0"});
  s.constructors.build_record(record);
  std::set<Tuple> expected;
  for (std::uint64_t heap = 0; heap < kHeaps; ++heap) {
    for (std::uint64_t ctx = 0; ctx < s.constructors.layout.context_size; ++ctx) {
      const Fields fields = decode(ctx, s.k(), s.bits());
      const std::uint64_t hctx = encode(shifted(std::nullopt, fields, s.h()), s.bits());
      expected.insert({heap, ctx, heap == kContextFreeHeap ? 0 : hctx});
    }
  }
  EXPECT_EQ(s.tuples(record), expected);
}

// The JDK's cached part has fewer objects than a program; a new object of the program may be
// context-free (a string constant) where the part's Record gave that number the allocating
// context. Tuples only for the facts' objects keep the part's Record within the program's, so
// that it seeds (solver/seeding.hpp); antlr's warm 2-type+H run solved VarPointsTo from nothing.
TEST_P(ContextConstructorsTest, RecordHoldsTuplesOnlyForTheFactsObjects) {
  const std::string flavour = GetParam().flavour;
  const ContextFlavour parsed = parse_context_flavour(flavour, "--context");
  Space s(flavour,
          parsed.kind == ContextKind::kCall   ? kInvokes
          : parsed.kind == ContextKind::kType ? kTypes
                                              : kHeaps,
          GetParam().bits);
  s.constructors.context_free_heaps = {};
  s.constructors.heap_elements = 1;  // the part: object 0 alone
  rel::Relation part = s.relation("Record", {"H0", "C0", "HC0"});
  s.constructors.build_record(part);
  if (parsed.heap_depth > 0) {  // without heap contexts every object has the empty one
    for (const Tuple& t : s.tuples(part)) EXPECT_EQ(t[0], 0u) << flavour;
  }
  s.constructors.context_free_heaps = {kContextFreeHeap};  // the program's new object 1 is free
  s.constructors.heap_elements = kHeaps;
  rel::Relation program = s.relation("Record", {"H0", "C0", "HC0"});
  s.constructors.build_record(program);
  EXPECT_TRUE((part.bdd() & !program.bdd()).is_zero()) << flavour << ": the part lost tuples";
}

TEST_P(ContextConstructorsTest, MergeStaticPushesTheCallSiteOrKeepsTheContext) {
  const std::string flavour = GetParam().flavour;
  const ContextKind kind = parse_context_flavour(flavour, "--context").kind;
  Space s(flavour,
          kind == ContextKind::kCall   ? kInvokes
          : kind == ContextKind::kType ? kTypes
                                       : kHeaps,
          GetParam().bits);
  rel::Relation merge = s.relation("MergeStatic", {"I0", "M0", "C0", "C1"});
  s.constructors.build_merge_static(merge);
  std::set<Tuple> expected;
  for (std::uint64_t invoke = 0; invoke < kInvokes; ++invoke) {
    for (std::uint64_t ctx = 0; ctx < s.constructors.layout.context_size; ++ctx) {
      const std::uint64_t callee =
          kind == ContextKind::kCall
              ? encode(shifted(filled(invoke, s.bits()), decode(ctx, s.k(), s.bits()), s.k()),
                       s.bits())
              : ctx;
      for (std::uint64_t m = 0; m < kMethods; ++m) expected.insert({invoke, m, ctx, callee});
    }
  }
  EXPECT_EQ(s.tuples(merge), expected);
}

// MethodContext is cloning's alone: under every other flavour no method gets contexts at once.
TEST_P(ContextConstructorsTest, MethodContextIsEmptyOutsideCloning) {
  Space s(GetParam().flavour, kHeaps, GetParam().bits);
  rel::Relation contexts = s.relation("MethodContext", {"M0", "C0"});
  s.constructors.build_method_contexts(contexts);
  EXPECT_TRUE(contexts.empty());
}

// NumberedCallEdge is cloning's alone: every other flavour finds its call graph on the fly.
TEST_P(ContextConstructorsTest, NumberedCallEdgeIsEmptyOutsideCloning) {
  Space s(GetParam().flavour, kHeaps, GetParam().bits);
  rel::Relation edges = s.relation("NumberedCallEdge", {"I0", "M0", "C0", "C1"});
  s.constructors.build_numbered_call_edges(edges);
  EXPECT_TRUE(edges.empty());
}

std::vector<ConstructorCase> constructor_cases() {
  std::vector<ConstructorCase> cases;
  for (const char* flavour : {"insens", "1-call", "2-call", "2-call+1H", "1-obj", "2-obj",
                              "2-obj+H", "3-obj+2H", "1-type", "2-type+H"}) {
    cases.push_back({flavour, ContextBits::kConsecutive});
    cases.push_back({flavour, ContextBits::kInterleaved});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Flavours, ContextConstructorsTest,
                         ::testing::ValuesIn(constructor_cases()),
                         [](const ::testing::TestParamInfo<ConstructorCase>& info) {
                           std::string name = info.param.flavour + "_" + to_string(info.param.bits);
                           std::replace_if(
                               name.begin(), name.end(),
                               [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
                               '_');
                           return name;
                         });

// A relation of `space` over the named instances, each attribute named for its instance.
rel::Relation relation_over(const rel::DomainSpace& space, const std::string& name,
                            std::initializer_list<const char*> instances) {
  std::vector<rel::Attribute> attributes;
  for (const char* instance : instances) {
    const rel::PhysicalId p = *space.find_physical(instance);
    attributes.push_back({instance, space.physical(p).domain, p});
  }
  return rel::Relation(space, name, attributes);
}

std::set<Tuple> tuples_of(const rel::Relation& r) {
  std::set<Tuple> out;
  r.for_each_tuple([&](std::span<const std::uint64_t> t) { out.emplace(t.begin(), t.end()); });
  return out;
}

// Cloning's constructors over a context domain of 2^context_bits elements.
ContextConstructors cloning_constructors(unsigned context_bits) {
  ContextConstructors constructors;
  constructors.flavour = parse_context_flavour("cloning", "--context");
  constructors.cloning.context_bits = context_bits;
  return constructors;
}

// [Cloning's contexts at once] each method listed by the numbering has the contexts
// [0, paths), and no other method has any.
TEST(CloningConstructorsTest, MethodContextIsEachListedMethodsRangeOfContexts) {
  rel::DomainSpace space{bdd::ManagerSettings{100'000, 10'000}};
  space.add_domain("M", 4);
  space.add_domain("C", 8);
  space.lay_out(bdd::parse_var_order("M0_C0", space.instance_names()));
  ContextConstructors constructors = cloning_constructors(3);
  constructors.cloning.acyclic_method_contexts = {{0, 1}, {2, 5}, {3, 8}};
  rel::Relation contexts = relation_over(space, "MethodContext", {"M0", "C0"});
  constructors.build_method_contexts(contexts);
  std::set<Tuple> expected = {{0, 0}};
  for (std::uint64_t c = 0; c < 5; ++c) expected.insert({2, c});
  for (std::uint64_t c = 0; c < 8; ++c) expected.insert({3, c});
  EXPECT_EQ(tuples_of(contexts), expected);
}

// [Cloning's call graph] each numbered edge (invoke, callee) maps each of its caller's
// contexts c to c + offset, or to c itself on a cycle, and nothing else is an edge.
TEST(CloningConstructorsTest, NumberedCallEdgeIsTheNumberedEdgesOfThePrePass) {
  rel::DomainSpace space{bdd::ManagerSettings{100'000, 10'000}};
  space.add_domain("I", 4);
  space.add_domain("M", 4);
  space.add_domain("C", 8);
  space.lay_out(bdd::parse_var_order("I0_M0_C0xC1", space.instance_names()));
  ContextConstructors constructors = cloning_constructors(3);
  // main (1 context) calls a at sites 0 and 1 (a's contexts 0 and 1); a calls b at site 2
  // (offset 3: b's contexts 3 and 4 of its 5, the others from edges left out here); b calls
  // itself at site 3 (a cycle: each of its 5 contexts stays)
  constructors.cloning.edges = {
      {0, 1, 1, 0, false}, {1, 1, 1, 1, false}, {2, 2, 2, 3, false}, {3, 2, 5, 0, true}};
  rel::Relation edges = relation_over(space, "NumberedCallEdge", {"I0", "M0", "C0", "C1"});
  constructors.build_numbered_call_edges(edges);
  std::set<Tuple> expected = {{0, 1, 0, 0}, {1, 1, 0, 1}, {2, 2, 0, 3}, {2, 2, 1, 4}};
  for (std::uint64_t c = 0; c < 5; ++c) expected.insert({3, 2, c, c});
  EXPECT_EQ(tuples_of(edges), expected);
}

// Nodes of 3-obj+2H's Merge with `element_count` receiver objects, under `bits`.
std::uint64_t merge_nodes(std::uint64_t element_count, ContextBits bits) {
  rel::DomainSpace space{bdd::ManagerSettings{1'000'000, 100'000}};
  ContextConstructors constructors;
  constructors.flavour = parse_context_flavour("3-obj+2H", "--context");
  constructors.layout = context_layout(constructors.flavour, element_count, "--context");
  for (const auto& [name, size] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"H", element_count},
           {"I", 2},
           {"M", 2},
           {"C", constructors.layout.context_size},
           {"HC", constructors.layout.heap_context_size}}) {
    space.add_domain(name, size);
  }
  for (const auto& [name, lanes] : context_lanes(constructors.flavour, bits))
    space.set_lanes(*space.find_domain(name), lanes);
  space.lay_out(bdd::parse_var_order("I0_M0_C0xC1xHC0xH0", space.instance_names()));
  rel::Relation merge = relation_over(space, "Merge", {"H0", "HC0", "I0", "M0", "C0", "C1"});
  constructors.build_merge(merge);
  return merge.bdd().node_count();
}

// Merge's callee context is the receiver, then the receiver's heap context one field down.
// Fields one after another make that a copy shifted by a whole field, 2^field_bits nodes per
// level (antlr, 17-bit fields: not built in 8 minutes); interleaved, a few nodes per bit.
TEST(ContextBitsTest, InterleavedFieldsKeepTheShiftedCopiesOfMergeSmall) {
  const std::uint64_t small = merge_nodes(std::uint64_t{1} << 6, ContextBits::kInterleaved);
  const std::uint64_t large = merge_nodes(std::uint64_t{1} << 9, ContextBits::kInterleaved);
  EXPECT_LT(large, 2 * small) << "interleaved: " << small << " -> " << large << " nodes";
  const std::uint64_t consecutive = merge_nodes(std::uint64_t{1} << 9, ContextBits::kConsecutive);
  EXPECT_GT(consecutive, 20 * large) << "consecutive " << consecutive << ", interleaved " << large;
}

TEST(ContextBitsTest, DefaultIsInterleavedWhereMergeCopiesTwoFieldsOneFieldDown) {
  for (const char* flavour : {"3-call", "4-call+H", "3-obj+2H", "4-type+3H", "4-obj+2H"}) {
    EXPECT_EQ(default_context_bits(parse_context_flavour(flavour, "--context")),
              ContextBits::kInterleaved)
        << flavour;
  }
  for (const char* flavour :
       {"insens", "cloning", "1-call", "2-call+H", "2-obj+H", "2-type+H", "3-obj", "4-obj+1H"}) {
    EXPECT_EQ(default_context_bits(parse_context_flavour(flavour, "--context")),
              ContextBits::kConsecutive)
        << flavour;
  }
}

TEST(DefaultScheduleTest, CheapFirstWhereObjectsHaveHeapContexts) {
  for (const char* flavour : {"2-obj+H", "2-type+H", "3-obj+2H", "2-call+H", "1-call+1H"}) {
    EXPECT_EQ(default_schedule(parse_context_flavour(flavour, "--context")), "cheap-first")
        << flavour;
  }
  for (const char* flavour : {"insens", "cloning", "1-call", "2-call", "1-obj", "3-obj"}) {
    EXPECT_EQ(default_schedule(parse_context_flavour(flavour, "--context")), "rule-fixpoint")
        << flavour;
  }
}

// Measured on antlr warm: a first sweep under 2-type+H (92 s, against 260 s from the seed's
// prefixes) and 2-obj+H (160 s); the seed's prefixes under insens, where a first sweep took
// 177-181 s against 48 s.
TEST(SeededFirstSweepTest, WhereObjectsHaveHeapContexts) {
  for (const char* flavour : {"2-obj+H", "2-type+H", "3-obj+2H", "1-call+1H"})
    EXPECT_TRUE(seeded_first_sweep(parse_context_flavour(flavour, "--context"))) << flavour;
  for (const char* flavour : {"insens", "1-call", "2-call", "3-obj"})
    EXPECT_FALSE(seeded_first_sweep(parse_context_flavour(flavour, "--context"))) << flavour;
}

TEST(ContextBitsTest, ParsesBothLayoutsAndRejectsOthersNamingTheOption) {
  EXPECT_EQ(parse_context_bits("consecutive", "--context-bits"), ContextBits::kConsecutive);
  EXPECT_EQ(parse_context_bits("interleaved", "--context-bits"), ContextBits::kInterleaved);
  try {
    parse_context_bits("lanes", "--context-bits");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "--context-bits");
  }
}

TEST(ContextFlavourTest, ParsesDepthsAndHeapContexts) {
  EXPECT_EQ(parse_context_flavour("2-obj+H", "--context").heap_depth, 1U);
  EXPECT_EQ(parse_context_flavour("3-obj+2H", "--context").heap_depth, 2U);
  EXPECT_EQ(parse_context_flavour("4-type", "--context").depth, 4U);
  EXPECT_EQ(parse_context_flavour("cloning", "--context").kind, ContextKind::kCloning);
}

TEST(ContextFlavourTest, RejectsUnknownFlavoursNamingTheOption) {
  for (const char* bad : {"", "0-call", "5-obj", "2-objs", "2-obj+", "2-obj+3H", "1-call+H",
                          "2-obj+0H", "k-obj", "insensitive", "2-obj+HH"}) {
    SCOPED_TRACE(bad);
    try {
      parse_context_flavour(bad, "--context");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().file, "--context");
      EXPECT_NE(std::string(e.what()).find("unknown context flavour"), std::string::npos);
    }
  }
}

TEST(ContextFlavourTest, ContextWiderThan62BitsIsAnError) {
  const ContextFlavour flavour = parse_context_flavour("4-call", "--context");
  EXPECT_NO_THROW(context_layout(flavour, std::uint64_t{1} << 14, "--context"));
  EXPECT_THROW(context_layout(flavour, std::uint64_t{1} << 16, "--context"), InputError);
}

}  // namespace
}  // namespace refract::pointsto
