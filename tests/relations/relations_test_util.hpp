// Shared by the relations tests: a domain space laid out from an order string,
// relations built from explicit tuples, and a per-test temporary directory.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bdd/var_order.hpp"
#include "relations/domain_space.hpp"
#include "relations/relation.hpp"
#include "relations/tuple_io.hpp"
#include "support/text_mutation.hpp"

namespace refract::rel::test {

using refract::test::mutated;
using Tuples = std::vector<std::vector<std::uint64_t>>;

// One BuDDy manager at a time: each test makes its own Space.
struct Space {
  DomainSpace space{bdd::ManagerSettings{20'000, 5'000}};

  Space(const std::vector<std::pair<std::string, std::uint64_t>>& domains,
        const std::string& order) {
    for (const auto& [name, size] : domains) space.add_domain(name, size);
    space.lay_out(bdd::parse_var_order(order, space.instance_names()));
  }

  // attributes: (attribute name, physical instance name); the relation is empty.
  Relation relation(const std::string& name,
                    const std::vector<std::pair<std::string, std::string>>& attributes) const {
    std::vector<Attribute> out;
    for (const auto& [attribute, physical] : attributes) {
      const PhysicalId p = *space.find_physical(physical);
      out.push_back(Attribute{attribute, space.physical(p).domain, p});
    }
    return Relation(space, name, out);
  }

  Relation relation(const std::string& name,
                    const std::vector<std::pair<std::string, std::string>>& attributes,
                    const Tuples& tuples) const {
    Relation r = relation(name, attributes);
    r.set_bdd(bdd_from_tuples(r, tuples));
    return r;
  }

  PhysicalId physical(const std::string& name) const { return *space.find_physical(name); }
};

// A relation's tuples, values in attribute order, sorted.
inline Tuples tuples_of(const Relation& r) {
  Tuples out;
  r.for_each_tuple([&](std::span<const std::uint64_t> t) { out.emplace_back(t.begin(), t.end()); });
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<std::string> attribute_names(const Relation& r) {
  std::vector<std::string> names;
  for (const Attribute& a : r.attributes()) names.push_back(a.name);
  return names;
}

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh directory per test, removed afterwards.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("refract_relations_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
            std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = dir_ / name;
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

  // Every file in the directory, sorted by name.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  std::filesystem::path dir_;
};

}  // namespace refract::rel::test
