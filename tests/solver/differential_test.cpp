// The BDD engine against the tuple-set reference evaluator on random
// stratified programs, each under three variable orders: every relation must
// hold exactly the same tuples. Under the first order every rule runs on BDD products; under
// the second, every rule evaluated once over small relations runs on explicit tuples
// (solver/tuple_rule.hpp); the third takes the engine's default choice between the two, so
// both paths meet the reference. The three runs of a program take the schedules
// (solver/schedule.hpp) in turn, shifted by the seed, so every schedule meets the reference on
// every order's path. REFRACT_DIFF_PROGRAMS sets how
// many programs (default 1000), REFRACT_DIFF_FIRST_SEED the first seed (default 0).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "reference/random_program.hpp"
#include "reference/reference_evaluator.hpp"
#include "solver/checker.hpp"
#include "solver/engine.hpp"
#include "solver/parser.hpp"
#include "solver/schedule.hpp"

namespace refract::solver {
namespace {

using reference::Database;
using reference::GeneratedProgram;
using reference::Tuple;
using reference::TupleSet;

constexpr std::size_t kShownTuples = 8;  // differing tuples shown per side
constexpr int kMaxReportedPrograms = 5;  // failing programs reported in full

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  return std::stoull(text);
}

std::string tuple_text(const Tuple& tuple) {
  std::string out = "(";
  for (std::size_t i = 0; i < tuple.size(); ++i)
    out += (i > 0 ? " " : "") + std::to_string(tuple[i]);
  return out + ")";
}

// Up to kShownTuples tuples of `a` that `b` lacks.
std::string first_missing(const TupleSet& a, const TupleSet& b) {
  std::vector<Tuple> missing;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(missing));
  std::string out = std::to_string(missing.size()) + ":";
  for (std::size_t i = 0; i < missing.size() && i < kShownTuples; ++i)
    out += " " + tuple_text(missing[i]);
  return out;
}

struct Totals {
  std::uint64_t programs = 0;
  std::uint64_t engine_runs = 0;
  std::uint64_t rules = 0;
  std::uint64_t derived_relations = 0;
  std::uint64_t nonempty_derived = 0;
  std::uint64_t derived_tuples = 0;
  std::uint64_t tuple_rule_runs = 0;   // rule evaluations on explicit tuples
  std::uint64_t tuple_delta_runs = 0;  // semi-naive steps on explicit tuples
  std::uint64_t keyed_joins = 0;       // joins with a keyed static side
  // bddbddb's constructs the generator draws: rules with a variable no positive atom binds,
  // with one quantified inside a negation, with an ordering comparison, relations with a
  // repeated attribute name.
  std::uint64_t unbound_rules = 0;
  std::uint64_t negation_local_rules = 0;
  std::uint64_t ordering_rules = 0;
  std::uint64_t repeated_names = 0;
  // Per schedule: rule evaluations on deltas in recursive strata.
  std::map<std::string, std::uint64_t> delta_evaluations;
};

void count_constructs(const Program& program, Totals& totals) {
  for (const Rule& rule : program.rules) {
    totals.unbound_rules += unbound_variables(rule).empty() ? 0 : 1;
    totals.negation_local_rules += negation_local_variables(rule).empty() ? 0 : 1;
    totals.ordering_rules += std::any_of(rule.body.begin(), rule.body.end(), [](const Literal& l) {
      const Comparison* c = std::get_if<Comparison>(&l);
      return c != nullptr && c->op != CompareOp::kEq && c->op != CompareOp::kNe;
    });
  }
  for (const RelationDecl& relation : program.relations) {
    std::set<std::string> names;
    for (const AttributeDecl& a : relation.attributes) names.insert(a.name);
    totals.repeated_names += names.size() < relation.attributes.size() ? 1 : 0;
  }
}

