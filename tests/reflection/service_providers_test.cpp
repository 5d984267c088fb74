// Which services the front end reads the JDK modules' providers for
// (reflection::services_given_to_service_loader): the class literals code gives ServiceLoader,
// directly, through copies, or through one method that passes its Class parameter on; not a
// literal given to anything else. Facts made by hand.
#include "reflection/service_providers.hpp"

#include <gtest/gtest.h>

namespace refract::reflection {
namespace {

struct HandFacts {
  frontend::FactDatabase db;

  HandFacts() {
    for (const char* d : {"M", "Z", "T", "V", "I"}) db.add_domain(d, d);
    db.add_relation("Assign", {{"to", "V"}, {"from", "V"}}, "");
    db.add_relation("ClassConstant", {{"var", "V"}, {"type", "T"}}, "");
    db.add_relation("FormalParam", {{"method", "M"}, {"index", "Z"}, {"var", "V"}}, "");
    db.add_relation("DeclaredTarget", {{"invoke", "I"}, {"method", "M"}}, "");
    db.add_relation("ActualArg", {{"invoke", "I"}, {"index", "Z"}, {"var", "V"}}, "");
  }
  std::uint64_t id(const char* domain, const std::string& name) {
    return db.domain(domain).intern(name);
  }
  void literal(const std::string& var, const std::string& type) {
    db.relation("ClassConstant").add({id("V", var), id("T", type)});
  }
  void assign(const std::string& to, const std::string& from) {
    db.relation("Assign").add({id("V", to), id("V", from)});
  }
  void call(const std::string& invoke, const std::string& method, const std::string& index,
            const std::string& var) {
    db.relation("DeclaredTarget").add({id("I", invoke), id("M", method)});
    db.relation("ActualArg").add({id("I", invoke), id("Z", index), id("V", var)});
  }
  void parameter(const std::string& method, const std::string& index, const std::string& var) {
    db.relation("FormalParam").add({id("M", method), id("Z", index), id("V", var)});
  }
};

const char* const kLoad =
    "<java.util.ServiceLoader: java.util.ServiceLoader load(java.lang.Class)>";
const char* const kLoadWithLoader =
    "<java.util.ServiceLoader: java.util.ServiceLoader "
    "load(java.lang.Class,java.lang.ClassLoader)>";
const char* const kLoadInLayer =
    "<java.util.ServiceLoader: java.util.ServiceLoader "
    "load(java.lang.ModuleLayer,java.lang.Class)>";
const char* const kHelper = "<a.Helper: java.lang.Iterable providers(java.lang.Class)>";

TEST(ServicesGivenToServiceLoaderTest, LiteralsGivenDirectlyOrThroughOneHelper) {
  HandFacts f;
  f.literal("main/$0", "a.Direct");  // ServiceLoader.load(Direct.class), through a copy
  f.assign("main/$1", "main/$0");
  f.call("main/load/0", kLoad, "1", "main/$1");
  f.parameter(kHelper, "1", "helper/service");  // providers(Forwarded.class)
  f.assign("helper/$0", "helper/service");
  f.call("helper/load/0", kLoadWithLoader, "1", "helper/$0");
  f.literal("main/$2", "a.Forwarded");
  f.call("main/providers/0", kHelper, "1", "main/$2");
  f.literal("main/$3", "a.Layered");  // the layer's overload takes the service second
  f.literal("main/$4", "a.NotAService");
  f.call("main/load/1", kLoadInLayer, "2", "main/$3");
  f.db.relation("ActualArg").add({f.id("I", "main/load/1"), f.id("Z", "1"), f.id("V", "main/$4")});
  f.literal("main/$5", "a.OnlyNamed");  // given to another method
  f.call("main/take/0", "<a.Other: void take(java.lang.Class)>", "1", "main/$5");

  const std::set<std::string> expected = {"a.Direct", "a.Forwarded", "a.Layered"};
  EXPECT_EQ(services_given_to_service_loader(f.db), expected);
}

TEST(ServicesGivenToServiceLoaderTest, NoServiceLoaderCallNoService) {
  HandFacts f;
  f.literal("main/$0", "a.Named");
  f.call("main/take/0", "<a.Other: void take(java.lang.Class)>", "1", "main/$0");
  EXPECT_TRUE(services_given_to_service_loader(f.db).empty());
}

}  // namespace
}  // namespace refract::reflection
