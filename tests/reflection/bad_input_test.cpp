// Hostile TamiFlex logs and annotation files: truncated lines, wrong separators, huge numbers,
// binary garbage and random edits of real log lines. Each must read, or be refused with an
// InputError naming the file, a line and a column; nothing else may happen. What reads must
// also write and read back (the writer takes whatever the reader accepts).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli/run_refract.hpp"
#include "reflection/annotations.hpp"
#include "reflection/reflective_targets.hpp"
#include "reflection/small_program.hpp"
#include "reflection/tamiflex_log.hpp"
#include "support/text_mutation.hpp"

namespace refract::reflection {
namespace {

namespace fs = std::filesystem;
using namespace test_program;

// Lines of every target shape, taken from ../shared/tamiflex/*/refl.log and refl-modern.log
// (the last, a JVM-form array target, is made after the README's example).
const std::vector<std::string> kRealLines = {
    "Class.forName;antlr.Tool;sun.launcher.LauncherHelper.loadMainClass;808;;1",
    "Class.getMethod;<antlr.Tool: void main(java.lang.String[])>;"
    "sun.launcher.LauncherHelper.validateMainClass;864;isAccessible=false;1",
    "Class.newInstance;jdk.internal.reflect.GeneratedConstructorAccessor1;"
    "java.security.AccessController.doPrivileged;318;;1",
    "Array.newInstance;boolean[];org.apache.commons.beanutils.converters.ArrayConverter.<init>;"
    "181;;180",
    "Constructor.newInstance;<com.puppycrawl.tools.checkstyle.Checker$$Lambda$121: void "
    "<init>()>;com.puppycrawl.tools.checkstyle.Checker.process;225;isAccessible=true;1",
    "Class.getMethod;<java.lang.annotation.Annotation: java.lang.Class annotationType()>;"
    "jdk.proxy1.$Proxy0.<clinit>;;isAccessible=false;1",
    "Method.invoke;<java.lang.annotation.RetentionPolicy: java.lang.annotation.RetentionPolicy[] "
    "values()>;java.lang.Enum.valueOf;267;isAccessible=true;1",
    "Field.get*;<sun.misc.Unsafe: sun.misc.Unsafe theUnsafe>;"
    "org.apache.lucene.util.Constants.<clinit>;76;isAccessible=true;2",
    "Field.set*;<com.puppycrawl.tools.checkstyle.Main$CliOptions: boolean debug>;"
    "picocli.CommandLine$Model$FieldBinding.set;11715;isAccessible=true;1",
    "Class.getDeclaredFields;java.util.ArrayList;"
    "java.io.ObjectStreamClass.getDefaultSerialFields;1689;;1",
    "MethodHandles.Lookup.findVarHandle;<java.util.concurrent.atomic.AtomicBoolean: int value>;"
    "java.util.concurrent.atomic.AtomicBoolean.<clinit>;57;isAccessible=false;1",
    "Class.getMethods;[Ljava.lang.CharSequence;;a.B.m;3;;2",
};

const std::string kAlphabet =
    std::string("abcLZ019;:<>()[],.$*/'_= \t\r\n\x7f\x80\xff") + std::string(1, '\0');

// Reads `text` as a log; returns whether it was accepted. Any other exception than a located
// InputError fails the test.
bool reads_or_is_located(const std::string& text, std::vector<LogEntry>* entries) {
  try {
    *entries = parse_tamiflex_log(text, "refl.log");
    return true;
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "refl.log") << text;
    EXPECT_GE(e.where().line, 1u) << e.what();
    EXPECT_GE(e.where().column, 1u) << e.what();
    // The column is inside the line or just past its end.
    std::size_t start = 0;
    for (std::uint64_t l = 1; l < e.where().line; ++l) start = text.find('\n', start) + 1;
    const std::size_t end = std::min(text.find('\n', start), text.size());
    EXPECT_LE(e.where().column, end - start + 1) << e.what();
    return false;
  }
}

// What a log that read writes must read back, with its Soot-kind lines.
void writes_and_reads_back(const std::vector<LogEntry>& entries, const fs::path& file) {
  const LogWriteCounts counts = write_tamiflex_log(file, entries);
  const auto again = read_tamiflex_log(file);
  EXPECT_EQ(again.size(), counts.lines);
  for (const LogEntry& e : again) EXPECT_TRUE(is_soot_log_kind(e.kind_text));
}

TEST(BadInputTest, TruncatedLinesReadOrAreLocated) {
  test::TempDir dir;
  std::size_t accepted = 0, refused = 0;
  for (const std::string& line : kRealLines) {
    for (std::size_t n = 0; n <= line.size(); ++n) {
      std::vector<LogEntry> entries;
      if (reads_or_is_located(line.substr(0, n) + "\n", &entries)) {
        ++accepted;
        writes_and_reads_back(entries, dir / "refl.log");
      } else {
        ++refused;
      }
    }
  }
  // Cutting COUNT's digits still reads; most cuts do not.
  EXPECT_GT(accepted, kRealLines.size());
  EXPECT_GT(refused, 10 * kRealLines.size());
}

TEST(BadInputTest, WrongSeparatorsAreLocated) {
  for (const std::string& line : kRealLines) {
    for (const char separator : {',', '\t', ' ', '|'}) {
      std::string text = line;
      for (char& c : text)
        if (c == ';') c = separator;
      std::vector<LogEntry> entries;
      EXPECT_FALSE(reads_or_is_located(text, &entries)) << text;
    }
  }
}

TEST(BadInputTest, HugeNumbersAreLocated) {
  const std::string digits(400, '9');
  std::vector<LogEntry> entries;
  EXPECT_FALSE(reads_or_is_located("Class.forName;a.B;a.C.m;" + digits + ";;1", &entries));
  EXPECT_FALSE(reads_or_is_located("Class.forName;a.B;a.C.m;1;;" + digits, &entries));
  EXPECT_FALSE(reads_or_is_located(
      "Class.forName;a.B;a.C.m;00000000000000000000000000000000000000004294967296;;1", &entries));
  EXPECT_TRUE(
      reads_or_is_located("Class.forName;a.B;a.C.m;0000000000000000000000000012;;", &entries));
  EXPECT_EQ(entries.at(0).line, 12u);
}

TEST(BadInputTest, BinaryGarbageReadsOrIsLocated) {
  std::mt19937 random(31);
  for (int round = 0; round < 500; ++round) {
    std::string text(random() % 300, '\0');
    for (char& c : text) c = static_cast<char>(random() % 256);
    std::vector<LogEntry> entries;
    reads_or_is_located(text, &entries);
    try {
      parse_annotations(text, "notes.txt");
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().file, "notes.txt");
      EXPECT_GE(e.where().line, 1u);
    }
  }
}

