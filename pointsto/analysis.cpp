#include "pointsto/analysis.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <ostream>
#include <set>

#include "pointsto/context_constructors.hpp"
#include "pointsto/heap_classes.hpp"
#include "relations/bdd_file.hpp"
#include "relations/relation.hpp"
#include "relations/tuple_io.hpp"
#include "solver/checker.hpp"
#include "solver/instance_layout.hpp"
#include "solver/parser.hpp"
#include "solver/stats_report.hpp"
#include "support/atomic_file.hpp"
#include "support/error.hpp"
#include "support/stopwatch.hpp"

namespace refract::pointsto {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The relations of the rules that the driver reads or builds (pointsto/README.md).
constexpr const char* kEntryRules = "pointsto.datalog";
constexpr const char* kReachable = "Reachable";              // (ctx : C, method : M)
constexpr const char* kReachableMethod = "ReachableMethod";  // (method : M)
constexpr const char* kCallGraphEdge = "CallGraphEdge";      // (invoke : I, method : M)
constexpr const char* kPolymorphicCall = "PolymorphicCall";  // (invoke : I)
constexpr const char* kMayFailCast = "MayFailCast";
constexpr const char* kUnmodelledNative = "UnmodelledNative";  // (method : M)
constexpr const char* kVarPointsTo = "VarPointsTo";  // (ctx : C, var : V, hctx : HC, heap : H)
constexpr const char* kHeapType = "HeapType";        // (heap : H, type : T)
constexpr const char* kStringType = "java.lang.String";
constexpr const char* kReflectionRuleDomain = "R";  // reflection/metaobjects.hpp
// Additions to a relation a delta may union before it becomes an xor of the whole relation
// with the value last read (solver::EngineOptions::delta_log_versions). With contexts,
// VarPointsTo is tens of millions of nodes and gains small pieces, read by about 20 rules at
// versions of their own: uniting a sweep's pieces beats the xors (2-obj+H on antlr: finding
// deltas 56.5 s -> 7.6 s in 300 s, sweep 31 -> 33). Insensitively deltas cost 3 s either way
// and the longer log was about 5% slower in two paired runs: the engine's default stays.
std::uint64_t delta_log_versions(const ContextFlavour& flavour) {
  return flavour.kind == ContextKind::kInsensitive ? solver::EngineOptions{}.delta_log_versions
                                                   : 256;
}

// What a context field must hold: the flavour's elements, or more where the layout is fixed
// beforehand (AnalysisOptions::context_element_capacity).
std::uint64_t element_count(const ContextFlavour& flavour, const frontend::FactDatabase& facts,
                            std::uint64_t capacity) {
  const std::optional<std::string> domain = context_element_domain(flavour);
  return domain ? std::max(facts.domain(*domain).size(), capacity) : 0;
}

void write_text(const fs::path& file, const std::string& text) {
  AtomicOutputFile out(file);
  out.stream() << text;
  out.commit();
}

// The names of a relation's tuples, one attribute: sorted. An element past its domain's names
// can come only from rules (--rules) that derive it from no atom that binds it: InputError at
// the relation's declaration in `program`.
std::vector<std::string> names_of(const rel::Relation& r, const solver::Program& program) {
  std::vector<std::string> out;
  r.for_each_tuple([&](std::span<const std::uint64_t> t) {
    std::string line;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const rel::LogicalDomain& domain = r.space().domain(r.attributes()[i].domain);
      if (domain.map && domain.map->name(t[i]) == nullptr) {
        const solver::RelationDecl* decl = program.find_relation(r.name());
        throw InputError(decl != nullptr ? decl->where : SourceLocation{r.name()},
                         "relation " + r.name() + " holds element " + std::to_string(t[i]) +
                             " of domain " + domain.name + ", which has only " +
                             std::to_string(domain.map->size()) +
                             " elements: a rule derives it from no atom that binds it");
      }
      line += (i > 0 ? "\t" : "") + (domain.map ? domain.map->label(t[i]) : std::to_string(t[i]));
    }
    out.push_back(std::move(line));
  });
  std::sort(out.begin(), out.end());
  return out;
}

// The VarPointsTo tuples whose object has type java.lang.String, counted exactly on the BDDs:
// a deep flavour's VarPointsTo has far too many tuples to enumerate.
std::string string_var_points_to(const solver::Engine& engine,
                                 const frontend::FactDatabase& facts) {
  const frontend::FactDomain& types = facts.domain("T");
  if (!types.contains(kStringType)) return "0";
  const rel::Relation& points_to = engine.relation(kVarPointsTo);
  rel::Relation strings = rel::project_away(
      rel::select_equal(engine.relation(kHeapType), "type", types.at(kStringType)), {"type"});
  const rel::PhysicalId heap = points_to.attribute("heap").physical;
  if (strings.attribute("heap").physical != heap) strings = rel::rename(strings, {{"heap", heap}});
  return rel::join(points_to, strings, {}).size().to_string();
}

