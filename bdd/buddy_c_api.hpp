// BuDDy's header switches to its C++ wrapper when compiled as C++ and renames
// several C functions with macros. refract wraps BuDDy itself, so this header
// (private to bdd/) restores the plain C API: BDDs are ints, 0 false, 1 true.
#pragma once

#include <bdd.h>

#undef bddtrue
#undef bddfalse
#undef bdd_init
#undef bdd_ithvar
#undef bdd_nithvar
#undef bdd_makeset
#undef bdd_ibuildcube
#undef bdd_anodecount

namespace refract::bdd::buddy {
constexpr BDD kFalse = 0;
constexpr BDD kTrue = 1;
}  // namespace refract::bdd::buddy
