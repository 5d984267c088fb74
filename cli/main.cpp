// refract: static analysis of Java reflection on BDDs. Dispatches subcommands.
#include <cstring>
#include <iostream>
#include <string>

#include "cli/commands.hpp"

namespace {

void print_usage(std::ostream& out) {
  out << "usage: refract <command> [options]\n\n"
         "commands:\n"
         "  solve    evaluate a bddbddb-style Datalog program on BDDs\n"
         "  check    read a bddbddb-style Datalog program and its inputs without solving\n"
         "  facts    write the input relations of a Java program (jars, class folders, jmods)\n"
         "  ir       print the three-address IR of Java classes\n"
         "  analyze  points-to analysis and call graph of a Java program with the JDK\n"
         "  compare  one program under several encodings side by side (tables, charts)\n"
         "  order-search  variable orders for a program, tried on a bounded solve and ranked\n"
         "  cache    list or clear the cached JDK start-up fixpoints `analyze` starts from\n\n"
         "Run 'refract <command> --help' for the options of a command.\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(std::cerr);
    return refract::cli::kExitUsage;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    print_usage(std::cout);
    return refract::cli::kExitOk;
  }
  if (command == "solve") return refract::cli::solve_command(argc - 1, argv + 1);
  if (command == "check") return refract::cli::check_command(argc - 1, argv + 1);
  if (command == "facts") return refract::cli::facts_command(argc - 1, argv + 1);
  if (command == "ir") return refract::cli::ir_command(argc - 1, argv + 1);
  if (command == "analyze") return refract::cli::analyze_command(argc - 1, argv + 1);
  if (command == "compare") return refract::cli::compare_command(argc - 1, argv + 1);
  if (command == "order-search") return refract::cli::order_search_command(argc - 1, argv + 1);
  if (command == "cache") return refract::cli::cache_command(argc - 1, argv + 1);
  std::cerr << "refract: unknown command '" << command << "'\n";
  print_usage(std::cerr);
  return refract::cli::kExitUsage;
}