TEST(BadInputTest, MutatedRealLogLinesReadOrAreLocated) {
  test::TempDir dir;
  std::mt19937 random(2024);
  std::string log;
  for (const std::string& line : kRealLines) log += line + "\n";
  std::size_t accepted = 0;
  for (int round = 0; round < 1500; ++round) {
    const std::string text = refract::test::mutated(log, random, kAlphabet);
    std::vector<LogEntry> entries;
    if (!reads_or_is_located(text, &entries)) continue;
    ++accepted;
    writes_and_reads_back(entries, dir / "refl.log");
  }
  // Some edits keep the log valid (a digit of a COUNT, a letter of a name).
  EXPECT_GT(accepted, 0u);
}

TEST(BadInputTest, MutatedRealLogsResolveWithoutErrors) {
  // Whatever reads is resolved against facts without an error: an entry matches or is listed.
  SmallProgram program;
  program.add_example_calls();
  std::mt19937 random(7);
  std::string log =
      "Class.forName;app.Foo;app.Main.main;12;;1\n"
      "Method.invoke;<java.lang.annotation.RetentionPolicy: java.lang.annotation.RetentionPolicy[]"
      " values()>;app.to.Runner.with;5;isAccessible=true;1\n"
      "Field.set*;<app.Foo: java.lang.Object from>;app.to.Runner.with;7;;\n";
  for (const std::string& line : kRealLines) log += line + "\n";
  for (int round = 0; round < 1000; ++round) {
    std::vector<LogEntry> entries;
    if (!reads_or_is_located(refract::test::mutated(log, random, kAlphabet), &entries)) continue;
    const LoggedTargets t = program.resolve_entries(entries);
    std::size_t skipped = 0;
    for (const auto& [kind, n] : t.skipped_kinds) skipped += n;
    EXPECT_EQ(t.matched_entries + t.unmatched.size() + skipped, entries.size());
  }
}

TEST(BadInputTest, MutatedAnnotationsReadOrAreLocated) {
  SmallProgram program;
  program.add_example_calls();
  const std::string text =
      "# annotations\n" + frontend::invocation_site_name(kMain, "java/lang/Class", "forName", 0) +
      "\tclass\tapp.Foo\n" +
      frontend::invocation_site_name(kRunner, "java/lang/reflect/Method", "invoke", 0) +
      "\tmethod\t<java.lang.annotation.RetentionPolicy: java.lang.annotation.RetentionPolicy[] "
      "values()>\n" +
      frontend::invocation_site_name(kRunner, "java/lang/reflect/Field", "set", 0) +
      "\tfield\t<app.Foo: java.lang.Object from>\n" +
      frontend::invocation_site_name(kInit, "java/lang/Class", "newInstance", 0) + "\tnever\n";
  std::mt19937 random(99);
  std::size_t resolved = 0;
  for (int round = 0; round < 2000; ++round) {
    const std::string mutated = refract::test::mutated(text, random, kAlphabet);
    try {
      program.annotate(mutated);
      ++resolved;
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().file, "notes.txt") << mutated;
      EXPECT_GE(e.where().line, 1u) << e.what();
      EXPECT_GE(e.where().column, 1u) << e.what();
    }
  }
  EXPECT_GT(resolved, 0u);
}

}  // namespace
}  // namespace refract::reflection
