// String constants merged by graph coloring before the heap domain is encoded (Grech,
// Kastrinis, Smaragdakis, ECOOP 2018, Sec. 4-5; ../shared/seeds/003_*.txt).
//
// Two string constants conflict when they name distinct members of the same kind (methods, or
// fields) of one class, its inherited members included: a reflective lookup on that class
// must still tell them apart. The conflict graph is then a union of cliques, one per class and
// kind. Colors are the paper's numbering: strings taken in lexicographic order, each gets one
// more than the largest color of a conflicting string before it (0 if none), so conflicting
// strings never share a color. All strings of one color become one abstract object.
//
// Kept apart, never merged (Sec. 5 and DESIGN.md): strings that equal a class name (the
// primary selectors of reflection), and strings allocated in a method that makes a reflective
// call (a superset of the strings that flow to a reflective call in their own method).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "frontend/fact_database.hpp"

namespace refract::strings {

struct StringColoring {
  // H elements (string constants) to merge -> the name of the object their color becomes,
  // `<string constants, color N>`. Constants kept apart are not listed.
  std::map<std::uint64_t, std::string> merge;
  std::uint64_t string_constants = 0;  // StringConstant elements before merging
  std::uint64_t kept_apart = 0;        // class names and strings of reflective methods
  std::uint64_t member_names = 0;      // merged constants that name some member
  std::uint64_t colors = 0;            // objects the merged constants became
  std::uint64_t largest_clique = 0;    // most member-name constants of one class and kind
};

// The string constants (H elements of `facts`) that the coloring never merges: those equal to a
// class name, and those allocated in a method that makes a reflective call. The reflection
// rules let only these select members by name alone ([I-InvS2T] and its field forms), so that
// merging the others cannot change what reflection resolves.
std::set<std::uint64_t> strings_kept_apart(const frontend::FactDatabase& facts);

// Colors the string constants of `facts` (StringConstant, H names as frontend's
// string_literal writes them, MethodDeclared/FieldDeclared with Soot signatures, SubtypeOf,
// T names, Alloc, VarMethod, ReflectiveCall, CallIn).
StringColoring color_string_constants(const frontend::FactDatabase& facts);

// The same in two parts where the facts have a JDK's part (FactDatabase::jdk_part_size): the
// JDK's constants as the JDK's part alone colors them, so that the objects they become are the
// same for every program (issue 35), and the program's own constants in colors of their own
// (`<program string constants, color N>`), with the conflicts of every class. A JDK constant
// that only the program would keep apart (a member name of its classes, a string of its
// reflective methods) then shares a color: for the reflection rules, which let only constants
// kept apart select members by name, that loses targets, so `refract analyze` colors by part
// only under --reflection none. Stats (string_constants, kept_apart, ...) add up both parts.
StringColoring color_string_constants_by_part(const frontend::FactDatabase& facts);

// Writes `CONSTANT<TAB>OBJECT` per merged constant, sorted, the constant as the H map of the
// unmerged facts names it: what each color object stands for. Atomic (temporary, then renamed).
void write_string_colors(const std::filesystem::path& file, const StringColoring& coloring,
                         const frontend::FactDatabase& unmerged_facts);

}  // namespace refract::strings
