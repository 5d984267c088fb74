// relations/state_image.hpp: a solve's relations as one node image, placed whole into the next
// solve's fresh table; a relation laid out otherwise is left to its .bdd file; a damaged image
// is refused with the file and byte, or placed as some BDDs, never a crash.
#include "relations/state_image.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <variant>
#include <vector>

#include "relations/relations_test_util.hpp"
#include "support/error.hpp"

namespace refract::rel {
namespace {

using test::Space;
using test::Tuples;
using test::tuples_of;

class StateImageTest : public test::TempDirTest {
 protected:
  const std::vector<std::pair<std::string, std::uint64_t>> domains_{{"V", 100}, {"H", 37}};
  const Tuples points_to_{{1, 2}, {1, 3}, {7, 3}, {99, 36}};
  const Tuples assign_{{1, 7}, {7, 99}};

  // The two relations of a solve under `order`, written as an image.
  std::filesystem::path write_image(const std::string& order) const {
    Space space(domains_, order);
    std::vector<Relation> relations;
    relations.push_back(space.relation("PointsTo", {{"v", "V0"}, {"h", "H0"}}, points_to_));
    relations.push_back(space.relation("Assign", {{"to", "V0"}, {"from", "V1"}}, assign_));
    write_state_image(dir_ / "relations.image", relations);
    return dir_ / "relations.image";
  }

  // The same two relations, empty, in `space`, Assign's attributes on `to` and `from`.
  static std::vector<Relation> empty_relations(const Space& space, const std::string& to = "V0",
                                               const std::string& from = "V1") {
    std::vector<Relation> relations;
    relations.push_back(space.relation("PointsTo", {{"v", "V0"}, {"h", "H0"}}));
    relations.push_back(space.relation("Assign", {{"to", to}, {"from", from}}));
    return relations;
  }
};

TEST_F(StateImageTest, PlacedRelationsHoldTheirTuplesAndAreTheSameBddsAsRebuilt) {
  const std::filesystem::path file = write_image("V0xV1_H0");
  Space space(domains_, "V0xV1_H0");
  std::vector<Relation> relations = empty_relations(space);
  auto placed = place_state_image(file, relations, space.space.manager());
  ASSERT_TRUE(std::holds_alternative<PlacedState>(placed)) << std::get<std::string>(placed);
  const PlacedState& state = std::get<PlacedState>(placed);
  ASSERT_EQ(state.values.size(), 2u);
  relations[0].set_bdd(state.values.at("PointsTo"));
  relations[1].set_bdd(state.values.at("Assign"));
  EXPECT_EQ(tuples_of(relations[0]), points_to_);
  EXPECT_EQ(tuples_of(relations[1]), assign_);
  const Relation rebuilt = space.relation("PointsTo", {{"v", "V0"}, {"h", "H0"}}, points_to_);
  EXPECT_TRUE(rebuilt.bdd() == relations[0].bdd());
}

// Assign over other instances here means other variables: its value is not taken.
TEST_F(StateImageTest, ARelationLaidOutOtherwiseIsLeftOut) {
  const std::filesystem::path file = write_image("V0xV1_H0");
  Space space(domains_, "V0xV1_H0");
  const std::vector<Relation> relations = empty_relations(space, "V1", "V0");
  auto placed = place_state_image(file, relations, space.space.manager());
  ASSERT_TRUE(std::holds_alternative<PlacedState>(placed));
  EXPECT_EQ(std::get<PlacedState>(placed).values.count("PointsTo"), 1u);
  EXPECT_EQ(std::get<PlacedState>(placed).values.count("Assign"), 0u);
}

// Under another order every attribute has other variables: nothing to place.
TEST_F(StateImageTest, AnotherOrderIsNotPlacedInto) {
  const std::filesystem::path file = write_image("V0xV1_H0");
  Space space(domains_, "H0_V0xV1");
  std::vector<Relation> relations;
  relations.push_back(space.relation("PointsTo", {{"v", "V0"}, {"h", "H0"}}));
  auto placed = place_state_image(file, relations, space.space.manager());
  ASSERT_TRUE(std::holds_alternative<std::string>(placed));
  EXPECT_NE(std::get<std::string>(placed).find("no relation of the image is laid out"),
            std::string::npos)
      << std::get<std::string>(placed);
}

TEST_F(StateImageTest, ATruncatedImageIsAnErrorNamingTheFileAndByte) {
  const std::filesystem::path file = write_image("V0xV1_H0");
  const std::string whole = test::read_text(file);
  const std::filesystem::path cut = write("cut.image", whole.substr(0, whole.size() / 2));
  Space space(domains_, "V0xV1_H0");
  std::vector<Relation> relations;
  relations.push_back(space.relation("PointsTo", {{"v", "V0"}, {"h", "H0"}}));
  try {
    place_state_image(cut, relations, space.space.manager());
    ADD_FAILURE() << "placed half an image";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cut.image"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("at byte "), std::string::npos) << e.what();
  }
}

// Random edits: each image is placed, refused as another layout, or an InputError.
TEST_F(StateImageTest, MutatedImagesArePlacedOrRefusedNeverCrash) {
  const std::string whole = test::read_text(write_image("V0xV1_H0"));
  std::mt19937 random(35);
  const std::string bytes(std::string_view("\0\1\2\3\x7f\xff", 6));
  for (int trial = 0; trial < 300; ++trial) {
    const std::filesystem::path file = write("m.image", test::mutated(whole, random, bytes));
    Space space(domains_, "V0xV1_H0");
    std::vector<Relation> relations = empty_relations(space);
    try {
      auto placed = place_state_image(file, relations, space.space.manager());
      if (auto* state = std::get_if<PlacedState>(&placed)) {
        for (auto& [name, value] : state->values) {
          Relation& r = name == "PointsTo" ? relations[0] : relations[1];
          r.set_bdd(value);
          tuples_of(r);  // a readable BDD
        }
      }
    } catch (const InputError&) {
    }
  }
}

}  // namespace
}  // namespace refract::rel
