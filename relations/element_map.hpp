// A domain's element names: line i of a .map file names element i.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace refract::rel {

class ElementMap {
 public:
  ElementMap() = default;
  // Reads a .map file; more lines than `domain_size` is an error naming the
  // first extra line. A trailing '\r' is dropped (maps written on Windows).
  static ElementMap load(const std::filesystem::path& file, std::uint64_t domain_size);
  static ElementMap from_names(std::vector<std::string> names);

  std::uint64_t size() const { return names_.size(); }
  // Name of element i, or nullptr if the map has no line for it.
  const std::string* name(std::uint64_t element) const;
  // The element called `name`: every line is an element of its own, and a name on several
  // lines stands for the last of them (bddbddb's maps, jwutil's IndexMap.loadStringMap);
  // nullopt if no line has it.
  std::optional<std::uint64_t> find(const std::string& name) const;
  // Whether several lines have `name`, and every element called `name`, in order.
  bool is_repeated(const std::string& name) const;
  std::vector<std::uint64_t> elements_named(const std::string& name) const;
  // A new last element called `name` (bddbddb's Domain.namedConstant for a name its map
  // lacks); returns its number.
  std::uint64_t add(std::string name);
  // Element i's name, or its number when the map does not name it.
  std::string label(std::uint64_t element) const;

  void write(const std::filesystem::path& file) const;  // atomically

 private:
  void build_index() const;
  std::vector<std::string> names_;
  mutable std::unordered_map<std::string, std::uint64_t> index_;  // name -> last element, lazily
  mutable std::unordered_set<std::string> repeated_;              // names on several lines
  mutable bool indexed_ = false;
};

}  // namespace refract::rel
