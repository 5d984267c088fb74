#include "relations/bdd_file.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "support/atomic_file.hpp"
#include "support/error.hpp"

namespace refract::rel {

namespace {

bool parse_number(std::string_view text, std::uint64_t& out) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

bool is_space(int c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

struct Field {
  std::string_view text;
  std::size_t column;  // 1-based
};

std::vector<Field> split_fields(std::string_view line, std::size_t first_column) {
  std::vector<Field> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(static_cast<unsigned char>(line[i]))) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !is_space(static_cast<unsigned char>(line[i]))) ++i;
    fields.push_back({line.substr(start, i - start), first_column + start});
  }
  return fields;
}

// The whole file in memory, handed out as header lines, then as whitespace-separated tokens.
// Tokens carry their byte offset; a line and column are worked out only for an error message,
// so the body of a large file is read without counting columns.
class Scanner {
 public:
  Scanner(std::string text, std::string file) : text_(std::move(text)), file_(std::move(file)) {}

  SourceLocation here() const { return at_offset(pos_); }
  SourceLocation at(std::uint64_t line, std::uint64_t column) const {
    return {file_, line, column};
  }
  SourceLocation at_offset(std::size_t offset) const {
    std::uint64_t line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return {file_, line, offset - line_start + 1};
  }

  // The next line without its terminator (and a trailing '\r'); false at end of file.
  bool line(std::string& out, std::uint64_t& number) {
    out.clear();
    number = line_;
    if (pos_ == text_.size()) return false;
    const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
    out.assign(text_, pos_, end - pos_);
    pos_ = end == text_.size() ? end : end + 1;
    ++line_;
    if (!out.empty() && out.back() == '\r') out.pop_back();
    return true;
  }

