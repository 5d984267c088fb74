// frontend/extractor_snapshot: what is written reads back field for field, and a truncated,
// changed or malformed file is an error naming the file and the byte, never a crash or a
// snapshot that is not the one written (the JDK's cached facts, issue 35).
#include "frontend/extractor_snapshot.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend/fact_schema.hpp"
#include "support/content_hash.hpp"
#include "support/error.hpp"
#include "test_util.hpp"

namespace refract::frontend {
namespace {

using testing::Random;
using testing::TempDir;

constexpr std::size_t kMagicSize = 29;  // "refract extractor snapshot 1\n"
constexpr std::size_t kChecksumSize = 32;

// A snapshot with something in every field: two types, a call site with and one without a
// position, a lambda class, the counts, a site of each list, and a JDK part.
ExtractorSnapshot sample() {
  ExtractorSnapshot s{make_fact_schema(), {}, {"a/A", "a/B"}, {"a/A", "a/B", "a/C"}, {"b/Gone"}};
  FactDatabase& db = s.facts;
  const std::uint64_t a = db.domain("T").intern("a.A");
  const std::uint64_t b = db.domain("T").intern("a.A[]");
  const std::uint64_t m = db.domain("M").intern("<a.A: void m()>");
  const std::uint64_t i = db.domain("I").intern("<a.A: void m()>/a.B.run/0");
  db.domain("I").intern("<jvm>/java.lang.Object.finalize/0");
  db.relation("SubtypeOf").add({b, a});
  db.relation("SubtypeOf").add({a, a});
  db.relation("SubtypeOf").add({a, a});  // repeats are kept as added
  db.relation("CallIn").add({i, m});
  db.mark_jdk_part();
  db.domain("M").intern("<a.B: void n()>");
  ExtractorResumeState& st = s.state;
  st.counts.classes = 3;
  st.counts.methods = 5;
  st.counts.methods_with_code = 4;
  st.counts.instructions = 300;
  st.counts.statements = 120;
  st.counts.lambdas = 1;
  st.counts.string_concats = 2;
  st.counts.unsupported_invokedynamic = {{"<a.A: void m()>", 7, "a bootstrap"}};
  st.counts.dynamic_constants = {{"<a.A: void m()>", 9, "condy"}};
  st.counts.unresolved = {{"<a.B: void n()>", 1, "a/Missing.f"}};
  st.types = {JavaType::object("a.A"), JavaType::array_of(JavaType::object("a.A"))};
  st.lambda_classes["a/A$$Lambda$0"] = {JavaType::object("java.lang.Runnable")};
  st.positions = {{3, 12}, {}};
  st.jvm_objects = true;
  st.jvm_objects_added = true;
  return s;
}

void expect_same(const ExtractorSnapshot& a, const ExtractorSnapshot& b) {
  ASSERT_EQ(a.facts.domains().size(), b.facts.domains().size());
  for (const FactDomain& d : a.facts.domains()) {
    EXPECT_EQ(d.names(), b.facts.domain(d.name()).names()) << d.name();
    EXPECT_EQ(a.facts.jdk_part_size(d.name()), b.facts.jdk_part_size(d.name())) << d.name();
  }
  for (const FactRelation& r : a.facts.relations())
    EXPECT_EQ(r.raw_values(), b.facts.relation(r.name()).raw_values()) << r.name();
  const FactCounts& x = a.state.counts;
  const FactCounts& y = b.state.counts;
  EXPECT_EQ(std::vector<std::size_t>({x.classes, x.methods, x.methods_with_code, x.instructions,
                                      x.statements, x.lambdas, x.string_concats}),
            std::vector<std::size_t>({y.classes, y.methods, y.methods_with_code, y.instructions,
                                      y.statements, y.lambdas, y.string_concats}));
  auto sites = [](const std::vector<UnmodelledSite>& list) {
    std::vector<std::string> out;
    for (const UnmodelledSite& s : list)
      out.push_back(s.method + "|" + std::to_string(s.pc) + "|" + s.what);
    return out;
  };
  EXPECT_EQ(sites(x.unsupported_invokedynamic), sites(y.unsupported_invokedynamic));
  EXPECT_EQ(sites(x.dynamic_constants), sites(y.dynamic_constants));
  EXPECT_EQ(sites(x.unresolved), sites(y.unresolved));
  EXPECT_EQ(a.state.types, b.state.types);
  EXPECT_EQ(a.state.lambda_classes, b.state.lambda_classes);
  ASSERT_EQ(a.state.positions.size(), b.state.positions.size());
  for (std::size_t i = 0; i < a.state.positions.size(); ++i) {
    EXPECT_EQ(a.state.positions[i].pc, b.state.positions[i].pc) << i;
    EXPECT_EQ(a.state.positions[i].line, b.state.positions[i].line) << i;
  }
  EXPECT_EQ(a.state.jvm_objects, b.state.jvm_objects);
  EXPECT_EQ(a.state.jvm_objects_added, b.state.jvm_objects_added);
  EXPECT_EQ(a.queued, b.queued);
  EXPECT_EQ(a.loaded, b.loaded);
  EXPECT_EQ(a.phantoms, b.phantoms);
}

std::string bytes_of(const std::filesystem::path& file) {
  const std::vector<std::uint8_t> bytes = testing::read_file(file);
  return {bytes.begin(), bytes.end()};
}

void write_bytes(const std::filesystem::path& file, const std::string& text) {
  testing::write_file(file, std::vector<std::uint8_t>(text.begin(), text.end()));
}

// The file with its payload replaced and the checksum made to match: what only the parser's
// own checks can refuse.
std::string with_payload(const std::string& file, const std::string& payload) {
  ContentHash hash;
  hash.add(payload);
  return file.substr(0, kMagicSize) + payload + hash.hex();
}

std::string payload_of(const std::string& file) {
  return file.substr(kMagicSize, file.size() - kMagicSize - kChecksumSize);
}

// The error reading `file` gives, "" when it reads.
std::string read_error(const std::filesystem::path& file) {
  try {
    read_extractor_snapshot(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ExtractorSnapshotTest, WhatIsWrittenReadsBackFieldForField) {
  TempDir dir;
  const ExtractorSnapshot written = sample();
  write_extractor_snapshot(dir / "jdk.facts", written);
  expect_same(written, read_extractor_snapshot(dir / "jdk.facts"));
}

TEST(ExtractorSnapshotTest, AResumedExtractorHoldsTheSnapshotsFacts) {
  TempDir dir;
  write_extractor_snapshot(dir / "jdk.facts", sample());
  ExtractorSnapshot read = read_extractor_snapshot(dir / "jdk.facts");
  ClassPath path;
  ClassHierarchy hierarchy(path);
  FactExtractor extractor(hierarchy);
  extractor.resume(std::move(read.facts), read.state);
  ExtractorSnapshot resumed{extractor.facts(), extractor.resume_state(), read.queued, read.loaded,
                            read.phantoms};
  expect_same(sample(), resumed);
}

TEST(ExtractorSnapshotTest, AStateThatDoesNotFitItsFactsIsRefused) {
  ExtractorSnapshot s = sample();
  s.state.types.pop_back();
  ClassPath path;
  ClassHierarchy hierarchy(path);
  FactExtractor extractor(hierarchy);
  EXPECT_THROW(extractor.resume(s.facts, s.state), std::invalid_argument);
  s = sample();
  s.state.types[1] = JavaType::object("a.B");
  EXPECT_THROW(extractor.resume(s.facts, s.state), std::invalid_argument);
  s = sample();
  s.state.positions.pop_back();
  EXPECT_THROW(extractor.resume(s.facts, s.state), std::invalid_argument);
}

TEST(ExtractorSnapshotTest, ATruncatedFileIsAnErrorAtAByte) {
  TempDir dir;
  write_extractor_snapshot(dir / "jdk.facts", sample());
  const std::string full = bytes_of(dir / "jdk.facts");
  for (std::size_t size : {std::size_t{0}, std::size_t{10}, kMagicSize, kMagicSize + 5,
                           full.size() / 2, full.size() - 1}) {
    SCOPED_TRACE(size);
    write_bytes(dir / "cut.facts", full.substr(0, size));
    const std::string error = read_error(dir / "cut.facts");
    EXPECT_NE(error.find((dir / "cut.facts").string()), std::string::npos) << error;
    EXPECT_NE(error.find("at byte "), std::string::npos) << error;
  }
}

TEST(ExtractorSnapshotTest, AChangedByteFailsTheChecksum) {
  TempDir dir;
  write_extractor_snapshot(dir / "jdk.facts", sample());
  std::string bytes = bytes_of(dir / "jdk.facts");
  bytes[kMagicSize + 40] ^= 0x01;
  write_bytes(dir / "changed.facts", bytes);
  EXPECT_NE(read_error(dir / "changed.facts").find("the checksum does not match the contents"),
            std::string::npos);
}

TEST(ExtractorSnapshotTest, AValueOutsideItsDomainIsRefused) {
  TempDir dir;
  ExtractorSnapshot s = sample();
  s.facts.relation("CallIn").add({7, 0});  // I has two elements
  write_extractor_snapshot(dir / "bad.facts", s);
  EXPECT_NE(read_error(dir / "bad.facts").find("a value of relation CallIn is outside its domain"),
            std::string::npos)
      << read_error(dir / "bad.facts");
}

// Mutations behind a matching checksum: each is refused with the file and a byte, or reads;
// none crashes.
TEST(ExtractorSnapshotTest, MutatedPayloadsAreRefusedOrReadNeverCrash) {
  TempDir dir;
  write_extractor_snapshot(dir / "jdk.facts", sample());
  const std::string full = bytes_of(dir / "jdk.facts");
  const std::string payload = payload_of(full);
  Random random(35);
  int refused = 0;
  for (int round = 0; round < 300; ++round) {
    std::string mutated = payload;
    switch (random.below(3)) {
      case 0:
        mutated[random.below(mutated.size())] = static_cast<char>(random.next());
        break;
      case 1:
        mutated.erase(random.below(mutated.size()), 1 + random.below(8));
        break;
      default:
        mutated.insert(random.below(mutated.size()), 1 + random.below(4),
                       static_cast<char>(random.next()));
    }
    write_bytes(dir / "mutated.facts", with_payload(full, mutated));
    const std::string error = read_error(dir / "mutated.facts");
    if (error.empty()) continue;
    ++refused;
    EXPECT_NE(error.find("at byte "), std::string::npos) << error;
  }
  EXPECT_GT(refused, 150) << "most mutations break the format";
}

}  // namespace
}  // namespace refract::frontend
