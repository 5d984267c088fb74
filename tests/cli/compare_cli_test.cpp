// `refract compare` end to end (issue 33) on tests/fixtures/java/compare with the small JDK:
// three variants that solve (two of them encodings that must not change any result, one a
// context flavour that does), one that fails; the CSV and JSON read back and agree, the HTML
// page's table holds the JSON's numbers and fetches nothing, and a bad --encoding exits 2
// before any work.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli/fixture_paths.hpp"
#include "cli/run_refract.hpp"
#include "exporters/json_reader.hpp"
#include "pointsto/small_jdk.hpp"

namespace refract::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> compare_args(const fs::path& out,
                                      const std::vector<std::string>& encodings) {
  std::vector<std::string> args = {
      "compare", "--jdk",        small_jdk().string(), "--classpath", kFixtureClasses.string(),
      "--main",  "compare.Main", "--context",          "insens",      "--reflection",
      "none",    "--out",        out.string()};
  for (const std::string& e : encodings) {
    args.push_back("--encoding");
    args.push_back(e);
  }
  return args;
}

// The fields of one CSV line (RFC 4180 quoting).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// A JSON member as the CSV and the HTML table write it: numbers in their JSON text, null empty.
std::string as_cell(const JsonValue& v) {
  if (v.is_null()) return "";
  if (v.is_bool()) return v.boolean() ? "true" : "false";
  if (v.is_number()) return v.number_text;
  return v.string();
}

std::set<std::string> lines_in(const fs::path& file) {
  const auto lines = lines_of(read_file(file));
  return {lines.begin(), lines.end()};
}

std::size_t count_missing(const std::set<std::string>& from, const std::set<std::string>& in) {
  std::vector<std::string> missing;
  std::set_difference(from.begin(), from.end(), in.begin(), in.end(), std::back_inserter(missing));
  return missing.size();
}

// One compare run for all the checks below: each gtest case is a process of its own under
// ctest, and the run takes about a second.
class CompareTest : public ::testing::Test {
 public:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    std::vector<std::string> args = compare_args(
        out(), {"base=", "fs=--heap-numbering=first-seen",
                "ctx=--context 1-call --string-merging none", "broken=--order NoSuchDomain"});
    for (const char* a : {"--runs", "2", "--relation", "VarPointsToI", "--quiet"})
      args.push_back(a);
    run_ = std::make_unique<RunResult>(run_refract(args, dir_->path()));
    ASSERT_EQ(run_->exit_code, 0) << run_->err;
    json_ = std::make_unique<JsonValue>(JsonReader(read_file(out() / "compare.json")).document());
  }
  static void TearDownTestSuite() {
    json_.reset();
    run_.reset();
    dir_.reset();
  }
  static fs::path out() { return dir_->path() / "out"; }
  static const JsonValue& variant(const std::string& name) {
    for (const JsonValue& v : json_->at("variants").array())
      if (v.at("variant").string() == name) return v;
    throw std::runtime_error("no variant " + name);
  }

  // The checks, grouped into three test cases below.
  static void
  prints_one_row_per_variant_in_each_of_its_four_tables_and_nothing_on_stderr_when_quiet();
  static void json_has_the_variants_in_order_with_the_baseline_first();
  static void each_variant_ran_twice_and_reports_the_median();
  static void a_failed_variant_is_a_row_saying_why_and_the_others_still_run();
  static void an_encoding_variant_has_the_baselines_results();
  static void a_precision_changing_variant_is_reported_as_differing();
  static void string_merging_metrics_for_variants_that_merge_strings();
  static void csv_reads_back_as_the_json();
  static void html_table_holds_the_json_numbers_and_fetches_nothing();

 protected:
  static std::unique_ptr<TempDir> dir_;
  static std::unique_ptr<RunResult> run_;
  static std::unique_ptr<JsonValue> json_;
};
std::unique_ptr<TempDir> CompareTest::dir_;
std::unique_ptr<RunResult> CompareTest::run_;
std::unique_ptr<JsonValue> CompareTest::json_;

void CompareTest::
    prints_one_row_per_variant_in_each_of_its_four_tables_and_nothing_on_stderr_when_quiet() {
  EXPECT_EQ(run_->err, "");
  for (const char* title :
       {"time and memory", "relations at the fixpoint", "client results", "string merging"})
    EXPECT_NE(run_->out.find(title), std::string::npos) << title << "\n" << run_->out;
  for (const char* name : {"base", "fs", "ctx", "broken"}) {
    const std::regex row("(^|\n)" + std::string(name) + " ");
    EXPECT_EQ(std::distance(std::sregex_iterator(run_->out.begin(), run_->out.end(), row),
                            std::sregex_iterator()),
              4)
        << name << "\n"
        << run_->out;
  }
}

