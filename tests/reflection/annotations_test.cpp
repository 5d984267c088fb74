#include "reflection/annotations.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli/run_refract.hpp"

namespace refract::reflection {
namespace {

const std::string kSite =
    "<antlr.Utils: java.lang.Object createInstanceOf(java.lang.String)>/"
    "java.lang.Class.newInstance/0";

SourceLocation annotation_error_at(const std::string& text) {
  try {
    parse_annotations(text, "notes.txt");
  } catch (const InputError& e) {
    return e.where();
  }
  ADD_FAILURE() << "no InputError for: " << text;
  return {};
}

std::string annotation_error_message(const std::string& text) {
  try {
    parse_annotations(text, "notes.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(AnnotationsTest, ReadsEveryKindAndSkipsCommentsAndBlankLines) {
  const auto annotations = parse_annotations(
      "# antlr's code generator, by name from the command line\n"
      "\n"
      "   \t\n" +
          kSite + "\tconstructor\t<antlr.JavaCodeGenerator: void <init>()>\n" +
          "  # indented comment\n" + kSite + "\tclass\tantlr.JavaCodeGenerator\r\n" +
          "<a.B: void m()>/java.lang.reflect.Method.invoke/0\tmethod\t<a.'to'.C: int f(int[])>\n" +
          "<a.B: void m()>/java.lang.reflect.Field.get/1\tfield\t<a.C: int[] count>\n" +
          "<a.B: void m()>/java.lang.Class.forName/0\tnever\n",
      "notes.txt");
  ASSERT_EQ(annotations.size(), 5u);
  EXPECT_EQ(annotations[0].site, kSite);
  EXPECT_EQ(annotations[0].kind, AnnotationKind::kConstructor);
  EXPECT_EQ(annotations[0].target, "<antlr.JavaCodeGenerator: void <init>()>");
  EXPECT_EQ(annotations[0].where.to_string(), "notes.txt:4:1");
  EXPECT_EQ(annotations[0].kind_where.column, kSite.size() + 2);
  EXPECT_EQ(annotations[0].target_where.column, kSite.size() + 2 + 12);
  EXPECT_EQ(annotations[1].kind, AnnotationKind::kClass);
  EXPECT_EQ(annotations[1].target, "antlr.JavaCodeGenerator");
  EXPECT_EQ(annotations[1].where.line, 6u);
  EXPECT_EQ(annotations[2].kind, AnnotationKind::kMethod);
  EXPECT_EQ(annotations[3].kind, AnnotationKind::kField);
  EXPECT_EQ(annotations[4].kind, AnnotationKind::kNever);
  EXPECT_TRUE(annotations[4].target.empty());
}

TEST(AnnotationsTest, SiteIsNormalisedToTheFactsSpelling) {
  const auto annotations =
      parse_annotations("<a.to.B: void run()>/java.lang.Class.forName/0\tnever\n", "notes.txt");
  ASSERT_EQ(annotations.size(), 1u);
  EXPECT_EQ(annotations[0].site, "<a.'to'.B: void run()>/java.lang.Class.forName/0");
}

TEST(AnnotationsTest, UnknownKindIsLocated) {
  const auto where = annotation_error_at(kSite + "\tclasses\ta.B\n");
  EXPECT_EQ(where.line, 1u);
  EXPECT_EQ(where.column, kSite.size() + 2);
  EXPECT_NE(annotation_error_message(kSite + "\tclasses\ta.B\n")
                .find("unknown annotation kind 'classes'"),
            std::string::npos);
}

TEST(AnnotationsTest, MissingAndExtraTargetsAreLocated) {
  const std::string missing = kSite + "\tclass\n";
  EXPECT_EQ(annotation_error_at(missing).column, missing.size());
  EXPECT_EQ(annotation_error_at(kSite + "\tclass\t\n").column, kSite.size() + 8);
  EXPECT_EQ(annotation_error_at(kSite + "\tnever\ta.B\n").column, kSite.size() + 7);
  EXPECT_EQ(annotation_error_at(kSite + "\tclass\ta.B\textra\n").column, kSite.size() + 11);
}

TEST(AnnotationsTest, WrongSeparatorsAreLocated) {
  // Spaces instead of a TAB: the whole line is one field.
  const std::string spaces = kSite + " class a.B";
  EXPECT_EQ(annotation_error_at(spaces + "\n").column, spaces.size() + 1);
  EXPECT_EQ(annotation_error_at(kSite + "\t\tclass\ta.B\n").column, kSite.size() + 2);
  EXPECT_NE(annotation_error_message(kSite + "\t\tclass\ta.B\n").find("empty KIND"),
            std::string::npos);
}

TEST(AnnotationsTest, MalformedSitesAndTargetsAreLocated) {
  EXPECT_EQ(annotation_error_at("<a.B: void m()>/java.lang.Class.forName\tnever\n").column, 40u);
  EXPECT_EQ(annotation_error_at("<a.B void m()>/java.lang.Class.forName/0\tnever\n").column, 5u);
  const std::size_t target = kSite.size() + 2 + 6;
  EXPECT_EQ(annotation_error_at(kSite + "\tclass\ta..B\n").column, target + 2);
  EXPECT_EQ(annotation_error_at(kSite + "\tfield\t<a.B: int m()>\n").column, target);
  EXPECT_NE(
      annotation_error_message(kSite + "\tmethod\t<a.B: void <init>()>\n").find("kind constructor"),
      std::string::npos);
  EXPECT_NE(annotation_error_message(kSite + "\tconstructor\t<a.B: void m()>\n").find("<init>"),
            std::string::npos);
  EXPECT_NE(annotation_error_message(kSite + "\tmethod\t<a.B: int f>\n").find("found a field"),
            std::string::npos);
  EXPECT_EQ(annotation_error_message("<a.B: void m()>/java.lang.Class.forName/x\tnever\n")
                .rfind("notes.txt:1:41: malformed SITE", 0),
            0u);
}

TEST(AnnotationsTest, ReadsAFileAndRefusesAMissingOne) {
  test::TempDir dir;
  {
    std::ofstream out(dir / "notes.txt");
    out << kSite << "\tnever\n";
  }
  EXPECT_EQ(read_annotations(dir / "notes.txt").size(), 1u);
  EXPECT_THROW(read_annotations(dir / "missing.txt"), InputError);
}

}  // namespace
}  // namespace refract::reflection
