#include "bdd/node_image.hpp"

#include <malloc.h>

#include <array>
#include <cstring>

#include "bdd/buddy_c_api.hpp"
#include "bdd/manager.hpp"

// Exported by libbdd but declared only in its private kernel.h.
extern "C" void* bddnodes;  // the node table (kernel.c)
extern "C" int bddnodesize;
extern "C" int bddfreepos;  // head of the free list, linked through `next`
extern "C" int bddfreenum;
extern "C" void bdd_gbc(void);

namespace refract::bdd {
namespace {

constexpr std::string_view kMagic = "RFNODES1";

// libbdd 2.4's node (kernel.h). place() checks it against the variables' nodes, which BuDDy
// makes at setvarnum, before it writes one.
struct BuddyNode {
  unsigned int refcou : 10;
  unsigned int level : 22;
  int low;
  int high;
  int hash;
  int next;
};
constexpr unsigned kPinned = 0x3FF;  // MAXREF: the variables' nodes are never collected

BuddyNode* node_table() {
  return static_cast<BuddyNode*>(bddnodes);
}

bool table_layout_as_expected(int variables) {
  if (bddnodes == nullptr || bddnodesize <= 0) return false;
  const std::size_t bytes_per_node = malloc_usable_size(bddnodes) / bddnodesize;
  if (bytes_per_node < sizeof(BuddyNode) || bytes_per_node >= 2 * sizeof(BuddyNode)) return false;
  for (int v = 0; v < variables; ++v) {
    const BuddyNode& positive = node_table()[bdd_ithvar(v)];
    const BuddyNode& negative = node_table()[bdd_nithvar(v)];
    const auto level = static_cast<unsigned>(bdd_var2level(v));
    if (positive.level != level || positive.low != 0 || positive.high != 1 ||
        positive.refcou != kPinned || negative.level != level || negative.low != 1 ||
        negative.high != 0) {
      return false;
    }
  }
  return true;
}

template <typename T>
void put(std::ostream& out, T value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

// Reads fixed-width numbers from the image, naming the byte where one is missing.
class ImageReader {
 public:
  explicit ImageReader(std::string_view bytes) : bytes_(bytes) {}
  template <typename T>
  T at(std::uint64_t offset, const char* what) const {
    if (offset > bytes_.size() || bytes_.size() - offset < sizeof(T))
      throw NodeImageError(offset, std::string("the image ends before ") + what);
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof value);
    return value;
  }
  std::uint64_t size() const { return bytes_.size(); }

 private:
  std::string_view bytes_;
};

struct ImageNode {
  std::uint32_t var, low, high;
};

}  // namespace

void NodeImage::write(std::ostream& out, std::span<const Bdd> roots) {
  const int variables = bdd_varnum();
  out.write(kMagic.data(), static_cast<std::streamsize>(kMagic.size()));
  put<std::uint32_t>(out, static_cast<std::uint32_t>(variables));
  for (int v = 0; v < variables; ++v) put<std::uint32_t>(out, bdd_var2level(v));
  // Image id per table slot, 0 while the node is not written; the nodes stream out as they
  // get one, so the counts follow them.
  std::vector<std::uint32_t> id(static_cast<std::size_t>(bdd_getallocnum()), 0);
  id[0] = 0;
  id[1] = 1;
  std::uint64_t written = 0;
  std::vector<int> stack;
  for (const Bdd& root : roots) {
    if (root.root_ >= 2) stack.push_back(root.root_);
    while (!stack.empty()) {
      const int n = stack.back();
      if (id[n] != 0) {
        stack.pop_back();
        continue;
      }
      const int low = bdd_low(n), high = bdd_high(n);
      if (low >= 2 && id[low] == 0) {
        stack.push_back(low);
        continue;
      }
      if (high >= 2 && id[high] == 0) {
        stack.push_back(high);
        continue;
      }
      stack.pop_back();
      const std::array<std::uint32_t, 3> node = {
          static_cast<std::uint32_t>(bdd_var(n)),
          low < 2 ? static_cast<std::uint32_t>(low) : id[low],
          high < 2 ? static_cast<std::uint32_t>(high) : id[high]};
      out.write(reinterpret_cast<const char*>(node.data()), sizeof node);
      id[n] = static_cast<std::uint32_t>(2 + written++);
    }
  }
  for (const Bdd& root : roots)
    put<std::uint32_t>(out,
                       root.root_ < 2 ? static_cast<std::uint32_t>(root.root_) : id[root.root_]);
  put<std::uint64_t>(out, written);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(roots.size()));
}

