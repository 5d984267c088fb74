// What the engine says when memory, not --max-nodes, stops the node table: the budget, or the
// machine that other processes have filled (bdd/machine_memory.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "solver/engine.hpp"
#include "solver/engine_test_folder.hpp"

namespace refract::solver {
namespace {

class EngineMemoryTest : public EngineTestFolder {
 protected:
  // pair(x, y) :- e(x), e(y) over 400 scattered elements of 2^16: a product of about 160,000
  // tuples that, with A0 and A1 interleaved, outgrows a table of 10,000 nodes.
  std::string run_pair_product(EngineOptions options) {
    std::string tuples = "# A0:16\n";
    for (std::uint64_t k = 0; k < 400; ++k) tuples += std::to_string((k * 40503) % 65536) + "\n";
    write("e.tuples", tuples);
    const Program program = parse(
        "A 65536\n"
        "e (a : A) inputtuples\n"
        "pair (x : A, y : A) printsize\n"
        "pair(x, y) :- e(x), e(y).\n");
    try {
      Engine engine(program, this->options("A0xA1", std::move(options)));
      engine.run();
    } catch (const EvaluationError& e) {
      return e.what();
    }
    ADD_FAILURE() << "the product fitted";
    return "";
  }
};

TEST_F(EngineMemoryTest, AFullMachineIsNamedAsWhatStoppedTheTable) {
  EngineOptions options;
  options.bdd.memory_budget_bytes = std::uint64_t{1} << 40;
  options.bdd.machine_memory = [] { return bdd::MachineMemory{std::uint64_t{24} << 30, 0}; };
  options.bdd.max_nodes = 2'000'000;  // a backstop, should the machine not hold
  const std::string message = run_pair_product(options);
  EXPECT_NE(message.find("node table exhausted"), std::string::npos) << message;
  EXPECT_NE(message.find("pair(x, y) :- e(x), e(y)."), std::string::npos) << message;
  EXPECT_NE(message.find("memory other processes left on the machine"), std::string::npos)
      << message;
  EXPECT_NE(message.find("budget of 1048576 MiB"), std::string::npos) << message;
}

TEST_F(EngineMemoryTest, ABudgetBelowTheProcessIsNamedAsTheBudget) {
  EngineOptions options;
  options.bdd.memory_budget_bytes = 1;
  options.bdd.max_nodes = 2'000'000;
  const std::string message = run_pair_product(options);
  EXPECT_NE(message.find("the memory budget of 0 MiB kept it from growing"), std::string::npos)
      << message;
  EXPECT_EQ(message.find("other processes"), std::string::npos) << message;
}

}  // namespace
}  // namespace refract::solver
