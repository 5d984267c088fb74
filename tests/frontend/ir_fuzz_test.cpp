// A deterministic mutation fuzzer for the IR builder: the fixture classes (and a few java.base
// classes when a JDK 17 is installed) get seeded random edits, mostly inside their Code
// attributes (code bytes, exception tables, max_stack/max_locals), and every method of every
// mutant that still parses is translated. Each translation must succeed or throw an InputError
// (a ClassFormatError): no crash, no hang, no other exception. A successful translation must
// be well formed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "frontend/class_mutator.hpp"
#include "frontend/class_path.hpp"
#include "frontend/ir_test_util.hpp"
#include "support/error.hpp"

namespace refract::frontend {
namespace {

using testing::Random;

// A short deterministic round by default; REFRACT_FUZZ_MUTATIONS=N runs a longer one (e.g.
// under AddressSanitizer).
std::size_t mutation_count() {
  const char* text = std::getenv("REFRACT_FUZZ_MUTATIONS");
  return text != nullptr ? std::strtoull(text, nullptr, 10) : 4000;
}

std::vector<testing::ClassSeed> seeds() {
  std::vector<testing::ClassSeed> out;
  const std::filesystem::path dir = std::filesystem::path(REFRACT_FIXTURE_CLASSES) / "ir";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());  // the same order on every file system
  for (const auto& file : files)
    out.push_back(testing::class_seed(file.string(), testing::read_file(file)));
  if (const auto home = testing::find_jdk17()) {
    ClassPath path;
    path.add_jdk(*home);
    for (const char* name : {"java/util/HashMap", "java/lang/invoke/StringConcatFactory",
                             "java/util/concurrent/ConcurrentHashMap"}) {
      const auto bytes = path.read(name);
      if (bytes) out.push_back(testing::class_seed(bytes->origin, bytes->bytes));
    }
  }
  return out;
}

TEST(IrFuzzTest, MutatedClassesTranslateOrFailCleanly) {
  const std::vector<testing::ClassSeed> inputs = seeds();
  ASSERT_FALSE(inputs.empty());
  Random random(0x1F2E3D4C5B6A7988ull);
  std::size_t parsed = 0;
  std::size_t translated = 0;
  std::size_t rejected = 0;
  const auto start = std::chrono::steady_clock::now();
  const std::size_t mutations = mutation_count();
  for (std::size_t i = 0; i < mutations; ++i) {
    const testing::ClassSeed& seed = inputs[random.below(inputs.size())];
    const std::vector<std::uint8_t> bytes = testing::mutate_code(seed, random);
    const testing::ClassOutcome outcome =
        testing::exercise_class(bytes, seed.name, {.decode = false, .build_ir = true});
    ASSERT_EQ(outcome.bug, "") << "mutation " << i << " of " << seed.name;
    parsed += outcome.parsed ? 1 : 0;
    translated += outcome.methods_translated;
    rejected += outcome.methods_rejected;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << mutations << " mutants: " << parsed << " parsed, " << translated
            << " methods translated, " << rejected << " rejected, in " << seconds << " s\n";
  EXPECT_GT(rejected, 100u);
  EXPECT_GT(translated, 1000u);
}

}  // namespace
}  // namespace refract::frontend
