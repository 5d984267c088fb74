#include "cli/compare_results.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "support/error.hpp"
#include "support/json_reader.hpp"

namespace refract::cli {

namespace fs = std::filesystem;

namespace {

std::uint64_t count_at(const JsonValue& stats, const std::string& key) {
  return static_cast<std::uint64_t>(stats.at(key).number());
}

std::set<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::set<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.insert(line);
  return lines;
}

std::set<std::string> names_at(const JsonValue& stats, const std::string& key) {
  std::set<std::string> names;
  for (const JsonValue& name : stats.at(key).array()) names.insert(name.string());
  return names;
}

SetDifference difference(const std::set<std::string>& variant,
                         const std::set<std::string>& baseline) {
  std::vector<std::string> out;
  SetDifference d;
  std::set_difference(variant.begin(), variant.end(), baseline.begin(), baseline.end(),
                      std::back_inserter(out));
  d.not_in_baseline = out.size();
  out.clear();
  std::set_difference(baseline.begin(), baseline.end(), variant.begin(), variant.end(),
                      std::back_inserter(out));
  d.only_in_baseline = out.size();
  return d;
}

}  // namespace

const std::vector<std::string>& main_relations() {
  static const std::vector<std::string> relations = {"VarPointsTo", "FieldPointsTo",
                                                     "CallGraphEdge", "Reachable"};
  return relations;
}

RunMetrics read_run_metrics(const fs::path& run_dir, const std::vector<std::string>& relations) {
  const fs::path file = run_dir / "stats.json";
  const JsonValue stats = read_json_file(file.string());
  RunMetrics m;
  try {
    const JsonValue& seconds = stats.at("seconds");
    m.total_seconds = seconds.at("total").number();
    m.solve_seconds = seconds.at("solve").number();
    if (seconds.has("prepass")) m.solve_seconds += seconds.at("prepass").number();
    m.peak_bdd_nodes = count_at(stats, "peak_bdd_nodes");
    m.bdd_nodes_produced = count_at(stats, "bdd_nodes_produced");
    m.peak_rss_bytes = count_at(stats, "peak_rss_bytes");
    m.heap_objects = count_at(stats, "heap_objects");
    m.contexts = count_at(stats, "contexts");
    m.reachable_methods = count_at(stats, "reachable_methods");
    m.call_edges = count_at(stats, "call_edges");
    m.polymorphic_call_sites = count_at(stats, "polymorphic_call_sites");
    m.may_fail_casts = count_at(stats, "may_fail_casts");
    const JsonValue& sizes = stats.at("relations");
    const JsonValue& nodes = stats.at("relation_nodes");
    for (const std::string& name : relations) {
      if (!sizes.has(name))
        throw InputError({"--relation"}, "the analysis has no relation " + name);
      m.relations[name] = {sizes.at(name).number_text, count_at(nodes, name)};
    }
    m.var_points_to_string_tuples = stats.at("var_points_to_string_objects").number_text;
    if (stats.has("string_constants")) {
      StringMergingMetrics s;
      s.string_constants = count_at(stats, "string_constants");
      s.kept_apart = count_at(stats, "string_constants_kept_apart");
      s.colors = count_at(stats, "string_colors");
      s.largest_clique = count_at(stats, "largest_string_clique");
      s.coloring_seconds = stats.at("string_coloring_seconds").number();
      m.strings = s;
    }
  } catch (const std::out_of_range& e) {
    throw std::runtime_error(file.string() + ": not the stats.json of refract analyze (" +
                             e.what() + ")");
  }
  return m;
}

ClientResults read_client_results(const fs::path& run_dir) {
  ClientResults r;
  r.reachable_methods = lines_of(run_dir / "reachable-methods.txt");
  r.call_edges = lines_of(run_dir / "call-edges.tsv");
  const JsonValue stats = read_json_file((run_dir / "stats.json").string());
  r.polymorphic_call_sites = names_at(stats, "polymorphic_call_site_list");
  r.may_fail_casts = names_at(stats, "may_fail_cast_list");
  return r;
}

ClientDifferences compare_clients(const ClientResults& variant, const ClientResults& baseline) {
  ClientDifferences d;
  d.reachable_methods = difference(variant.reachable_methods, baseline.reachable_methods);
  d.call_edges = difference(variant.call_edges, baseline.call_edges);
  d.polymorphic_call_sites =
      difference(variant.polymorphic_call_sites, baseline.polymorphic_call_sites);
  d.may_fail_casts = difference(variant.may_fail_casts, baseline.may_fail_casts);
  return d;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace refract::cli
