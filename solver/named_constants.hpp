// A program's quoted names against its domains' maps, resolved as bddbddb resolves them
// before the rules are planned. A name on several lines of a map stands for the last of them
// (bddbddb's maps keep every line as an element and index names by their last line). A name
// the map lacks is, for a bddbddb program, a new element of the domain, numbered after the
// map's lines in the order the program first writes such names (bddbddb's
// Domain.namedConstant), in a rule head as in a body. Where the map names every element of
// its domain there is no new element to give (bddbddb would fail there; refract's own facts
// name every element): such a name stays absent, as in refract's own analyses (rule_plan.hpp:
// it then matches nothing in a body and is an error in a head).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "relations/element_map.hpp"
#include "solver/ast.hpp"

namespace refract::solver {

// `maps` is parallel to program.domains (nullopt: the domain has no map; its quoted names are
// left to the planner, which rejects them). Returns "FILE:LINE:COL: warning: ..." lines, one
// per name that is repeated in its map or, with `add_missing`, added to it, at its first use.
std::vector<std::string> resolve_named_constants(const Program& program,
                                                 std::vector<std::optional<rel::ElementMap>>& maps,
                                                 bool add_missing);

}  // namespace refract::solver
