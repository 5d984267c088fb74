// Relations as text: bddbddb's .tuples format read and written against
// hand-written golden text, '*' and 'lo-hi' fields, TSV with element names,
// and the FILE:LINE:COL of every kind of malformed .tuples file.
#include "relations/tuple_io.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "relations/relations_test_util.hpp"
#include "support/error.hpp"

namespace refract::rel::test {
namespace {

// V has 6 elements in 3 bits, H 4 in 2: '*' must stop at 5 for V, not 7.
const std::vector<std::pair<std::string, std::uint64_t>> kDomains{{"V", 6}, {"H", 4}};
const std::vector<std::pair<std::string, std::string>> kVP{{"v", "V0"}, {"h", "H0"}};

class TupleIoTest : public TempDirTest {
 protected:
  // Reads `text` as vP's .tuples and returns the message of the InputError.
  std::string read_error(const std::string& text) {
    Space s(kDomains, "V0_H0");
    Relation r = s.relation("vP", kVP);
    const std::filesystem::path file = write("vP.tuples", text);
    try {
      read_tuples(file, r);
    } catch (const InputError& e) {
      const std::string prefix = file.string() + ":";
      EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0U) << e.what();
      return std::string(e.what()).substr(prefix.size());
    }
    return "no error";
  }
};

TEST_F(TupleIoTest, ReadsNumbersSkippingCommentsBlankLinesAndDuplicates) {
  Space s(kDomains, "V0_H0");
  Relation r = s.relation("vP", kVP);
  const std::optional<std::uint64_t> counted = read_tuples(write("vP.tuples",
                                                                 "# V0:3 H0:2\n"
                                                                 "5 3\n"
                                                                 "# a comment\n"
                                                                 "\n"
                                                                 "  0\t1  \n"
                                                                 "2 0\n"
                                                                 "0 1\n"),
                                                           r);
  EXPECT_EQ(tuples_of(r), (Tuples{{0, 1}, {2, 0}, {5, 3}}));
  EXPECT_EQ(r.size().to_string(), "3");
  EXPECT_EQ(counted, std::optional<std::uint64_t>(3));  // what the reader counted, duplicates once
}

TEST_F(TupleIoTest, ReadsWindowsLineEndings) {
  Space s(kDomains, "V0_H0");
  Relation r = s.relation("vP", kVP);
  read_tuples(write("vP.tuples", "# V0:3 H0:2\r\n4 2\r\n1 0\r\n"), r);
  EXPECT_EQ(tuples_of(r), (Tuples{{1, 0}, {4, 2}}));
}

TEST_F(TupleIoTest, StarCoversExactlyTheDomainAndRangesAreInclusive) {
  Space s(kDomains, "V0_H0");
  Relation r = s.relation("vP", kVP);
  const std::optional<std::uint64_t> counted =
      read_tuples(write("vP.tuples",
                        "# V0:3 H0:2\n"
                        "* 1\n"    // V 0..5 (not 6, 7: the domain has 6 elements)
                        "2-4 0\n"  // V 2, 3, 4
                        "3-3 3\n"  // a one-value range
                        "5 2-3\n"  // ranges on any column
                        "1 2\n"),  // plain lines mix with ranged ones
                  r);
  EXPECT_EQ(tuples_of(r), (Tuples{{0, 1},
                                  {1, 1},
                                  {1, 2},
                                  {2, 0},
                                  {2, 1},
                                  {3, 0},
                                  {3, 1},
                                  {3, 3},
                                  {4, 0},
                                  {4, 1},
                                  {5, 1},
                                  {5, 2},
                                  {5, 3}}));
  EXPECT_EQ(r.size().to_string(), "13");
  EXPECT_EQ(counted, std::nullopt);  // ranges overlap: the reader leaves the count to the BDD
}

TEST_F(TupleIoTest, HeaderMayNameAnyInstanceOfTheAttributesDomain) {
  // bddbddb writes the instance it used; reading may bind other instances.
  Space s(kDomains, "V0_V1_H0");
  Relation r = s.relation("vP", {{"v", "V1"}, {"h", "H0"}});
  read_tuples(write("vP.tuples", "# V0:3 H2:2\n3 1\n"), r);
  EXPECT_EQ(tuples_of(r), (Tuples{{3, 1}}));
}

TEST_F(TupleIoTest, WritesTheGoldenText) {
  Space s(kDomains, "V0_H0");
  Relation r = s.relation("vP", kVP, {{5, 3}, {0, 1}, {2, 0}});
  write_tuples(dir_ / "vP.tuples", r);
  EXPECT_EQ(read_text(dir_ / "vP.tuples"), "# V0:3 H0:2\n0 1\n2 0\n5 3\n");
  EXPECT_EQ(files(), std::vector<std::string>{"vP.tuples"});  // no temporary file left
}

TEST_F(TupleIoTest, HeaderNamesTheInstancesAndLinesFollowTheVariableOrder) {
  // H above V: tuples stream sorted by h first; columns stay in attribute order.
  Space s(kDomains, "H0_V0xV1");
  Relation r = s.relation("pair", {{"a", "V1"}, {"b", "V0"}, {"h", "H0"}},
                          {{5, 0, 0}, {0, 1, 3}, {2, 4, 1}});
  write_tuples(dir_ / "pair.tuples", r);
  EXPECT_EQ(read_text(dir_ / "pair.tuples"), "# V1:3 V0:3 H0:2\n5 0 0\n2 4 1\n0 1 3\n");
}

TEST_F(TupleIoTest, EmptyRelationIsJustTheHeader) {
  Space s(kDomains, "V0_H0");
  write_tuples(dir_ / "vP.tuples", s.relation("vP", kVP));
  EXPECT_EQ(read_text(dir_ / "vP.tuples"), "# V0:3 H0:2\n");
}

TEST_F(TupleIoTest, RoundTripKeepsTheVeryBddAndMovesAcrossInstances) {
  const std::vector<std::pair<std::string, std::uint64_t>> domains{{"V", 1000}, {"H", 37}};
  Space s(domains, "V0xV1_H0xH1");
  std::mt19937_64 random(7);
  Tuples tuples;
  for (int i = 0; i < 3000; ++i) tuples.push_back({random() % 1000, random() % 37});
  const Relation r = s.relation("vP", {{"v", "V0"}, {"h", "H0"}}, tuples);
  write_tuples(dir_ / "vP.tuples", r);

  Relation same = s.relation("vP", {{"v", "V0"}, {"h", "H0"}});
  const std::optional<std::uint64_t> counted = read_tuples(dir_ / "vP.tuples", same);
  EXPECT_TRUE(same.bdd() == r.bdd());
  ASSERT_TRUE(counted.has_value());
  EXPECT_EQ(std::to_string(*counted), r.size().to_string());

  Relation moved = s.relation("vP", {{"v", "V1"}, {"h", "H1"}});
  read_tuples(dir_ / "vP.tuples", moved);
  EXPECT_EQ(tuples_of(moved), tuples_of(r));
  EXPECT_FALSE(moved.bdd() == r.bdd());  // other variables, same tuples
}

TEST_F(TupleIoTest, BddFromTuplesEqualsTheUnionOfMinterms) {
  const std::vector<std::pair<std::string, std::uint64_t>> domains{{"V", 100}, {"H", 5}};
  Space s(domains, "H0_V0xV1");
  const Relation shape = s.relation("r", {{"a", "V0"}, {"b", "H0"}, {"c", "V1"}});
  std::mt19937_64 random(11);
  Tuples tuples;
  for (int i = 0; i < 500; ++i) tuples.push_back({random() % 100, random() % 5, random() % 100});
  tuples.push_back(tuples.front());  // a duplicate, out of order
  bdd::Bdd expected = bdd::Bdd::zero();
  for (const auto& t : tuples) {
    bdd::Bdd minterm = bdd::Bdd::one();
    for (std::size_t i = 0; i < t.size(); ++i)
      minterm &= s.space.physical(shape.attributes()[i].physical).block.equals_constant(t[i]);
    expected |= minterm;
  }
  EXPECT_TRUE(bdd_from_tuples(shape, tuples) == expected);
}

TEST_F(TupleIoTest, TsvUsesElementNamesAndNumbersWhereTheMapEnds) {
  Space s(kDomains, "V0_H0");
  // V's map names elements 0-2 only; H has no map.
  s.space.set_map(*s.space.find_domain("V"),
                  ElementMap::from_names({"<A: void m()>/x", "<A: void m()>/y", "z"}));
  const Relation r = s.relation("vP", kVP, {{1, 3}, {0, 0}, {4, 2}});
  write_tsv(dir_ / "vP.tsv", r);
  EXPECT_EQ(read_text(dir_ / "vP.tsv"), "<A: void m()>/x\t0\n<A: void m()>/y\t3\n4\t2\n");
  EXPECT_EQ(files(), std::vector<std::string>{"vP.tsv"});
}

TEST_F(TupleIoTest, WritingIntoAMissingDirectoryNamesTheFileAndLeavesNothing) {
  Space s(kDomains, "V0_H0");
  const Relation r = s.relation("vP", kVP, {{1, 1}});
  const std::filesystem::path target = dir_ / "absent" / "vP.tuples";
  try {
    write_tuples(target, r);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, target.string());
  }
  EXPECT_EQ(files(), std::vector<std::string>{});
}