// `order` with each instance the program needs of a domain the order names, but not that
// instance, added interleaved after the last instance of its domain the order names; and the
// reflection rules' own domain R, which no order for the points-to rules names, as a block of
// its own at the end. The flavours' orders (and users' orders written for them) name what the
// points-to rules use; the reflection rules need a second instance of I and Z. A domain the
// order does not name at all stays the engine's error.
std::string with_missing_instances(std::string order, const solver::Program& program) {
  std::vector<std::string> names;
  std::string name;
  for (const char c : order + "_") {
    if (c == '_' || c == 'x') {
      if (!name.empty()) names.push_back(name);
      name.clear();
    } else {
      name += c;
    }
  }
  std::set<std::string> present(names.begin(), names.end());
  const solver::InstanceLayout layout = solver::lay_out_instances(program);
  for (const auto& [domain, needed] : layout.instances_needed) {
    for (unsigned k = 0; k < needed; ++k) {
      const std::string instance = domain + std::to_string(k);
      if (present.count(instance) != 0) continue;
      std::size_t at = std::string::npos;
      for (unsigned j = 0; j < needed; ++j) {
        const std::string other = domain + std::to_string(j);
        if (j == k || present.count(other) == 0) continue;
        // the end of `other` as a whole name in the order
        for (std::size_t pos = order.find(other); pos != std::string::npos;
             pos = order.find(other, pos + 1)) {
          const std::size_t end = pos + other.size();
          const bool starts = pos == 0 || order[pos - 1] == '_' || order[pos - 1] == 'x';
          const bool ends = end == order.size() || order[end] == '_' || order[end] == 'x';
          if (starts && ends) at = end;
        }
      }
      if (at == std::string::npos) {
        if (domain != kReflectionRuleDomain) continue;
        order += "_" + instance;
      } else {
        order.insert(at, "x" + instance);
      }
      present.insert(instance);
    }
  }
  return order;
}

}  // namespace

Analysis::Analysis(const frontend::FactDatabase& facts,
                   const std::vector<frontend::InvocationPosition>& positions,
                   AnalysisOptions options)
    : facts_(facts), positions_(positions), options_(std::move(options)) {}

Analysis::~Analysis() = default;

