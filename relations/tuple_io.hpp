// Relations as text: bddbddb's .tuples format (a "# V0:16 H0:14" header, then
// one tuple of numbers per line; a field may be "*" or an inclusive "lo-hi")
// and TSV of element names. Writers stream and write atomically.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "relations/relation.hpp"

namespace refract::rel {

// The plain lines of a tuples file as a multiset: how many, and two sums of a 64-bit hash of
// each. Equal fingerprints mean the same lines, but for a chance of about 2^-128; the order of
// the lines does not count.
struct TupleFingerprint {
  std::uint64_t lines = 0;
  std::uint64_t sum_a = 0;
  std::uint64_t sum_b = 0;
  void add(std::span<const std::uint64_t> tuple);
  friend bool operator==(const TupleFingerprint&, const TupleFingerprint&) = default;
};

// Replaces r's contents with the file's tuples. Errors name file, line, column. Returns the
// number of distinct tuples when every line is a plain tuple (no '*' or range), which spares
// callers an exact count of the BDD (seconds on a relation of millions of nodes). With
// `fingerprint`, adds the plain lines to it.
std::optional<std::uint64_t> read_tuples(const std::filesystem::path& file, Relation& r,
                                         TupleFingerprint* fingerprint = nullptr);

// For a file that holds a known relation's tuples and more (a seeded solve's input, issue 35):
// the BDD of the tuples with some value at or past its attribute's `limits`, when the other
// lines are `within` (the known relation's fingerprint) and the file has no '*' or range;
// otherwise nothing, and the caller reads the whole file. Building the BDD of the few new
// tuples instead of all of them is the point; errors are read_tuples'.
struct TuplesBeyond {
  bdd::Bdd bdd;
  std::uint64_t lines = 0;  // the lines past the limits
};
std::optional<TuplesBeyond> read_tuples_beyond(const std::filesystem::path& file, const Relation& r,
                                               const std::vector<std::uint64_t>& limits,
                                               const TupleFingerprint& within);
void write_tuples(const std::filesystem::path& file, const Relation& r);
// One line per tuple, fields are element names (numbers where a map has none).
void write_tsv(const std::filesystem::path& file, const Relation& r);

// Builds the BDD of a set of tuples (values in attribute order, all in range)
// directly as a decision tree in level order, instead of OR-ing minterms.
bdd::Bdd bdd_from_tuples(const Relation& shape, std::vector<std::vector<std::uint64_t>> tuples);

}  // namespace refract::rel
