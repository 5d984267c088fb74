#include "relations/state_image.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>

#include "bdd/node_image.hpp"
#include "support/atomic_file.hpp"
#include "support/error.hpp"

namespace refract::rel {

namespace {

constexpr std::string_view kMagic = "RFSTATE1";

void put_u32(std::ostream& out, std::uint32_t value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

// The variables of each attribute: a relation's value means the same only under the same.
std::vector<std::vector<int>> attribute_vars(const Relation& r) {
  std::vector<std::vector<int>> vars;
  for (const Attribute& a : r.attributes())
    vars.push_back(r.space().physical(a.physical).block.vars);
  return vars;
}

// Reads the header's numbers and names, naming the byte where the file ends early.
class HeaderReader {
 public:
  HeaderReader(const std::string& bytes, const std::filesystem::path& file)
      : bytes_(bytes), file_(file) {}
  std::uint32_t u32(const char* what) {
    std::uint32_t value = 0;
    std::memcpy(&value, take(sizeof value, what), sizeof value);
    return value;
  }
  std::uint64_t u64(const char* what) {
    std::uint64_t value = 0;
    std::memcpy(&value, take(sizeof value, what), sizeof value);
    return value;
  }
  std::string_view bytes(std::uint64_t count, const char* what) {
    return {take(count, what), count};
  }
  // A count of u32 entries that follow, no more than the bytes left hold.
  std::uint32_t count(const char* what) {
    const std::uint64_t at = offset_;
    const std::uint32_t n = u32(what);
    if (n > (bytes_.size() - offset_) / sizeof(std::uint32_t))
      fail(at, std::string(what) + " " + std::to_string(n) + " runs past the end of the file");
    return n;
  }
  std::uint64_t offset() const { return offset_; }
  [[noreturn]] void fail(std::uint64_t at, const std::string& message) const {
    throw InputError({file_.string()}, "at byte " + std::to_string(at) + ": " + message);
  }

 private:
  const char* take(std::uint64_t count, const char* what) {
    if (bytes_.size() - offset_ < count)
      fail(offset_, std::string("the state image ends before ") + what);
    const char* at = bytes_.data() + offset_;
    offset_ += count;
    return at;
  }
  const std::string& bytes_;
  const std::filesystem::path& file_;
  std::uint64_t offset_ = 0;
};

}  // namespace

void write_state_image(const std::filesystem::path& file, const std::vector<Relation>& relations) {
  AtomicOutputFile out(file);
  std::ostream& stream = out.stream();
  stream.write(kMagic.data(), static_cast<std::streamsize>(kMagic.size()));
  put_u32(stream, static_cast<std::uint32_t>(relations.size()));
  for (const Relation& r : relations) {
    put_u32(stream, static_cast<std::uint32_t>(r.name().size()));
    stream << r.name();
    const std::vector<std::vector<int>> vars = attribute_vars(r);
    put_u32(stream, static_cast<std::uint32_t>(vars.size()));
    for (const std::vector<int>& attribute : vars) {
      put_u32(stream, static_cast<std::uint32_t>(attribute.size()));
      for (const int v : attribute) put_u32(stream, static_cast<std::uint32_t>(v));
    }
  }
  // The node image streams out (hundreds of MB under a deep flavour), then its size goes in
  // before it.
  const std::streampos size_at = stream.tellp();
  std::uint64_t size = 0;
  stream.write(reinterpret_cast<const char*>(&size), sizeof size);
  std::vector<bdd::Bdd> roots;
  for (const Relation& r : relations) roots.push_back(r.bdd());
  bdd::NodeImage::write(stream, roots);
  const std::streampos end = stream.tellp();
  size = static_cast<std::uint64_t>(end - size_at) - sizeof size;
  stream.seekp(size_at);
  stream.write(reinterpret_cast<const char*>(&size), sizeof size);
  stream.seekp(end);
  out.commit();
}

std::variant<PlacedState, std::string> place_state_image(const std::filesystem::path& file,
                                                         const std::vector<Relation>& relations,
                                                         bdd::Manager& manager) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) throw InputError({file.string()}, "cannot open the state image");
  std::string bytes(static_cast<std::size_t>(in.tellg()), '\0');  // hundreds of MB: one read
  in.seekg(0);
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
    throw InputError({file.string()}, "cannot read the state image");
  HeaderReader header(bytes, file);
  if (header.bytes(kMagic.size(), "its magic") != kMagic) header.fail(0, "not a state image");
  // Which relation each root is, where this run lays it out alike.
  std::map<std::string, const Relation*> ours;
  for (const Relation& r : relations) ours[r.name()] = &r;
  std::vector<const Relation*> root_relation;
  const std::uint32_t count = header.count("the relation count");
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::string name(header.bytes(header.u32("a name's length"), "a relation's name"));
    std::vector<std::vector<int>> vars(header.count("an attribute count"));
    for (std::vector<int>& attribute : vars) {
      attribute.resize(header.count("a variable count"));
      for (int& v : attribute) v = static_cast<int>(header.u32("a variable"));
    }
    const auto found = ours.find(name);
    const bool alike = found != ours.end() && attribute_vars(*found->second) == vars;
    root_relation.push_back(alike ? found->second : nullptr);
  }
  if (std::none_of(root_relation.begin(), root_relation.end(),
                   [](const Relation* r) { return r != nullptr; }))
    return "no relation of the image is laid out as in this run";
  const std::uint64_t image_at = header.offset();
  const std::uint64_t image_size = header.u64("the node image's size");
  if (bytes.size() - header.offset() != image_size)
    header.fail(image_at, "the node image's size does not match the file's");
  auto placed = [&] {
    try {
      return bdd::NodeImage::place(manager,
                                   std::string_view(bytes).substr(header.offset(), image_size));
    } catch (const bdd::NodeImageError& e) {
      header.fail(header.offset() + e.offset(), e.what());
    }
  }();
  if (std::string* why = std::get_if<std::string>(&placed)) return std::move(*why);
  std::vector<bdd::Bdd>& roots = std::get<std::vector<bdd::Bdd>>(placed);
  if (roots.size() != root_relation.size())
    header.fail(image_at, "the node image has " + std::to_string(roots.size()) + " roots for " +
                              std::to_string(root_relation.size()) + " relations");
  PlacedState state;
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (root_relation[i] != nullptr) state.values[root_relation[i]->name()] = roots[i];
  state.table_nodes = manager.stats().used_nodes;
  return state;
}

}  // namespace refract::rel
