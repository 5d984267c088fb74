#include "cli/datalog_program.hpp"

#include <ostream>

#include "solver/checker.hpp"
#include "solver/parser.hpp"
#include "support/error.hpp"

namespace refract::cli {

solver::Program read_datalog_program(const std::string& file, std::ostream* warnings) {
  solver::Program program = solver::parse_program_file(file);
  solver::check_program(program);
  if (warnings != nullptr)
    for (const std::string& warning : program.warnings) *warnings << warning << '\n';
  return program;
}

std::filesystem::path input_directory(const solver::Program& program, const std::string& file,
                                      const std::optional<std::string>& input_dir) {
  std::filesystem::path dir = input_dir          ? std::filesystem::path(*input_dir)
                              : program.base_dir ? std::filesystem::path(*program.base_dir)
                                                 : std::filesystem::path(file).parent_path();
  if (dir.empty()) dir = ".";
  if (!std::filesystem::is_directory(dir))
    throw InputError({dir.string()}, "input directory does not exist");
  return dir;
}

std::vector<InputFile> input_files(const solver::Program& program,
                                   const std::filesystem::path& input_dir) {
  std::vector<InputFile> out;
  for (const solver::DomainDecl& d : program.domains)
    if (d.map_file) out.push_back({input_dir / *d.map_file, "map of domain " + d.name});
  for (const solver::RelationDecl& r : program.relations) {
    if (r.has(solver::RelationFlag::kInputTuples))
      out.push_back({input_dir / (r.name + ".tuples"), "relation " + r.name + " (inputtuples)"});
    else if (r.has(solver::RelationFlag::kInput))
      out.push_back({input_dir / (r.name + ".bdd"), "relation " + r.name + " (input)"});
  }
  return out;
}

void read_as_bddbddb(solver::EngineOptions& options) {
  options.complete_var_order = true;
  options.new_elements_for_missing_names = true;
}

}  // namespace refract::cli