// --- Errors: FILE:LINE:COL and the message -----------------------------------

TEST_F(TupleIoTest, ValueOutsideTheDomainPointsAtTheField) {
  EXPECT_EQ(read_error("# V0:3 H0:2\n0 1\n\n1   6\n"), "4:5: value 6 is outside domain H (size 4)");
  EXPECT_EQ(read_error("# V0:3 H0:2\n6 0\n"), "2:1: value 6 is outside domain V (size 6)");
}

TEST_F(TupleIoTest, RangeReachingPastTheDomainIsOutside) {
  EXPECT_EQ(read_error("# V0:3 H0:2\n0 1\n 1-6 0\n"), "3:2: value 6 is outside domain V (size 6)");
}

TEST_F(TupleIoTest, MalformedAndEmptyRanges) {
  EXPECT_EQ(read_error("# V0:3 H0:2\n3-x 0\n"), "2:1: malformed range '3-x'");
  EXPECT_EQ(read_error("# V0:3 H0:2\n0 3-\n"), "2:3: malformed range '3-'");
  EXPECT_EQ(read_error("# V0:3 H0:2\n4-2 0\n"), "2:1: empty range '4-2'");
}

TEST_F(TupleIoTest, NonNumbersNegativesAndOverflowAreNotNumbers) {
  EXPECT_EQ(read_error("# V0:3 H0:2\n0 one\n"),
            "2:3: expected a number, '*' or 'lo-hi', found 'one'");
  EXPECT_EQ(read_error("# V0:3 H0:2\n-1 0\n"),
            "2:1: expected a number, '*' or 'lo-hi', found '-1'");
  EXPECT_EQ(read_error("# V0:3 H0:2\n0 1x\n"),
            "2:3: expected a number, '*' or 'lo-hi', found '1x'");
  EXPECT_EQ(read_error("# V0:3 H0:2\n99999999999999999999 0\n"),
            "2:1: expected a number, '*' or 'lo-hi', found '99999999999999999999'");
}

