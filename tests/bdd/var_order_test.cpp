#include "bdd/var_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "support/text_mutation.hpp"

namespace refract::bdd {
namespace {

const std::vector<std::string> kKnown = {"V0", "V1", "H0", "H1", "F0", "Ix0", "I_x0", "I0"};

TEST(VarOrderTest, ParsesBlocksAndInterleavingGolden) {
  const VarOrder order = parse_var_order("V0xV1_H0_F0xH1", kKnown);
  ASSERT_EQ(order.blocks.size(), 3u);
  EXPECT_EQ(order.blocks[0], (std::vector<std::string>{"V0", "V1"}));
  EXPECT_EQ(order.blocks[1], (std::vector<std::string>{"H0"}));
  EXPECT_EQ(order.blocks[2], (std::vector<std::string>{"F0", "H1"}));
  EXPECT_EQ(order.to_string(), "V0xV1_H0_F0xH1");
}

TEST(VarOrderTest, NamesContainingSeparatorsTakeTheLongestMatch) {
  const VarOrder order = parse_var_order("Ix0xI_x0_I0", kKnown);
  EXPECT_EQ(order.names(), (std::vector<std::string>{"Ix0", "I_x0", "I0"}));
}

TEST(VarOrderTest, RepeatedDomainIsAnErrorAtItsColumn) {
  try {
    parse_var_order("V0_H0_V0", kKnown);
    FAIL() << "expected an error";
  } catch (const VarOrderError& e) {
    EXPECT_EQ(e.column(), 7u);
    EXPECT_STREQ(e.what(), "domain 'V0' appears twice in variable order");
  }
}

TEST(VarOrderTest, UnknownDomainIsAnErrorAtItsColumn) {
  try {
    parse_var_order("V0_Q7", kKnown);
    FAIL() << "expected an error";
  } catch (const VarOrderError& e) {
    EXPECT_EQ(e.column(), 4u);
    EXPECT_STREQ(e.what(), "unknown domain 'Q7' in variable order");
  }
}

TEST(VarOrderTest, TrailingOrDoubledSeparatorIsAnError) {
  EXPECT_THROW(parse_var_order("V0_", kKnown), VarOrderError);
  EXPECT_THROW(parse_var_order("V0__H0", kKnown), VarOrderError);
  EXPECT_THROW(parse_var_order("", kKnown), VarOrderError);
}

TEST(VarOrderTest, InterleavingAlignsMostSignificantBits) {
  const VarOrder order = parse_var_order("H0_V0xF0", kKnown);
  // H0: 2 bits, V0: 3 bits, F0: 1 bit.
  const auto blocks = lay_out(order, {{"H0", 2}, {"V0", 3}, {"F0", 1}}, 0);
  EXPECT_EQ(blocks.at("H0").vars, (std::vector<int>{0, 1}));
  // Round 0: V0's MSB then F0's only bit; then V0's remaining bits.
  EXPECT_EQ(blocks.at("V0").vars, (std::vector<int>{2, 4, 5}));
  EXPECT_EQ(blocks.at("F0").vars, (std::vector<int>{3}));
}

// A domain of two 2-bit fields in lanes interleaves its fields as two domains would: field 1's
// MSB sits beside field 0's, and beside the MSB of a one-field domain.
TEST(VarOrderTest, LanesInterleaveEachFieldAsADomainOfItsOwn) {
  const VarOrder order = parse_var_order("V0xH0_F0", kKnown);
  const auto blocks = lay_out(order, {{"V0", 4}, {"H0", 2}, {"F0", 1}}, 0, {{"V0", 2}});
  // Round 0: V0 field 0 bit 0, V0 field 1 bit 0, H0 bit 0; round 1 likewise.
  EXPECT_EQ(blocks.at("V0").vars, (std::vector<int>{0, 3, 1, 4}));
  EXPECT_EQ(blocks.at("H0").vars, (std::vector<int>{2, 5}));
  EXPECT_EQ(blocks.at("F0").vars, (std::vector<int>{6}));
}

TEST(VarOrderTest, LanesThatDoNotDivideTheWidthAreAnError) {
  const VarOrder order = parse_var_order("V0", kKnown);
  EXPECT_THROW(lay_out(order, {{"V0", 5}}, 0, {{"V0", 2}}), std::invalid_argument);
  EXPECT_THROW(lay_out(order, {{"V0", 4}}, 0, {{"V0", 0}}), std::invalid_argument);
}

// A hostile --order or .bddvarorder parses into known, unrepeated names or gets a
// VarOrderError at a column of the text, never anything else.
TEST(VarOrderTest, MutatedOrdersParseOrFailAtAColumn) {
  const std::string original = "V0xV1_H0_F0xH1xI_x0_Ix0";
  std::mt19937 random(20261127);
  int parsed = 0, refused = 0;
  for (int round = 0; round < 2000; ++round) {
    const std::string text = refract::test::mutated(original, random, "VHFI01x_ ");
    try {
      const std::vector<std::string> names = parse_var_order(text, kKnown).names();
      ++parsed;
      EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << text;
      for (const std::string& name : names)
        EXPECT_NE(std::find(kKnown.begin(), kKnown.end(), name), kKnown.end()) << text;
    } catch (const VarOrderError& e) {
      ++refused;
      EXPECT_GE(e.column(), 1U) << text;
      EXPECT_LE(e.column(), text.size() + 1) << text;
    }
  }
  EXPECT_GT(parsed, 0);
  EXPECT_GT(refused, 0);
}

// Instance names V0..V3, H0..H3, FD0..FD7, C0..C3 with their domains, as the solver gives them.
std::map<std::string, std::string> domains_of_instances() {
  std::map<std::string, std::string> out;
  for (const char* domain : {"V", "H", "FD", "C"})
    for (int k = 0; k < 8; ++k) out[domain + std::to_string(k)] = domain;
  return out;
}

// [c_pa.datalog's order names FD0-FD4 and V3; its rules need FD5 and no V3] As bddbddb's
// BDDSolver.fixVarOrder: FD5 in front of FD4 joined by its 'x'; V3 dropped with its 'x'.
TEST(VarOrderTest, CompletionAddsAnInstanceInFrontOfTheLastOfItsDomain) {
  const CompletedVarOrder done = complete_var_order(
      "C0xC1xC2_V0xV1_V2xV3_FD0xFD1xFD2xFD3xFD4",
      {"V0", "V1", "V2", "FD0", "FD1", "FD2", "FD3", "FD4", "FD5", "C0", "C1", "C2"},
      domains_of_instances());
  EXPECT_EQ(done.text, "C0xC1xC2_V0xV1_V2_FD0xFD1xFD2xFD3xFD5xFD4");
  EXPECT_EQ(done.notes,
            (std::vector<std::string>{"added FD5 in front of FD4",
                                      "dropped V3, an instance the program does not use"}));
}

// No instance of the domain after the first name: a block of its own at the top. A dropped
// first name takes the separator after it; `_X` before an `x` keeps the `_`.
TEST(VarOrderTest, CompletionPutsAnUnplacedDomainOnTopAndDropsAsBddbddb) {
  EXPECT_EQ(complete_var_order("V0xV1_C0", {"V0", "V1", "C0", "H0"}, domains_of_instances()).text,
            "H0_V0xV1_C0");
  EXPECT_EQ(complete_var_order("H0_V0", {"V0", "H0", "H1"}, domains_of_instances()).text,
            "H1_H0_V0");  // H0 starts the order: bddbddb puts H1 on top too
  EXPECT_EQ(complete_var_order("H5_V0", {"V0", "H0"}, domains_of_instances()).text, "H0_V0");
  EXPECT_EQ(complete_var_order("Q0xV0_H0", {"V0", "H0"}, domains_of_instances()).text, "V0_H0");
  EXPECT_EQ(complete_var_order("H0_Q0xV0", {"V0", "H0"}, domains_of_instances()).text, "H0_V0");
  EXPECT_EQ(complete_var_order("H0xQ0_V0", {"V0", "H0"}, domains_of_instances()).text, "H0_V0");
  const CompletedVarOrder unknown = complete_var_order("V0_Q7", {"V0"}, domains_of_instances());
  EXPECT_EQ(unknown.text, "V0");
  EXPECT_EQ(unknown.notes,
            std::vector<std::string>{"dropped Q7, which names no instance of a declared domain"});
  // Text that is not names and separators stays for the parser to report.
  EXPECT_EQ(complete_var_order("V0__H0", {"V0"}, domains_of_instances()).text, "V0__H0");
  EXPECT_EQ(complete_var_order("V0_", {"V0"}, domains_of_instances()).text, "V0_");
}

}  // namespace
}  // namespace refract::bdd
