// NodeImage (bdd/node_image.hpp): BDDs written as one image and placed whole into a fresh table
// are the BDDs the same construction gives there, node for node (the unique table finds them);
// a table or order it cannot serve is said, not used; a malformed image is an error.
#include "bdd/node_image.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "bdd/bdd.hpp"
#include "bdd/manager.hpp"

namespace refract::bdd {
namespace {

constexpr int kVars = 12;

// Functions with shared subgraphs, a variable's own node and both constants.
std::vector<Bdd> sample_functions() {
  Bdd pairs = Bdd::zero();
  for (int i = 0; i < kVars / 2; ++i) pairs |= Bdd::variable(i) & Bdd::variable(i + kVars / 2);
  Bdd parity = Bdd::zero();
  for (int i = 0; i < kVars; i += 3) parity = parity ^ Bdd::variable(i);
  return {pairs,       parity,    pairs & !parity, Bdd::variable(4), Bdd::negated_variable(7),
          Bdd::zero(), Bdd::one()};
}

std::string image_of_samples() {
  Manager manager(ManagerSettings{});
  manager.add_variables(kVars);
  std::ostringstream out;
  const std::vector<Bdd> functions = sample_functions();
  NodeImage::write(out, functions);
  return out.str();
}

std::vector<Bdd> placed(Manager& manager, const std::string& image) {
  auto result = NodeImage::place(manager, image);
  if (const std::string* why = std::get_if<std::string>(&result)) {
    ADD_FAILURE() << "not placed: " << *why;
    return {};
  }
  return std::get<std::vector<Bdd>>(std::move(result));
}

TEST(NodeImageTest, PlacedRootsAreTheNodesTheSameConstructionFinds) {
  const std::string image = image_of_samples();
  Manager manager(ManagerSettings{});
  manager.add_variables(kVars);
  const std::vector<Bdd> roots = placed(manager, image);
  const std::vector<Bdd> rebuilt = sample_functions();
  ASSERT_EQ(roots.size(), rebuilt.size());
  for (std::size_t i = 0; i < roots.size(); ++i) EXPECT_TRUE(roots[i] == rebuilt[i]) << i;
  EXPECT_TRUE((roots[0] | roots[1]) == (rebuilt[0] | rebuilt[1]));
  EXPECT_GT(manager.stats().garbage_collections, 0U);  // the one that linked them
}

TEST(NodeImageTest, ATableHoldingOtherNodesIsNotPlacedInto) {
  const std::string image = image_of_samples();
  Manager manager(ManagerSettings{});
  manager.add_variables(kVars);
  const Bdd held = Bdd::variable(0) & Bdd::variable(1);
  const auto result = NodeImage::place(manager, image);
  ASSERT_TRUE(std::holds_alternative<std::string>(result));
  EXPECT_NE(std::get<std::string>(result).find("more than the variables' nodes"),
            std::string::npos);
}

TEST(NodeImageTest, AnotherVariableCountIsNotPlacedInto) {
  const std::string image = image_of_samples();
  Manager manager(ManagerSettings{});
  manager.add_variables(kVars + 1);
  const auto result = NodeImage::place(manager, image);
  ASSERT_TRUE(std::holds_alternative<std::string>(result));
  EXPECT_NE(std::get<std::string>(result).find("13"), std::string::npos);
}

void expect_malformed(const std::string& image, const std::string& message) {
  Manager manager(ManagerSettings{});
  manager.add_variables(kVars);
  try {
    NodeImage::place(manager, image);
    ADD_FAILURE() << "placed a malformed image";
  } catch (const NodeImageError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
  EXPECT_EQ(manager.stats().garbage_collections, 0U);  // the table was not touched
}

TEST(NodeImageTest, MalformedImagesAreErrors) {
  const std::string image = image_of_samples();
  expect_malformed("RFNODES2" + image.substr(8), "not a BDD node image");
  expect_malformed(image.substr(0, 10), "ends before");
  expect_malformed(image.substr(0, image.size() - 1), "counts");
  // The first node's low child made its own id (2): not an earlier node.
  const std::size_t first_node = 8 + 4 + 4 * kVars;
  std::string self_child = image;
  const std::uint32_t two = 2;
  std::memcpy(self_child.data() + first_node + 4, &two, sizeof two);
  expect_malformed(self_child, "not an earlier node");
  std::string unknown_var = image;
  const std::uint32_t past = kVars;
  std::memcpy(unknown_var.data() + first_node, &past, sizeof past);
  expect_malformed(unknown_var, "has variable 12 of 12");
}

}  // namespace
}  // namespace refract::bdd