TEST_F(TupleIoTest, WrongFieldCountPointsAtTheFirstExtraFieldOrTheLineEnd) {
  EXPECT_EQ(read_error("# V0:3 H0:2\n0 1 2\n"), "2:5: expected 2 fields, found 3");
  EXPECT_EQ(read_error("# V0:3 H0:2\n0 1\n3\n"), "3:2: expected 2 fields, found 1");
}

TEST_F(TupleIoTest, MissingOrMalformedHeader) {
  EXPECT_EQ(read_error(""), "1:1: empty tuples file: no header");
  EXPECT_EQ(read_error("0 1\n"), "1:1: expected a header line like '# V0:16 H0:14'");
  EXPECT_EQ(read_error("# V0:3\n0\n"), "1:1: header names 1 columns but relation vP has 2");
  EXPECT_EQ(read_error("# V0:3 H0\n0 1\n"), "1:8: header column 'H0' is not NAME:BITS");
  EXPECT_EQ(read_error("# V0:3 H0:x\n0 1\n"), "1:8: header column 'H0:x' is not NAME:BITS");
  EXPECT_EQ(read_error("# V0:3 VH0:2\n0 1\n"),
            "1:8: header column 'VH0' is not of domain H (attribute h of vP)");
  EXPECT_EQ(read_error("# H0:2 V0:3\n0 1\n"),
            "1:3: header column 'H0' is not of domain V (attribute v of vP)");
}

TEST_F(TupleIoTest, MissingFileNamesTheRelation) {
  Space s(kDomains, "V0_H0");
  Relation r = s.relation("vP", kVP);
  try {
    read_tuples(dir_ / "absent.tuples", r);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir_ / "absent.tuples").string() + ": cannot open tuples file for relation vP");
  }
}

