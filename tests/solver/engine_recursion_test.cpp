// Recursive strata evaluated rule after rule (Gauss-Seidel) with per-rule
// deltas, and atoms whose rename reorders variables (rebuilt from their tuples
// when they are few, renamed by BuDDy otherwise): checked against closures
// computed directly.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "solver/engine.hpp"
#include "solver/engine_test_folder.hpp"

namespace refract::solver {
namespace {

using Pair = std::pair<std::uint64_t, std::uint64_t>;

// The start of a program over edge.tuples as write_chain writes it.
constexpr const char* kChainProgram = "V 64\nedge (x : V, y : V) inputtuples\n";

class EngineRecursionTest : public EngineTestFolder {
 protected:
  // edge.tuples: the chain 0 -> 1 -> ... -> 40, whose closure takes a sweep per edge.
  void write_chain() const {
    std::string edges = "# V0:6 V1:6\n";
    for (int v = 0; v < 40; ++v) edges += std::to_string(v) + " " + std::to_string(v + 1) + "\n";
    write("edge.tuples", edges);
  }
  std::set<Pair> run(const std::string& program_text, const std::string& relation,
                     const std::string& order) {
    const Program program = parse(program_text);
    const EngineOptions options = this->options(order);
    Engine engine(program, options);
    engine.run();
    std::set<Pair> out;
    for (const auto& t : engine.tuples(relation)) out.insert({t.at(0), t.at(1)});
    return out;
  }
};

// p(v, h) for every v reaching (through edges a(dest, source)) a variable s with p0(s, h).
std::set<Pair> closure(const std::vector<Pair>& assign, const std::vector<Pair>& seed) {
  std::set<Pair> p(seed.begin(), seed.end());
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [dest, source] : assign)
      for (const auto& [v, h] : std::set<Pair>(p))
        if (v == source) changed |= p.insert({dest, h}).second;
  }
  return p;
}

// The assign rule of points-to analysis: the planner puts `s` on V0 with the
// delta atom, so assign(d, s) is renamed V0<->V1 once, from its tuples; a second
// rule reads the first rule's output in the same sweep.
TEST_F(EngineRecursionTest, LinearRuleWithSwappedStaticAtomMatchesClosure) {
  std::vector<Pair> assign, seed;
  std::string assign_text = "# V0:6 V1:6\n", seed_text = "# V0:6 H0:4\n";
  for (std::uint64_t i = 0; i < 60; ++i) {
    assign.push_back({(i * 7 + 3) % 64, (i * 13 + 5) % 64});
    assign.push_back({(i + 1) % 64, i});  // a long chain: many rounds
  }
  for (std::uint64_t i = 0; i < 64; i += 9) seed.push_back({i, i % 16});
  for (const auto& [d, s] : assign)
    assign_text += std::to_string(d) + " " + std::to_string(s) + "\n";
  for (const auto& [v, h] : seed) seed_text += std::to_string(v) + " " + std::to_string(h) + "\n";
  write("assign.tuples", assign_text);
  write("p0.tuples", seed_text);
  const std::string program =
      "V 64\nH 16\n"
      "p0 (v : V, h : H) inputtuples\n"
      "assign (dest : V, source : V) inputtuples\n"
      "p (v : V, h : H)\n"
      "q (v : V, h : H)\n"
      "p(v, h) :- p0(v, h).\n"
      "q(v, h) :- p(v, h), assign(v, v).\n"
      "p(d, h) :- assign(d, s), p(s, h).\n"
      "p(d, h) :- q(d, h).\n";
  const std::set<Pair> expected = closure(assign, seed);
  for (const std::string order : {"V0_V1_H0", "V0xV1_H0", "H0_V1_V0"})
    EXPECT_EQ(run(program, "p", order), expected) << order;
}

// A swapped static atom with far more tuples than nodes ('*' lines): renamed
// by BuDDy, not enumerated.
TEST_F(EngineRecursionTest, SwappedAtomWithManyTuplesIsRenamedInPlace) {
  write("assign.tuples", "# V0:10 V1:10\n* 7\n5 *\n");
  write("p0.tuples", "# V0:10 H0:2\n7 1\n");
  const std::string program =
      "V 1024\nH 4\n"
      "p0 (v : V, h : H) inputtuples\n"
      "assign (dest : V, source : V) inputtuples\n"
      "p (v : V, h : H)\n"
      "p(v, h) :- p0(v, h).\n"
      "p(d, h) :- assign(d, s), p(s, h).\n";
  std::set<Pair> expected;
  for (std::uint64_t v = 0; v < 1024; ++v) expected.insert({v, 1});  // * <- 7; 5 <- *
  EXPECT_EQ(run(program, "p", "V0_V1_H0"), expected);
}

