// refract ir: the three-address IR of classes, readably, with source lines.
#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/class_path_options.hpp"
#include "cli/commands.hpp"
#include "cli/option_values.hpp"
#include "cli/run_command.hpp"
#include "frontend/class_file.hpp"
#include "frontend/class_path.hpp"
#include "frontend/ir.hpp"
#include "frontend/ir_builder.hpp"
#include "frontend/names.hpp"
#include "frontend/program_scope.hpp"
#include "support/error.hpp"
#include "support/stopwatch.hpp"

namespace refract::cli {

namespace po = boost::program_options;

namespace {

using Clock = std::chrono::steady_clock;

struct IrArguments {
  ClassPathArguments class_path;
  std::optional<std::string> class_name;  // binary name with dots
  std::optional<std::string> method;      // Soot signature
  bool all = false;
  bool summary = false;
  bool quiet = false;
};

po::options_description ir_options() {
  po::options_description options(
      "refract ir --classpath CP [--jdk DIR] (--class C | --method SIG | --all) [options]");
  options.add_options()("help,h", "show this help");
  add_class_path_options(options);
  options.add_options()("class", po::value<std::string>(), "one class, e.g. a.b.C$D")(
      "method", po::value<std::string>(), "one method, by Soot signature <a.B: void m(int)>")(
      "all", "every class of the --classpath entries (jmods included), as stored there")(
      "summary", "print only the counts line on stderr, not the IR")(
      "quiet,q", "no progress on stderr, and no counts line unless --summary asks for it");
  return options;
}

std::string internal_form(std::string name) {
  for (char& c : name) {
    if (c == '.') c = '/';
  }
  return name;
}

// The class of a Soot method signature "<a.B: void m()>", quotes removed; a value of another
// form is a malformed command line.
std::string class_of_signature(const std::string& signature) {
  const std::size_t colon = signature.find(':');
  if (signature.size() < 4 || signature.front() != '<' || signature.back() != '>' ||
      colon == std::string::npos || colon < 2) {
    throw po::error("--method: not a Soot method signature: " + signature);
  }
  std::string name;
  for (char c : signature.substr(1, colon - 1)) {
    if (c != '\'') name += c;
  }
  return name;
}

std::optional<IrArguments> parse_arguments(int argc, char** argv) {
  const std::optional<po::variables_map> parsed = parse_command_line(
      argc, argv, ir_options(),
      "\nExits 0 only if every requested class was read and translated; a class left out\n"
      "under --skip-bad-classes makes the exit code 1.\n");
  if (!parsed) return std::nullopt;
  const po::variables_map& vm = *parsed;
  IrArguments args;
  args.class_path = class_path_arguments(vm);
  if (vm.count("class")) args.class_name = vm["class"].as<std::string>();
  if (vm.count("method")) args.method = vm["method"].as<std::string>();
  args.all = vm.count("all") != 0;
  if (int(args.all) + int(args.class_name.has_value()) + int(args.method.has_value()) != 1) {
    throw po::error("give exactly one of --class, --method, --all");
  }
  if (args.method) args.class_name = class_of_signature(*args.method);
  args.summary = vm.count("summary") != 0;
  args.quiet = vm.count("quiet") != 0;
  return args;
}

struct IrTotals {
  std::size_t classes = 0, methods = 0, instructions = 0, phantom_references = 0, failed = 0;
};

// Reads, parses and translates the requested methods of one class, then prints them. Under
// --skip-bad-classes a class that cannot be read, parsed or translated is listed on stderr,
// counted as failed and printed not at all (not even the methods that did translate).
void print_class(const frontend::ClassPath& path, const std::string& name, const IrArguments& args,
                 IrTotals& totals) {
  std::optional<frontend::ClassBytes> bytes;
  std::vector<frontend::MethodIr> methods;
  try {
    // --all shows the entries' own classes, even those the JDK would shadow when running.
    bytes = args.all ? path.read_from_entries(name) : path.read(name);
    if (bytes) {
      const frontend::ClassFile cls = frontend::parse_class_file(bytes->bytes, bytes->origin);
      for (const frontend::MethodInfo& m : cls.methods) {
        if (!args.method ||
            frontend::soot_method_signature(cls.this_class, m.name, m.descriptor) == *args.method) {
          methods.push_back(frontend::build_method_ir(cls, m));
        }
      }
    }
  } catch (const InputError& e) {  // an unreadable entry, a malformed class or method body
    if (!args.class_path.skip_bad_classes) throw;
    ++totals.failed;
    std::cerr << "skipped: " << e.what() << '\n';
    return;
  }
  const std::string shown = args.class_name.value_or(name);
  if (!bytes) {
    throw InputError({args.method ? "--method" : "--class"},
                     "class " + shown + " is not on the class path");
  }
  if (args.method && methods.empty()) {
    throw InputError({"--method"}, "no method " + *args.method + " in class " + shown);
  }
  ++totals.classes;
  for (const frontend::MethodIr& ir : methods) {
    ++totals.methods;
    totals.instructions += ir.counts.instructions;
    for (const std::string& named : frontend::classes_named_by(ir)) {
      if (!path.contains(named)) ++totals.phantom_references;
    }
    if (!args.summary) frontend::print_method_ir(std::cout, ir);
  }
}

int run_ir(const IrArguments& args) {
  const auto start = Clock::now();
  const frontend::ClassPath path = open_class_path(args.class_path);
  std::vector<std::string> names;
  if (args.all) {
    names = path.entry_class_names();
  } else {
    names.push_back(internal_form(*args.class_name));
  }
  IrTotals totals;
  for (std::size_t i = 0; i < names.size(); ++i) {
    print_class(path, names[i], args, totals);
    if (!args.quiet && (i + 1) % 1000 == 0) {
      std::cerr << "[ir] " << i + 1 << "/" << names.size() << " classes\n";
    }
  }
  const double seconds = seconds_since(start);
  if (args.summary || !args.quiet) {
    std::cerr << "[ir] classes " << totals.classes << ", methods " << totals.methods
              << ", instructions " << totals.instructions << ", references to absent classes "
              << totals.phantom_references << ", failed classes " << totals.failed << "; "
              << seconds << " s\n";
  }
  // Exit 0 only if every requested class was read and translated, skipped ones included.
  return totals.failed == 0 ? kExitOk : kExitBadInput;
}

}  // namespace

int ir_command(int argc, char** argv) {
  return run_command<po::error>(
      "ir", [&] { return parse_arguments(argc, argv); },
      [](const IrArguments& args) { return run_ir(args); });
}

}  // namespace refract::cli
