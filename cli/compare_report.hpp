// The reports of `refract compare`: a table on stdout, OUT/compare.csv and OUT/compare.json,
// all from one list of fields per variant, so that each number reads the same everywhere.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/compare_results.hpp"

namespace refract::cli {

// What was compared: the program and the settings every variant shares.
struct CompareSummary {
  std::string main_class;
  std::string context;     // compare's --context (a variant may set its own)
  std::string reflection;  // the reflection mode
  unsigned runs = 0;
  double extraction_seconds = 0;       // reading the classes and extracting the facts, once
  std::vector<std::string> relations;  // main_relations() and --relation's
};

enum class FieldKind { kNumber, kText, kBool };

// One value of a row: `text` is how every report writes it (a JSON number or true/false for
// numbers and booleans); empty when the variant has no such value (null in JSON).
struct ReportField {
  std::string key;     // the CSV column and JSON member
  std::string header;  // the column heading of the tables
  FieldKind kind = FieldKind::kNumber;
  std::string text;
};

// Every field of a row, in column order.
std::vector<ReportField> row_fields(const VariantRow& row, const CompareSummary& summary);

// Seconds, ratios and MiB as the reports write them.
std::string fixed(double value, int decimals);

void write_table(std::ostream& out, const CompareSummary& summary,
                 const std::vector<VariantRow>& rows);
void write_csv(const std::filesystem::path& file, const CompareSummary& summary,
               const std::vector<VariantRow>& rows);
void write_json(const std::filesystem::path& file, const CompareSummary& summary,
                const std::vector<VariantRow>& rows);

}  // namespace refract::cli
