#include "relations/bdd_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bdd/var_order.hpp"
#include "relations/relations_test_util.hpp"
#include "relations/tuple_io.hpp"
#include "support/atomic_file.hpp"
#include "support/error.hpp"

namespace refract::rel {
namespace {

using test::read_text;
using test::Space;
using test::Tuples;
using test::tuples_of;

Tuples random_tuples(std::uint64_t seed, std::size_t count,
                     const std::vector<std::uint64_t>& sizes) {
  std::mt19937_64 random(seed);
  Tuples out;
  for (std::size_t i = 0; i < count; ++i) {
    std::vector<std::uint64_t> t;
    for (std::uint64_t size : sizes) t.push_back(random() % size);
    out.push_back(t);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

class BddFileTest : public test::TempDirTest {};

// Writes `tuples` of relation `first_attributes` under `first_order`, drops that
// manager, reads the file under `second_order` into `second_attributes`.
Tuples round_trip(const std::filesystem::path& file,
                  const std::vector<std::pair<std::string, std::uint64_t>>& domains,
                  const std::string& first_order,
                  const std::vector<std::pair<std::string, std::string>>& first_attributes,
                  const std::string& second_order,
                  const std::vector<std::pair<std::string, std::string>>& second_attributes,
                  const Tuples& tuples) {
  {
    Space first(domains, first_order);
    Relation r = first.relation("R", first_attributes);
    r.set_bdd(bdd_from_tuples(r, tuples));
    EXPECT_EQ(tuples_of(r), tuples);
    write_bdd_file(file, r);
    Relation same = first.relation("R", first_attributes);  // same space: the very same BDD
    read_bdd_file(file, same);
    EXPECT_TRUE(same.bdd() == r.bdd());
  }
  Space second(domains, second_order);
  Relation r = second.relation("R", second_attributes);
  read_bdd_file(file, r);
  return tuples_of(r);
}

TEST_F(BddFileTest, RoundTripUnderADifferentOrderRemapsVariables) {
  const std::vector<std::pair<std::string, std::uint64_t>> domains{{"V", 100}, {"H", 37}};
  const std::vector<std::pair<std::string, std::string>> attributes{{"v", "V0"}, {"h", "H0"}};
  const Tuples tuples = random_tuples(1, 400, {100, 37});
  EXPECT_EQ(round_trip(dir_ / "a.bdd", domains, "V0_H0", attributes, "H0xV0", attributes, tuples),
            tuples);
  EXPECT_EQ(round_trip(dir_ / "b.bdd", domains, "H0xV0", attributes, "V0_H0", attributes, tuples),
            tuples);
  EXPECT_EQ(round_trip(dir_ / "c.bdd", domains, "H0_V0", attributes, "V0xH0", attributes, tuples),
            tuples);
}

// A relation saved when its domains were smaller (a cached fixpoint over the JDK's part, issue
// 35) reads into larger ones: the same tuples, the new bits 0, under any order.
TEST_F(BddFileTest, AFileOfSmallerDomainsReadsIntoLargerOnes) {
  const std::vector<std::pair<std::string, std::string>> attributes{{"v", "V0"}, {"h", "H0"}};
  const Tuples tuples = random_tuples(4, 300, {100, 37});
  {
    Space small({{"V", 100}, {"H", 37}}, "V0_H0");
    Relation r = small.relation("R", attributes);
    r.set_bdd(bdd_from_tuples(r, tuples));
    write_bdd_file(dir_ / "small.bdd", r);
  }
  Space large({{"V", 1000}, {"H", 300}}, "H0xV0");
  Relation r = large.relation("R", attributes);
  read_bdd_file(dir_ / "small.bdd", r);
  EXPECT_EQ(tuples_of(r), tuples);
}

TEST_F(BddFileTest, RoundTripThreeAttributesTwoInstancesOfOneDomain) {
  const std::vector<std::pair<std::string, std::uint64_t>> domains{{"V", 1000}, {"H", 5}};
  const std::vector<std::pair<std::string, std::string>> attributes{
      {"a", "V0"}, {"b", "V1"}, {"c", "H0"}};
  const Tuples tuples = random_tuples(2, 2000, {1000, 1000, 5});
  EXPECT_EQ(
      round_trip(dir_ / "a.bdd", domains, "V0xV1_H0", attributes, "H0_V1_V0", attributes, tuples),
      tuples);
  EXPECT_EQ(
      round_trip(dir_ / "b.bdd", domains, "H0xV1xV0", attributes, "V1_H0_V0", attributes, tuples),
      tuples);
  // Columns map by position: the reader may keep the attributes on other instances.
  const std::vector<std::pair<std::string, std::string>> swapped{
      {"a", "V1"}, {"b", "V0"}, {"c", "H0"}};
  EXPECT_EQ(
      round_trip(dir_ / "c.bdd", domains, "V0xV1_H0", attributes, "V0xV1_H0", swapped, tuples),
      tuples);
}

TEST_F(BddFileTest, RoundTripSparseAndDenseShapes) {
  const std::vector<std::pair<std::string, std::uint64_t>> domains{{"V", 64}, {"H", 3}};
  const std::vector<std::pair<std::string, std::string>> attributes{{"v", "V0"}, {"h", "H0"}};
  Tuples dense;  // everything but a few tuples
  for (std::uint64_t v = 0; v < 64; ++v)
    for (std::uint64_t h = 0; h < 3; ++h)
      if ((v * 7 + h) % 11 != 0) dense.push_back({v, h});
  EXPECT_EQ(
      round_trip(dir_ / "dense.bdd", domains, "V0xH0", attributes, "H0_V0", attributes, dense),
      dense);
  const Tuples single{{63, 2}};
  EXPECT_EQ(
      round_trip(dir_ / "single.bdd", domains, "V0_H0", attributes, "H0xV0", attributes, single),
      single);
}

TEST_F(BddFileTest, WriterUsesBddbddbLayoutWithOurVariables) {
  Space s({{"V", 4}}, "V0");
  Relation r = s.relation("R", {{"v", "V0"}});
  r.set_bdd(bdd_from_tuples(r, {{2}}));  // V0 is variables 0 (msb) and 1: 2 = var0 & !var1
  write_bdd_file(dir_ / "r.bdd", r);
  EXPECT_EQ(read_text(dir_ / "r.bdd"),
            "# V0:2\n"
            "# 1 0\n"
            "2 2\n"
            "0 1 \n"
            "2 1 1 0\n"
            "3 0 0 2\n");
  for (const auto& e : std::filesystem::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(kAtomicTemporaryMark), std::string::npos);
}

TEST_F(BddFileTest, ConstantsRoundTrip) {
  {
    Space s({{"V", 16}, {"H", 8}}, "V0_H0");
    Relation r = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
    write_bdd_file(dir_ / "false.bdd", r);
    EXPECT_EQ(read_text(dir_ / "false.bdd"), "# V0:4 H0:3\n# 3 2 1 0\n# 6 5 4\n0 0 0\n");
    r.set_bdd(bdd::Bdd::one());
    write_bdd_file(dir_ / "true.bdd", r);
    EXPECT_EQ(read_text(dir_ / "true.bdd"), "# V0:4 H0:3\n# 3 2 1 0\n# 6 5 4\n0 0 1\n");
  }
  Space s({{"V", 16}, {"H", 8}}, "H0xV0");
  Relation r = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
  r.set_bdd(bdd::Bdd::one());
  read_bdd_file(dir_ / "false.bdd", r);
  EXPECT_TRUE(r.bdd().is_zero());
  read_bdd_file(dir_ / "true.bdd", r);
  EXPECT_TRUE(r.bdd().is_one());
  EXPECT_EQ(r.size().to_string(), "128");
}

TEST_F(BddFileTest, ConstantTrueMeansEveryTupleOfTheDomains) {
  const auto file = write("true.bdd", "# V0:4 H0:2\n# 0 1 2 3\n# 4 5\n0 0 1\n");
  Space s({{"V", 10}, {"H", 3}}, "V0_H0");
  Relation r = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
  read_bdd_file(file, r);
  EXPECT_EQ(r.size().to_string(), "30");
}

// The reader keeps nodes numbered 2, 3, ... in a vector and moves them to a map at the first
// id out of that order: a file numbered in order for a while, then not, reads the same.
TEST_F(BddFileTest, NodeIdsOutOfOrderPartWayThroughReadTheSame) {
  Space s({{"V", 100}, {"H", 37}}, "V0_H0");
  Relation r = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
  const Tuples tuples = random_tuples(3, 300, {100, 37});
  r.set_bdd(bdd_from_tuples(r, tuples));
  const auto written = dir_ / "in-order.bdd";
  write_bdd_file(written, r);
  std::ifstream in(written);
  std::string line;
  std::string renumbered;
  const auto id = [](std::uint64_t n) { return n < 12 ? n : n + 1000; };  // 2..11 stay
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream fields(line);
    std::uint64_t node = 0, var = 0, low = 0, high = 0;
    if (number <= 5 || !(fields >> node >> var >> low >> high)) {
      renumbered += line + "\n";  // the header, the counts and the levels
    } else {
      renumbered += std::to_string(id(node)) + " " + std::to_string(var) + " " +
                    std::to_string(id(low)) + " " + std::to_string(id(high)) + "\n";
    }
  }
  ASSERT_NE(renumbered.find(" 1012 "), std::string::npos);  // the file has nodes past id 11
  Relation again = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
  read_bdd_file(write("renumbered.bdd", renumbered), again);
  EXPECT_TRUE(again.bdd() == r.bdd());
  EXPECT_EQ(tuples_of(again), tuples);
}

// bddbddb (JavaBDD on BuDDy) for domains V (16) and H (8): V0 owns variables
// 0..3 and H0 4..6, listed least significant bit first; order V0_H0 with each
// domain's most significant bit on top (variable 3 at level 0). BuDDy's
// bdd_save: node ids are raw node numbers, children before parents, root last.
constexpr const char* kBddbddbFile =
    "# V0:4 H0:3\n"
    "# 0 1 2 3\n"
    "# 4 5 6\n"
    "13 7\n"
    "3 2 1 0 6 5 4 \n"
    "20 4 0 1\n"
    "23 5 0 20\n"
    "26 4 1 0\n"
    "29 5 26 0\n"
    "32 6 23 29\n"
    "35 0 0 32\n"
    "38 1 35 0\n"
    "41 2 0 38\n"
    "44 6 23 0\n"
    "47 0 44 0\n"
    "50 1 47 0\n"
    "53 2 0 50\n"
    "56 3 41 53\n";

TEST_F(BddFileTest, ReadsAFileInBddbddbsFormat) {
  const Tuples expected{{5, 3}, {5, 4}, {12, 3}};
  std::string crlf;
  for (char c : std::string(kBddbddbFile)) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const auto lf_file = write("lf.bdd", kBddbddbFile);
  const auto crlf_file = write("crlf.bdd", crlf);
  for (const char* order : {"V0_H0", "H0_V0", "H0xV0"}) {
    Space s({{"V", 16}, {"H", 8}}, order);
    Relation r = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
    read_bdd_file(lf_file, r);
    EXPECT_EQ(tuples_of(r), expected) << order;
    Relation again = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
    read_bdd_file(crlf_file, again);
    EXPECT_TRUE(again.bdd() == r.bdd()) << order;
  }
}

class BddFileErrorTest : public BddFileTest {
 protected:
  // Reads `text` into R(v:V0, h:H0) with V of size v_size and H of size 8.
  std::string error_for(const std::string& text, std::uint64_t v_size = 16) {
    const auto file = write("bad.bdd", text);
    Space s({{"V", v_size}, {"H", 8}}, "H0xV0");
    Relation r = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
    try {
      read_bdd_file(file, r);
    } catch (const InputError& e) {
      const std::string what = e.what();
      const std::string prefix = file.string();
      if (what.compare(0, prefix.size(), prefix) != 0) return "wrong file in: " + what;
      return what.substr(prefix.size());
    }
    return "no error";
  }

  // kBddbddbFile with line `line` (1-based) replaced; an empty replacement drops it.
  static std::string with_line(std::size_t line, const std::string& replacement) {
    std::istringstream in(kBddbddbFile);
    std::string out, text;
    for (std::size_t n = 1; std::getline(in, text); ++n) {
      if (n != line) {
        out += text + "\n";
      } else if (!replacement.empty()) {
        out += replacement + "\n";
      }
    }
    return out;
  }
};

TEST_F(BddFileErrorTest, InfoLine) {
  EXPECT_EQ(error_for(""), ":1:1: empty BDD file: expected an info line like '# V0:16 H0:14'");
  EXPECT_EQ(error_for(with_line(1, "V0:4 H0:3")),
            ":1:1: expected an info line like '# V0:16 H0:14'");
  EXPECT_EQ(error_for(with_line(1, "# V0:4")),
            ":1:7: info line names 1 domains but relation R has 2 attributes");
  EXPECT_EQ(error_for(with_line(1, "# V0:4 H0:3 H1:3")),
            ":1:13: info line names 3 domains but relation R has 2 attributes");
  EXPECT_EQ(error_for(with_line(1, "# H0:3 V0:4")),
            ":1:3: domain 'H0' is not of domain V (attribute v of R)");
  EXPECT_EQ(error_for(with_line(1, "# V0:4 HX0:3")),
            ":1:8: domain 'HX0' is not of domain H (attribute h of R)");
  EXPECT_EQ(error_for(with_line(1, "# V0:5 H0:3")),
            ":1:3: domain V0 has 5 bits in the file but 4 here (attribute v of R)");
  EXPECT_EQ(error_for(with_line(1, "# V0:x H0:3")),
            ":1:3: info line column 'V0:x' is not NAME:BITS");
  EXPECT_EQ(error_for(with_line(1, "# V0 H0:3")), ":1:3: info line column 'V0' is not NAME:BITS");
}

TEST_F(BddFileErrorTest, VariableLines) {
  EXPECT_EQ(error_for("# V0:4 H0:3\n"),
            ":2:1: file ends before the variable line of V0 (attribute v of R)");
  EXPECT_EQ(error_for("# V0:4 H0:3\n# 0 1 2 3"),
            ":2:10: file ends before the variable line of H0 (attribute h of R)");
  EXPECT_EQ(error_for(with_line(2, "0 1 2 3")),
            ":2:1: expected the variable line of V0, like '# 0 1 2' (least significant bit first)");
  EXPECT_EQ(error_for(with_line(2, "# 0 1 2")),
            ":2:8: variable line of V0 lists 3 variables but the info line gives V0 4 bits");
  EXPECT_EQ(error_for(with_line(2, "# 0 1 2 3 9")),
            ":2:11: variable line of V0 lists 5 variables but the info line gives V0 4 bits");
  EXPECT_EQ(error_for(with_line(2, "# 0 1 x 3")),
            ":2:7: expected a BDD variable number, found 'x'");
  EXPECT_EQ(error_for(with_line(2, "# 0 1 -2 3")),
            ":2:7: expected a BDD variable number, found '-2'");
  EXPECT_EQ(error_for(with_line(3, "# 4 5 2")), ":3:7: variable 2 is already listed on line 2");
}

TEST_F(BddFileErrorTest, BddBody) {
  EXPECT_EQ(error_for(with_line(4, "x 7")), ":4:1: expected the BDD's node count, found 'x'");
  EXPECT_EQ(error_for("# V0:4 H0:3\n# 0 1 2 3\n# 4 5 6\n"),
            ":4:1: file ends before the BDD's node count");
  EXPECT_EQ(error_for("# V0:4 H0:3\n# 0 1 2 3\n# 4 5 6\n0 7\n"),
            ":4:3: a BDD without nodes is a constant, written '0 0 0' or '0 0 1'");
  EXPECT_EQ(error_for("# V0:4 H0:3\n# 0 1 2 3\n# 4 5 6\n0 0 2\n"),
            ":4:5: a constant BDD is 0 or 1, found 2");
  EXPECT_EQ(error_for("# V0:4 H0:3\n# 0 1 2 3\n# 4 5 6\n0 0\n"),
            ":5:1: file ends before the constant (0 or 1)");
  EXPECT_EQ(error_for(with_line(5, "3 2 x 0 6 5 4")),
            ":5:5: expected the level of variable 2 (of 7), found 'x'");
  EXPECT_EQ(error_for("# V0:4 H0:3\n# 0 1 2 3\n# 4 5 6\n13 7\n3 2 1\n"),
            ":6:1: file ends before the level of variable 3 (of 7)");
}

TEST_F(BddFileErrorTest, Nodes) {
  // Children must come before their parents (BuDDy's bdd_load requires it).
  EXPECT_EQ(error_for(with_line(6, "")),
            ":6:8: node 23 refers to node 20, which is not defined before it");
  EXPECT_EQ(error_for(with_line(11, "35 0 0 99")),
            ":11:8: node 35 refers to node 99, which is not defined before it");
  EXPECT_EQ(error_for(with_line(7, "23 5 20 x")),
            ":7:9: expected the high child of node 2 (of 13), found 'x'");
  EXPECT_EQ(error_for(with_line(6, "20 9 0 1")),
            ":6:4: variable 9 is not listed on the header's variable lines");
  EXPECT_EQ(error_for(with_line(7, "20 5 0 20")), ":7:1: node 20 is defined twice");
  EXPECT_EQ(error_for(with_line(6, "1 4 0 1")),
            ":6:1: node id 1 is a constant; node ids start at 2");
  // Truncated: a missing last node, a node cut short without its newline.
  EXPECT_EQ(error_for(with_line(18, "")), ":18:1: file ends before the id of node 13 (of 13)");
  std::string cut = with_line(18, "56 3 41");
  cut.pop_back();
  EXPECT_EQ(error_for(cut), ":18:8: file ends before the high child of node 13 (of 13)");
  EXPECT_EQ(error_for(std::string(kBddbddbFile) + "57 3 0 1\n"),
            ":19:1: unexpected '57' after the end of the BDD");
}

TEST_F(BddFileErrorTest, ValuesOutsideTheDomainsAndMissingFile) {
  // The file holds v = 12; here V has only 10 elements (still 4 bits).
  EXPECT_EQ(error_for(kBddbddbFile, 10),
            ": the BDD holds values of attribute v of R outside domain V (size 10)");
  Space s({{"V", 16}, {"H", 8}}, "V0_H0");
  Relation r = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
  try {
    read_bdd_file(dir_ / "missing.bdd", r);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir_ / "missing.bdd").string() + ": cannot open BDD file for relation R");
  }
}

// Hostile BDD files read into a relation of the domains or get an InputError naming the file,
// never anything else (no BuDDy error, no crash): edits of bddbddb's sample and of a file
// written here from random tuples.
TEST_F(BddFileTest, MutatedFilesReadOrFailCleanly) {
  std::string written;
  {
    Space s({{"V", 16}, {"H", 8}}, "H0xV0");
    Relation r = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
    r.set_bdd(bdd_from_tuples(r, random_tuples(5, 40, {16, 8})));
    write_bdd_file(dir_ / "written.bdd", r);
    written = read_text(dir_ / "written.bdd");
  }
  Space s({{"V", 16}, {"H", 8}}, "H0xV0");
  std::mt19937 random(20261127);
  int read = 0, refused = 0;
  for (const std::string& original : {std::string(kBddbddbFile), written}) {
    for (int round = 0; round < 1000; ++round) {
      const auto file = write("m.bdd", test::mutated(original, random, "0123456789 #:\n\r-VH"));
      Relation r = s.relation("R", {{"v", "V0"}, {"h", "H0"}});
      try {
        read_bdd_file(file, r);
        ++read;
        for (const std::vector<std::uint64_t>& t : tuples_of(r)) {
          EXPECT_LT(t[0], 16U);
          EXPECT_LT(t[1], 8U);
        }
      } catch (const InputError& e) {
        ++refused;
        EXPECT_EQ(std::string(e.what()).rfind(file.string(), 0), 0U) << e.what();
      }
    }
  }
  EXPECT_GT(read, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace refract::rel