void CompareTest::json_has_the_variants_in_order_with_the_baseline_first() {
  EXPECT_EQ(json_->at("baseline").string(), "base");
  EXPECT_EQ(json_->at("runs").number(), 2);
  std::vector<std::string> names;
  for (const JsonValue& v : json_->at("variants").array())
    names.push_back(v.at("variant").string());
  EXPECT_EQ(names, (std::vector<std::string>{"base", "fs", "ctx", "broken"}));
  EXPECT_EQ(variant("ctx").at("options").string(), "--context 1-call --string-merging none");
  EXPECT_EQ(variant("base").at("total_ratio").number(), 1.0);
  EXPECT_EQ(variant("base").at("solve_ratio").number(), 1.0);
}

void CompareTest::each_variant_ran_twice_and_reports_the_median() {
  for (const char* name : {"base", "fs", "ctx"}) {
    const JsonValue& v = variant(name);
    EXPECT_EQ(v.at("status").string(), "ok") << name;
    EXPECT_EQ(v.at("runs").number(), 2) << name;
    const auto& totals = v.at("total_seconds_per_run").array();
    ASSERT_EQ(totals.size(), 2U) << name;
    EXPECT_NEAR(v.at("total_seconds").number(), (totals[0].number() + totals[1].number()) / 2,
                0.0015)
        << name;
    EXPECT_GT(v.at("bdd_nodes_produced").number(), 0) << name;
    EXPECT_GT(v.at("peak_bdd_nodes").number(), 0) << name;
    EXPECT_GT(v.at("peak_rss_mib").number(), 0) << name;
    EXPECT_TRUE(fs::is_regular_file(out() / "runs" / name / "2" / "stats.json")) << name;
    EXPECT_FALSE(fs::exists(out() / "runs" / name / "1" / "facts")) << name;
  }
}

void CompareTest::a_failed_variant_is_a_row_saying_why_and_the_others_still_run() {
  const JsonValue& broken = variant("broken");
  EXPECT_EQ(broken.at("status").string().rfind("failed", 0), 0U) << broken.at("status").string();
  EXPECT_NE(broken.at("detail").string().find("NoSuchDomain"), std::string::npos)
      << broken.at("detail").string();
  EXPECT_EQ(broken.at("runs").number(), 0);
  EXPECT_TRUE(broken.at("total_seconds").is_null());
  EXPECT_TRUE(broken.at("call_graph_identical").is_null());
  EXPECT_NE(run_->out.find("broken: failed"), std::string::npos) << run_->out;
}

// Numbering heap objects as the front end met them changes the BDDs, never a result.
void CompareTest::an_encoding_variant_has_the_baselines_results() {
  const JsonValue& base = variant("base");
  const JsonValue& fs_variant = variant("fs");
  EXPECT_TRUE(fs_variant.at("call_graph_identical").boolean());
  EXPECT_TRUE(fs_variant.at("clients_identical").boolean());
  for (const char* key :
       {"VarPointsTo_tuples", "FieldPointsTo_tuples", "CallGraphEdge_tuples", "Reachable_tuples",
        "VarPointsToI_tuples", "heap_objects", "contexts", "reachable_methods", "call_edges",
        "polymorphic_call_sites", "may_fail_casts", "string_constants", "string_colors",
        "var_points_to_string_tuples"}) {
    EXPECT_EQ(as_cell(fs_variant.at(key)), as_cell(base.at(key))) << key;
  }
  for (const char* what :
       {"reachable_methods", "call_edges", "polymorphic_call_sites", "may_fail_casts"}) {
    EXPECT_EQ(fs_variant.at(std::string(what) + "_not_in_baseline").number(), 0) << what;
    EXPECT_EQ(fs_variant.at(std::string(what) + "_only_in_baseline").number(), 0) << what;
  }
  EXPECT_TRUE(base.at("call_graph_identical").boolean());
}