std::variant<std::vector<Bdd>, std::string> NodeImage::place(Manager& manager,
                                                             std::string_view bytes) {
  const ImageReader image(bytes);
  if (bytes.substr(0, kMagic.size()) != kMagic) throw NodeImageError(0, "not a BDD node image");
  const auto variables = image.at<std::uint32_t>(kMagic.size(), "the variable count");
  const std::uint64_t levels_at = kMagic.size() + sizeof(std::uint32_t);
  const std::uint64_t nodes_at = levels_at + std::uint64_t{variables} * sizeof(std::uint32_t);
  // The trailer, from the end: root ids, node count, root count.
  if (image.size() < nodes_at + sizeof(std::uint64_t) + sizeof(std::uint32_t))
    throw NodeImageError(image.size(), "the image ends before its node and root counts");
  const std::uint64_t root_count_at = image.size() - sizeof(std::uint32_t);
  const auto root_count = image.at<std::uint32_t>(root_count_at, "the root count");
  const std::uint64_t node_count_at = root_count_at - sizeof(std::uint64_t);
  const auto node_count = image.at<std::uint64_t>(node_count_at, "the node count");
  const std::uint64_t roots_bytes = std::uint64_t{root_count} * sizeof(std::uint32_t);
  if (node_count > (node_count_at - nodes_at) / sizeof(ImageNode) ||
      nodes_at + node_count * sizeof(ImageNode) + roots_bytes != node_count_at) {
    throw NodeImageError(node_count_at, "the node and root counts do not match the image's size");
  }
  const std::uint64_t roots_at = node_count_at - roots_bytes;

  if (variables != static_cast<std::uint32_t>(bdd_varnum()))
    return "the image has " + std::to_string(variables) + " variables, this run " +
           std::to_string(bdd_varnum());
  std::vector<std::uint32_t> level(variables);
  for (std::uint32_t v = 0; v < variables; ++v) {
    level[v] = image.at<std::uint32_t>(levels_at + 4 * std::uint64_t{v}, "a variable's level");
    if (level[v] != static_cast<std::uint32_t>(bdd_var2level(static_cast<int>(v))))
      return "the image's variable order is not this run's";
  }
  // Every node well formed before the table is touched: variables known, children earlier
  // and below it, and no node with equal children (BuDDy never makes one).
  const auto node_at = [&](std::uint64_t k) {
    ImageNode n;
    std::memcpy(&n, bytes.data() + nodes_at + k * sizeof(ImageNode), sizeof n);
    return n;
  };
  const auto level_of = [&](std::uint32_t id) {
    return id < 2 ? variables : level[node_at(id - 2).var];
  };
  for (std::uint64_t k = 0; k < node_count; ++k) {
    const std::uint64_t at = nodes_at + k * sizeof(ImageNode);
    const ImageNode n = node_at(k);
    if (n.var >= variables)
      throw NodeImageError(at, "node " + std::to_string(k + 2) + " has variable " +
                                   std::to_string(n.var) + " of " + std::to_string(variables));
    if (n.low >= k + 2 || n.high >= k + 2 || n.low == n.high)
      throw NodeImageError(at, "node " + std::to_string(k + 2) +
                                   " has a child that is not an earlier node, or equal children");
    if (level_of(n.low) <= level[n.var] || level_of(n.high) <= level[n.var])
      throw NodeImageError(at, "node " + std::to_string(k + 2) + " has a child above it");
  }
  std::vector<std::uint32_t> root_ids(root_count);
  for (std::uint32_t r = 0; r < root_count; ++r) {
    root_ids[r] = image.at<std::uint32_t>(roots_at + 4 * std::uint64_t{r}, "a root id");
    if (root_ids[r] >= node_count + 2)
      throw NodeImageError(roots_at + 4 * std::uint64_t{r}, "a root id past the last node");
  }

  if (!table_layout_as_expected(static_cast<int>(variables)))
    return "the node table's layout is not libbdd 2.4's";
  if (bdd_getnodenum() != 2 + 2 * static_cast<int>(variables))
    return "the node table holds more than the variables' nodes";
  manager.reserve_free_nodes(node_count);
  if (static_cast<std::uint64_t>(bddfreenum) < node_count)
    return "the node table has no room for the image's " + std::to_string(node_count) + " nodes";

  // Into free slots in image order; a node equal to a variable's own is that node.
  std::vector<int> slot(node_count + 2);
  slot[0] = 0;
  slot[1] = 1;
  int free = bddfreepos;
  int used = 0;
  for (std::uint64_t k = 0; k < node_count; ++k) {
    const ImageNode n = node_at(k);
    const int var = static_cast<int>(n.var);
    if (n.low == 0 && n.high == 1) {
      slot[k + 2] = bdd_ithvar(var);
    } else if (n.low == 1 && n.high == 0) {
      slot[k + 2] = bdd_nithvar(var);
    } else {
      BuddyNode& placed = node_table()[free];
      const int next = placed.next;
      placed.refcou = 0;
      placed.level = level[n.var];
      placed.low = slot[n.low];
      placed.high = slot[n.high];
      slot[k + 2] = free;
      free = next;
      ++used;
    }
  }
  bddfreepos = free;
  bddfreenum -= used;
  std::vector<Bdd> roots;
  roots.reserve(root_count);
  for (const std::uint32_t id : root_ids) roots.push_back(Bdd(slot[id]));
  // Links the placed nodes into the unique table (and rebuilds the free list): a collection
  // keeps every node reachable from a referenced root.
  bdd_gbc();
  check_error("bdd_gbc");
  return roots;
}

}  // namespace refract::bdd
