// Relations as bddbddb .bdd files (the `input` and `output` relation flags).
//
// Layout, as bddbddb's BDDRelation.save() writes it:
//   # V0:16 H0:14          info line: physical domain NAME:BITS per attribute
//   # 3 2 1 0 ...          one line per attribute: that domain's BDD variables,
//   # ...                  LEAST significant bit first (JavaBDD BDDDomain.vars())
//   N VARNUM               then the BDD in BuDDy's bdd_save text format: node
//   l0 l1 ... lVARNUM-1    count, variable count, each variable's level, and N
//   id var low high        nodes, children before parents, the root last
//                          (0 and 1 are the constants; a constant BDD is "0 0 c").
// The body is read as a stream of whitespace-separated numbers, as BuDDy does.
//
// Variable numbers in a file are the writer's, so reading remaps them: bit j of
// the file's line for attribute i becomes bit j of attribute i's block here.
#pragma once

#include <filesystem>

#include "relations/relation.hpp"

namespace refract::rel {

// Replaces r's BDD with the file's. The info line must name, column by column,
// an instance of each attribute's domain, with at most its bit width here: a file written
// under a smaller size of the domain (the same elements numbered first, more after them)
// has its values with the high bits 0. A constant-true
// file means every tuple of the domains; any other BDD holding a value outside a
// domain (written under a larger domain size) is rejected. Errors are InputError
// at FILE:LINE:COL.
// `values_outside_domains`: kReject (inputs) or kKeep, for a seed (solver::EngineOptions::
// seed_dir), which holds what the solve that wrote it held, values a caller built past a
// domain's size included (a constructor made of bit equalities).
enum class OutsideValues { kReject, kKeep };
void read_bdd_file(const std::filesystem::path& file, Relation& r,
                   OutsideValues outside = OutsideValues::kReject);

// The node count a .bdd file's header gives, without reading its nodes: how much room reading
// it will take. 0 where the header cannot be read (read_bdd_file then says why).
std::uint64_t bdd_file_node_count(const std::filesystem::path& file);

// Writes r atomically with this run's variable numbers (identity var-to-level
// line: refract never reorders). Node ids run 2, 3, ... in file order.
void write_bdd_file(const std::filesystem::path& file, const Relation& r);

}  // namespace refract::rel
