// The domains and relations `refract facts` writes, with their one-line meanings (they become
// comments in facts.datalog). frontend/FACTS.md documents each, and says which instruction
// makes its tuples.
#pragma once

#include "frontend/fact_database.hpp"

namespace refract::frontend {

// An empty database with every domain and relation of the schema declared.
FactDatabase make_fact_schema();

}  // namespace refract::frontend
