// Reads bddbddb Datalog text into a Program: domains, relations, rules and
// directives, with `.include`d files expanded in place. Throws InputError
// naming FILE:LINE:COL of the first token it cannot accept. Parsing checks
// syntax only; check_program() (checker.hpp) checks meaning. The parser does
// fill Program::warnings, with its own (directives refract ignores) and with
// program_warnings() (checker.hpp), since check_program() cannot add any.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "solver/ast.hpp"

namespace refract::solver {

// Reads and parses `file`; `.include` and `.basedir` are relative to its folder.
Program parse_program_file(const std::filesystem::path& file);

// Parses `text` as if read from `file_name` (used in locations) in `directory`
// (where `.include` and `.basedir` paths start).
Program parse_program_text(std::string_view text, const std::string& file_name,
                           const std::filesystem::path& directory);

}  // namespace refract::solver
