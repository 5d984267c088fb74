#include "relations/element_map.hpp"

#include <fstream>
#include <stdexcept>

#include "support/atomic_file.hpp"
#include "support/error.hpp"

namespace refract::rel {

ElementMap ElementMap::load(const std::filesystem::path& file, std::uint64_t domain_size) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError({file.string()}, "cannot open map file");
  ElementMap map;
  std::string line;
  std::uint64_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line_number > domain_size) {
      throw InputError(
          {file.string(), line_number, 1},
          "map has more lines than the domain's " + std::to_string(domain_size) + " elements");
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find('\0') != std::string::npos) {
      throw InputError({file.string(), line_number, line.find('\0') + 1},
                       "map line contains a NUL byte");
    }
    map.names_.push_back(std::move(line));
  }
  if (in.bad()) throw InputError({file.string(), line_number + 1, 1}, "read error");
  return map;
}

ElementMap ElementMap::from_names(std::vector<std::string> names) {
  ElementMap map;
  map.names_ = std::move(names);
  return map;
}

const std::string* ElementMap::name(std::uint64_t element) const {
  return element < names_.size() ? &names_[element] : nullptr;
}

void ElementMap::build_index() const {
  if (indexed_) return;
  index_.reserve(names_.size());
  for (std::uint64_t i = 0; i < names_.size(); ++i) {
    const auto [it, fresh] = index_.try_emplace(names_[i], i);
    if (!fresh) {
      it->second = i;
      repeated_.insert(names_[i]);
    }
  }
  indexed_ = true;
}

bool ElementMap::is_repeated(const std::string& name) const {
  build_index();
  return repeated_.count(name) != 0;
}

std::optional<std::uint64_t> ElementMap::find(const std::string& name) const {
  build_index();
  const auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::uint64_t> ElementMap::elements_named(const std::string& name) const {
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) out.push_back(i);
  return out;
}

std::uint64_t ElementMap::add(std::string name) {
  const std::uint64_t element = names_.size();
  if (indexed_) {
    const auto [it, fresh] = index_.try_emplace(name, element);
    if (!fresh) {
      it->second = element;
      repeated_.insert(name);
    }
  }
  names_.push_back(std::move(name));
  return element;
}

std::string ElementMap::label(std::uint64_t element) const {
  const std::string* n = name(element);
  return n != nullptr ? *n : std::to_string(element);
}

void ElementMap::write(const std::filesystem::path& file) const {
  AtomicOutputFile out(file);
  for (const std::string& n : names_) out.stream() << n << '\n';
  out.commit();
}

}  // namespace refract::rel
