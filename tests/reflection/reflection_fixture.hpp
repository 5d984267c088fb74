// Running `refract analyze` with reflection on the fixtures of tests/fixtures/java/reflection:
// each fixture's package (and reflection.Oracle) as a jar of its own, so that the closed world
// of the application is that package, and a small JDK with the reflection API's classes.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/java_inputs.hpp"
#include "cli/run_refract.hpp"
#include "exporters/json_reader.hpp"
#include "pointsto/small_jdk.hpp"

namespace refract::test {

inline const std::filesystem::path kReflectionFixtureClasses = REFRACT_FIXTURE_CLASSES;
inline const std::filesystem::path kReflectionFixtureSources =
    std::filesystem::path(REFRACT_SOURCE_DIR) / "tests" / "fixtures" / "java" / "reflection";

// The JDK classes the reflection fixtures use: the points-to fixtures' and the reflection API.
inline const char* const kReflectionJdkClasses[] = {
    "java/lang/Object",
    "java/lang/String",
    "java/lang/Class",
    "java/lang/System",
    "java/lang/Thread",
    "java/lang/Runnable",
    "java/lang/ThreadGroup",
    "java/lang/Throwable",
    "java/lang/Exception",
    "java/lang/RuntimeException",
    "java/lang/Cloneable",
    "java/lang/CloneNotSupportedException",
    "java/io/Serializable",
    "java/security/AccessController",
    "java/security/PrivilegedAction",
    "java/security/PrivilegedExceptionAction",
    "java/security/PrivilegedActionException",
    "java/util/Objects",
    "java/util/function/Function",
    "java/util/function/Supplier",
    "java/lang/CharSequence",
    "java/lang/Comparable",
    "java/lang/AbstractStringBuilder",
    "java/lang/StringBuilder",
    "java/lang/Number",
    "java/lang/Integer",
    "java/lang/Boolean",
    "java/lang/Double",
    "java/lang/ClassLoader",
    "java/lang/reflect/AccessibleObject",
    "java/lang/reflect/Executable",
    "java/lang/reflect/Member",
    "java/lang/reflect/Method",
    "java/lang/reflect/Constructor",
    "java/lang/reflect/Field",
    "java/lang/reflect/Array",
    // what unsound's method handle uses: java.lang.invoke, which no rule models
    "java/lang/invoke/MethodHandle",
    "java/lang/invoke/MethodHandles",
    "java/lang/invoke/MethodHandles$Lookup",
    "java/lang/invoke/MethodType",
    // what the fixtures catch when a lookup finds nothing
    "java/lang/ReflectiveOperationException",
    "java/lang/NoSuchMethodException",
    "java/lang/NoSuchFieldException",
    // what offsets takes field offsets with, and copies a Field object with
    "jdk/internal/misc/Unsafe",
    "jdk/internal/reflect/ReflectionFactory",
    "jdk/internal/access/SharedSecrets",
    "jdk/internal/access/JavaLangReflectAccess",
    "java/lang/reflect/ReflectAccess",
};

inline const std::filesystem::path& reflection_jdk() {
  static const std::unique_ptr<TempDir> home = make_small_jdk(kReflectionJdkClasses);
  return home->path();
}

// A jar of package reflection.FIXTURE and reflection.Oracle, made once per fixture and test
// binary.
inline std::filesystem::path fixture_jar(const std::string& fixture) {
  static std::map<std::string, std::unique_ptr<TempDir>> jars;
  auto& dir = jars[fixture];
  if (!dir) {
    dir = std::make_unique<TempDir>();
    ZipEntries entries;
    const std::filesystem::path root = kReflectionFixtureClasses;
    entries.emplace_back("reflection/Oracle.class", read_bytes(root / "reflection/Oracle.class"));
    for (const auto& e : std::filesystem::directory_iterator(root / "reflection" / fixture)) {
      if (e.path().extension() != ".class") continue;
      entries.emplace_back("reflection/" + fixture + "/" + e.path().filename().string(),
                           read_bytes(e.path()));
    }
    write_bytes(dir->path() / (fixture + ".jar"), zip_bytes(entries));
  }
  return dir->path() / (fixture + ".jar");
}

// `refract analyze` of reflection.FIXTURE.Main on its jar and the small JDK, into `out`, quiet;
// the caller appends the mode and other options.
inline std::vector<std::string> fixture_analyze_command(const std::string& fixture,
                                                        const std::filesystem::path& out) {
  return {"analyze",
          "--classpath",
          fixture_jar(fixture).string(),
          "--jdk",
          reflection_jdk().string(),
          "--main",
          "reflection." + fixture + ".Main",
          "--out",
          out.string(),
          "--quiet"};
}

// One reflective call site of reflection.json: its kind, targets (with their rules) and flags.
struct SiteResult {
  std::string kind;
  std::string caller;                                    // Soot signature
  std::optional<unsigned> line;                          // source line
  std::map<std::string, std::set<std::string>> targets;  // target -> rules
  bool possibly_unsound = false;
  std::set<std::string> annotate_lookups, annotate_entries;  // for a flagged site
};

struct ReflectionResult {
  std::filesystem::path out;
  std::map<std::string, SiteResult> sites;
  std::map<std::string, std::uint64_t> imprecise;  // possibly_imprecise: site -> measure
};

// The sites of a parsed reflection.json.
inline std::map<std::string, SiteResult> sites_of(const JsonValue& doc) {
  std::map<std::string, SiteResult> sites;
  for (const JsonValue& s : doc.at("sites").array()) {
    SiteResult& site = sites[s.at("site").string()];
    site.kind = s.at("kind").string();
    site.caller = s.at("caller").string();
    if (s.at("line").is_number()) site.line = static_cast<unsigned>(s.at("line").number());
    for (const JsonValue& t : s.at("targets").array()) {
      auto& rules = site.targets[t.at("target").string()];
      for (const JsonValue& r : t.at("rules").array()) rules.insert(r.string());
    }
    site.possibly_unsound = !s.at("possibly_unsound").array().empty();
    for (const JsonValue& l : s.at("annotate_lookups").array())
      site.annotate_lookups.insert(l.string());
    for (const JsonValue& e : s.at("annotate_entries").array())
      site.annotate_entries.insert(e.string());
  }
  return sites;
}

inline std::map<std::string, SiteResult> read_reflection_json(const std::filesystem::path& file) {
  return sites_of(JsonReader(read_file(file)).document());
}

// reflection.json's possibly_imprecise: site -> measure.
inline std::map<std::string, std::uint64_t> imprecise_sites_of(const JsonValue& doc) {
  std::map<std::string, std::uint64_t> measures;
  for (const JsonValue& s : doc.at("possibly_imprecise").array())
    measures[s.at("site").string()] = static_cast<std::uint64_t>(s.at("measure").number());
  return measures;
}

// The `--reflection` value and the further options of a mode of EXPECTED.tsv: `strings`,
// `probe`, `solar`; `annotated` (solar with the fixture's annotations.tsv); `tamiflex` and
// `solar+tamiflex` (with the fixture's refl.log).
struct ModeOptions {
  std::string reflection;
  std::vector<std::string> extra;
};

inline ModeOptions mode_options(const std::string& fixture, const std::string& mode) {
  const std::filesystem::path folder = kReflectionFixtureSources / fixture;
  if (mode == "annotated")
    return {"solar", {"--reflection-annotations", (folder / "annotations.tsv").string()}};
  if (mode == "tamiflex" || mode == "solar+tamiflex")
    return {mode + "=" + (folder / "refl.log").string(), {}};
  return {mode, {}};
}

// `refract analyze` of reflection.FIXTURE.Main in `mode` (mode_options) under `flavour`, with
// `extra` options, into a fresh folder of `dir`; fails the test and returns nothing if the run
// fails.
inline std::optional<ReflectionResult> analyze_fixture(const TempDir& dir,
                                                       const std::string& fixture,
                                                       const std::string& mode,
                                                       const std::string& flavour = "insens",
                                                       const std::vector<std::string>& extra = {}) {
  std::string name = fixture + "-" + mode + "-" + flavour;
  for (const std::string& arg : extra) name += "-" + arg;
  for (char& c : name)
    if (c == '/' || c == '=' || c == ' ') c = '_';
  const std::filesystem::path out = dir.path() / name;
  const ModeOptions options = mode_options(fixture, mode);
  // A fixture's BDDs peak near 300,000 nodes: a smaller table than the default costs less to
  // set up, and changes no answer.
  std::vector<std::string> args = fixture_analyze_command(fixture, out);
  args.insert(args.end(), {"--context", flavour, "--reflection", options.reflection, "--nodes",
                           "300000", "--cache", "30000"});
  args.insert(args.end(), options.extra.begin(), options.extra.end());
  args.insert(args.end(), extra.begin(), extra.end());
  const RunResult run = run_refract(args, dir.path());
  EXPECT_EQ(run.exit_code, 0) << fixture << " " << mode << " " << flavour << ": " << run.err;
  if (run.exit_code != 0) return std::nullopt;
  const JsonValue doc = JsonReader(read_file(out / "reflection.json")).document();
  return ReflectionResult{out, sites_of(doc), imprecise_sites_of(doc)};
}

}  // namespace refract::test
