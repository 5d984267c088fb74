// Golden tests of the facts of each bytecode family (tests/fixtures/java/ir/*.java, with the
// JDK 17 from its jmods): every tuple that names an element of the family, written as
// `Relation(element, ...)` lines in sorted order (tests/data/frontend/facts/*.facts). A golden
// file starts with '#' comment lines saying what to look for in it.
//
// After a deliberate change of the facts, REFRACT_UPDATE_GOLDEN=1 rewrites the files (keeping
// their comments); read the diff before committing it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/class_path.hpp"
#include "frontend/fact_extractor.hpp"
#include "frontend/hierarchy.hpp"
#include "frontend/program_scope.hpp"
#include "frontend/test_util.hpp"

namespace refract::frontend {
namespace {

namespace fs = std::filesystem;

const fs::path kFactGoldenDir = fs::path(REFRACT_TEST_DATA) / "frontend" / "facts";

// The facts of every class of the ir fixture package and what it reaches, extracted once.
struct Extraction {
  ClassPath path;
  std::unique_ptr<ClassHierarchy> hierarchy;
  std::unique_ptr<FactExtractor> extractor;
};

const Extraction& extraction() {
  static const std::unique_ptr<Extraction> done = [] {
    auto e = std::make_unique<Extraction>();
    const auto jdk = find_default_jdk();
    if (!jdk)
      throw std::runtime_error("no JDK 17 with jmods (scripts/setup-debian.sh installs it)");
    e->path.add_jdk(*jdk);
    e->path.add(REFRACT_FIXTURE_CLASSES);
    e->hierarchy = std::make_unique<ClassHierarchy>(e->path);
    e->extractor = std::make_unique<FactExtractor>(*e->hierarchy);
    ProgramScope scope(*e->hierarchy, false);
    for (const std::string& name : e->path.class_names(false)) {
      if (name.starts_with("ir/")) scope.add_root(name);
    }
    scope.run([&](const ClassFile& cls,
                  const std::vector<MethodIr>& ir) { e->extractor->add_class(cls, ir); },
              nullptr);
    e->extractor->finish();
    return e;
  }();
  return *done;
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '$';
}

// Whether `element` names something of class ir.FAMILY or one of its nested classes: the
// name occurs with no name character before it and none but '$' or '.' after it.
bool names_family(const std::string& element, const std::string& family) {
  const std::string name = "ir." + family;
  for (std::size_t at = element.find(name); at != std::string::npos;
       at = element.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    const bool starts = at == 0 || !is_name_char(element[at - 1]);
    const bool ends = end == element.size() || element[end] == '$' || element[end] == '.' ||
                      !is_name_char(element[end]);
    // "ir.Nested.field" cannot occur (fields are <ir.Nested: T f>), so '.' after the name is
    // a method name in an invocation site "<...>/ir.Nested.get/0".
    if (starts && ends) return true;
  }
  return false;
}

// Every tuple that names an element of `family`, as sorted `Relation(a, b)` lines. Elements
// are tested once per domain, not once per tuple: the JDK's tables have millions of tuples.
std::string family_facts(const std::string& family) {
  const FactDatabase& db = extraction().extractor->facts();
  std::map<std::string, std::vector<bool>> in_family;
  for (const FactDomain& d : db.domains()) {
    std::vector<bool>& marks = in_family[d.name()];
    for (const std::string& element : d.names()) marks.push_back(names_family(element, family));
  }
  std::set<std::string> lines;
  for (const FactRelation& r : db.relations()) {
    for (const auto& tuple : r.sorted_tuples()) {
      bool mentions = false;
      for (std::size_t i = 0; i < tuple.size() && !mentions; ++i) {
        mentions = in_family[r.attributes()[i].domain][tuple[i]];
      }
      if (!mentions) continue;
      std::string line = r.name() + "(";
      for (std::size_t i = 0; i < tuple.size(); ++i) {
        line +=
            (i > 0 ? ", " : "") + map_line(db.domain(r.attributes()[i].domain).names()[tuple[i]]);
      }
      lines.insert(line + ")");
    }
  }
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

// One test for all families: the extraction reads a few thousand JDK classes, and ctest runs
// each test in a process of its own.
TEST(FactGoldenTest, EachFamilyMatchesItsGoldenFile) {
  for (const std::string family :
       {"Simple", "Lambdas", "Concat", "Switches", "TryCatch", "Nested", "Point", "Shape", "Bridge",
        "Arrays", "StaticInit", "SlotReuse", "Wide"}) {
    SCOPED_TRACE(family);
    const fs::path path = kFactGoldenDir / (family + ".facts");
    const std::string actual = family_facts(family);
    auto [comments, expected] = testing::split_golden(path);
    if (std::getenv("REFRACT_UPDATE_GOLDEN") != nullptr) {
      fs::create_directories(kFactGoldenDir);
      std::ofstream(path) << comments << actual;
      expected = actual;
    }
    EXPECT_FALSE(comments.empty()) << path << " needs a comment header";
    EXPECT_EQ(actual, expected) << "golden file " << path;
  }
}

// The filter itself: nested classes and invocation sites count, longer names do not.
TEST(FactGoldenFilterTest, NamesFamilyMatchesWholeClassNamesOnly) {
  EXPECT_TRUE(names_family("<ir.Nested: void <init>()>", "Nested"));
  EXPECT_TRUE(names_family("ir.Nested$1Local", "Nested"));
  EXPECT_TRUE(names_family("<ir.Simple: void m()>/ir.Nested.get/0", "Nested"));
  EXPECT_TRUE(names_family("ir.Nested[]", "Nested"));
  EXPECT_FALSE(names_family("ir.NestedMore", "Nested"));
  EXPECT_FALSE(names_family("java.util.Arrays", "Arrays"));
  EXPECT_FALSE(names_family("<a.dir.Arrays: void m()>", "Arrays"));
}

}  // namespace
}  // namespace refract::frontend
