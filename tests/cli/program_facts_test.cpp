// The JDK's part of a program's facts (issue 35, stable numbers): what the JVM's start-up
// reaches is read first, so its elements have the same numbers whatever the program, and the
// tuples among them are those of the JDK's part read alone. A cached fixpoint of the JDK's
// start-up work is only reusable across programs if this holds.
#include "cli/program_facts.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "frontend/class_path.hpp"

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

}  // namespace
}  // namespace refract::cli
