// The JDK's part of a program's facts (issue 35, stable numbers): what the JVM's start-up
// reaches is read first, so its elements have the same numbers whatever the program, and the
// tuples among them are those of the JDK's part read alone. A cached fixpoint of the JDK's
// start-up work is only reusable across programs if this holds.
#include "cli/program_facts.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "cli/jdk_facts_cache.hpp"
#include "cli/run_refract.hpp"
#include "frontend/class_path.hpp"
#include "frontend/extractor_snapshot.hpp"
#include "pointsto/small_jdk.hpp"

namespace refract::cli {
namespace {

using Tuples = std::set<std::vector<std::uint64_t>>;

// The tuples of `relation` whose every element is in the JDK's part of `facts`.
Tuples jdk_tuples(const frontend::FactDatabase& facts, const frontend::FactRelation& relation) {
  Tuples out;
  for (const auto& t : relation.sorted_tuples()) {
    bool in_part = true;
    for (std::size_t i = 0; i < t.size() && in_part; ++i)
      in_part = t[i] < facts.jdk_part_size(relation.attributes()[i].domain);
    if (in_part) out.insert(t);
  }
  return out;
}

ClassPathArguments fixture_class_path() {
  ClassPathArguments args;
  args.entries = {REFRACT_FIXTURE_CLASSES};
  const auto jdk = frontend::find_default_jdk();
  if (!jdk) throw std::runtime_error("no JDK 17 with jmods (scripts/setup-debian.sh installs it)");
  args.jdk = jdk->string();
  return args;
}

// Two programs that add JDK subclasses, arrays of JDK types, strings and threads of their own.
TEST(JdkPartTest, EveryProgramNumbersTheJdkPartAsTheJdkAloneDoes) {
  const ClassPathArguments class_path = fixture_class_path();
  const auto alone = extract_jdk_part(class_path, nullptr);
  const frontend::FactDatabase& jdk = alone->extractor->facts();
  ASSERT_GT(jdk.jdk_part_size("M"), 1000u) << "the JVM's start-up reaches thousands of methods";
  ASSERT_EQ(jdk.relation("EntryMethod").raw_size(), 0u);
  for (const std::string main : {"pointsto.threads.Main", "pointsto.arrays.Main"}) {
    SCOPED_TRACE(main);
    const auto program = extract_program(class_path, main, nullptr);
    const frontend::FactDatabase& facts = program->extractor->facts();
    for (const frontend::FactDomain& d : jdk.domains()) {
      SCOPED_TRACE(d.name());
      const std::uint64_t part = jdk.jdk_part_size(d.name());
      ASSERT_EQ(part, d.size());
      ASSERT_EQ(facts.jdk_part_size(d.name()), part);
      const std::vector<std::string>& names = facts.domain(d.name()).names();
      ASSERT_GE(names.size(), part);
      EXPECT_TRUE(std::equal(d.names().begin(), d.names().end(), names.begin()));
    }
    std::size_t program_methods = facts.domain("M").size() - facts.jdk_part_size("M");
    EXPECT_GT(program_methods, 0u);
    for (const frontend::FactRelation& r : jdk.relations()) {
      SCOPED_TRACE(r.name());
      EXPECT_EQ(jdk_tuples(facts, facts.relation(r.name())), jdk_tuples(jdk, r));
    }
  }
}

// Every domain, every relation's tuples as added, the call sites' positions and the counts.
void expect_same_facts(const ExtractedProgram& a, const ExtractedProgram& b) {
  const frontend::FactDatabase& x = a.extractor->facts();
  const frontend::FactDatabase& y = b.extractor->facts();
  for (const frontend::FactDomain& d : x.domains()) {
    EXPECT_EQ(d.names(), y.domain(d.name()).names()) << d.name();
    EXPECT_EQ(x.jdk_part_size(d.name()), y.jdk_part_size(d.name())) << d.name();
  }
  for (const frontend::FactRelation& r : x.relations())
    EXPECT_EQ(r.raw_values(), y.relation(r.name()).raw_values()) << r.name();
  const auto& p = a.extractor->invocation_positions();
  const auto& q = b.extractor->invocation_positions();
  ASSERT_EQ(p.size(), q.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(p[i].pc, q[i].pc) << i;
    EXPECT_EQ(p[i].line, q[i].line) << i;
  }
  const frontend::FactCounts& c = a.extractor->counts();
  const frontend::FactCounts& d = b.extractor->counts();
  EXPECT_EQ(std::vector<std::size_t>({c.classes, c.methods, c.methods_with_code, c.instructions,
                                      c.statements, c.lambdas, c.unresolved.size()}),
            std::vector<std::size_t>({d.classes, d.methods, d.methods_with_code, d.instructions,
                                      d.statements, d.lambdas, d.unresolved.size()}));
}

// The real JDK's start-up part (lambdas, modules, no phantoms), written once and gone on from.
TEST(JdkFactsCacheTest, AProgramGoingOnFromTheCachedJdkPartHasTheFactsOfOneRead) {
  const ClassPathArguments class_path = fixture_class_path();
  const std::string main = "pointsto.threads.Main";
  test::TempDir dir;
  // Writing the cache leaves the read as it is: this one reads the JDK's classes itself.
  JdkFactsCache first = jdk_facts_cache(class_path, dir.path());
  const auto read = extract_program(class_path, main, nullptr, {}, &first);
  EXPECT_EQ(first.status, "written");
  JdkFactsCache second = jdk_facts_cache(class_path, dir.path());
  const auto resumed = extract_program(class_path, main, nullptr, {}, &second);
  ASSERT_EQ(second.status, "read");
  EXPECT_GT(resumed->extractor->counts().lambdas, 0u);
  expect_same_facts(*read, *resumed);
}

// The small JDK's part names classes it lacks. A class path that has one of them makes the
// part read more than the JDK alone: the cached facts do not serve it, and are kept.
TEST(JdkFactsCacheTest, AClassPathWithAClassTheJdkPartLacksReadsTheJdkItself) {
  ClassPathArguments class_path;
  class_path.entries = {REFRACT_FIXTURE_CLASSES};
  class_path.jdk = test::small_jdk().string();
  const std::string main = "pointsto.threads.Main";
  test::TempDir dir;
  JdkFactsCache first = jdk_facts_cache(class_path, dir.path() / "cache");
  extract_program(class_path, main, nullptr, {}, &first);
  ASSERT_EQ(first.status, "written");
  const std::vector<std::string> phantoms = frontend::read_extractor_snapshot(first.file).phantoms;
  ASSERT_FALSE(phantoms.empty());
  // One of them, from the machine's JDK, into a class folder of the class path.
  frontend::ClassPath real;
  real.add_jdk(*frontend::find_default_jdk());
  const auto bytes = real.read(phantoms.front());
  ASSERT_TRUE(bytes) << phantoms.front();
  const std::filesystem::path file = dir.path() / "classes" / (phantoms.front() + ".class");
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes->bytes.data()),
             static_cast<std::streamsize>(bytes->bytes.size()));
  class_path.entries.push_back((dir.path() / "classes").string());

  const auto plain = extract_program(class_path, main, nullptr);
  JdkFactsCache second = jdk_facts_cache(class_path, dir.path() / "cache");
  const auto read = extract_program(class_path, main, nullptr, {}, &second);
  EXPECT_EQ(second.status, "off: the class path has " + phantoms.front() +
                               ", which the JDK's start-up part names and the JDK lacks");
  expect_same_facts(*plain, *read);
  EXPECT_EQ(frontend::read_extractor_snapshot(first.file).phantoms, phantoms);
}

}  // namespace
}  // namespace refract::cli
