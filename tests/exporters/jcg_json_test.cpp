// callgraph.json parsed back and checked against the JCG shape.
#include "exporters/jcg_json.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "exporters/json_reader.hpp"

namespace refract::exporters {
namespace {

using test::JsonReader;
using test::JsonValue;

CallGraph small_graph() {
  CallGraph g;
  g.reachable_methods = {"<a.Main: void main(java.lang.String[])>", "<a.Sub: int f(long)>",
                         "<a.Super: int f(long)>"};
  const std::string site = "<a.Main: void main(java.lang.String[])>/a.Super.f/0";
  g.edges = {{site, "<a.Sub: int f(long)>"}, {site, "<a.Super: int f(long)>"}};
  g.sites[site] = {"<a.Main: void main(java.lang.String[])>", "<a.Super: int f(long)>", 12, 7};
  return g;
}

void expect_method(const JsonValue& m, const std::string& name, const std::string& cls,
                   const std::string& ret, const std::vector<std::string>& params) {
  ASSERT_TRUE(m.is_object());
  EXPECT_EQ(m.object().size(), 4U);
  EXPECT_EQ(m.at("name").string(), name);
  EXPECT_EQ(m.at("declaringClass").string(), cls);
  EXPECT_EQ(m.at("returnType").string(), ret);
  std::vector<std::string> actual;
  for (const JsonValue& p : m.at("parameterTypes").array()) actual.push_back(p.string());
  EXPECT_EQ(actual, params);
}

TEST(JcgJsonTest, ParsesBackWithEveryReachableMethodAndItsCallSites) {
  std::ostringstream out;
  write_jcg_json(out, small_graph());
  const JsonValue doc = JsonReader(out.str()).document();
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc.object().size(), 1U);
  const auto& methods = doc.at("reachableMethods").array();
  ASSERT_EQ(methods.size(), 3U);
  expect_method(methods[0].at("method"), "main", "La/Main;", "V", {"[Ljava/lang/String;"});
  const auto& sites = methods[0].at("callSites").array();
  ASSERT_EQ(sites.size(), 1U);
  expect_method(sites[0].at("declaredTarget"), "f", "La/Super;", "I", {"J"});
  EXPECT_EQ(sites[0].at("line").number(), 12);
  EXPECT_EQ(sites[0].at("pc").number(), 7);
  const auto& targets = sites[0].at("targets").array();
  ASSERT_EQ(targets.size(), 2U);
  expect_method(targets[0], "f", "La/Sub;", "I", {"J"});
  expect_method(targets[1], "f", "La/Super;", "I", {"J"});
  EXPECT_TRUE(methods[1].at("callSites").array().empty());
}

TEST(JcgJsonTest, EmptyGraphIsAnEmptyList) {
  std::ostringstream out;
  write_jcg_json(out, CallGraph{});
  const JsonValue doc = JsonReader(out.str()).document();
  EXPECT_TRUE(doc.at("reachableMethods").array().empty());
}

}  // namespace
}  // namespace refract::exporters
