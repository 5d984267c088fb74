// Relations as text: bddbddb's .tuples format (a "# V0:16 H0:14" header, then
// one tuple of numbers per line; a field may be "*" or an inclusive "lo-hi")
// and TSV of element names. Writers stream and write atomically.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "relations/relation.hpp"

namespace refract::rel {

// Replaces r's contents with the file's tuples. Errors name file, line, column. Returns the
// number of distinct tuples when every line is a plain tuple (no '*' or range), which spares
// callers an exact count of the BDD (seconds on a relation of millions of nodes).
std::optional<std::uint64_t> read_tuples(const std::filesystem::path& file, Relation& r);
void write_tuples(const std::filesystem::path& file, const Relation& r);
// One line per tuple, fields are element names (numbers where a map has none).
void write_tsv(const std::filesystem::path& file, const Relation& r);

// Builds the BDD of a set of tuples (values in attribute order, all in range)
// directly as a decision tree in level order, instead of OR-ing minterms.
bdd::Bdd bdd_from_tuples(const Relation& shape, std::vector<std::vector<std::uint64_t>> tuples);

}  // namespace refract::rel
