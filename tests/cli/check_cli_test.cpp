// `refract check` end to end: on bddbddb's own example programs (../shared/bddbddb-examples/,
// copied unmodified from bddbddb's repository, without their input relations), each reads, or
// stops only at an input file that is not there or at a construct the README names as not
// supported; and on a small program, with and without its inputs.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "cli/run_refract.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

const fs::path kExamples = fs::path(REFRACT_SOURCE_DIR) / ".." / "shared" / "bddbddb-examples";

enum class Outcome {
  kReadsUpToMissingInputs,  // every construct reads; the input relations and maps are absent
  kMissingInclude,          // an included file the repository does not ship
  kUnsupported,             // a construct the README names as not supported
};

struct Example {
  const char* program;
  Outcome outcome;
  const char* detail = "";  // what the one error line says
};

const std::vector<Example> kOutcomes = {
    {"accessPaths.datalog", Outcome::kReadsUpToMissingInputs},
    {"c_pa.datalog", Outcome::kReadsUpToMissingInputs},
    {"c_pacs.datalog", Outcome::kReadsUpToMissingInputs},
    {"extlock.datalog", Outcome::kReadsUpToMissingInputs},
    {"extlockci.datalog", Outcome::kReadsUpToMissingInputs},
    {"extlockhybrid.datalog", Outcome::kReadsUpToMissingInputs},
    {"genericize.datalog", Outcome::kReadsUpToMissingInputs},
    {"genericroots.datalog", Outcome::kReadsUpToMissingInputs},
    {"pa.datalog", Outcome::kReadsUpToMissingInputs},
    {"pac.datalog", Outcome::kReadsUpToMissingInputs},
    {"pacp.datalog", Outcome::kReadsUpToMissingInputs},
    {"pacs.datalog", Outcome::kReadsUpToMissingInputs},
    {"pacs2.datalog", Outcome::kReadsUpToMissingInputs},
    {"pacsh.datalog", Outcome::kReadsUpToMissingInputs},
    {"padiscover.datalog", Outcome::kReadsUpToMissingInputs},
    {"pafly.datalog", Outcome::kMissingInclude, "cannot find included file 'fielddomains.pa'"},
    {"pamap.datalog", Outcome::kMissingInclude, "cannot find included file 'fielddomains.pa'"},
    {"paos.datalog", Outcome::kReadsUpToMissingInputs},
    {"paos2.datalog", Outcome::kReadsUpToMissingInputs},
    {"partial_pacs_results.datalog", Outcome::kReadsUpToMissingInputs},
    {"sqlinjection6.datalog", Outcome::kMissingInclude,
     "cannot find included file 'fielddomains.pa'"},
    {"testMap.datalog", Outcome::kUnsupported,
     "testMap.datalog:72:29: the domain map operator '=>' is not supported by refract"},
    {"typerefine.datalog", Outcome::kReadsUpToMissingInputs},
};

TEST(CheckCliTest, EveryBddbddbExampleReadsUpToWhatIsMissing) {
  if (!fs::is_directory(kExamples)) GTEST_SKIP() << "no " << kExamples.string();
  std::set<std::string> present, listed;
  for (const auto& entry : fs::directory_iterator(kExamples))
    if (entry.path().extension() == ".datalog") present.insert(entry.path().filename().string());
  for (const Example& e : kOutcomes) listed.insert(e.program);
  ASSERT_EQ(present, listed) << "the table must list every program of the folder";
  const std::string readme = read_file(fs::path(REFRACT_SOURCE_DIR) / "README.md");

  for (const Example& e : kOutcomes) {
    SCOPED_TRACE(e.program);
    const RunResult run = run_refract({"check", e.program, "--quiet"}, kExamples);
    EXPECT_EQ(run.exit_code, 1) << run.err;
    const std::vector<std::string> lines = lines_of(run.err);
    ASSERT_FALSE(lines.empty());
    switch (e.outcome) {
      case Outcome::kReadsUpToMissingInputs:
        // One line per missing file, each one that is indeed not there, then the summary.
        EXPECT_EQ(lines.back().rfind(std::string(e.program) + ": the program reads; ", 0), 0U)
            << run.err;
        for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
          const std::size_t colon = lines[i].find(": missing input file (the ");
          ASSERT_NE(colon, std::string::npos) << lines[i];
          EXPECT_FALSE(fs::exists(kExamples / lines[i].substr(0, colon))) << lines[i];
        }
        break;
      case Outcome::kMissingInclude:
      case Outcome::kUnsupported:
        ASSERT_EQ(lines.size(), 1U) << run.err;
        EXPECT_NE(lines[0].find(e.detail), std::string::npos) << run.err;
        break;
    }
  }
  // The README's bddbddb section names what testMap stops at.
  EXPECT_NE(readme.find("The domain map operator `=>` is an error"), std::string::npos);
}

TEST(CheckCliTest, SmallProgramReadsWithItsInputsAndNamesThoseMissing) {
  TempDir dir;
  write_file(dir / "p.datalog",
             "D 4 D.map\n"
             "e (a : D, b : D) inputtuples\n"
             "p (a : D, b : D) outputtuples\n"
             "p(x, y) :- e(x, y), x != \"c\". split\n");
  RunResult run = run_refract({"check", "p.datalog"}, dir.path());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("p.datalog:4:31: warning: rule option 'split' is a bddbddb evaluation "
                         "hint that refract does not use"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("D.map: missing input file (the map of domain D)\n"), std::string::npos);
  EXPECT_NE(run.err.find("e.tuples: missing input file (the relation e (inputtuples))\n"),
            std::string::npos);
  EXPECT_NE(run.err.find("p.datalog: the program reads; 2 input file(s) missing"),
            std::string::npos);

  write_file(dir / "D.map", "a\nb\n");
  write_file(dir / "e.tuples", "# D0:2 D1:2\n0 1\n1 5\n");
  run = run_refract({"check", "p.datalog", "--quiet"}, dir.path());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "./e.tuples:3:3: value 5 is outside domain D (size 4)\n");

  write_file(dir / "e.tuples", "# D0:2 D1:2\n0 1\n1 2\n");
  run = run_refract({"check", "p.datalog", "--quiet"}, dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "p.datalog: reads, with its inputs: 1 domains, 2 relations, 1 rules\n");
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(files_under(dir.path()),
            (std::vector<std::string>{"D.map", "e.tuples", "p.datalog"}));  // nothing written
}

}  // namespace
}  // namespace refract::test
