// refract facts: the input relations of the analyses, from jars, class folders and jmods.
#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <optional>
#include <string>

#include "cli/class_path_options.hpp"
#include "cli/commands.hpp"
#include "cli/option_values.hpp"
#include "cli/program_facts.hpp"
#include "cli/run_command.hpp"
#include "frontend/fact_database.hpp"
#include "frontend/fact_extractor.hpp"
#include "frontend/hierarchy.hpp"
#include "support/atomic_file.hpp"
#include "support/error.hpp"
#include "support/json.hpp"
#include "support/output_paths.hpp"
#include "support/stopwatch.hpp"

namespace refract::cli {

namespace po = boost::program_options;

namespace {

using Clock = std::chrono::steady_clock;

struct FactsArguments {
  ClassPathArguments class_path;
  std::optional<std::string> main_class;  // binary name with dots
  bool all = false;
  std::string out;
  std::optional<std::string> stats;
  bool quiet = false;
  ScopeChoices scope;
};

po::options_description facts_options() {
  po::options_description options(
      "refract facts --classpath CP [--jdk DIR] (--main CLASS | --all) --out DIR [options]");
  options.add_options()("help,h", "show this help");
  add_class_path_options(options);
  options.add_options()("main", po::value<std::string>(),
                        "the main class (binary name, e.g. a.b.Main): facts of everything "
                        "reachable by name from it")(
      "all", "facts of every class of the class path (the JDK's only as they are reached)")(
      "string-classes",
      "also read each class of the class path whose binary name (a.b.C$D) is a string "
      "constant of the code read: a closed world for reflection")(
      "out", po::value<std::string>(), "the folder for NAME.tuples, NAME.map and facts.datalog")(
      "stats", po::value<std::string>(), "write a JSON report to FILE, or - for stdout")(
      "quiet,q", "no progress on stderr");
  return options;
}

std::optional<FactsArguments> parse_arguments(int argc, char** argv) {
  const std::optional<po::variables_map> parsed = parse_command_line(argc, argv, facts_options());
  if (!parsed) return std::nullopt;
  const po::variables_map& vm = *parsed;
  FactsArguments args;
  args.class_path = class_path_arguments(vm);
  if (vm.count("main")) args.main_class = vm["main"].as<std::string>();
  args.all = vm.count("all") != 0;
  if (args.all == args.main_class.has_value()) throw po::error("give exactly one of --main, --all");
  if (!vm.count("out")) throw po::error("missing --out");
  args.out = vm["out"].as<std::string>();
  if (vm.count("stats")) args.stats = vm["stats"].as<std::string>();
  args.quiet = vm.count("quiet") != 0;
  if (vm.count("string-classes") != 0)
    args.scope.string_classes = frontend::StringClasses::kAllCode;
  return args;
}

void write_sites(std::ostream& out, const char* key,
                 const std::vector<frontend::UnmodelledSite>& sites) {
  out << "  " << json_string(key) << ": [";
  for (std::size_t i = 0; i < sites.size(); ++i) {
    out << (i > 0 ? ",\n    " : "\n    ") << "{\"method\": " << json_string(sites[i].method)
        << ", \"pc\": " << sites[i].pc << ", \"what\": " << json_string(sites[i].what) << "}";
  }
  out << (sites.empty() ? "]" : "\n  ]");
}

void write_stats(std::ostream& out, const frontend::FactExtractor& extractor,
                 const frontend::ClassHierarchy& hierarchy,
                 const std::vector<frontend::SkippedClass>& skipped, double seconds) {
  const frontend::FactCounts& c = extractor.counts();
  out << "{\n  \"seconds\": " << seconds << ",\n  \"classes\": " << c.classes
      << ",\n  \"methods\": " << c.methods << ",\n  \"methods_with_code\": " << c.methods_with_code
      << ",\n  \"instructions\": " << c.instructions << ",\n  \"statements\": " << c.statements
      << ",\n  \"lambdas\": " << c.lambdas << ",\n  \"string_concats\": " << c.string_concats
      << ",\n  \"domains\": {";
  bool first = true;
  for (const frontend::FactDomain& d : extractor.facts().domains()) {
    out << (first ? "" : ", ") << json_string(d.name()) << ": " << d.size();
    first = false;
  }
  out << "},\n  \"relations\": {";
  first = true;
  for (const frontend::FactRelation& r : extractor.facts().relations()) {
    out << (first ? "" : ", ") << json_string(r.name()) << ": " << r.sorted_tuples().size();
    first = false;
  }
  out << "},\n  \"phantoms\": [";
  const auto phantoms = hierarchy.phantoms();
  for (std::size_t i = 0; i < phantoms.size(); ++i) {
    out << (i > 0 ? ",\n    " : "\n    ") << "{\"class\": " << json_string(phantoms[i].name)
        << ", \"referrers\": [";
    for (std::size_t j = 0; j < phantoms[i].referrers.size(); ++j) {
      out << (j > 0 ? ", " : "") << json_string(phantoms[i].referrers[j]);
    }
    out << "]}";
  }
  out << (phantoms.empty() ? "]" : "\n  ]") << ",\n  \"skipped_classes\": [";
  for (std::size_t i = 0; i < skipped.size(); ++i) {
    out << (i > 0 ? ",\n    " : "\n    ") << "{\"class\": " << json_string(skipped[i].name)
        << ", \"error\": " << json_string(skipped[i].message) << "}";
  }
  out << (skipped.empty() ? "]" : "\n  ]") << ",\n";
  write_sites(out, "unsupported_invokedynamic", c.unsupported_invokedynamic);
  out << ",\n";
  write_sites(out, "dynamic_constants", c.dynamic_constants);
  out << ",\n";
  write_sites(out, "unresolved_references", c.unresolved);
  out << "\n}\n";
}

int run_facts(const FactsArguments& args) {
  const auto start = Clock::now();
  std::ostream* progress = args.quiet ? nullptr : &std::cerr;
  check_output_directory(args.out);
  if (args.stats && *args.stats != "-") check_output_file(*args.stats, args.out);
  const std::unique_ptr<ExtractedProgram> program =
      extract_program(args.class_path, args.main_class, progress, args.scope);
  const frontend::FactExtractor& extractor = *program->extractor;
  const frontend::ClassHierarchy& hierarchy = *program->hierarchy;
  const auto& skipped = program->skipped;
  for (const frontend::SkippedClass& s : skipped) std::cerr << "skipped: " << s.message << '\n';
  frontend::write_fact_database(extractor.facts(), args.out);
  const double seconds = seconds_since(start);
  const frontend::FactCounts& c = extractor.counts();
  if (progress != nullptr) {
    *progress << "[facts] " << c.classes << " classes, " << c.methods << " methods, "
              << c.instructions << " instructions, " << hierarchy.phantom_count()
              << " phantom classes, " << c.unsupported_invokedynamic.size()
              << " unsupported invokedynamic, " << c.unresolved.size() << " unresolved references, "
              << skipped.size() << " skipped classes; " << seconds << " s\n";
  }
  if (args.stats) {
    if (*args.stats == "-") {
      write_stats(std::cout, extractor, hierarchy, skipped, seconds);
    } else {
      AtomicOutputFile out(*args.stats);
      write_stats(out.stream(), extractor, hierarchy, skipped, seconds);
      out.commit();
    }
  }
  return kExitOk;
}

}  // namespace

int facts_command(int argc, char** argv) {
  return run_command<po::error>(
      "facts", [&] { return parse_arguments(argc, argv); },
      [](const FactsArguments& args) { return run_facts(args); });
}

}  // namespace refract::cli
