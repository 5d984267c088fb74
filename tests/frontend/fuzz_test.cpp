// A deterministic mutation fuzzer: class files (hand-built and, when a JDK 17 is installed,
// real ones from java.base), a jar and a jmod are mutated thousands of times with seeded
// random edits, then read, parsed and decoded. Every outcome must be success or an
// InputError (ClassFormatError for class bytes): no crash, no hang, no other exception. On
// success, every constant the parser and decoder vouched for is looked up again, which must
// not hit a wrong tag.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "frontend/class_mutator.hpp"

namespace refract::frontend {
namespace {

using testing::ClassBuilder;
using testing::Random;

constexpr std::size_t kClassMutations = 4000;
constexpr std::size_t kArchiveMutations = 1200;

// Parses and decodes; true on success, false on an InputError; anything else fails the test.
bool exercise_class(const std::vector<std::uint8_t>& bytes, const std::string& origin,
                    const std::string& context) {
  const testing::ClassOutcome outcome = testing::exercise_class(bytes, origin);
  EXPECT_EQ(outcome.bug, "") << context;
  return outcome.ok();
}

struct Seed {
  std::string name;
  std::vector<std::uint8_t> bytes;
};

std::vector<Seed> class_seeds() {
  std::vector<Seed> seeds = {{"fuzz/Rich", testing::rich_class()}};
  if (const auto home = testing::find_jdk17()) {
    ClassPath path;
    path.add(*home / "jmods" / "java.base.jmod");
    for (const char* name : {"java/lang/Object", "java/util/Optional", "java/lang/Record",
                             "java/util/ArrayList$Itr", "java/lang/Thread$State", "module-info"}) {
      if (auto bytes = path.read(name)) seeds.push_back({name, std::move(bytes->bytes)});
    }
  }
  return seeds;
}

TEST(FuzzTest, RichSeedIsValid) {
  const auto bytes = testing::rich_class();
  const ClassFile cls = parse_class_file(bytes, "rich");
  const DecodedCode code = decode_code(cls, cls.methods.at(0));
  EXPECT_EQ(code.instructions()[1].opcode, Opcode::kTableswitch);
  EXPECT_EQ(code.instructions()[1].cases.size(), 2u);
  EXPECT_EQ(code.instructions()[3].opcode, Opcode::kLookupswitch);
  EXPECT_EQ(code.instructions()[3].target, 44u);
  ASSERT_EQ(code.instructions()[3].cases.size(), 1u);
  EXPECT_EQ(code.instructions()[3].cases[0].target, 45u);
  EXPECT_EQ(code.instructions()[4].pc, 44u);
  EXPECT_EQ(code.instructions().back().pc, 97u);
  EXPECT_TRUE(exercise_class(bytes, "rich", "seed"));
}

TEST(FuzzTest, MutatedClassFiles) {
  const auto start = std::chrono::steady_clock::now();
  const auto seeds = class_seeds();
  for (const Seed& seed : seeds) {
    ASSERT_TRUE(exercise_class(seed.bytes, "seed!" + seed.name, seed.name)) << "seed must be valid";
  }
  std::size_t parsed = 0;
  std::size_t rejected = 0;
  for (std::size_t i = 0; i < kClassMutations; ++i) {
    const Seed& seed = seeds[i % seeds.size()];
    Random random(0x5EED0000 + i);
    std::vector<std::uint8_t> bytes = seed.bytes;
    for (std::size_t n = 1 + random.below(3); n > 0; --n) testing::mutate_bytes(bytes, random);
    const std::string origin = "fuzz.jar!" + seed.name + ".class";
    (exercise_class(bytes, origin, "case " + std::to_string(i) + " of " + seed.name) ? parsed
                                                                                     : rejected)++;
    if (HasFailure()) break;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << kClassMutations << " mutated class files from " << seeds.size()
            << " seeds: " << parsed << " parsed, " << rejected << " rejected, " << seconds
            << " s\n";
  EXPECT_GT(rejected, 0u);
}

// Reads every entry of a (mutated) archive and parses the classes; true if nothing failed.
bool exercise_archive(std::vector<std::uint8_t> bytes, const std::string& name,
                      const std::string& context) {
  const testing::ArchiveOutcome outcome = testing::exercise_archive(std::move(bytes), name);
  EXPECT_EQ(outcome.bug, "") << context;
  return outcome.ok();
}

TEST(FuzzTest, MutatedJarsAndJmods) {
  const auto start = std::chrono::steady_clock::now();
  const auto rich = testing::rich_class();
  ClassBuilder small;
  small.this_class = "fuzz/Small";
  const testing::ZipEntries entries = {
      {"META-INF/MANIFEST.MF",
       testing::text_bytes("Manifest-Version: 1.0\nMulti-Release: true\n\n")},
      {"fuzz/Rich.class", rich},
      {"META-INF/versions/11/fuzz/Small.class", small.build()},
      {"fuzz/Small.class", small.build()}};
  const std::vector<std::pair<std::string, std::vector<std::uint8_t>>> seeds = {
      {"deflated.jar", testing::zip_bytes(entries, true)},
      {"stored.jar", testing::zip_bytes(entries, false)},
      {"module.jmod", testing::jmod_bytes({{"classes/fuzz/Rich.class", rich}})}};
  for (const auto& [name, bytes] : seeds) {
    ASSERT_TRUE(exercise_archive(bytes, name, "seed " + name));
  }
  std::size_t intact = 0;
  std::size_t rejected = 0;
  testing::TempDir dir;
  for (std::size_t i = 0; i < kArchiveMutations; ++i) {
    const auto& [name, seed] = seeds[i % seeds.size()];
    Random random(0xA4C0000 + i);
    std::vector<std::uint8_t> bytes = seed;
    for (std::size_t n = 1 + random.below(3); n > 0; --n) testing::mutate_bytes(bytes, random);
    const std::string context = "archive case " + std::to_string(i) + " of " + name;
    (exercise_archive(bytes, name, context) ? intact : rejected)++;
    if (i % 20 == 0) {
      // Through a file and a class path too: the index and lazy reads of a damaged archive.
      const auto file = dir / ("case" + std::to_string(i) + "-" + name);
      testing::write_file(file, bytes);
      EXPECT_EQ(testing::exercise_class_path(file).bug, "") << context;
    }
    if (HasFailure()) break;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << kArchiveMutations << " mutated archives: " << intact << " read in full, " << rejected
            << " with errors, " << seconds << " s\n";
  EXPECT_GT(rejected, 0u);
}

}  // namespace
}  // namespace refract::frontend
