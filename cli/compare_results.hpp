// What `refract compare` reads back from each run (its stats.json and call-graph exports), and
// the row of a variant: medians over its runs, ratios to the baseline, and how its client
// results differ from the baseline's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace refract::cli {

// The relations every comparison reports, before those named with --relation.
const std::vector<std::string>& main_relations();

struct RelationMetrics {
  std::string tuples;  // exact, in decimal
  std::uint64_t nodes = 0;
};

// Seed 003 Sec. 6's metrics of string merging, for runs that merge string constants.
struct StringMergingMetrics {
  std::uint64_t string_constants = 0;
  std::uint64_t kept_apart = 0;  // constants never merged (class names, ...): an object each
  std::uint64_t colors = 0;      // objects the merged constants became
  std::uint64_t largest_clique = 0;
  double coloring_seconds = 0;
};

// One run, from its stats.json.
struct RunMetrics {
  double total_seconds = 0;  // everything after the shared extraction: merging, solve, results
  double solve_seconds = 0;  // the solver's (with cloning's pre-pass)
  std::uint64_t peak_bdd_nodes = 0;
  std::uint64_t bdd_nodes_produced = 0;
  std::uint64_t peak_rss_bytes = 0;
  std::uint64_t heap_objects = 0;
  std::uint64_t contexts = 0;
  std::uint64_t reachable_methods = 0;
  std::uint64_t call_edges = 0;
  std::uint64_t polymorphic_call_sites = 0;
  std::uint64_t may_fail_casts = 0;
  std::map<std::string, RelationMetrics> relations;  // main_relations() and --relation's
  // VarPointsTo tuples whose object is a java.lang.String (seed 003 Sec. 6 "var points-to
  // string"): with and without string merging, what merging saved
  std::string var_points_to_string_tuples;
  std::optional<StringMergingMetrics> strings;
};

// Reads RUN_DIR/stats.json. InputError naming a relation of `relations` the analysis does not
// have; std::runtime_error for a file that is not what analyze writes.
RunMetrics read_run_metrics(const std::filesystem::path& run_dir,
                            const std::vector<std::string>& relations);

// A run's client results as sets of names: reachable methods, call edges (site TAB callee),
// polymorphic call sites and casts that may fail.
struct ClientResults {
  std::set<std::string> reachable_methods;
  std::set<std::string> call_edges;
  std::set<std::string> polymorphic_call_sites;
  std::set<std::string> may_fail_casts;
};
ClientResults read_client_results(const std::filesystem::path& run_dir);

// Names in a variant's results and not in the baseline's, and the other way round.
struct SetDifference {
  std::uint64_t not_in_baseline = 0;
  std::uint64_t only_in_baseline = 0;
  bool empty() const { return not_in_baseline == 0 && only_in_baseline == 0; }
};
struct ClientDifferences {
  SetDifference reachable_methods;
  SetDifference call_edges;
  SetDifference polymorphic_call_sites;
  SetDifference may_fail_casts;
  bool call_graph_identical() const { return reachable_methods.empty() && call_edges.empty(); }
  bool clients_identical() const {
    return call_graph_identical() && polymorphic_call_sites.empty() && may_fail_casts.empty();
  }
};
ClientDifferences compare_clients(const ClientResults& variant, const ClientResults& baseline);

// A variant's row.
struct VariantRow {
  std::string name;
  std::string options;  // the analyze options it sets, as given
  std::string status = "ok";
  std::string detail;                 // for a failed variant: how far it got and why it stopped
  std::vector<double> total_seconds;  // per completed run
  std::vector<double> solve_seconds;
  std::vector<std::uint64_t> peak_rss_bytes;
  std::optional<RunMetrics> metrics;  // the first completed run's, with the medians filled in
  std::optional<double> total_ratio;  // median total / the baseline's
  std::optional<double> solve_ratio;
  std::optional<ClientDifferences> differences;  // against the baseline, when both completed
  std::filesystem::path first_run;               // the folder of the first completed run
  bool ok() const { return status == "ok"; }
};

// The median (the mean of the middle two for an even count); 0 for none.
double median(std::vector<double> values);

}  // namespace refract::cli
