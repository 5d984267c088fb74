// What `refract solve` and `refract check` share: reading a bddbddb program, where its inputs
// are, which input files it needs, and the engine options that make refract read it as
// bddbddb does.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "solver/ast.hpp"
#include "solver/engine.hpp"

namespace refract::cli {

// Parses and checks `file`; the parser's warnings go to `warnings` (null: dropped).
solver::Program read_datalog_program(const std::string& file, std::ostream* warnings);

// --input-dir, else the program's .basedir, else its folder. InputError if not a directory.
std::filesystem::path input_directory(const solver::Program& program, const std::string& file,
                                      const std::optional<std::string>& input_dir);

// The files solving would read from `input_dir`: domain maps, NAME.tuples of inputtuples
// relations and NAME.bdd of input relations, each with what needs it.
struct InputFile {
  std::filesystem::path path;
  std::string needed_by;  // "map of domain V", "relation vP0 (input)"
};
std::vector<InputFile> input_files(const solver::Program& program,
                                   const std::filesystem::path& input_dir);

// bddbddb's behaviours for orders that do not fit and names a map lacks
// (solver::EngineOptions::complete_var_order, new_elements_for_missing_names).
void read_as_bddbddb(solver::EngineOptions& options);

}  // namespace refract::cli
