// The meaning of a parsed program: names resolve, arities and domains agree, every
// variable has a domain, constants fit their domains, numbering rules have their shape. A
// variable no positive atom binds is legal: as in bddbddb, it ranges over its whole domain
// (unbound_variables, ast.hpp). The evaluators rely on a program that passed check_program().
#pragma once

#include <string>
#include <vector>

#include "solver/ast.hpp"

namespace refract::solver {

// Throws InputError, located at the offending token, on the first problem.
void check_program(const Program& program);

// Legal but suspicious code, as "FILE:LINE:COL: warning: ..." lines: a body
// relation that is never defined nor an input (it stays empty), a variable
// occurring only once in a rule (bddbddb rejects that; refract warns). The
// parser appends these to Program::warnings; constructs the checker cannot
// resolve (unknown relations, wrong arities) are left to check_program().
std::vector<std::string> program_warnings(const Program& program);

}  // namespace refract::solver
