// Writing the fact database (frontend/fact_database.hpp): the domains' declared sizes and the
// tuples files' headers, with and without the room a JDK cache entry fixes.
#include "frontend/fact_database.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "frontend/test_util.hpp"

namespace refract::frontend {
namespace {

using testing::TempDir;

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

FactDatabase three_vars() {
  FactDatabase facts;
  FactDomain& vars = facts.add_domain("V", "variables");
  for (const char* v : {"a", "b", "c"}) vars.intern(v);
  facts.add_relation("Used", {{"var", "V"}}, "variables used").add({2});
  return facts;
}

TEST(WriteFactDatabaseTest, DeclaresEachDomainWithItsElements) {
  TempDir dir;
  write_fact_database(three_vars(), dir.path());
  EXPECT_NE(read_file(dir.path() / "facts.datalog").find("\nV 3 V.map\n"), std::string::npos);
  EXPECT_EQ(read_file(dir.path() / "Used.tuples"), "# V0:2\n2\n");
}

// A JDK cache entry's layout (cli/jdk_cache.hpp, domain_room): the domain is declared with its
// room, and the headers give the room's bits; the map names only the domain's own elements.
TEST(WriteFactDatabaseTest, DeclaresADomainWithItsRoomWhereTheRoomIsLarger) {
  TempDir dir;
  write_fact_database(three_vars(), dir.path(), {{"V", 16}});
  EXPECT_NE(read_file(dir.path() / "facts.datalog").find("\nV 16 V.map\n"), std::string::npos);
  EXPECT_EQ(read_file(dir.path() / "Used.tuples"), "# V0:4\n2\n");
  EXPECT_EQ(read_file(dir.path() / "V.map"), "a\nb\nc\n");
  // Less room than elements: the elements win.
  write_fact_database(three_vars(), dir.path(), {{"V", 2}});
  EXPECT_NE(read_file(dir.path() / "facts.datalog").find("\nV 3 V.map\n"), std::string::npos);
}

}  // namespace
}  // namespace refract::frontend
