// The heap objects and helper relations that the reflection rules (reflection/*.datalog) read,
// added to a program's facts before strings are merged and the heap domain is numbered
// (DESIGN.md, "Reflection as relations"; Solar paper, Fig. 19).
//
// Metaobjects are heap objects with relations that say what they stand for:
// - a member object `<reflect SIG>` per method and field a string constant names, per
//   constructor, and per member an annotation or a TamiFlex log names: Solar's m^t_s / f^t_s
//   once class and signature are known (MethodObject, FieldObject);
// - partial objects, Solar's objects with an unknown part u: per class and scope (`<reflect
//   public methods of a.B>`: m^t_u), per member-naming string constant and scope (`<reflect
//   declared fields named "f">`: f^u_s), and per scope with both unknown (`<reflect public
//   methods of ?>`: m^u_u); PartialClass and PartialName give the known parts, DeclaredScope
//   marks those found by getDeclared* (members declared by the class itself, any access)
//   against getMethod/getField (public members, inherited ones included);
// - an unknown Class object c^u per Class.forName / ClassLoader.loadClass call site, so that
//   the report can say which entry call made it (Sec. 4.5);
// - an object o^u of unknown type per newInstance call site ([L-UkwTp]), and one object per
//   instantiable class and array type for what reflection allocates ([L-KwTp], [L-Cast]);
// - an array per getMethods-like call site holding what it returns (Sec. 6).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "frontend/fact_database.hpp"

namespace refract::reflection {

struct MetaobjectCounts {
  std::uint64_t member_objects = 0;         // MethodObject and FieldObject
  std::uint64_t partial_objects = 0;        // Partial{Method,Field,Constructor}Object
  std::uint64_t unknown_classes = 0;        // UnknownClassObject: entry call sites
  std::uint64_t unknown_objects = 0;        // UnknownObject: newInstance call sites
  std::uint64_t reflective_objects = 0;     // ReflectiveObject: instantiable classes, arrays
  std::uint64_t metaobject_arrays = 0;      // MetaArray: getMethods-like call sites
  std::uint64_t member_naming_strings = 0;  // string constants naming a member
};

// Adds the metaobjects and the relations of reflection/README.md ("Facts the rules read") to
// `facts`, the front end's facts of a program (frontend/FACTS.md), before any merging.
MetaobjectCounts add_reflection_facts(frontend::FactDatabase& facts);

// The partial objects named by a string that `string_merge` merges (H element -> name of the
// object it becomes), merged the same way: `<reflect public methods named "foo">` becomes
// `<reflect public methods named <string constants, color 3>>`, so that a merged string
// selects one partial object, as the unmerged one does.
std::map<std::uint64_t, std::string> merge_named_metaobjects(
    const frontend::FactDatabase& facts, const std::map<std::uint64_t, std::string>& string_merge);

// The metaobjects that have no heap context under any flavour, as element numbers of `facts`
// (after merging): Class, Method, Field and Constructor objects and the arrays of them, which
// stand for the JVM's one object per member whatever the context. Sorted.
std::vector<std::uint64_t> context_free_metaobjects(const frontend::FactDatabase& facts);

// The rule names the rules write into the report relations (domain R), in element order.
const std::vector<std::string>& reflection_rule_names();

}  // namespace refract::reflection
