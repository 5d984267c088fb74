// A solve's relations as one node image (bdd/node_image.hpp), written beside their .bdd files
// into a seed's state (issue 35's cached JDK fixpoint) and placed whole into the next solve's
// fresh node table, instead of read file by file node by node.
//
// Layout, native byte order: "RFSTATE1"; u32 relation count; per relation u32 name length, the
// name, u32 attribute count and per attribute u32 variable count and its variables, most
// significant bit first; u64 byte count of the node image, and the node image, whose roots are
// the relations in this order.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "relations/relation.hpp"

namespace refract::rel {

// Writes the image of `relations` atomically.
void write_state_image(const std::filesystem::path& file, const std::vector<Relation>& relations);

struct PlacedState {
  // The image's value of each relation of `relations` with the same name and variables.
  std::map<std::string, bdd::Bdd> values;
  std::uint64_t table_nodes = 0;  // nodes in the table once placed
};

// Places `file`'s relations into `manager`'s table; or why they cannot be placed there (the
// caller then reads the .bdd files). A malformed file is an InputError at its byte offset.
std::variant<PlacedState, std::string> place_state_image(const std::filesystem::path& file,
                                                         const std::vector<Relation>& relations,
                                                         bdd::Manager& manager);

}  // namespace refract::rel
