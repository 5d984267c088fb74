// refract check: reads a bddbddb program as `refract solve` would, and its inputs, without
// solving it: every construct refract rejects, every input file that is not there, and every
// input that does not load is reported.
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "cli/commands.hpp"
#include "cli/datalog_program.hpp"
#include "cli/option_values.hpp"
#include "cli/run_command.hpp"
#include "solver/engine.hpp"
#include "support/error.hpp"

namespace refract::cli {

namespace po = boost::program_options;

namespace {

struct CheckArguments {
  std::string program;
  std::optional<std::string> input_dir, order;
  bool quiet = false;
};

po::options_description check_options() {
  po::options_description options("refract check PROGRAM.datalog [options]");
  options.add_options()("help,h", "show this help")(
      "input-dir", po::value<std::string>(),
      "where inputs (.tuples, .bdd) and maps are read (default: .basedir, else the program's "
      "directory)")("order", po::value<std::string>(),
                    "BDD variable order in bddbddb syntax (overrides .bddvarorder)")(
      "quiet,q", "no warnings or progress on stderr");
  return options;
}

std::optional<CheckArguments> parse_arguments(int argc, char** argv) {
  const std::optional<po::variables_map> parsed = parse_command_line_with_program(
      argc, argv, check_options(),
      "\nParses and checks the program, then loads its inputs and plans its rules without "
      "solving.\nExit 0 if all of it reads; 1 naming the first construct refract rejects, every "
      "input\nfile that is not there, or the input that does not load.\n");
  if (!parsed) return std::nullopt;
  const po::variables_map& vm = *parsed;
  if (!vm.count("program")) throw po::error("missing PROGRAM.datalog");
  CheckArguments args;
  args.program = vm["program"].as<std::string>();
  if (vm.count("input-dir")) args.input_dir = vm["input-dir"].as<std::string>();
  if (vm.count("order")) args.order = vm["order"].as<std::string>();
  args.quiet = vm.count("quiet") != 0;
  return args;
}

int run_check(const CheckArguments& args) {
  const solver::Program program =
      read_datalog_program(args.program, args.quiet ? nullptr : &std::cerr);
  solver::EngineOptions options;
  read_as_bddbddb(options);
  options.input_dir = input_directory(program, args.program, args.input_dir);
  options.var_order = args.order;
  options.progress = args.quiet ? nullptr : &std::cerr;
  options.plan_only = true;

  std::size_t missing = 0;
  for (const InputFile& input : input_files(program, options.input_dir)) {
    if (std::filesystem::exists(input.path)) continue;
    std::cerr << input.path.string() << ": missing input file (the " << input.needed_by << ")\n";
    ++missing;
  }
  if (missing > 0) {
    std::cerr << args.program << ": the program reads; " << missing << " input file(s) missing\n";
    return kExitBadInput;
  }
  solver::Engine engine(program, options);
  engine.run();
  std::cout << args.program << ": reads, with its inputs: " << program.domains.size()
            << " domains, " << program.relations.size() << " relations, " << program.rules.size()
            << " rules\n";
  return kExitOk;
}

}  // namespace

int check_command(int argc, char** argv) {
  return run_command<po::error>(
      "check", [&]() { return parse_arguments(argc, argv); },
      [](const CheckArguments& args) { return run_check(args); });
}

}  // namespace refract::cli