// 1-call tells the two shapes apart: the insensitive call graph's extra edges, polymorphic
// sites and may-fail cast are counted as the baseline's alone.
void CompareTest::a_precision_changing_variant_is_reported_as_differing() {
  const JsonValue& ctx = variant("ctx");
  EXPECT_FALSE(ctx.at("call_graph_identical").boolean());
  EXPECT_FALSE(ctx.at("clients_identical").boolean());
  const std::set<std::string> base_edges = lines_in(out() / "runs/base/1/call-edges.tsv");
  const std::set<std::string> ctx_edges = lines_in(out() / "runs/ctx/1/call-edges.tsv");
  EXPECT_EQ(ctx.at("call_edges_only_in_baseline").number(),
            static_cast<double>(count_missing(base_edges, ctx_edges)));
  EXPECT_EQ(ctx.at("call_edges_not_in_baseline").number(),
            static_cast<double>(count_missing(ctx_edges, base_edges)));
  EXPECT_EQ(ctx.at("call_edges_only_in_baseline").number(), 2);
  EXPECT_EQ(ctx.at("polymorphic_call_sites_only_in_baseline").number(), 2);
  EXPECT_EQ(ctx.at("may_fail_casts_only_in_baseline").number(), 1);
  EXPECT_EQ(ctx.at("reachable_methods_only_in_baseline").number(), 0);
  EXPECT_LT(ctx.at("VarPointsToI_tuples").number(),
            variant("base").at("VarPointsToI_tuples").number());
}

// Seed 003 Sec. 6's metrics for the variants that color string constants, none for the one
// that does not.
void CompareTest::string_merging_metrics_for_variants_that_merge_strings() {
  const JsonValue& base = variant("base");
  EXPECT_GE(base.at("string_constants").number(), 4);  // "circle" "square" "left" "right"
  EXPECT_GE(base.at("string_colors").number(), 1);
  EXPECT_LT(base.at("string_colors").number(), base.at("string_constants").number());
  EXPECT_NEAR(
      base.at("string_compression_ratio").number(),
      base.at("string_constants").number() /
          (base.at("string_colors").number() + base.at("string_constants_kept_apart").number()),
      0.006);
  EXPECT_GT(base.at("var_points_to_string_tuples").number(), 0);
  EXPECT_LE(base.at("var_points_to_string_tuples").number(),
            base.at("VarPointsTo_tuples").number());
  EXPECT_TRUE(base.at("string_coloring_seconds").is_number());
  for (const char* key :
       {"string_constants", "string_colors", "string_compression_ratio", "string_coloring_seconds"})
    EXPECT_TRUE(variant("ctx").at(key).is_null()) << key;
  // Without merging, each constant is an object of its own: more String tuples, not fewer.
  EXPECT_GE(variant("ctx").at("var_points_to_string_tuples").number(),
            base.at("var_points_to_string_tuples").number());
}

void CompareTest::csv_reads_back_as_the_json() {
  const auto lines = lines_of(read_file(out() / "compare.csv"));
  const auto& variants = json_->at("variants").array();
  ASSERT_EQ(lines.size(), variants.size() + 1);
  const std::vector<std::string> keys = csv_fields(lines[0]);
  for (std::size_t r = 0; r < variants.size(); ++r) {
    const std::vector<std::string> cells = csv_fields(lines[r + 1]);
    ASSERT_EQ(cells.size(), keys.size()) << lines[r + 1];
    for (std::size_t c = 0; c < keys.size(); ++c)
      EXPECT_EQ(cells[c], as_cell(variants[r].at(keys[c]))) << keys[c] << " of row " << r;
  }
  // Every member but the per-run lists is a column.
  EXPECT_EQ(keys.size() + 2, variants[0].object().size());
}

void CompareTest::html_table_holds_the_json_numbers_and_fetches_nothing() {
  const std::string html = read_file(out() / "compare.html");
  const auto& variants = json_->at("variants").array();
  const std::regex row_form("<tr>(.*?)</tr>");
  const std::regex cell_form("<td data-key=\"([^\"]+)\"[^>]*>([^<]*)</td>");
  std::size_t r = 0;
  for (auto row = std::sregex_iterator(html.begin(), html.end(), row_form);
       row != std::sregex_iterator(); ++row) {
    const std::string cells_text = (*row)[1].str();
    if (cells_text.rfind("<td", 0) != 0) continue;  // the header row
    ASSERT_LT(r, variants.size());
    std::size_t cells = 0;
    for (auto cell = std::sregex_iterator(cells_text.begin(), cells_text.end(), cell_form);
         cell != std::sregex_iterator(); ++cell, ++cells) {
      const JsonValue& value = variants[r].at((*cell)[1].str());
      const std::string text = (*cell)[2].str();
      if (value.is_number()) {
        EXPECT_EQ(std::stod(text), value.number()) << (*cell)[1].str();
      } else if (!value.is_string() || value.string().find_first_of("<>&\"") == std::string::npos) {
        EXPECT_EQ(text, as_cell(value)) << (*cell)[1].str();
      }
    }
    EXPECT_EQ(cells + 2, variants[r].object().size());
    ++r;
  }
  EXPECT_EQ(r, variants.size());
  const std::regex svg("<svg ");
  EXPECT_GE(
      std::distance(std::sregex_iterator(html.begin(), html.end(), svg), std::sregex_iterator()),
      4);
  for (const char* fetch : {"<script", "<link", "src=", "href=", "@import", "url("})
    EXPECT_EQ(html.find(fetch), std::string::npos) << fetch;
}

