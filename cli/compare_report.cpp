#include "cli/compare_report.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "support/atomic_file.hpp"
#include "support/json.hpp"

namespace refract::cli {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

ReportField number(std::string key, std::string header, std::string text) {
  return {std::move(key), std::move(header), FieldKind::kNumber, std::move(text)};
}

ReportField text(std::string key, std::string header, std::string value) {
  return {std::move(key), std::move(header), FieldKind::kText, std::move(value)};
}

ReportField flag(std::string key, std::string header, std::optional<bool> value) {
  return {std::move(key), std::move(header), FieldKind::kBool,
          value ? (*value ? "true" : "false") : ""};
}

std::string count(std::uint64_t value) {
  return std::to_string(value);
}

template <typename T, typename Format>
std::string if_present(const std::optional<T>& value, Format&& format) {
  return value ? format(*value) : std::string();
}

// The differences of one client result as two columns.
void add_difference(std::vector<ReportField>& fields, const std::string& what,
                    const std::optional<ClientDifferences>& d,
                    SetDifference ClientDifferences::*member) {
  fields.push_back(number(what + "_not_in_baseline", what + " not in baseline",
                          d ? count(((*d).*member).not_in_baseline) : ""));
  fields.push_back(number(what + "_only_in_baseline", what + " only in baseline",
                          d ? count(((*d).*member).only_in_baseline) : ""));
}

// "identical", or the differences there are: "edges +1 -2, casts -1".
std::string difference_summary(const VariantRow& row) {
  if (!row.differences) return "";
  const ClientDifferences& d = *row.differences;
  if (d.clients_identical()) return "identical";
  std::string out;
  const auto add = [&](const char* what, const SetDifference& s) {
    if (s.empty()) return;
    out += (out.empty() ? "" : ", ") + std::string(what) + " +" + count(s.not_in_baseline) + " -" +
           count(s.only_in_baseline);
  };
  add("methods", d.reachable_methods);
  add("edges", d.call_edges);
  add("polymorphic", d.polymorphic_call_sites);
  add("casts", d.may_fail_casts);
  return out;
}

std::string csv_field(const std::string& value) {
  if (value.find_first_of(",\"\n") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string json_value(const ReportField& f) {
  if (f.text.empty() && f.kind != FieldKind::kText) return "null";
  return f.kind == FieldKind::kText ? json_string(f.text) : f.text;
}

// Columns padded to their widest cell: text left, numbers right.
void print_table(std::ostream& out, const std::vector<std::string>& headers,
                 const std::vector<std::vector<std::string>>& cells,
                 const std::vector<bool>& left_aligned) {
  std::vector<std::size_t> width(headers.size());
  for (std::size_t c = 0; c < headers.size(); ++c) {
    width[c] = headers[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  const auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string pad(width[c] - row[c].size(), ' ');
      line += (c > 0 ? "  " : "") + (left_aligned[c] ? row[c] + pad : pad + row[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  print_row(headers);
  for (const auto& row : cells) print_row(row);
}

// One table of the stdout report: the fields with these keys, one row per variant.
void print_section(std::ostream& out, const std::string& title, const CompareSummary& summary,
                   const std::vector<VariantRow>& rows, const std::vector<std::string>& keys,
                   bool with_differences) {
  std::vector<std::string> headers;
  std::vector<bool> left;
  std::vector<std::vector<std::string>> cells(rows.size());
  bool headers_done = false;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::vector<ReportField> fields = row_fields(rows[r], summary);
    for (const std::string& key : keys) {
      const auto f = std::find_if(fields.begin(), fields.end(),
                                  [&](const ReportField& x) { return x.key == key; });
      cells[r].push_back(f->text.empty() && key != "variant" ? "-" : f->text);
      if (!headers_done) {
        headers.push_back(f->header);
        left.push_back(f->kind == FieldKind::kText);
      }
    }
    if (with_differences) {
      const std::string summary_text = difference_summary(rows[r]);
      cells[r].push_back(summary_text.empty() ? "-" : summary_text);
      if (!headers_done) {
        headers.push_back("vs baseline");
        left.push_back(true);
      }
    }
    headers_done = true;
  }
  out << title << '\n';
  print_table(out, headers, cells, left);
}

}  // namespace

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::vector<ReportField> row_fields(const VariantRow& row, const CompareSummary& summary) {
  const std::optional<RunMetrics>& m = row.metrics;
  const auto seconds = [](double s) { return fixed(s, 3); };
  const auto ratio = [](double r) { return fixed(r, 2); };
  std::vector<ReportField> f;
  f.push_back(text("variant", "variant", row.name));
  f.push_back(text("options", "options", row.options));
  f.push_back(text("status", "status", row.status));
  f.push_back(text("detail", "detail", row.detail));
  f.push_back(number("runs", "runs", count(row.total_seconds.size())));
  f.push_back(
      number("total_seconds", "total s", m ? seconds(median(row.total_seconds)) : std::string()));
  f.push_back(number("total_ratio", "total x", if_present(row.total_ratio, ratio)));
  f.push_back(
      number("solve_seconds", "solve s", m ? seconds(median(row.solve_seconds)) : std::string()));
  f.push_back(number("solve_ratio", "solve x", if_present(row.solve_ratio, ratio)));
  f.push_back(
      number("bdd_nodes_produced", "nodes produced", m ? count(m->bdd_nodes_produced) : ""));
  f.push_back(number("peak_bdd_nodes", "peak nodes", m ? count(m->peak_bdd_nodes) : ""));
  std::vector<double> rss(row.peak_rss_bytes.begin(), row.peak_rss_bytes.end());
  f.push_back(number("peak_rss_mib", "peak RSS MiB", m ? fixed(median(rss) / kMiB, 1) : ""));
  f.push_back(number("heap_objects", "heap objects", m ? count(m->heap_objects) : ""));
  f.push_back(number("contexts", "contexts", m ? count(m->contexts) : ""));
  for (const std::string& r : summary.relations) {
    f.push_back(number(r + "_tuples", r + " tuples", m ? m->relations.at(r).tuples : ""));
    f.push_back(number(r + "_nodes", r + " nodes", m ? count(m->relations.at(r).nodes) : ""));
  }
  f.push_back(
      number("reachable_methods", "reachable methods", m ? count(m->reachable_methods) : ""));
  f.push_back(number("call_edges", "call edges", m ? count(m->call_edges) : ""));
  f.push_back(number("polymorphic_call_sites", "polymorphic sites",
                     m ? count(m->polymorphic_call_sites) : ""));
  f.push_back(number("may_fail_casts", "may-fail casts", m ? count(m->may_fail_casts) : ""));
  const std::optional<ClientDifferences>& d = row.differences;
  f.push_back(flag("call_graph_identical", "same call graph",
                   d ? std::optional<bool>(d->call_graph_identical()) : std::nullopt));
  f.push_back(flag("clients_identical", "same client results",
                   d ? std::optional<bool>(d->clients_identical()) : std::nullopt));
  add_difference(f, "reachable_methods", d, &ClientDifferences::reachable_methods);
  add_difference(f, "call_edges", d, &ClientDifferences::call_edges);
  add_difference(f, "polymorphic_call_sites", d, &ClientDifferences::polymorphic_call_sites);
  add_difference(f, "may_fail_casts", d, &ClientDifferences::may_fail_casts);
  const StringMergingMetrics* s = m && m->strings ? &*m->strings : nullptr;
  f.push_back(number("string_constants", "string constants", s ? count(s->string_constants) : ""));
  f.push_back(number("string_constants_kept_apart", "kept apart", s ? count(s->kept_apart) : ""));
  f.push_back(number("string_colors", "colors", s ? count(s->colors) : ""));
  f.push_back(number("largest_string_clique", "largest clique", s ? count(s->largest_clique) : ""));
  // Constants per object they became: the colors, and one for each constant kept apart.
  const std::uint64_t string_objects = s ? s->colors + s->kept_apart : 0;
  f.push_back(number("string_compression_ratio", "compression",
                     string_objects > 0 ? ratio(static_cast<double>(s->string_constants) /
                                                static_cast<double>(string_objects))
                                        : ""));
  f.push_back(number("var_points_to_string_tuples", "VarPointsTo string tuples",
                     m ? m->var_points_to_string_tuples : ""));
  f.push_back(
      number("string_coloring_seconds", "coloring s", s ? seconds(s->coloring_seconds) : ""));
  return f;
}

void write_table(std::ostream& out, const CompareSummary& summary,
                 const std::vector<VariantRow>& rows) {
  out << "refract compare: " << summary.main_class << ", --context " << summary.context
      << ", --reflection " << summary.reflection << "; medians of " << summary.runs
      << (summary.runs == 1 ? " run" : " runs") << "; facts extracted once in "
      << fixed(summary.extraction_seconds, 3) << " s\n\n";
  print_section(
      out, "time and memory (x: ratio to the baseline, " + rows.front().name + ")", summary, rows,
      {"variant", "status", "total_seconds", "total_ratio", "solve_seconds", "solve_ratio",
       "bdd_nodes_produced", "peak_bdd_nodes", "peak_rss_mib", "heap_objects", "contexts"},
      false);
  std::vector<std::string> keys = {"variant"};
  for (const std::string& r : summary.relations) {
    keys.push_back(r + "_tuples");
    keys.push_back(r + "_nodes");
  }
  out << '\n';
  print_section(out, "relations at the fixpoint", summary, rows, keys, false);
  out << '\n';
  print_section(
      out, "client results", summary, rows,
      {"variant", "reachable_methods", "call_edges", "polymorphic_call_sites", "may_fail_casts"},
      true);
  if (std::any_of(rows.begin(), rows.end(),
                  [](const VariantRow& r) { return r.metrics && r.metrics->strings; })) {
    out << '\n';
    print_section(out, "string merging (seed 003 Sec. 6)", summary, rows,
                  {"variant", "string_constants", "string_constants_kept_apart", "string_colors",
                   "largest_string_clique", "string_compression_ratio", "VarPointsTo_tuples",
                   "var_points_to_string_tuples", "string_coloring_seconds"},
                  false);
  }
  for (const VariantRow& row : rows) {
    if (!row.ok()) out << '\n' << row.name << ": " << row.status << ": " << row.detail << '\n';
  }
}

void write_csv(const std::filesystem::path& file, const CompareSummary& summary,
               const std::vector<VariantRow>& rows) {
  AtomicOutputFile out(file);
  bool header = true;
  for (const VariantRow& row : rows) {
    const std::vector<ReportField> fields = row_fields(row, summary);
    if (header) {
      for (std::size_t i = 0; i < fields.size(); ++i)
        out.stream() << (i > 0 ? "," : "") << fields[i].key;
      out.stream() << '\n';
      header = false;
    }
    for (std::size_t i = 0; i < fields.size(); ++i)
      out.stream() << (i > 0 ? "," : "") << csv_field(fields[i].text);
    out.stream() << '\n';
  }
  out.commit();
}

void write_json(const std::filesystem::path& file, const CompareSummary& summary,
                const std::vector<VariantRow>& rows) {
  AtomicOutputFile file_out(file);
  std::ostream& out = file_out.stream();
  out << "{\n  \"main\": " << json_string(summary.main_class)
      << ",\n  \"context\": " << json_string(summary.context)
      << ",\n  \"reflection\": " << json_string(summary.reflection)
      << ",\n  \"runs\": " << summary.runs
      << ",\n  \"extraction_seconds\": " << fixed(summary.extraction_seconds, 3)
      << ",\n  \"baseline\": " << json_string(rows.front().name) << ",\n  \"relations\": [";
  for (std::size_t i = 0; i < summary.relations.size(); ++i)
    out << (i > 0 ? ", " : "") << json_string(summary.relations[i]);
  out << "],\n  \"variants\": [";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    out << (r > 0 ? ",\n    {" : "\n    {");
    for (const ReportField& f : row_fields(rows[r], summary))
      out << "\n      " << json_string(f.key) << ": " << json_value(f) << ",";
    const auto per_run = [&](const char* key, const std::vector<double>& values) {
      out << "\n      " << json_string(key) << ": [";
      for (std::size_t i = 0; i < values.size(); ++i)
        out << (i > 0 ? ", " : "") << fixed(values[i], 3);
      out << "]";
    };
    per_run("total_seconds_per_run", rows[r].total_seconds);
    out << ",";
    per_run("solve_seconds_per_run", rows[r].solve_seconds);
    out << "\n    }";
  }
  out << "\n  ]\n}\n";
  file_out.commit();
}

}  // namespace refract::cli