// The profile splits each step's semi-naive products by the side that changed. With a static
// atom first, only the recursive atom's own delta is joined (with the fixed prefix); with the
// recursive atom first, its delta starts the chain and the static atom after it only ever
// meets new prefix tuples. Both sides are timed within the step's time.
TEST_F(EngineRecursionTest, ProfileSplitsEachStepByTheSideThatChanged) {
  write_chain();
  const Program program = parse(std::string(kChainProgram) +
                                "forward (x : V, y : V)\n"
                                "backward (x : V, y : V)\n"
                                "forward(x, y) :- edge(x, y).\n"
                                "forward(x, z) :- edge(x, y), forward(y, z).\n"
                                "backward(x, y) :- edge(x, y).\n"
                                "backward(x, z) :- backward(x, y), edge(y, z).\n");
  Engine engine(program, options("V0_V1_V2"));
  engine.run();
  ASSERT_EQ(engine.tuples("forward").size(), 41u * 40u / 2u);
  ASSERT_EQ(engine.tuples("backward").size(), 41u * 40u / 2u);
  const RuleProfile& static_first = engine.rule_profiles().at(1);
  const RuleProfile& recursive_first = engine.rule_profiles().at(3);
  for (const RuleProfile* rule : {&static_first, &recursive_first}) {
    ASSERT_EQ(rule->step_atom_delta_seconds.size(), 2u) << rule->rule_text;
    ASSERT_EQ(rule->step_prefix_delta_seconds.size(), 2u) << rule->rule_text;
    for (std::size_t s = 0; s < 2; ++s)
      EXPECT_LE(rule->step_atom_delta_seconds[s] + rule->step_prefix_delta_seconds[s],
                rule->step_seconds.at(s))
          << rule->rule_text << " step " << s;
  }
  EXPECT_EQ(static_first.step_atom_delta_seconds[0], 0.0);
  EXPECT_EQ(static_first.step_prefix_delta_seconds[0], 0.0);
  EXPECT_GT(static_first.step_atom_delta_seconds[1], 0.0);
  EXPECT_EQ(static_first.step_prefix_delta_seconds[1], 0.0);
  EXPECT_GT(recursive_first.step_atom_delta_seconds[0], 0.0);
  EXPECT_EQ(recursive_first.step_prefix_delta_seconds[0], 0.0);
  EXPECT_EQ(recursive_first.step_atom_delta_seconds[1], 0.0);
  EXPECT_GT(recursive_first.step_prefix_delta_seconds[1], 0.0);
}

// The progress lines of a stratum of many sweeps (a chain of 40 edges): one per sweep with no
// interval; with an interval longer than the run, the first sweep's and the stratum's last.
// Either way the gains printed add up to the relation's size, and relations that gained
// nothing are not listed.
struct ProgressLines {
  std::size_t iteration_lines = 0;
  std::map<std::string, std::uint64_t> gained;
};
ProgressLines iteration_lines(const std::string& text) {
  ProgressLines out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t colon = line.find(": ", line.find(" iteration "));
    if (line.find(" iteration ") == std::string::npos || colon == std::string::npos) continue;
    if (line.find("{path}") == std::string::npos) continue;
    ++out.iteration_lines;
    const std::string gains = line.substr(colon + 2, line.find(';') - colon - 2);
    if (gains == "nothing new") continue;
    std::istringstream fields(gains);
    for (std::string name, plus; fields >> name >> plus;) {
      EXPECT_NE(plus, "+0") << line;
      out.gained[name] += std::stoull(plus.substr(1));
    }
  }
  return out;
}

TEST_F(EngineRecursionTest, ProgressPrintsAtMostOneLinePerIntervalAndAddsUpTheSweeps) {
  write_chain();
  const Program program = parse(std::string(kChainProgram) +
                                "path (x : V, y : V)\n"
                                "unused (x : V, y : V)\n"
                                "path(x, y) :- edge(x, y).\n"
                                "path(x, z) :- path(x, y), edge(y, z).\n"
                                "unused(x, y) :- path(x, y), edge(y, x).\n");
  const std::uint64_t paths = 41 * 40 / 2;
  for (const double interval : {0.0, 1e9}) {
    std::ostringstream progress;
    EngineOptions options = this->options("V0_V1_V2");
    options.progress = &progress;
    options.progress_interval_seconds = interval;
    options.schedule = "sweep";  // one evaluation a round: a round per edge of the chain
    Engine engine(program, options);
    engine.run();
    ASSERT_EQ(engine.tuples("path").size(), paths);
    const ProgressLines lines = iteration_lines(progress.str());
    if (interval == 0.0)
      EXPECT_GT(lines.iteration_lines, 30U) << progress.str();
    else
      EXPECT_EQ(lines.iteration_lines, 2U) << progress.str();
    EXPECT_EQ(lines.gained, (std::map<std::string, std::uint64_t>{{"path", paths}}))
        << progress.str();
  }
}

// A first sweep over large (seeded) relations ran for minutes without a line: it now reports
// after each rule once the interval has passed, as the rounds after it do.
TEST_F(EngineRecursionTest, TheFirstSweepReportsAfterEachRuleOnceTheIntervalHasPassed) {
  write_chain();
  const Program program = parse(std::string(kChainProgram) +
                                "path (x : V, y : V)\n"
                                "path(x, y) :- edge(x, y).\n"
                                "path(x, z) :- path(x, y), edge(y, z).\n");
  std::ostringstream progress;
  EngineOptions options = this->options("V0_V1_V2");
  options.progress = &progress;
  options.progress_interval_seconds = 0;
  Engine engine(program, options);
  engine.run();
  std::size_t first_sweep_lines = 0;
  std::istringstream lines(progress.str());
  for (std::string line; std::getline(lines, line);)
    if (line.find("{path} iteration 1 at") != std::string::npos) ++first_sweep_lines;
  EXPECT_EQ(first_sweep_lines, 2U) << progress.str();  // one per rule of the sweep
}

}  // namespace
}  // namespace refract::solver
