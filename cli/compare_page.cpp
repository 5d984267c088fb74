#include "cli/compare_page.hpp"

#include <algorithm>
#include <optional>
#include <ostream>
#include <string>

#include "support/atomic_file.hpp"

namespace refract::cli {

namespace {

// Chart geometry, in SVG user units (pixels at 100%).
constexpr int kLabelWidth = 120;
constexpr int kBarArea = 300;
constexpr int kValueWidth = 110;
constexpr int kBarHeight = 18;
constexpr int kBarGap = 6;
constexpr int kTitleHeight = 24;

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// One bar of a chart: a variant's value as the reports write it, or none when it has none.
struct Bar {
  std::string label;
  std::optional<double> value;
  std::string text;  // the value as the table writes it, or why there is none
};

// A horizontal bar chart: one bar per variant, scaled to the largest value, the baseline's
// bar darker.
void write_chart(std::ostream& out, const std::string& title, const std::vector<Bar>& bars) {
  double largest = 0;
  for (const Bar& b : bars)
    if (b.value) largest = std::max(largest, *b.value);
  const int width = kLabelWidth + kBarArea + kValueWidth;
  const int height = kTitleHeight + static_cast<int>(bars.size()) * (kBarHeight + kBarGap);
  out << "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
      << height << "\" viewBox=\"0 0 " << width << ' ' << height << "\" role=\"img\" aria-label=\""
      << escape(title) << "\">\n"
      << "<text x=\"0\" y=\"16\" class=\"title\">" << escape(title) << "</text>\n";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const int y = kTitleHeight + static_cast<int>(i) * (kBarHeight + kBarGap);
    const int length =
        b.value && largest > 0 ? std::max(1, static_cast<int>(*b.value / largest * kBarArea)) : 0;
    out << "<text x=\"" << kLabelWidth - 8 << "\" y=\"" << y + 13 << "\" text-anchor=\"end\">"
        << escape(b.label) << "</text>";
    if (b.value) {
      out << "<rect x=\"" << kLabelWidth << "\" y=\"" << y << "\" width=\"" << length
          << "\" height=\"" << kBarHeight << "\" class=\"" << (i == 0 ? "base" : "bar") << "\"/>";
    }
    out << "<text x=\"" << kLabelWidth + length + 6 << "\" y=\"" << y + 13 << "\">"
        << escape(b.text) << "</text>\n";
  }
  out << "</svg></figure>\n";
}

// The bars of one field of the rows.
std::vector<Bar> bars_of(const CompareSummary& summary, const std::vector<VariantRow>& rows,
                         const std::string& key) {
  std::vector<Bar> bars;
  for (const VariantRow& row : rows) {
    for (const ReportField& f : row_fields(row, summary)) {
      if (f.key != key) continue;
      Bar b{row.name, std::nullopt, f.text};
      if (!f.text.empty()) {
        b.value = std::stod(f.text);
      } else {
        b.text = row.status;
      }
      bars.push_back(b);
    }
  }
  return bars;
}

void write_html_table(std::ostream& out, const CompareSummary& summary,
                      const std::vector<VariantRow>& rows) {
  out << "<table>\n<thead><tr>";
  for (const ReportField& f : row_fields(rows.front(), summary))
    out << "<th>" << escape(f.header) << "</th>";
  out << "</tr></thead>\n<tbody>\n";
  for (const VariantRow& row : rows) {
    out << "<tr>";
    for (const ReportField& f : row_fields(row, summary)) {
      out << "<td data-key=\"" << escape(f.key) << "\""
          << (f.kind == FieldKind::kText ? "" : " class=\"num\"") << ">" << escape(f.text)
          << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody>\n</table>\n";
}

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:24px;color:#222}"
    "h1{font-size:20px}h2{font-size:16px;margin-top:28px}"
    "figure{margin:8px 0 16px 0}svg text{font-size:12px;fill:#222}"
    "svg text.title{font-weight:bold;font-size:13px}"
    "rect.bar{fill:#5b8fd6}rect.base{fill:#26547c}"
    ".charts{display:flex;flex-wrap:wrap;gap:8px 32px}"
    "table{border-collapse:collapse;font-size:12px}"
    "th,td{border:1px solid #ccc;padding:3px 6px;white-space:nowrap}"
    "th{background:#f0f0f0}td.num{text-align:right}"
    "td[data-key=detail]{white-space:normal;min-width:200px;max-width:420px}";

}  // namespace

void write_compare_page(const std::filesystem::path& file, const CompareSummary& summary,
                        const std::vector<VariantRow>& rows) {
  AtomicOutputFile file_out(file);
  std::ostream& out = file_out.stream();
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>refract compare: " << escape(summary.main_class) << "</title>\n<style>" << kStyle
      << "</style>\n</head>\n<body>\n<h1>refract compare: " << escape(summary.main_class)
      << "</h1>\n<p>--context " << escape(summary.context) << ", --reflection "
      << escape(summary.reflection) << "; medians of " << summary.runs
      << (summary.runs == 1 ? " run" : " runs") << " per variant; facts extracted once in "
      << fixed(summary.extraction_seconds, 3) << " s.</p>\n<ul>\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out << "<li><b>" << escape(rows[i].name) << "</b>" << (i == 0 ? " (baseline)" : "") << ": "
        << (rows[i].options.empty() ? "no options" : "<code>" + escape(rows[i].options) + "</code>")
        << (rows[i].ok() ? "" : "; " + escape(rows[i].status)) << "</li>\n";
  }
  out << "</ul>\n";
  out << "<h2>Time and work</h2>\n<div class=\"charts\">\n";
  write_chart(out, "total seconds (median)", bars_of(summary, rows, "total_seconds"));
  write_chart(out, "solve seconds (median)", bars_of(summary, rows, "solve_seconds"));
  write_chart(out, "BDD nodes produced", bars_of(summary, rows, "bdd_nodes_produced"));
  write_chart(out, "peak BDD nodes", bars_of(summary, rows, "peak_bdd_nodes"));
  out << "</div>\n<h2>Relation sizes at the fixpoint</h2>\n<div class=\"charts\">\n";
  for (const std::string& r : summary.relations) {
    write_chart(out, r + " tuples", bars_of(summary, rows, r + "_tuples"));
    write_chart(out, r + " BDD nodes", bars_of(summary, rows, r + "_nodes"));
  }
  out << "</div>\n<h2>Table</h2>\n";
  write_html_table(out, summary, rows);
  out << "</body>\n</html>\n";
  file_out.commit();
}

}  // namespace refract::cli