TEST_F(CompareTest, ReportsOneRowPerVariantWithMediansAndFailedVariantsAsRows) {
  prints_one_row_per_variant_in_each_of_its_four_tables_and_nothing_on_stderr_when_quiet();
  json_has_the_variants_in_order_with_the_baseline_first();
  each_variant_ran_twice_and_reports_the_median();
  a_failed_variant_is_a_row_saying_why_and_the_others_still_run();
}

TEST_F(CompareTest, ComparesClientResultsAndStringMergingWithTheBaseline) {
  an_encoding_variant_has_the_baselines_results();
  a_precision_changing_variant_is_reported_as_differing();
  string_merging_metrics_for_variants_that_merge_strings();
}

TEST_F(CompareTest, CsvAndHtmlHoldTheJsonNumbers) {
  csv_reads_back_as_the_json();
  html_table_holds_the_json_numbers_and_fetches_nothing();
}

// A run stopped by --time-limit makes its variant a row that says so and where the solver
// stopped; compare itself succeeds and writes its reports.
TEST(CompareTimeLimitTest, AVariantPastTheTimeLimitIsARowSayingWhereItStopped) {
  TempDir dir;
  std::vector<std::string> args = compare_args(dir / "out", {"base="});
  for (const char* a : {"--runs", "1", "--time-limit", "0.001", "--quiet"}) args.push_back(a);
  const RunResult run = run_refract(args, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonValue json = JsonReader(read_file(dir / "out" / "compare.json")).document();
  const JsonValue& base = json.at("variants").array().at(0);
  EXPECT_EQ(base.at("status").string(), "time limit");
  EXPECT_NE(base.at("detail").string().find("in stratum"), std::string::npos)
      << base.at("detail").string();
  EXPECT_EQ(base.at("runs").number(), 0);
  EXPECT_NE(run.out.find("base: time limit: run 1/1: "), std::string::npos) << run.out;
}

// A --relation the analysis does not have is bad input, found once the first run has the
// analysis's relations: exit 1 naming it, and no reports.
TEST(CompareRelationTest, AnUnknownRelationExitsOneNamingIt) {
  TempDir dir;
  std::vector<std::string> args = compare_args(dir / "out", {"base="});
  for (const char* a : {"--runs", "1", "--relation", "NoSuchRelation", "--quiet"})
    args.push_back(a);
  const RunResult run = run_refract(args, dir.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("--relation"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("NoSuchRelation"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(dir / "out" / "compare.json"));
}

// Bad --encoding text names the option and exits 2 before any work: the class path does not
// exist (reading it would be exit 1) and no output folder appears.
TEST(CompareUsageTest, BadEncodingExitsTwoBeforeAnyWork) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"fs=--heap-numbering sideways", "--heap-numbering"},
      {"fs=--heap-numbering=sideways", "--heap-numbering"},
      {"nameless", "NAME=OPTIONS"},
      {"o=--out elsewhere", "--out"},
      {"r=--reflection probe", "--reflection"},
      {"x=--no-such-option 1", "no-such-option"},
      {"s=first-seen", "'first-seen' is not an option"},
      {"c=--context 9-call", "--context"},
      {"b a d=", "variant name"},
      {"..=", "variant name"},
  };
  for (const auto& [text, named] : cases) {
    std::vector<std::string> args = compare_args(dir / "out", {"base=", text});
    args[4] = (dir / "no-such-classes").string();  // --classpath's value
    const RunResult run = run_refract(args, dir.path());
    EXPECT_EQ(run.exit_code, 2) << text << "\n" << run.err;
    EXPECT_NE(run.err.find(text.substr(0, text.find('='))), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(named), std::string::npos) << text << "\n" << run.err;
    EXPECT_FALSE(fs::exists(dir / "out")) << text;
  }
  const RunResult twice =
      run_refract(compare_args(dir / "out", {"a=", "a=--heap-numbering by-type"}), dir.path());
  EXPECT_EQ(twice.exit_code, 2) << twice.err;
  EXPECT_NE(twice.err.find("used twice"), std::string::npos) << twice.err;
  const RunResult none = run_refract(compare_args(dir / "out", {}), dir.path());
  EXPECT_EQ(none.exit_code, 2) << none.err;
  EXPECT_NE(none.err.find("--encoding"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace refract::test
