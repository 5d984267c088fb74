// Variable orders in bddbddb syntax: blocks separated by '_' from the top of
// the order; 'x' inside a block interleaves its domains bit by bit with the
// most significant bits aligned at the top of the block. A domain made of equal
// fields (a tuple of context elements) may be laid out in lanes: each field then
// interleaves as if it were a domain of its own.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bdd/bit_block.hpp"

namespace refract::bdd {

struct VarOrder {
  std::vector<std::vector<std::string>> blocks;  // top to bottom; each block's domains interleave

  std::string to_string() const;
  std::vector<std::string> names() const;  // every domain named, in order
};

class VarOrderError : public std::runtime_error {
 public:
  VarOrderError(std::size_t column, const std::string& message)
      : std::runtime_error(message), column_(column) {}
  std::size_t column() const { return column_; }  // 1-based column in the order string

 private:
  std::size_t column_;
};

// Splits `text` into the known physical domain names. Names may themselves
// contain 'x' or '_', so each position takes the longest known name that fits.
// Throws VarOrderError for an unknown name, a repeated name or an empty block.
VarOrder parse_var_order(std::string_view text, const std::vector<std::string>& known_names);

// bddbddb's repair of an order that does not fit the program (BDDSolver.fixVarOrder), for
// programs written for it. `needed` lists the instances the program uses, in the order they
// are added; `domain_of` names the domain of every instance name the order may use. Each
// needed instance the order lacks goes just before the last instance of its domain in the
// order, joined to it by the separator in front of that instance (`...xFD3xFD4` gets FD5 as
// `...xFD3xFD5xFD4`), or in a block of its own at the top when no instance of its domain
// comes after the order's first name; then every name that is not a needed instance (an
// unused instance, or no domain's at all) is dropped with a separator next to it. Text the
// names and separators do not make up is returned as it is, for parse_var_order to report.
struct CompletedVarOrder {
  std::string text;
  std::vector<std::string> notes;  // one line per instance added or name dropped
};
CompletedVarOrder complete_var_order(std::string_view text, const std::vector<std::string>& needed,
                                     const std::map<std::string, std::string>& domain_of);

// Assigns BDD variables (levels) to every domain of the order, starting at
// `first_var`; `widths` gives each name's bit count. A name in `lanes` with L lanes is L
// fields of width/L bits (field 0 the most significant): round r of its block places bit r
// of each field, so an equality between field f of one domain and field g of another stays
// a few nodes per bit, whatever f and g. The block's vars stay in bit order, no longer
// ascending. Returns name -> block; std::invalid_argument if a width is not a multiple of its
// lanes.
std::map<std::string, BitBlock> lay_out(const VarOrder& order,
                                        const std::map<std::string, unsigned>& widths,
                                        int first_var,
                                        const std::map<std::string, unsigned>& lanes = {});

}  // namespace refract::bdd
