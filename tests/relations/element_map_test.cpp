// Element maps (.map: line i names element i): reading, lookup both ways,
// writing golden text, and the FILE:LINE:COL of malformed maps.
#include "relations/element_map.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "relations/relations_test_util.hpp"
#include "support/error.hpp"

namespace refract::rel::test {
namespace {

class ElementMapTest : public TempDirTest {
 protected:
  std::string load_error(const std::string& text, std::uint64_t domain_size) {
    const std::filesystem::path file = write("D.map", text);
    try {
      ElementMap::load(file, domain_size);
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().file, file.string());
      const std::string prefix = file.string() + ":";
      EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0U) << e.what();
      return std::string(e.what()).substr(prefix.size());
    }
    return "no error";
  }
};

TEST_F(ElementMapTest, LineINamesElementI) {
  const ElementMap map = ElementMap::load(
      write("V.map", "<ex.A: void main(java.lang.String[])>/args\n\tpadded name \nlast\n"), 5);
  EXPECT_EQ(map.size(), 3U);
  ASSERT_NE(map.name(0), nullptr);
  EXPECT_EQ(*map.name(0), "<ex.A: void main(java.lang.String[])>/args");
  EXPECT_EQ(*map.name(1), "\tpadded name ");  // names are kept verbatim
  EXPECT_EQ(*map.name(2), "last");
  EXPECT_EQ(map.name(3), nullptr);  // fewer lines than elements is fine
  EXPECT_EQ(map.label(2), "last");
  EXPECT_EQ(map.label(4), "4");  // unnamed elements print as numbers
  EXPECT_EQ(map.find("last"), std::optional<std::uint64_t>(2));
  EXPECT_EQ(map.find("\tpadded name "), std::optional<std::uint64_t>(1));
  EXPECT_EQ(map.find("padded name"), std::nullopt);
}

TEST_F(ElementMapTest, LastLineWithoutNewlineAndEmptyNamesCount) {
  const ElementMap map = ElementMap::load(write("V.map", "a\n\nc"), 3);
  EXPECT_EQ(map.size(), 3U);
  EXPECT_EQ(*map.name(1), "");
  EXPECT_EQ(*map.name(2), "c");
}

TEST_F(ElementMapTest, DropsTheCarriageReturnOfWindowsLines) {
  const ElementMap map = ElementMap::load(write("V.map", "a\r\nb c\r\n"), 2);
  EXPECT_EQ(*map.name(0), "a");
  EXPECT_EQ(*map.name(1), "b c");
  EXPECT_EQ(map.find("b c"), std::optional<std::uint64_t>(1));
}

TEST_F(ElementMapTest, EmptyFileNamesNothing) {
  const ElementMap map = ElementMap::load(write("V.map", ""), 4);
  EXPECT_EQ(map.size(), 0U);
  EXPECT_EQ(map.label(0), "0");
}

TEST_F(ElementMapTest, ExactlyAsManyLinesAsElementsIsAccepted) {
  EXPECT_EQ(ElementMap::load(write("V.map", "a\nb\nc\n"), 3).size(), 3U);
}

// [bddbddb: jwutil's IndexMap.loadStringMap] Every line is an element; a name on several lines
// stands for the last of them.
TEST_F(ElementMapTest, NameOnSeveralLinesIsTheLast) {
  const ElementMap map = ElementMap::from_names({"x", "y", "x"});
  EXPECT_EQ(map.find("y"), std::optional<std::uint64_t>(1));
  EXPECT_EQ(map.find("x"), std::optional<std::uint64_t>(2));
  EXPECT_TRUE(map.is_repeated("x"));
  EXPECT_FALSE(map.is_repeated("y"));
  EXPECT_EQ(map.elements_named("x"), (std::vector<std::uint64_t>{0, 2}));
  EXPECT_EQ(map.size(), 3U);
}

// [bddbddb: Domain.namedConstant] A name added to the map is a new last element.
TEST_F(ElementMapTest, AddedNameIsANewLastElement) {
  ElementMap map = ElementMap::from_names({"a", "b"});
  EXPECT_FALSE(map.find("c").has_value());
  EXPECT_EQ(map.add("c"), 2U);
  EXPECT_EQ(map.find("c"), std::optional<std::uint64_t>(2));
  EXPECT_EQ(map.add("a"), 3U);
  EXPECT_EQ(map.find("a"), std::optional<std::uint64_t>(3));
  EXPECT_TRUE(map.is_repeated("a"));
  EXPECT_EQ(map.label(3), "a");
}

TEST_F(ElementMapTest, WritesOneNamePerLineGolden) {
  ElementMap::from_names({"<ex.B: int f>", "", "a b\tc"}).write(dir_ / "out.map");
  EXPECT_EQ(read_text(dir_ / "out.map"), "<ex.B: int f>\n\na b\tc\n");
  EXPECT_EQ(files(), std::vector<std::string>{"out.map"});  // no temporary file left
  const ElementMap back = ElementMap::load(dir_ / "out.map", 3);
  EXPECT_EQ(back.size(), 3U);
  EXPECT_EQ(*back.name(2), "a b\tc");
}

// --- Errors -------------------------------------------------------------------

TEST_F(ElementMapTest, MoreLinesThanElementsNamesTheFirstExtraLine) {
  EXPECT_EQ(load_error("a\nb\nc\nd\ne\n", 3),
            "4:1: map has more lines than the domain's 3 elements");
  // A blank last line is a name too.
  EXPECT_EQ(load_error("a\nb\n\n", 2), "3:1: map has more lines than the domain's 2 elements");
}

TEST_F(ElementMapTest, NulBytePointsAtItsColumn) {
  EXPECT_EQ(load_error(std::string("a\nbc\0d\n", 7), 4), "2:3: map line contains a NUL byte");
}

TEST_F(ElementMapTest, MissingFileIsNamed) {
  try {
    ElementMap::load(dir_ / "absent.map", 3);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), (dir_ / "absent.map").string() + ": cannot open map file");
  }
}

// Hostile .map text loads or gets an InputError naming the file, never anything else.
TEST_F(ElementMapTest, MutatedMapsLoadOrFailCleanly) {
  const std::string original = "<a.B: void m()>/x\n\"text\"\n\nlast\r\n";
  std::mt19937 random(20261127);
  int loaded = 0, refused = 0;
  for (int round = 0; round < 1000; ++round) {
    const std::string text = mutated(original, random, std::string("ab\n\r\t \"/<>") + '\0');
    const std::filesystem::path file = write("D.map", text);
    try {
      const ElementMap map = ElementMap::load(file, 4);
      ++loaded;
      EXPECT_LE(map.size(), 4U);
    } catch (const InputError& e) {
      ++refused;
      EXPECT_EQ(e.where().file, file.string()) << e.what();
    }
  }
  EXPECT_GT(loaded, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace refract::rel::test