// Runs one generated program through the engine under each order; returns a
// description of every disagreement with the reference (empty: all agree).
std::string compare_program(const GeneratedProgram& generated, const std::filesystem::path& dir,
                            std::uint64_t seed, Totals& totals) {
  std::ostringstream problems;
  Program parsed;
  try {
    parsed = parse_program_text(generated.text, (dir / "program.datalog").string(), dir);
    check_program(parsed);
  } catch (const std::exception& e) {
    return std::string("parse/check failed: ") + e.what() + "\n";
  }
  // The reference reads the generator's own AST, so a parser bug shows up as
  // a disagreement instead of being evaluated the same wrong way twice.
  Database expected;
  try {
    expected = reference::evaluate(generated.program, dir);
  } catch (const std::exception& e) {
    return std::string("reference evaluator failed: ") + e.what() + "\n";
  }
  totals.rules += generated.program.rules.size();
  count_constructs(generated.program, totals);
  for (const std::string& name : generated.derived) {
    ++totals.derived_relations;
    totals.nonempty_derived += expected.at(name).empty() ? 0 : 1;
    totals.derived_tuples += expected.at(name).size();
  }

  for (const std::string& order : generated.var_orders) {
    const bool bdd_only = &order == &generated.var_orders.front();
    EngineOptions options;
    if (bdd_only) {
      options.tuple_join_max_input = 0;
      options.tuple_delta_max = 0;
      options.keyed_indexes = false;
      options.delta_log_versions = 256;  // unions over long logs, pruned as readers catch up
    }
    if (&order == &generated.var_orders.front() + 1) {  // the alternatives wherever they apply
      options.tuple_joins_where_bdd_is_slow = false;
      options.keyed_indexes_where_product_is_slow = false;
      options.keyed_limits.cost_per_tuple = 0;
      options.delta_log_versions = 1;  // deltas over two additions or more: xor
      // Semi-naive steps on tuples take the place of keyed joins where both apply: every other
      // program, so that both keep being compared.
      if (seed % 2 == 0) options.tuple_delta_max = 0;
    }
    const std::vector<std::string>& schedules = schedule_names();
    options.schedule =
        schedules[(seed + static_cast<std::size_t>(&order - &generated.var_orders[0])) %
                  schedules.size()];
    options.input_dir = dir;
    options.output_dir = dir / "out";
    options.var_order = order;
    options.bdd.initial_nodes = 10000;
    options.bdd.cache_size = 10000;
    ++totals.engine_runs;
    try {
      Engine engine(parsed, options);
      engine.run();
      totals.tuple_rule_runs += engine.engine_profile().tuple_rules;
      totals.tuple_delta_runs += engine.engine_profile().tuple_deltas;
      totals.keyed_joins += engine.engine_profile().keyed_joins;
      totals.delta_evaluations[options.schedule] += engine.engine_profile().delta_evaluations;
      if (engine.var_order() != order)
        problems << "order " << order << ": engine used " << engine.var_order() << " instead\n";
      for (const auto& [name, tuples] : expected) {
        const std::vector<Tuple> listed = engine.tuples(name);
        const TupleSet actual(listed.begin(), listed.end());
        if (actual == tuples) continue;
        problems << "order " << order << (bdd_only ? " (BDD products only)" : "") << ", schedule "
                 << options.schedule << ": relation " << name << " has " << actual.size()
                 << " tuples (reference " << tuples.size() << ")"
                 << "\n  missing " << first_missing(tuples, actual) << "\n  extra "
                 << first_missing(actual, tuples) << "\n";
        if (listed.size() != actual.size())
          problems << "  (engine listed " << listed.size() - actual.size() << " duplicates)\n";
      }
    } catch (const std::exception& e) {
      problems << "order " << order << ": engine threw: " << e.what() << "\n";
    }
  }
  return problems.str();
}

TEST(DifferentialTest, EngineAgreesWithReferenceOnRandomPrograms) {
  const std::uint64_t first_seed = env_number("REFRACT_DIFF_FIRST_SEED", 0);
  const std::uint64_t count = env_number("REFRACT_DIFF_PROGRAMS", 1000);
  const std::filesystem::path root = std::filesystem::temp_directory_path() /
                                     ("refract-differential-" + std::to_string(::getpid()));
  Totals totals;
  int failed = 0;
  for (std::uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
    const std::filesystem::path dir = root / ("seed-" + std::to_string(seed));
    std::filesystem::create_directories(dir);
    const GeneratedProgram generated = reference::generate_random_program(seed, dir);
    ++totals.programs;
    const std::string problems = compare_program(generated, dir, seed, totals);
    if (problems.empty()) {
      std::filesystem::remove_all(dir);
      continue;
    }
    ++failed;
    if (failed <= kMaxReportedPrograms) {
      ADD_FAILURE() << "seed " << seed << " (inputs kept in " << dir.string() << ")\n"
                    << problems << "program:\n"
                    << generated.text;
    } else {
      std::filesystem::remove_all(dir);
    }
  }
  if (failed == 0) std::filesystem::remove_all(root);
  EXPECT_EQ(failed, 0) << "programs whose engine results differ from the reference, of "
                       << totals.programs;
  std::cout << "[differential] " << totals.programs << " programs (seeds " << first_seed << ".."
            << first_seed + count - 1 << "), " << totals.rules << " rules, " << totals.engine_runs
            << " engine runs, " << totals.derived_relations << " derived relations ("
            << totals.nonempty_derived << " nonempty, " << totals.derived_tuples << " tuples), "
            << totals.tuple_rule_runs << " rule evaluations on explicit tuples, "
            << totals.tuple_delta_runs << " semi-naive steps on them, " << totals.keyed_joins
            << " joins with a keyed static side; rules with a variable no "
            << "positive atom binds " << totals.unbound_rules << ", with one quantified in a "
            << "negation " << totals.negation_local_rules
            << ", with <, <=, > or >= " << totals.ordering_rules
            << "; relations with a repeated attribute name " << totals.repeated_names
            << "; evaluations on deltas by schedule:";
  for (const auto& [name, evaluations] : totals.delta_evaluations)
    std::cout << " " << name << " " << evaluations;
  std::cout << "\n";
  // The alternative paths and bddbddb's constructs must have been exercised, or part of this
  // test compares nothing new.
  EXPECT_GT(totals.tuple_rule_runs, totals.programs);
  EXPECT_GT(totals.tuple_delta_runs, totals.programs / 10);
  EXPECT_GT(totals.keyed_joins, totals.programs / 2);
  EXPECT_GT(totals.unbound_rules, totals.programs / 4);
  EXPECT_GT(totals.negation_local_rules, totals.programs / 10);
  EXPECT_GT(totals.ordering_rules, totals.programs / 4);
  EXPECT_GT(totals.repeated_names, totals.programs / 4);
  for (const std::string& name : schedule_names())
    EXPECT_GT(totals.delta_evaluations[name], totals.programs / 2) << "schedule " << name;
}

}  // namespace
}  // namespace refract::solver