  // The next whitespace-separated token and its offset; false at end of file.
  bool token(std::string_view& out, std::size_t& offset) {
    const std::size_t size = text_.size();
    while (pos_ < size && is_space(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ == size) return false;
    offset = pos_;
    while (pos_ < size && !is_space(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    out = std::string_view(text_).substr(offset, pos_ - offset);
    return true;
  }

 private:
  std::string text_;
  std::string file_;
  std::size_t pos_ = 0;
  std::uint64_t line_ = 1;  // of the next header line
};

std::string attribute_label(const Relation& r, std::size_t i) {
  return "attribute " + r.attributes()[i].name + " of " + r.name();
}

// Line 1: "# V0:16 H0:14", column i an instance of attribute i's domain, at most as wide as
// here. Returns the file's width per attribute.
std::vector<unsigned> check_info_line(Scanner& scan, const Relation& r) {
  std::string line;
  std::uint64_t number = 0;
  if (!scan.line(line, number)) {
    throw InputError(scan.at(1, 1), "empty BDD file: expected an info line like '# V0:16 H0:14'");
  }
  if (line.empty() || line[0] != '#') {
    throw InputError(scan.at(1, 1), "expected an info line like '# V0:16 H0:14'");
  }
  const std::vector<Field> fields = split_fields(std::string_view(line).substr(1), 2);
  if (fields.size() != r.arity()) {
    const std::size_t column =
        fields.size() > r.arity() ? fields[r.arity()].column : line.size() + 1;
    throw InputError(scan.at(1, column), "info line names " + std::to_string(fields.size()) +
                                             " domains but relation " + r.name() + " has " +
                                             std::to_string(r.arity()) + " attributes");
  }
  std::vector<unsigned> widths;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string_view f = fields[i].text;
    const SourceLocation where = scan.at(1, fields[i].column);
    const std::size_t colon = f.rfind(':');
    std::uint64_t bits = 0;
    if (colon == std::string_view::npos || !parse_number(f.substr(colon + 1), bits)) {
      throw InputError(where, "info line column '" + std::string(f) + "' is not NAME:BITS");
    }
    const Attribute& a = r.attributes()[i];
    const std::string& domain = r.space().domain(a.domain).name;
    const std::string_view name = f.substr(0, colon);
    const bool same_domain = name.size() >= domain.size() &&
                             name.substr(0, domain.size()) == domain &&
                             std::all_of(name.begin() + static_cast<std::ptrdiff_t>(domain.size()),
                                         name.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!same_domain) {
      throw InputError(where, "domain '" + std::string(name) + "' is not of domain " + domain +
                                  " (" + attribute_label(r, i) + ")");
    }
    const unsigned width = r.space().physical(a.physical).block.width();
    if (bits > width) {
      throw InputError(where, "domain " + std::string(name) + " has " + std::to_string(bits) +
                                  " bits in the file but " + std::to_string(width) + " here (" +
                                  attribute_label(r, i) + ")");
    }
    widths.push_back(static_cast<unsigned>(bits));
  }
  return widths;
}

// Lines 2..arity+1: "# v v ...", attribute i's variables least significant bit
// first, file_widths[i] of them. Returns file variable -> our variable.
std::unordered_map<std::uint64_t, int> read_variable_lines(
    Scanner& scan, const Relation& r, const std::vector<unsigned>& file_widths) {
  std::unordered_map<std::uint64_t, int> ours;
  std::unordered_map<std::uint64_t, std::uint64_t> listed_at;  // file variable -> line
  std::string line;
  for (std::size_t i = 0; i < r.arity(); ++i) {
    const PhysicalDomain& p = r.space().physical(r.attributes()[i].physical);
    const unsigned width = file_widths[i];
    std::uint64_t number = 0;
    if (!scan.line(line, number)) {
      throw InputError(scan.here(), "file ends before the variable line of " + p.name + " (" +
                                        attribute_label(r, i) + ")");
    }
    if (line.empty() || line[0] != '#') {
      throw InputError(scan.at(number, 1), "expected the variable line of " + p.name +
                                               ", like '# 0 1 2' (least significant bit first)");
    }
    const std::vector<Field> fields = split_fields(std::string_view(line).substr(1), 2);
    if (fields.size() != width) {
      const std::size_t column = fields.size() > width ? fields[width].column : line.size() + 1;
      throw InputError(scan.at(number, column), "variable line of " + p.name + " lists " +
                                                    std::to_string(fields.size()) +
                                                    " variables but the info line gives " + p.name +
                                                    " " + std::to_string(width) + " bits");
    }
    for (unsigned bit = 0; bit < width; ++bit) {
      const SourceLocation where = scan.at(number, fields[bit].column);
      std::uint64_t var = 0;
      if (!parse_number(fields[bit].text, var) || var > static_cast<std::uint64_t>(INT_MAX)) {
        throw InputError(
            where, "expected a BDD variable number, found '" + std::string(fields[bit].text) + "'");
      }
      if (const auto [it, fresh] = listed_at.emplace(var, number); !fresh) {
        throw InputError(where, "variable " + std::to_string(var) + " is already listed on line " +
                                    std::to_string(it->second));
      }
      // our vars[0] is the most significant bit
      ours[var] = p.block.vars[p.block.width() - 1 - bit];
    }
  }
  return ours;
}

struct NumberAt {
  std::uint64_t value;
  std::size_t offset;  // in the file, for messages
};

// A number of the BDD body and where it stands; what() names it, only for messages.
template <typename Describe>
NumberAt body_number(Scanner& scan, Describe&& what) {
  std::string_view text;
  NumberAt n{0, 0};
  if (!scan.token(text, n.offset)) {
    throw InputError(scan.here(), "file ends before " + what());
  }
  if (!parse_number(text, n.value)) {
    throw InputError(scan.at_offset(n.offset),
                     "expected " + what() + ", found '" + std::string(text) + "'");
  }
  return n;
}

// The nodes read so far by id. Files refract writes number them 2, 3, ... in order, which a
// vector serves; any other numbering (BuDDy's own bdd_save, bddbddb's) moves them to a map.
class NodeTable {
 public:
  explicit NodeTable(std::uint64_t count) {
    in_order_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(count, 1 << 26)));
  }

