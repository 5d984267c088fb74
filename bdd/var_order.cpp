#include "bdd/var_order.hpp"

#include <algorithm>
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
