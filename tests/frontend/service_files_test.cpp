// META-INF/services files: found in jars and class folders of the class path
// (ClassPath::service_files) and read line by line (parse_service_file).
#include "frontend/service_files.hpp"

#include <gtest/gtest.h>

#include "frontend/class_path.hpp"
#include "frontend/test_util.hpp"

namespace refract::frontend {
namespace {

using testing::TempDir;
using testing::text_bytes;
using testing::write_file;
using testing::write_zip;

std::vector<std::string> provider_names(const ServiceProviders& read) {
  std::vector<std::string> names;
  for (const ServiceProvider& p : read.providers) names.push_back(p.provider);
  return names;
}

TEST(ServiceFilesTest, CommentsBlanksAndSurroundingWhitespaceAreIgnored) {
  const ServiceProviders read = parse_service_file(
      "a.Service",
      "# providers\n\n  a.One  \r\n\ta.b.Two$Inner # nested\n   # only a comment\na.One\n"
      "a.\xc3\xa9t\xc3\xa9.Three",
      "x.jar!META-INF/services/a.Service");
  EXPECT_TRUE(read.warnings.empty());
  EXPECT_EQ(provider_names(read),
            (std::vector<std::string>{"a.One", "a.b.Two$Inner", "a.\xc3\xa9t\xc3\xa9.Three"}));
  ASSERT_EQ(read.providers.size(), 3u);
  EXPECT_EQ(read.providers[0].service, "a.Service");
  EXPECT_EQ(read.providers[1].where.to_string(), "x.jar!META-INF/services/a.Service:4:2");
}

TEST(ServiceFilesTest, MalformedNamesAreWarningsAtTheirLineAndColumn) {
  const ServiceProviders read = parse_service_file(
      "a.Service", "a.Good\n  a.Two Words\n1a.Bad\na..Empty\na/Slash\na.Dot.\na.Ok\n", "f");
  EXPECT_EQ(provider_names(read), (std::vector<std::string>{"a.Good", "a.Ok"}));
  std::vector<std::string> where;
  for (const ServiceWarning& w : read.warnings) where.push_back(w.to_string().substr(0, 6));
  EXPECT_EQ(where, (std::vector<std::string>{"f:2:3:", "f:3:1:", "f:4:1:", "f:5:1:", "f:6:1:"}));
  EXPECT_NE(read.warnings[0].message.find("\"a.Two Words\""), std::string::npos);
}

TEST(ServiceFilesTest, ABadServiceNameIsOneWarningForTheFile) {
  const ServiceProviders read = parse_service_file("not a name", "a.One\n", "f");
  EXPECT_TRUE(read.providers.empty());
  ASSERT_EQ(read.warnings.size(), 1u);
  EXPECT_EQ(read.warnings[0].where.to_string(), "f");
}

TEST(ServiceFilesTest, ClassPathListsTheServiceFilesOfJarsAndFolders) {
  TempDir dir;
  write_zip(dir / "a.jar", {{"META-INF/services/s.Two", text_bytes("p.B\n")},
                            {"META-INF/services/s.One", text_bytes("p.A\n")},
                            {"META-INF/services/", text_bytes("")},
                            {"META-INF/services/sub/s.Three", text_bytes("p.C\n")}});
  write_file(dir / "classes" / "META-INF" / "services" / "s.One", text_bytes("p.D\n"));
  ClassPath path;
  path.add(dir / "a.jar");
  path.add(dir / "classes");
  const std::vector<ServiceFile> files = path.service_files();
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].origin, (dir / "a.jar").string() + "!META-INF/services/s.One");
  EXPECT_EQ(files[0].service, "s.One");
  EXPECT_EQ(files[1].service, "s.Two");
  EXPECT_EQ(std::string(files[1].bytes.begin(), files[1].bytes.end()), "p.B\n");
  EXPECT_EQ(files[2].origin, (dir / "classes" / "META-INF/services/s.One").string());
  EXPECT_FALSE(path.contains("META-INF/services/s"));
}

}  // namespace
}  // namespace refract::frontend