  const bdd::Bdd* find(std::uint64_t id) const {
    if (by_id_.empty()) {
      return id >= 2 && id - 2 < in_order_.size() ? &in_order_[id - 2] : nullptr;
    }
    const auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : &it->second;
  }

  // False when the id is already defined.
  bool add(std::uint64_t id, bdd::Bdd node) {
    if (by_id_.empty() && id == in_order_.size() + 2) {
      in_order_.push_back(std::move(node));
      return true;
    }
    if (by_id_.empty()) {
      for (std::size_t i = 0; i < in_order_.size(); ++i)
        by_id_.emplace(i + 2, std::move(in_order_[i]));
      in_order_.clear();
    }
    return by_id_.emplace(id, std::move(node)).second;
  }

 private:
  std::vector<bdd::Bdd> in_order_;
  std::unordered_map<std::uint64_t, bdd::Bdd> by_id_;
};

// (var ? high : low): one unique-table lookup when var lies above both children, as in every
// file written under this order; an ite otherwise (a file written under another order).
bdd::Bdd make_node(int var, const bdd::Bdd& low, const bdd::Bdd& high) {
  const auto below = [var](const bdd::Bdd& child) {
    const int raw = child.raw();
    return raw == bdd::Bdd::kRawFalse || raw == bdd::Bdd::kRawTrue || bdd::Bdd::raw_var(raw) > var;
  };
  if (below(low) && below(high)) return bdd::Bdd::node(var, low, high);
  return bdd::Bdd::ite(bdd::Bdd::variable(var), high, low);
}

bdd::Bdd read_body(Scanner& scan, const std::unordered_map<std::uint64_t, int>& ours) {
  const auto named = [](const char* what) { return [what] { return std::string(what); }; };
  const NumberAt count = body_number(scan, named("the BDD's node count"));
  const NumberAt vars = body_number(scan, named("the BDD's variable count"));
  bdd::Bdd result;
  if (count.value == 0) {
    if (vars.value != 0) {
      throw InputError(scan.at_offset(vars.offset),
                       "a BDD without nodes is a constant, written '0 0 0' or '0 0 1'");
    }
    const NumberAt constant = body_number(scan, named("the constant (0 or 1)"));
    if (constant.value > 1) {
      throw InputError(scan.at_offset(constant.offset),
                       "a constant BDD is 0 or 1, found " + std::to_string(constant.value));
    }
    result = constant.value == 1 ? bdd::Bdd::one() : bdd::Bdd::zero();
  } else {
    // The writer's variable-to-level map: only the node lines matter here.
    for (std::uint64_t v = 0; v < vars.value; ++v) {
      body_number(scan, [&] {
        return "the level of variable " + std::to_string(v) + " (of " + std::to_string(vars.value) +
               ")";
      });
    }
    // The file's variable numbers are usually small: a vector maps those, the map the rest.
    constexpr std::uint64_t kVectorMapped = 1 << 16;
    std::vector<int> small_vars;
    for (const auto& [file_var, var] : ours) {
      if (file_var >= kVectorMapped) continue;
      if (file_var >= small_vars.size()) small_vars.resize(file_var + 1, -1);
      small_vars[file_var] = var;
    }
    const auto our_var = [&](std::uint64_t file_var) {
      if (file_var < small_vars.size()) return small_vars[file_var];
      if (file_var < kVectorMapped) return -1;
      const auto it = ours.find(file_var);
      return it == ours.end() ? -1 : it->second;
    };
    NodeTable nodes(count.value);
    const bdd::Bdd zero = bdd::Bdd::zero();
    const bdd::Bdd one = bdd::Bdd::one();
    const auto child = [&](const NumberAt& ref, std::uint64_t parent) -> const bdd::Bdd& {
      if (ref.value == 0) return zero;
      if (ref.value == 1) return one;
      const bdd::Bdd* node = nodes.find(ref.value);
      if (node == nullptr) {
        throw InputError(scan.at_offset(ref.offset),
                         "node " + std::to_string(parent) + " refers to node " +
                             std::to_string(ref.value) + ", which is not defined before it");
      }
      return *node;
    };
    for (std::uint64_t n = 0; n < count.value; ++n) {
      const auto of_node = [&](const char* what) {
        return [&, what] {
          return std::string(what) + " of node " + std::to_string(n + 1) + " (of " +
                 std::to_string(count.value) + ")";
        };
      };
      const NumberAt id = body_number(scan, of_node("the id"));
      if (id.value < 2) {
        throw InputError(scan.at_offset(id.offset), "node id " + std::to_string(id.value) +
                                                        " is a constant; node ids start at 2");
      }
      if (nodes.find(id.value) != nullptr) {
        throw InputError(scan.at_offset(id.offset),
                         "node " + std::to_string(id.value) + " is defined twice");
      }
      const NumberAt var = body_number(scan, of_node("the variable"));
      const int mapped = our_var(var.value);
      if (mapped < 0) {
        throw InputError(scan.at_offset(var.offset),
                         "variable " + std::to_string(var.value) +
                             " is not listed on the header's variable lines");
      }
      const NumberAt low = body_number(scan, of_node("the low child"));
      const NumberAt high = body_number(scan, of_node("the high child"));
      result = make_node(mapped, child(low, id.value), child(high, id.value));
      nodes.add(id.value, result);  // the last node is the root
    }
  }
  std::string_view text;
  std::size_t offset = 0;
  if (scan.token(text, offset)) {
    throw InputError(scan.at_offset(offset),
                     "unexpected '" + std::string(text) + "' after the end of the BDD");
  }
  return result;
}

}  // namespace

