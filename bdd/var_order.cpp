#include "bdd/var_order.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

namespace refract::bdd {

std::string VarOrder::to_string() const {
  std::string out;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (b > 0) out += '_';
    for (std::size_t d = 0; d < blocks[b].size(); ++d) {
      if (d > 0) out += 'x';
      out += blocks[b][d];
    }
  }
  return out;
}

std::vector<std::string> VarOrder::names() const {
  std::vector<std::string> out;
  for (const auto& block : blocks) out.insert(out.end(), block.begin(), block.end());
  return out;
}

VarOrder parse_var_order(std::string_view text, const std::vector<std::string>& known_names) {
  VarOrder order;
  std::set<std::string> seen;
  std::vector<std::string> block;
  std::size_t pos = 0;
  if (text.empty()) throw VarOrderError(1, "empty variable order");
  while (true) {
    std::string best;
    for (const std::string& name : known_names) {
      if (name.size() > best.size() && text.substr(pos, name.size()) == name) best = name;
    }
    if (best.empty()) {
      std::size_t end = pos;
      while (end < text.size() && text[end] != '_' && text[end] != 'x') ++end;
      if (end == pos) throw VarOrderError(pos + 1, "expected a domain name in variable order");
      throw VarOrderError(pos + 1, "unknown domain '" + std::string(text.substr(pos, end - pos)) +
                                       "' in variable order");
    }
    if (!seen.insert(best).second) {
      throw VarOrderError(pos + 1, "domain '" + best + "' appears twice in variable order");
    }
    block.push_back(best);
    pos += best.size();
    if (pos == text.size()) break;
    const char separator = text[pos];
    if (separator == '_') {
      order.blocks.push_back(std::move(block));
      block.clear();
    } else if (separator != 'x') {
      throw VarOrderError(
          pos + 1, std::string("expected '_' or 'x' in variable order, got '") + separator + "'");
    }
    ++pos;
    if (pos == text.size()) throw VarOrderError(pos, "variable order ends with a separator");
  }
  order.blocks.push_back(std::move(block));
  return order;
}

namespace {

struct OrderName {
  std::string name;
  char separator = '\0';  // the '_' or 'x' in front of it; none for the first
};

// The names of an order and their separators: at each place the longest known name, else
// (as bddbddb splits orders) the text up to the next '_' or 'x'. Nothing if a name is empty.
std::optional<std::vector<OrderName>> split_names(std::string_view text,
                                                  const std::map<std::string, std::string>& known) {
  std::vector<OrderName> out;
  std::size_t pos = 0;
  char separator = '\0';
  while (pos < text.size()) {
    std::size_t length = 0;
    for (const auto& [name, domain] : known)
      if (name.size() > length && text.substr(pos, name.size()) == name) length = name.size();
    if (length == 0)
      while (pos + length < text.size() && text[pos + length] != '_' && text[pos + length] != 'x')
        ++length;
    if (length == 0) return std::nullopt;
    out.push_back({std::string(text.substr(pos, length)), separator});
    pos += length;
    if (pos == text.size()) break;
    separator = text[pos];
    if (separator != '_' && separator != 'x') return std::nullopt;
    if (++pos == text.size()) return std::nullopt;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::string join_names(const std::vector<OrderName>& names) {
  std::string out;
  for (const OrderName& n : names) {
    if (!out.empty()) out += n.separator;
    out += n.name;
  }
  return out;
}

}  // namespace

CompletedVarOrder complete_var_order(std::string_view text, const std::vector<std::string>& needed,
                                     const std::map<std::string, std::string>& domain_of) {
  CompletedVarOrder out{std::string(text), {}};
  std::optional<std::vector<OrderName>> names = split_names(text, domain_of);
  if (!names) return out;
  auto named = [&](const std::string& name) {
    return std::any_of(names->begin(), names->end(),
                       [&](const OrderName& n) { return n.name == name; });
  };
  for (const std::string& missing : needed) {
    if (named(missing)) continue;
    const std::string& domain = domain_of.at(missing);
    std::size_t last = names->size();
    for (std::size_t i = 0; i < names->size(); ++i) {
      const auto d = domain_of.find((*names)[i].name);
      if (d != domain_of.end() && d->second == domain) last = i;
    }
    if (last == names->size() || last == 0) {
      if (!names->empty()) names->front().separator = '_';
      names->insert(names->begin(), OrderName{missing, '\0'});
      out.notes.push_back("added " + missing + " at the top, in a block of its own");
    } else {
      const char separator = (*names)[last].separator;
      names->insert(names->begin() + static_cast<std::ptrdiff_t>(last),
                    OrderName{missing, separator});
      (*names)[last + 1].separator = separator;
      out.notes.push_back("added " + missing + " in front of " + (*names)[last + 1].name);
    }
  }
  const std::set<std::string> wanted(needed.begin(), needed.end());
  for (std::size_t i = 0; i < names->size();) {
    if (wanted.count((*names)[i].name) != 0) {
      ++i;
      continue;
    }
    const bool known = domain_of.count((*names)[i].name) != 0;
    out.notes.push_back("dropped " + (*names)[i].name +
                        (known ? ", an instance the program does not use"
                               : ", which names no instance of a declared domain"));
    // As bddbddb: `H1_V1xV2` loses `V1x`, otherwise the name goes with the separator before it.
    const bool last = i + 1 == names->size();
    if (i == 0) {
      if (!last) (*names)[1].separator = '\0';
    } else if ((*names)[i].separator == '_' && !last && (*names)[i + 1].separator == 'x') {
      (*names)[i + 1].separator = '_';
    }
    names->erase(names->begin() + static_cast<std::ptrdiff_t>(i));
  }
  out.text = join_names(*names);
  return out;
}

std::map<std::string, BitBlock> lay_out(const VarOrder& order,
                                        const std::map<std::string, unsigned>& widths,
                                        int first_var,
                                        const std::map<std::string, unsigned>& lanes) {
  auto lanes_of = [&](const std::string& name) {
    const auto it = lanes.find(name);
    const unsigned count = it == lanes.end() ? 1 : it->second;
    if (count == 0 || widths.at(name) % count != 0) {
      throw std::invalid_argument("domain " + name + " of " + std::to_string(widths.at(name)) +
                                  " bits cannot be laid out in " + std::to_string(count) +
                                  " lanes");
    }
    return count;
  };
  std::map<std::string, BitBlock> out;
  int next = first_var;
  for (const auto& block : order.blocks) {
    unsigned rounds = 0;
    for (const std::string& name : block) {
      out[name].vars.assign(widths.at(name), -1);
      rounds = std::max(rounds, widths.at(name) / lanes_of(name));
    }
    // Round r places bit r (counted from the MSB) of every lane that has one.
    for (unsigned round = 0; round < rounds; ++round) {
      for (const std::string& name : block) {
        const unsigned count = lanes_of(name);
        const unsigned lane_bits = widths.at(name) / count;
        if (round >= lane_bits) continue;
        for (unsigned lane = 0; lane < count; ++lane)
          out[name].vars[lane * lane_bits + round] = next++;
      }
    }
  }
  return out;
}

}  // namespace refract::bdd