// Hostile .tuples text reads into tuples of the domains or gets an InputError naming the file,
// never anything else: edits of a file with ranges, '*', a comment and a Windows line end.
TEST_F(TupleIoTest, MutatedFilesReadOrFailCleanly) {
  Space s(kDomains, "V0_H0");
  const std::string original = "# V0:3 H0:2\n0 1\n5 3\n# comment\n2-4 *\n\n1 0\r\n";
  std::mt19937 random(20261127);
  int read = 0, refused = 0;
  for (int round = 0; round < 1000; ++round) {
    const std::filesystem::path file =
        write("vP.tuples", mutated(original, random, "0123456789 -*#:\n\rVH\t"));
    Relation r = s.relation("vP", kVP);
    try {
      read_tuples(file, r);
      ++read;
      for (const std::vector<std::uint64_t>& t : tuples_of(r)) {
        EXPECT_LT(t[0], 6U);
        EXPECT_LT(t[1], 4U);
      }
    } catch (const InputError& e) {
      ++refused;
      EXPECT_EQ(std::string(e.what()).rfind(file.string() + ":", 0), 0U) << e.what();
    }
  }
  EXPECT_GT(read, 0);
  EXPECT_GT(refused, 0);
}

// --- Inputs grown from a seed (read_tuples_beyond) -----------------------------------------

TEST_F(TupleIoTest, AFingerprintCountsLinesNotTheirOrder) {
  TupleFingerprint a, b, c;
  for (const std::vector<std::uint64_t>& t : {std::vector<std::uint64_t>{0, 1}, {2, 3}, {4, 0}})
    a.add(t);
  for (const std::vector<std::uint64_t>& t : {std::vector<std::uint64_t>{4, 0}, {0, 1}, {2, 3}})
    b.add(t);
  for (const std::vector<std::uint64_t>& t : {std::vector<std::uint64_t>{0, 1}, {3, 2}, {4, 0}})
    c.add(t);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);  // (2, 3) is not (3, 2)
  TupleFingerprint twice = a;
  twice.add(std::vector<std::uint64_t>{0, 1});
  EXPECT_NE(a, twice);  // a repeated line counts
}

// The seed had V 0..3 and H 0..2: its file's lines, then a file with them and more.
class TuplesBeyondTest : public TupleIoTest {
 protected:
  TupleFingerprint seed_lines() {
    Space s(kDomains, "V0_H0");
    Relation r = s.relation("vP", kVP);
    TupleFingerprint f;
    read_tuples(write("seed.tuples", "# V0:3 H0:2\n0 1\n3 2\n"), r, &f);
    return f;
  }
  // What read_tuples_beyond makes of `text`, as tuples; nothing when it refuses.
  std::optional<Tuples> beyond(const std::string& text) {
    const TupleFingerprint seed = seed_lines();  // one BDD manager at a time
    Space s(kDomains, "V0_H0");
    Relation r = s.relation("vP", kVP);
    const auto read = read_tuples_beyond(write("vP.tuples", text), r, {4, 3}, seed);
    if (!read) return std::nullopt;
    r.set_bdd(read->bdd);
    return tuples_of(r);
  }
};

TEST_F(TuplesBeyondTest, TheLinesPastTheSeedsDomainsAreBuiltWhenTheOthersAreTheSeeds) {
  EXPECT_EQ(beyond("# V0:3 H0:2\n3 2\n5 0\n0 1\n1 3\n"), (Tuples{{1, 3}, {5, 0}}));
  EXPECT_EQ(beyond("# V0:3 H0:2\n0 1\n3 2\n"), Tuples{});
}

TEST_F(TuplesBeyondTest, AnythingElseWithinTheSeedsDomainsIsRefused) {
  EXPECT_EQ(beyond("# V0:3 H0:2\n0 1\n3 2\n1 1\n5 0\n"), std::nullopt);  // a new old pair
  EXPECT_EQ(beyond("# V0:3 H0:2\n0 1\n5 0\n"), std::nullopt);            // a seed's gone
  EXPECT_EQ(beyond("# V0:3 H0:2\n0 1\n3 2\n3 2\n"), std::nullopt);       // one twice
  EXPECT_EQ(beyond("# V0:3 H0:2\n0 1\n3 2\n4-5 0\n"), std::nullopt);     // a range
}

TEST_F(TuplesBeyondTest, MalformedLinesAreErrorsAsForReadTuples) {
  Space s(kDomains, "V0_H0");
  Relation r = s.relation("vP", kVP);
  EXPECT_THROW(read_tuples_beyond(write("vP.tuples", "# V0:3 H0:2\n0 x\n"), r, {4, 3}, {}),
               InputError);
}

}  // namespace
}  // namespace refract::rel::test