std::uint64_t bdd_file_node_count(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::uint64_t count = 0;
    const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), count);
    return error == std::errc() ? count : 0;
  }
  return 0;
}

void read_bdd_file(const std::filesystem::path& file, Relation& r, OutsideValues outside) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError({file.string()}, "cannot open BDD file for relation " + r.name());
  std::string text;
  {
    std::ostringstream whole;
    whole << in.rdbuf();
    if (in.bad()) throw InputError({file.string()}, "read error");
    text = std::move(whole).str();
  }
  Scanner scan(std::move(text), file.string());
  const std::vector<unsigned> widths = check_info_line(scan, r);
  const std::unordered_map<std::uint64_t, int> ours = read_variable_lines(scan, r, widths);
  bdd::Bdd value = read_body(scan, ours);

  // A file written with fewer bits for a domain (a smaller domain of the same elements: a
  // cached fixpoint, issue 35) holds values whose high bits here are 0.
  bdd::Bdd high_bits_zero = bdd::Bdd::one();
  for (std::size_t i = 0; i < r.arity(); ++i) {
    const PhysicalDomain& p = r.space().physical(r.attributes()[i].physical);
    for (unsigned bit = widths[i]; bit < p.block.width(); ++bit)
      high_bits_zero &= !bdd::Bdd::variable(p.block.vars[p.block.width() - 1 - bit]);
  }
  const bdd::Bdd universe = high_bits_zero & r.valid_tuples();
  if (value.is_one()) {
    value = universe;  // bddbddb's "every tuple"
  } else {
    value &= high_bits_zero;
    for (std::size_t i = 0; i < r.arity() && outside == OutsideValues::kReject; ++i) {
      const Attribute& a = r.attributes()[i];
      if (!(value - r.space().valid_values(a.physical)).is_zero()) {
        const LogicalDomain& d = r.space().domain(a.domain);
        throw InputError({file.string()}, "the BDD holds values of " + attribute_label(r, i) +
                                              " outside domain " + d.name + " (size " +
                                              std::to_string(d.size) + ")");
      }
    }
  }
  r.set_bdd(std::move(value));
}

