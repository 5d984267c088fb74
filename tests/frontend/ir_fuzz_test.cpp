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

struct Seed {
  std::string name;
  std::vector<std::uint8_t> bytes;
  // File ranges of the Code attributes: [start, end).
  std::vector<std::pair<std::size_t, std::size_t>> code_ranges;
};

Seed make_seed(std::string name, std::vector<std::uint8_t> bytes) {
  Seed seed{std::move(name), std::move(bytes), {}};
  const ClassFile cls = parse_class_file(seed.bytes, seed.name);
  for (const MethodInfo& m : cls.methods) {
    if (!m.code) continue;
    const std::size_t end =
        m.code->bytes_offset + m.code->bytes.size() + 2 + 8 * m.code->exception_table.size();
    seed.code_ranges.emplace_back(m.code->offset, end);
  }
  return seed;
}

std::vector<Seed> seeds() {
  std::vector<Seed> out;
  const std::filesystem::path dir = std::filesystem::path(REFRACT_FIXTURE_CLASSES) / "ir";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());  // the same order on every file system
  for (const auto& file : files) out.push_back(make_seed(file.string(), testing::read_file(file)));
  if (const auto home = testing::find_jdk17()) {
    ClassPath path;
    path.add_jdk(*home);
    for (const char* name : {"java/util/HashMap", "java/lang/invoke/StringConcatFactory",
                             "java/util/concurrent/ConcurrentHashMap"}) {
      const auto bytes = path.read(name);
      if (bytes) out.push_back(make_seed(bytes->origin, bytes->bytes));
    }
  }
  return out;
}

std::vector<std::uint8_t> mutate(const Seed& seed, Random& random) {
  std::vector<std::uint8_t> bytes = seed.bytes;
  const std::size_t edits = 1 + random.below(4);
  for (std::size_t e = 0; e < edits; ++e) {
    std::size_t at;
    if (!seed.code_ranges.empty() && random.below(10) < 8) {
      const auto& [start, end] = seed.code_ranges[random.below(seed.code_ranges.size())];
      at = start + random.below(end - start);
    } else {
      at = random.below(bytes.size());
    }
    switch (random.below(4)) {
      case 0:
        bytes[at] = static_cast<std::uint8_t>(random.next());
        break;
      case 1:
        bytes[at] ^= static_cast<std::uint8_t>(1u << random.below(8));
        break;
      case 2:  // an opcode that moves the stack or control flow
        bytes[at] =
            std::array<std::uint8_t, 12>{0x57, 0x58, 0x59, 0x5a, 0x5b, 0x5c,
                                         0x5d, 0x5e, 0x5f, 0xa7, 0xa8, 0xa9}[random.below(12)];
        break;
      default:
        bytes[at] = static_cast<std::uint8_t>(bytes[at] + 1);
        break;
    }
  }
  return bytes;
}

TEST(IrFuzzTest, MutatedClassesTranslateOrFailCleanly) {
  const std::vector<Seed> inputs = seeds();
  ASSERT_FALSE(inputs.empty());
  Random random(0x1F2E3D4C5B6A7988ull);
  std::size_t parsed = 0;
  std::size_t translated = 0;
  std::size_t rejected = 0;
  const auto start = std::chrono::steady_clock::now();
  const std::size_t mutations = mutation_count();
  for (std::size_t i = 0; i < mutations; ++i) {
    const Seed& seed = inputs[random.below(inputs.size())];
    const std::vector<std::uint8_t> bytes = mutate(seed, random);
    std::optional<ClassFile> cls;
    try {
      cls = parse_class_file(bytes, seed.name);
    } catch (const InputError&) {
      continue;
    }
    ++parsed;
    for (const MethodInfo& m : cls->methods) {
      try {
        const MethodIr ir = build_method_ir(*cls, m);
        ++translated;
        for (const Statement& s : ir.statements) {
          ASSERT_TRUE(s.dst == kNoVar || s.dst < ir.variables.size()) << "mutation " << i;
          for (const Operand& a : s.args) {
            ASSERT_TRUE(!a.is_var() || a.var < ir.variables.size()) << "mutation " << i;
          }
        }
        method_ir_text(ir);  // the printer copes with whatever the builder made
      } catch (const InputError&) {
        ++rejected;
      } catch (const std::exception& e) {
        FAIL() << "mutation " << i << " of " << seed.name << ", method " << m.name << ": "
               << typeid(e).name() << ": " << e.what();
      }
    }
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
