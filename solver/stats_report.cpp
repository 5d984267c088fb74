#include "solver/stats_report.hpp"

#include <map>
#include <ostream>
#include <sstream>
#include <string>

#include "support/json.hpp"

namespace refract::solver {

namespace {

// A JSON array of numbers.
template <typename Number>
void write_list(std::ostream& out, const std::vector<Number>& values) {
  out << '[';
  for (std::size_t i = 0; i < values.size(); ++i) out << (i == 0 ? "" : ", ") << values[i];
  out << ']';
}

// With a seed (EngineOptions::seed_dir): which derived relations started from it, which were
// recomputed and why, and how each input compared with its seed.
void write_seeding(std::ostream& out, const Engine& engine) {
  const std::map<std::string, InputChange>& inputs = engine.seed_inputs();
  if (inputs.empty()) return;
  const SeedPlan& plan = engine.seed_plan();
  std::map<std::string, std::string> changes;
  for (const auto& [name, change] : inputs)
    changes[name] = change == InputChange::kSame   ? "same"
                    : change == InputChange::kGrew ? "grew"
                                                   : "other";
  out << "  \"seeding\": {\"seeded\": " << json_string_array(plan.seeded)
      << ", \"recomputed\": " << json_string_object(plan.recomputed)
      << ", \"inputs\": " << json_string_object(changes) << ", \"read\": " << json_string(plan.read)
      << "},\n";
}

}  // namespace

std::string stats_json(const Program& program, const Engine& engine, const PhaseTimes& times,
                       const std::string& stopped) {
  std::ostringstream out;
  const bdd::ManagerStats bdd = engine.bdd_stats();
  out << "{\n  \"program\": " << json_string(program.file) << ",\n";
  if (!stopped.empty()) out << "  \"stopped\": " << json_string(stopped) << ",\n";
  out << "  \"seconds\": " << times.total << ",\n";
  out << "  \"phases\": {\"parse\": " << times.parse << ", \"solve\": " << times.solve
      << ", \"write\": " << times.write << "},\n";
  out << "  \"order\": " << json_string(engine.var_order()) << ",\n";
  out << "  \"bdd\": {\"variables\": " << bdd.variables
      << ", \"node_table_size\": " << bdd.node_table_size << ", \"used_nodes\": " << bdd.used_nodes
      << ", \"peak_used_nodes\": " << bdd.peak_used_nodes
      << ", \"peak_live_nodes\": " << bdd.peak_live_nodes
      << ", \"garbage_collections\": " << bdd.garbage_collections
      << ", \"gc_seconds\": " << bdd.gc_seconds << ", \"operations\": " << bdd.operations
      << ", \"nodes_produced\": " << bdd.nodes_produced
      << ", \"huge_pages\": " << (bdd.huge_pages ? "true" : "false")
      << ", \"memory_budget_bytes\": " << bdd.memory_budget_bytes
      << ", \"capped_by_memory_budget\": " << (bdd.capped_by_memory_budget ? "true" : "false")
      << ", \"capped_by_machine_memory\": " << (bdd.capped_by_machine_memory ? "true" : "false")
      << ", \"operation_times\": {";
  for (std::size_t i = 0; i < bdd.operation_times.size(); ++i) {
    const bdd::OperationTime& op = bdd.operation_times[i];
    out << (i == 0 ? "" : ", ") << json_string(op.name) << ": {\"calls\": " << op.calls
        << ", \"seconds\": " << op.seconds << "}";
  }
  out << "}},\n";
  const EngineProfile& overheads = engine.engine_profile();
  out << "  \"engine\": {\"loading\": " << overheads.loading
      << ", \"preparing\": " << overheads.preparing << ", \"deltas\": " << overheads.deltas
      << ", \"absorbing\": " << overheads.absorbing << ", \"reporting\": " << overheads.reporting
      << ", \"tuple_rules\": " << overheads.tuple_rules
      << ", \"tuple_deltas\": " << overheads.tuple_deltas
      << ", \"keyed_joins\": " << overheads.keyed_joins
      << ", \"strata_from_seed\": " << overheads.strata_from_seed
      << ", \"schedule\": " << json_string(overheads.schedule)
      << ", \"sweeps\": " << overheads.sweeps
      << ", \"delta_evaluations\": " << overheads.delta_evaluations << "},\n";
  write_seeding(out, engine);
  out << "  \"relations\": {";
  for (std::size_t i = 0; i < program.relations.size(); ++i) {
    const std::string& name = program.relations[i].name;
    out << (i == 0 ? "\n" : ",\n") << "    " << json_string(name) << ": "
        << json_string(engine.relation_size(name).to_string());
  }
  out << "\n  },\n  \"relation_nodes\": {";
  for (std::size_t i = 0; i < program.relations.size(); ++i) {
    const std::string& name = program.relations[i].name;
    out << (i == 0 ? "\n" : ",\n") << "    " << json_string(name) << ": "
        << engine.relation(name).bdd().node_count();
  }
  out << "\n  },\n  \"rules\": [";
  const auto& profiles = engine.rule_profiles();
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    const RuleProfile& p = profiles[i];
    out << (i == 0 ? "\n" : ",\n") << "    {\"rule\": " << json_string(p.rule_text)
        << ", \"location\": " << json_string(p.where.to_string())
        << ", \"evaluations\": " << p.evaluations << ", \"keyed_joins\": " << p.keyed_joins
        << ", \"tuple_steps\": " << p.tuple_steps << ", \"seconds\": " << p.seconds
        << ", \"result_tuples\": " << json_string(p.result_tuples.to_string())
        << ", \"peak_nodes\": " << p.peak_nodes << ", \"step_literals\": ";
    write_list(out, p.step_literals);
    out << ", \"step_seconds\": ";
    write_list(out, p.step_seconds);
    out << ", \"step_atom_delta_seconds\": ";
    write_list(out, p.step_atom_delta_seconds);
    out << ", \"step_prefix_delta_seconds\": ";
    write_list(out, p.step_prefix_delta_seconds);
    out << ", \"renamed_steps\": ";
    write_list(out, p.renamed_steps);
    out << ", \"filtered_steps\": ";
    write_list(out, p.filtered_steps);
    out << ", \"variable_instances\": [";
    for (std::size_t v = 0; v < p.variable_instances.size(); ++v)
      out << (v == 0 ? "" : ", ") << json_string(p.variable_instances[v]);
    out << "], \"operation_seconds\": {";
    bool first = true;
    for (const auto& [name, seconds] : p.operation_seconds) {
      out << (first ? "" : ", ") << json_string(name) << ": " << seconds;
      first = false;
    }
    out << "}}";
  }
  out << "\n  ]\n}\n";
  return out.str();
}

}  // namespace refract::solver