AnalysisResult Analysis::run() {
  AnalysisResult result;
  const ContextFlavour& flavour = options_.flavour;
  const fs::path entry = options_.rules_dir / kEntryRules;
  if (!fs::is_regular_file(entry)) throw InputError({entry.string()}, "rules not found");

  auto start = Clock::now();
  fs::create_directories(options_.work_dir);
  frontend::write_fact_database(facts_, options_.work_dir, options_.domain_room);
  result.seconds["write_facts"] = seconds_since(start);
  ContextConstructors constructors;
  constructors.flavour = flavour;
  constructors.context_free_heaps = options_.context_free_heaps;
  constructors.heap_elements = facts_.domain("H").size();
  if (flavour.kind == ContextKind::kCloning) {
    const auto prepass_start = Clock::now();
    constructors.cloning = number_call_paths(prepass_call_graph());
    constructors.layout.context_size = std::uint64_t{1} << constructors.cloning.context_bits;
    result.seconds["prepass"] = seconds_since(prepass_start);
    result.cloning_paths = constructors.cloning.max_paths;
    result.cloning_wrapped = constructors.cloning.wrapped;
  } else {
    constructors.layout = context_layout(
        flavour, element_count(flavour, facts_, options_.context_element_capacity), "--context");
  }
  if (flavour.kind == ContextKind::kType)
    constructors.heap_classes = heap_classes(facts_, constructors.context_free_heaps);
  write_text(options_.work_dir / "contexts.datalog",
             "# Context domains of flavour " + flavour.name + ", written by refract analyze\n" +
                 "C " + std::to_string(constructors.layout.context_size) + "\nHC " +
                 std::to_string(constructors.layout.heap_context_size) + "\n");
  std::string includes = ".include \"facts.datalog\"\n.include \"contexts.datalog\"\n.include \"" +
                         fs::absolute(entry).string() + "\"\n";
  for (const fs::path& file : options_.extra_rules) {
    if (!fs::is_regular_file(file)) throw InputError({file.string()}, "rules not found");
    includes += ".include \"" + fs::absolute(file).string() + "\"\n";
  }
  write_text(options_.work_dir / "analysis.datalog",
             "# The points-to analysis as refract analyze ran it.\n" + includes);

  start = Clock::now();
  program_ = std::make_unique<solver::Program>(
      solver::parse_program_file(options_.work_dir / "analysis.datalog"));
  solver::check_program(*program_);
  solver::EngineOptions engine_options;
  engine_options.input_dir = options_.work_dir;
  engine_options.output_dir = options_.work_dir;
  engine_options.var_order =
      with_missing_instances(options_.order ? *options_.order : default_order(flavour), *program_);
  engine_options.bdd = options_.bdd;
  for (const auto& [domain, room] : options_.domain_room)
    engine_options.domain_elements[domain] = facts_.domain(domain).size();
  engine_options.domain_lanes = context_lanes(flavour, options_.context_bits);
  engine_options.tuple_join_max_input = options_.tuple_join_max_input;
  engine_options.tuple_delta_max = options_.tuple_delta_max;
  engine_options.delta_log_versions = delta_log_versions(flavour);
  engine_options.time_limit_seconds = options_.time_limit_seconds;
  engine_options.schedule = options_.schedule.value_or(default_schedule(flavour));
  engine_options.max_evaluations = options_.max_evaluations;
  engine_options.max_nodes_produced = options_.max_nodes_produced;
  engine_options.progress = options_.progress;
  engine_options.built_inputs["Record"] = [&](rel::Relation& r) { constructors.build_record(r); };
  engine_options.built_inputs["Merge"] = [&](rel::Relation& r) { constructors.build_merge(r); };
  engine_options.built_inputs["MergeStatic"] = [&](rel::Relation& r) {
    constructors.build_merge_static(r);
  };
  for (const std::string& name : options_.dumps) {
    if (program_->find_relation(name) == nullptr) {
      throw InputError({"--dump"}, "the analysis has no relation " + name);
    }
  }
  for (const auto& [name, builder] : engine_options.built_inputs) {
    if (program_->find_relation(name) == nullptr) {
      throw InputError({entry.string()}, "the rules do not declare the constructor " + name);
    }
  }
  // Optional: rules written for the three constructors alone compute the same projected
  // results, only cloning's more slowly (pointsto/README.md, "Cloning's contexts at once").
  if (program_->find_relation("MethodContext") != nullptr) {
    engine_options.built_inputs["MethodContext"] = [&](rel::Relation& r) {
      constructors.build_method_contexts(r);
    };
  }
  if (program_->find_relation("NumberedCallEdge") != nullptr) {
    engine_options.built_inputs["NumberedCallEdge"] = [&](rel::Relation& r) {
      constructors.build_numbered_call_edges(r);
    };
  }
  engine_options.profile = options_.rule_stats.has_value();
  engine_options.seed_dir = options_.seed_dir;
  engine_options.seeded_first_sweep = seeded_first_sweep(flavour);
  engine_ = std::make_unique<solver::Engine>(*program_, engine_options);
  auto write_rule_stats = [&](const std::string& stopped) {
    solver::PhaseTimes times;
    times.solve = times.total = seconds_since(start);
    write_text(*options_.rule_stats, solver::stats_json(*program_, *engine_, times, stopped));
  };
  try {
    engine_->run();
  } catch (const solver::EvaluationError& e) {
    // Out of time or of nodes: where the time and the nodes went, so far.
    if (options_.rule_stats) write_rule_stats(e.what());
    throw;
  }
  result.seconds["solve"] = seconds_since(start);
  if (options_.rule_stats) write_rule_stats("");
  if (options_.state_dir) engine_->write_state(*options_.state_dir);
  result.seeded = engine_->seed_plan().seeded;
  result.recomputed = engine_->seed_plan().recomputed;
  result.seed_read = engine_->seed_plan().read;
  if (!options_.read_results) return result;

  start = Clock::now();
  if (options_.progress) *options_.progress << "[analyze] reading the call graph and statistics\n";
  result.order = engine_->var_order();
  result.context_bits = options_.context_bits;
  result.schedule = engine_->engine_profile().schedule;
  result.sweeps = engine_->engine_profile().sweeps;
  result.delta_evaluations = engine_->engine_profile().delta_evaluations;
  result.bdd = engine_->bdd_stats();
  for (const solver::RelationDecl& r : program_->relations) {
    result.sizes[r.name] = engine_->relation_size(r.name).to_string();
    result.nodes[r.name] = engine_->relation(r.name).bdd().node_count();
  }
  result.string_var_points_to = string_var_points_to(*engine_, facts_);
  const rel::Relation& reachable = engine_->relation(kReachable);
  result.contexts = std::stoull(
      rel::project_away(reachable, {reachable.attributes()[1].name}).size().to_string());
  exporters::CallGraph& graph = result.call_graph;
  graph.reachable_methods = names_of(engine_->relation(kReachableMethod), *program_);
  for (const std::string& line : names_of(engine_->relation(kCallGraphEdge), *program_)) {
    const std::size_t tab = line.find('\t');
    graph.edges.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  std::set<std::string> sites;
  for (const auto& [site, callee] : graph.edges) sites.insert(site);
  const auto& invokes = facts_.domain("I").names();
  const auto& methods = facts_.domain("M").names();
  for (const auto& t : facts_.relation("CallIn").sorted_tuples()) {
    if (!sites.count(invokes[t[0]])) continue;
    exporters::CallSite& site = graph.sites[invokes[t[0]]];
    site.caller = methods[t[1]];
    if (t[0] < positions_.size()) {
      site.pc = positions_[t[0]].pc;
      site.line = positions_[t[0]].line;
    }
  }
  for (const auto& t : facts_.relation("DeclaredTarget").sorted_tuples()) {
    if (sites.count(invokes[t[0]])) graph.sites[invokes[t[0]]].declared_target = methods[t[1]];
  }
  // Calls the JVM makes itself (`<jvm>/...`, e.g. finalize()) have no calling method: they
  // stay in call-edges.tsv, and callgraph.json, whose sites belong to methods, leaves them out.
  for (const std::string& site : sites) graph.sites.try_emplace(site);
  result.polymorphic_calls = names_of(engine_->relation(kPolymorphicCall), *program_);
  result.may_fail_casts = names_of(engine_->relation(kMayFailCast), *program_);
  result.unmodelled_natives = names_of(engine_->relation(kUnmodelledNative), *program_);
  result.seconds["read_results"] = seconds_since(start);
  return result;
}

// Cloning's pre-pass: the insensitive analysis in work_dir/prepass, its call graph as element
// numbers of the facts. Its engine is gone when this returns (one BDD manager at a time).
CallGraphIds Analysis::prepass_call_graph() const {
  AnalysisOptions options = options_;
  options.flavour = parse_context_flavour("insens", "--context");
  options.order.reset();
  options.max_evaluations.reset();
  options.seed_dir.reset();  // a seed and a state are of the cloning solve, not of this one
  options.state_dir.reset();
  options.max_nodes_produced = 0;
  options.dumps.clear();
  options.rule_stats.reset();
  options.work_dir = options_.work_dir / "prepass";
  if (options.progress) *options.progress << "[analyze] cloning: insensitive pre-pass\n";
  Analysis prepass(facts_, positions_, options);
  const AnalysisResult insensitive = prepass.run();

  std::map<std::string, std::uint64_t> invoke_id, method_id;
  const auto& invokes = facts_.domain("I").names();
  const auto& methods = facts_.domain("M").names();
  for (std::uint64_t i = 0; i < invokes.size(); ++i) invoke_id.emplace(invokes[i], i);
  for (std::uint64_t m = 0; m < methods.size(); ++m) method_id.emplace(methods[m], m);
  std::map<std::uint64_t, std::uint64_t> caller_of;
  for (const auto& t : facts_.relation("CallIn").sorted_tuples()) caller_of[t[0]] = t[1];

  CallGraphIds graph;
  for (const auto& [site, callee] : insensitive.call_graph.edges) {
    CallGraphIds::Edge e;
    e.invoke = invoke_id.at(site);
    e.callee = method_id.at(callee);
    if (const auto caller = caller_of.find(e.invoke); caller != caller_of.end()) {
      e.caller = caller->second;
    }
    graph.edges.push_back(e);
  }
  // Methods the JVM enters in context 0 (entry.datalog, startup.datalog, clinit.datalog);
  // any other method no edge reaches gets a context of its own as well.
  for (const auto& t : facts_.relation("EntryMethod").sorted_tuples()) graph.roots.push_back(t[0]);
  for (const auto& t : facts_.relation("ClassInit").sorted_tuples()) graph.roots.push_back(t[1]);
  for (const std::string& m :
       names_of(prepass.engine_->relation("StartupMethod"), *prepass.program_)) {
    graph.roots.push_back(method_id.at(m));
  }
  return graph;
}

void Analysis::dump(const std::string& relation, const fs::path& file) const {
  rel::write_tsv(file, engine_->relation(relation));
}

void Analysis::dump_bdd(const std::string& relation, const fs::path& file) const {
  rel::write_bdd_file(file, engine_->relation(relation));
}

}  // namespace refract::pointsto