namespace {

struct SavedNode {
  int var;
  int low;  // raw node ids
  int high;
};

void append_number(std::string& out, std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

}  // namespace

void write_bdd_file(const std::filesystem::path& file, const Relation& r) {
  const DomainSpace& space = r.space();
  const int variable_count = space.manager().variable_count();
  std::vector<char> in_relation(static_cast<std::size_t>(variable_count), 0);
  for (int v : space.sorted_variables(r.physicals())) in_relation[static_cast<std::size_t>(v)] = 1;

  // Nodes in post order, low child first (as BuDDy's bdd_save); ids from 2 in that order.
  const int root = r.bdd().raw();
  std::vector<SavedNode> saved;
  std::unordered_map<int, std::uint64_t> id;
  if (root != bdd::Bdd::kRawFalse && root != bdd::Bdd::kRawTrue) {
    std::vector<std::pair<int, bool>> stack{{root, false}};
    while (!stack.empty()) {
      auto& [node, expanded] = stack.back();
      if (node == bdd::Bdd::kRawFalse || node == bdd::Bdd::kRawTrue || id.count(node) != 0) {
        stack.pop_back();
      } else if (!expanded) {
        expanded = true;
        const int n = node;
        stack.emplace_back(bdd::Bdd::raw_high(n), false);
        stack.emplace_back(bdd::Bdd::raw_low(n), false);
      } else {
        const int var = bdd::Bdd::raw_var(node);
        if (var < 0 || var >= variable_count || in_relation[static_cast<std::size_t>(var)] == 0) {
          throw std::logic_error("relation " + r.name() + " depends on BDD variable " +
                                 std::to_string(var) + ", which none of its attributes owns");
        }
        saved.push_back({var, bdd::Bdd::raw_low(node), bdd::Bdd::raw_high(node)});
        id.emplace(node, saved.size() + 1);
        stack.pop_back();
      }
    }
  }
  const auto ref = [&](int node) -> std::uint64_t {
    return node == bdd::Bdd::kRawFalse ? 0 : node == bdd::Bdd::kRawTrue ? 1 : id.at(node);
  };

  AtomicOutputFile out(file);
  std::ostream& os = out.stream();
  std::string buffer = "#";
  for (const Attribute& a : r.attributes()) {
    const PhysicalDomain& p = space.physical(a.physical);
    buffer += " " + p.name + ":" + std::to_string(p.block.width());
  }
  buffer += '\n';
  for (const Attribute& a : r.attributes()) {
    const auto& vars = space.physical(a.physical).block.vars;
    buffer += '#';
    for (auto it = vars.rbegin(); it != vars.rend(); ++it) {  // least significant bit first
      buffer += ' ';
      append_number(buffer, static_cast<std::uint64_t>(*it));
    }
    buffer += '\n';
  }
  if (saved.empty()) {
    buffer += root == bdd::Bdd::kRawTrue ? "0 0 1\n" : "0 0 0\n";
  } else {
    append_number(buffer, saved.size());
    buffer += ' ';
    append_number(buffer, static_cast<std::uint64_t>(variable_count));
    buffer += '\n';
    for (int v = 0; v < variable_count; ++v) {  // variable v sits at level v
      append_number(buffer, static_cast<std::uint64_t>(v));
      buffer += ' ';
    }
    buffer += '\n';
  }
  for (std::size_t i = 0; i < saved.size(); ++i) {
    append_number(buffer, i + 2);
    buffer += ' ';
    append_number(buffer, static_cast<std::uint64_t>(saved[i].var));
    buffer += ' ';
    append_number(buffer, ref(saved[i].low));
    buffer += ' ';
    append_number(buffer, ref(saved[i].high));
    buffer += '\n';
    if (buffer.size() >= (1 << 16)) {
      os.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  os.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  out.commit();
}

}  // namespace refract::rel
