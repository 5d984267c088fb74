// OUT/compare.html of `refract compare`: one self-contained page (inline SVG and CSS, nothing
// fetched) with bar charts of seconds, BDD nodes produced and relation sizes per variant, and
// the full table of the CSV and JSON reports.
#pragma once

#include <filesystem>
#include <vector>

#include "cli/compare_report.hpp"
#include "cli/compare_results.hpp"

namespace refract::cli {

void write_compare_page(const std::filesystem::path& file, const CompareSummary& summary,
                        const std::vector<VariantRow>& rows);

}  // namespace refract::cli
