// Seeded solves (solver/seeding.hpp, EngineOptions::seed_dir; issue 35's reusable JDK
// fixpoint): which relations may start from a seed, and, on random programs, that a solve
// seeded from any earlier state of the same rules (on fewer, more or other input tuples) gives
// exactly what the reference evaluator gives without one.
#include "solver/seeding.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "reference/random_program.hpp"
#include "reference/reference_evaluator.hpp"
#include "solver/checker.hpp"
#include "solver/engine.hpp"
#include "solver/parser.hpp"

namespace refract::solver {
namespace {

// The plan from the program alone, before any stratum is solved, as the engine's checks
// would make it if a negation failed wherever its relation may have grown: what
// seed_unsafe_because says rule by rule, spread along positive reads. `inputs`: how each input
// changed; `available`: the relations the seed has.
SeedPlan plan_seeds(const Program& program, const std::map<std::string, InputChange>& inputs,
                    const std::set<std::string>& available) {
  const std::set<std::string> grown = may_have_grown(program, inputs);
  std::set<std::string> derived;
  for (const Rule& rule : program.rules)
    if (inputs.count(rule.head.relation) == 0) derived.insert(rule.head.relation);
  // Unsafe spreads along positive reads too: a relation recomputed may lose tuples its seed
  // had, and so may every relation derived from it.
  std::map<std::string, std::string> unsafe;
  SeedQuestions questions;
  questions.input_change = [&](const std::string& name) -> std::optional<InputChange> {
    const auto found = inputs.find(name);
    if (found == inputs.end()) return std::nullopt;
    return found->second;
  };
  questions.recomputed = [&](const std::string& name) { return unsafe.count(name) != 0; };
  questions.may_have_grown = [&](const std::string& name) { return grown.count(name) != 0; };
  questions.negation_may_fail = [&](const Rule&, const Atom& atom) {
    return grown.count(atom.relation) != 0;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Rule& rule : program.rules) {
      const std::string& head = rule.head.relation;
      if (derived.count(head) == 0 || unsafe.count(head) != 0) continue;
      std::string why = seed_unsafe_because(rule, questions);
      if (why.empty()) continue;
      unsafe[head] = std::move(why);
      changed = true;
    }
  }
  SeedPlan plan;
  for (const std::string& name : derived) {
    if (const auto u = unsafe.find(name); u != unsafe.end()) {
      plan.recomputed[name] = u->second;
    } else if (available.count(name) == 0) {
      plan.recomputed[name] = "the seed does not have it";
    } else {
      plan.seeded.insert(name);
    }
  }
  return plan;
}

// Rules appended to this header start on line 9.
const std::string kReachHeader =
    "D 8\n"
    "edge (a : D, b : D) inputtuples\n"
    "root (a : D) inputtuples\n"
    "reach (a : D)\n"
    "path (a : D, b : D)\n"
    "unreached (a : D)\n"
    "leaf (a : D)\n"
    "numbered (a : D, n : D)\n";

SeedPlan plan_for(const std::string& rules, const std::map<std::string, InputChange>& inputs,
                  const std::set<std::string>& available = {"reach", "path", "unreached", "leaf",
                                                            "numbered"}) {
  return plan_seeds(parse_program_text(kReachHeader + rules, "t.dl", "."), inputs, available);
}

const std::string kReachRules =
    "reach(a) :- root(a).\n"
    "reach(b) :- reach(a), edge(a, b).\n"
    "unreached(a) :- edge(a, _), !reach(a).\n"
    "leaf(b) :- unreached(b).\n"
    "path(a, b) :- edge(a, b).\n";

TEST(SeedingTest, MonotoneRulesOverInputsThatGrewTakeTheirSeeds) {
  const SeedPlan plan =
      plan_for(kReachRules, {{"edge", InputChange::kGrew}, {"root", InputChange::kSame}});
  EXPECT_EQ(plan.seeded, (std::set<std::string>{"path", "reach"}));
}

TEST(SeedingTest, ANegationOfARelationThatMayHaveGrownIsRecomputedAndSoIsWhatReadsIt) {
  const SeedPlan plan =
      plan_for(kReachRules, {{"edge", InputChange::kGrew}, {"root", InputChange::kSame}});
  EXPECT_EQ(plan.recomputed.at("unreached"),
            "the rule at line 11 negates reach, which may have gained tuples on values the seed "
            "had");
  EXPECT_EQ(plan.recomputed.at("leaf"), "the rule at line 12 reads unreached, which is recomputed");
}

TEST(SeedingTest, ANegationOfWhatCannotHaveGrownKeepsItsSeed) {
  const SeedPlan plan =
      plan_for(kReachRules, {{"edge", InputChange::kSame}, {"root", InputChange::kSame}});
  EXPECT_EQ(plan.seeded, (std::set<std::string>{"leaf", "path", "reach", "unreached"}));
  EXPECT_TRUE(plan.recomputed.empty());
}

TEST(SeedingTest, AnInputThatLostTuplesRecomputesEveryReader) {
  const SeedPlan plan =
      plan_for(kReachRules, {{"edge", InputChange::kSame}, {"root", InputChange::kOther}});
  EXPECT_EQ(plan.recomputed.at("reach"),
            "the rule at line 9 reads input root, which lost tuples or has no seed");
  EXPECT_EQ(plan.seeded, (std::set<std::string>{"path"}));
}

TEST(SeedingTest, NumberingAGraphThatMayHaveGrownIsRecomputed) {
  const SeedPlan plan = plan_for("numbered(a, n) :- root(a), edge(a, b). number\n",
                                 {{"edge", InputChange::kGrew}, {"root", InputChange::kSame}});
  EXPECT_EQ(plan.recomputed.at("numbered"),
            "the rule at line 9 numbers the paths of edge, which may have grown");
}

TEST(SeedingTest, ARelationTheSeedLacksIsRecomputedAloneAndItsReadersKeepTheirs) {
  const SeedPlan plan =
      plan_for(kReachRules, {{"edge", InputChange::kGrew}, {"root", InputChange::kSame}},
               {"path", "unreached", "leaf"});
  EXPECT_EQ(plan.recomputed.at("reach"), "the seed does not have it");
  EXPECT_EQ(plan.seeded, (std::set<std::string>{"path"}));
}

// --- Seeds over smaller domains (the JDK's part, then a program) ---------------------------

class SeededGrowthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("refract-seeded-growth-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The program over a domain of `size` elements (edges and roots from `folder`), solved,
  // seeded from `seed` when given; returns the engine.
  std::unique_ptr<Engine> solve(std::uint64_t size, const std::string& folder,
                                const std::optional<std::filesystem::path>& seed,
                                std::ostream* progress = nullptr, double interval = 0,
                                std::map<std::string, std::uint64_t> elements = {}) {
    const std::string text = "D " + std::to_string(size) + "\n" +
                             "edge (a : D, b : D) inputtuples\nroot (a : D) inputtuples\n"
                             "reach (a : D)\nunreached (a : D)\n"
                             "reach(a) :- root(a).\nreach(b) :- reach(a), edge(a, b).\n"
                             "unreached(a) :- edge(a, _), !reach(a).\n";
    programs_.push_back(
        std::make_unique<Program>(parse_program_text(text, (dir_ / "p.datalog").string(), dir_)));
    check_program(*programs_.back());
    EngineOptions options;
    options.input_dir = options.output_dir = dir_ / folder;
    options.bdd.initial_nodes = 10000;
    options.bdd.cache_size = 10000;
    options.seed_dir = seed;
    options.progress = progress;
    options.progress_interval_seconds = interval;
    options.domain_elements = std::move(elements);
    auto engine = std::make_unique<Engine>(*programs_.back(), options);
    engine->run();
    return engine;
  }

  void write_inputs(const std::string& folder, unsigned bits, const std::string& edges) {
    std::filesystem::create_directories(dir_ / folder);
    const std::string b = std::to_string(bits);
    std::ofstream(dir_ / folder / "edge.tuples") << "# D0:" + b + " D1:" + b + "\n" << edges;
    std::ofstream(dir_ / folder / "root.tuples") << "# D0:" + b + "\n0\n";
  }

  std::filesystem::path dir_;
  std::vector<std::unique_ptr<Program>> programs_;
};

// The JDK's case: `reach` gains only elements the seed's domain did not have, so no derivation
// of `unreached` in the seed can have used them.
TEST_F(SeededGrowthTest, ANegationOfWhatGainedOnlyNewElementsKeepsTheSeed) {
  write_inputs("old", 3, "0 1\n5 6\n");
  write_inputs("new", 4, "0 1\n5 6\n1 9\n9 12\n");
  solve(8, "old", std::nullopt)->write_state(dir_ / "state");
  std::unique_ptr<Engine> seeded = solve(16, "new", dir_ / "state");
  EXPECT_EQ(seeded->seed_plan().seeded, (std::set<std::string>{"reach", "unreached"}));
  const auto unreached = seeded->tuples("unreached");
  seeded.reset();  // one BDD manager at a time
  EXPECT_EQ(unreached, solve(16, "new", std::nullopt)->tuples("unreached"));
  EXPECT_EQ(unreached, (std::vector<std::vector<std::uint64_t>>{{5}}));
}

// `reach` gains 5, which the seed's solve had and found unreached: that seed would be wrong.
TEST_F(SeededGrowthTest, ANegationOfWhatGainedAnOldElementRecomputes) {
  write_inputs("old", 3, "0 1\n5 6\n");
  write_inputs("new", 4, "0 1\n5 6\n1 9\n9 5\n");
  solve(8, "old", std::nullopt)->write_state(dir_ / "state");
  const auto seeded = solve(16, "new", dir_ / "state");
  EXPECT_EQ(seeded->seed_plan().seeded, (std::set<std::string>{"reach"}));
  EXPECT_EQ(seeded->tuples("unreached"), (std::vector<std::vector<std::uint64_t>>{}));
}

// An input whose lines within the seed's domain are the seed's lines is the seed's value and
// the BDD of the lines past it (issue 35: the program's facts hold the JDK's part); one with
// another line within the domain is read whole. Both give what a solve without the seed gives.
TEST_F(SeededGrowthTest, AnInputHoldingTheSeedsLinesIsBuiltFromTheSeedAndOthersAreReadWhole) {
  write_inputs("old", 3, "0 1\n2 3\n");
  write_inputs("grown", 3, "0 1\n3 7\n2 3\n7 6\n");
  write_inputs("other", 3, "0 1\n2 3\n1 4\n7 6\n");
  solve(6, "old", std::nullopt)->write_state(dir_ / "state");
  for (const char* folder : {"grown", "other"}) {
    SCOPED_TRACE(folder);
    std::unique_ptr<Engine> seeded = solve(8, folder, dir_ / "state");
    const std::string read = seeded->seed_plan().read;
    EXPECT_EQ(read.rfind("image: ", 0), 0u) << read;
    EXPECT_NE(read.find(std::string("; ") + (folder == std::string("grown") ? "2" : "1") +
                        " inputs grown from their seeds"),
              std::string::npos)
        << read;
    const auto reach = seeded->tuples("reach");
    const auto unreached = seeded->tuples("unreached");
    seeded.reset();  // one BDD manager at a time
    const std::unique_ptr<Engine> plain = solve(8, folder, std::nullopt);
    EXPECT_EQ(reach, plain->tuples("reach"));
    EXPECT_EQ(unreached, plain->tuples("unreached"));
  }
}

// A domain declared with room (a JDK cache entry's layout) records its elements, not its size,
// as the seed's: lines past them are what an input gained, so that it is built from its seed.
TEST_F(SeededGrowthTest, ADomainDeclaredWithRoomRecordsItsElementsForTheSeed) {
  write_inputs("old", 4, "0 1\n");
  write_inputs("new", 4, "0 1\n1 5\n5 6\n");
  solve(16, "old", std::nullopt, nullptr, 0, {{"D", 3}})->write_state(dir_ / "state");
  std::ifstream sizes(dir_ / "state" / kSeedDomainsFile);
  std::ostringstream text;
  text << sizes.rdbuf();
  EXPECT_EQ(text.str(), "D 3\n");
  std::unique_ptr<Engine> seeded = solve(16, "new", dir_ / "state");
  const std::string read = seeded->seed_plan().read;
  EXPECT_EQ(read.rfind("image: ", 0), 0u) << read;
  EXPECT_NE(read.find("; 2 inputs grown from their seeds"), std::string::npos) << read;
  const auto reach = seeded->tuples("reach");
  seeded.reset();  // one BDD manager at a time
  EXPECT_EQ(reach, solve(16, "new", std::nullopt)->tuples("reach"));
}

// A recursive stratum that took its seeds keeps the seed's prefixes and runs the schedule's
// rounds from what its inputs gained; their lines add up to what it gained beyond the seed.
TEST_F(SeededGrowthTest, ASeededStratumRunsItsRoundsFromTheGainsAndReportsThem) {
  write_inputs("old", 3, "0 1\n");
  write_inputs("new", 4, "0 1\n1 9\n9 10\n10 11\n11 12\n");
  solve(8, "old", std::nullopt)->write_state(dir_ / "state");
  std::ostringstream progress;
  const std::unique_ptr<Engine> seeded = solve(16, "new", dir_ / "state", &progress);
  ASSERT_EQ(seeded->seed_plan().seeded.count("reach"), 1u);
  EXPECT_EQ(seeded->engine_profile().strata_from_seed,
            1u);  // reach's; unreached's is not recursive
  std::uint64_t gained = 0;
  std::istringstream lines(progress.str());
  for (std::string line; std::getline(lines, line);) {
    const std::size_t at = line.find("{reach} iteration ");
    if (at == std::string::npos || line.find("nothing new") != std::string::npos) continue;
    const std::size_t plus = line.find("reach +", at + 8);
    ASSERT_NE(plus, std::string::npos) << line;
    gained += std::stoull(line.substr(plus + 7));
  }
  EXPECT_EQ(gained, 4u) << progress.str();  // 9, 10, 11 and 12
  EXPECT_EQ(seeded->tuples("reach").size(), 6u);
}

// --- Random programs --------------------------------------------------------------------

// Copies `from` into `to`, each input tuple kept with probability 1/2.
void write_other_inputs(const std::filesystem::path& from, const std::filesystem::path& to,
                        const std::vector<std::string>& inputs, std::mt19937_64& random) {
  std::filesystem::create_directories(to);
  for (const auto& entry : std::filesystem::directory_iterator(from)) {
    if (entry.is_regular_file())
      std::filesystem::copy_file(entry.path(), to / entry.path().filename());
  }
  for (const std::string& name : inputs) {
    std::ifstream in(from / (name + ".tuples"));
    std::ostringstream kept;
    std::string line;
    while (std::getline(in, line)) {
      if (line.starts_with("#")) {
        kept << line << "\n";
        continue;
      }
      if (random() % 2 == 0) kept << line << "\n";
    }
    std::ofstream(to / (name + ".tuples"), std::ios::trunc) << kept.str();
  }
}

TEST(SeedingTest, ASeededSolveAgreesWithTheReferenceOnRandomPrograms) {
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("refract-seeding-" + std::to_string(::getpid()));
  std::uint64_t seeded = 0, recomputed = 0, grew = 0, other = 0, keyed = 0;
  std::uint64_t from_prefixes = 0, from_sweep = 0;  // strata run from their seeds, each way
  constexpr std::uint64_t kPrograms = 300;
  for (std::uint64_t seed = 0; seed < kPrograms; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::filesystem::path dir = root / std::to_string(seed);
    std::filesystem::create_directories(dir);
    const reference::GeneratedProgram generated = reference::generate_random_program(seed, dir);
    const Program program = parse_program_text(generated.text, (dir / "p.datalog").string(), dir);
    check_program(program);
    std::mt19937_64 random(seed);
    // Half the programs start from a solve on a random half of each input (inputs that grew);
    // the others solve the half starting from a solve of all (inputs that lost tuples).
    const bool shrink = seed % 2 == 1;
    const std::filesystem::path small = dir / "small";
    write_other_inputs(dir, small, generated.inputs, random);
    const std::filesystem::path solved_dir = shrink ? small : dir;
    const std::filesystem::path seed_from = shrink ? dir : small;
    EngineOptions options;
    options.bdd.initial_nodes = 10000;
    options.bdd.cache_size = 10000;
    options.var_order = generated.var_orders.back();
    {
      EngineOptions first = options;
      first.input_dir = first.output_dir = seed_from;
      Engine engine(program, first);
      engine.run();
      engine.write_state(dir / "state");
    }
    const reference::Database expected = reference::evaluate(generated.program, solved_dir);
    EngineOptions second = options;
    second.input_dir = second.output_dir = solved_dir;
    second.seed_dir = dir / "state";
    // Both evaluations of the seeded strata: the seed's prefixes with the gains as the first
    // deltas, and a first sweep over the seeds.
    second.seeded_first_sweep = (seed / 2) % 2 == 0;
    // Every static side that can be keyed is, in a third of the programs: the seeded schedule's
    // keyed joins meet the reference too.
    second.keyed_indexes_where_product_is_slow = seed % 3 != 0;
    second.keyed_limits.cost_per_tuple = seed % 3 != 0 ? second.keyed_limits.cost_per_tuple : 0;
    Engine engine(program, second);
    engine.run();
    seeded += engine.seed_plan().seeded.size();
    (second.seeded_first_sweep ? from_sweep : from_prefixes) +=
        engine.engine_profile().strata_from_seed;
    keyed += engine.engine_profile().keyed_joins;
    recomputed += engine.seed_plan().recomputed.size();
    for (const auto& [name, change] : engine.seed_inputs()) {
      grew += change == InputChange::kGrew ? 1 : 0;
      other += change == InputChange::kOther ? 1 : 0;
    }
    bool same = true;
    for (const auto& [name, tuples] : expected) {
      const std::vector<reference::Tuple> listed = engine.tuples(name);
      const reference::TupleSet actual(listed.begin(), listed.end());
      EXPECT_EQ(actual.size(), tuples.size()) << name << "\n" << generated.text;
      same = same && actual == tuples;
    }
    EXPECT_TRUE(same) << generated.text;
    if (same) std::filesystem::remove_all(dir);
  }
  std::cout << "[seeding] " << kPrograms << " programs: " << seeded << " relations seeded, "
            << recomputed << " recomputed, " << from_prefixes << " + " << from_sweep
            << " strata run from their seeds' prefixes + first sweeps (" << keyed
            << " keyed joins); inputs that grew " << grew << ", that lost tuples " << other << "\n";
  // Both cases must have been exercised, or the test compares nothing new.
  EXPECT_GT(seeded, kPrograms / 2);
  EXPECT_GT(from_prefixes, kPrograms / 20);
  EXPECT_GT(from_sweep, kPrograms / 20);
  EXPECT_GT(keyed, kPrograms / 10);
  EXPECT_GT(recomputed, kPrograms / 4);
  EXPECT_GT(grew, kPrograms / 4);
  EXPECT_GT(other, kPrograms / 4);
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace refract::solver
