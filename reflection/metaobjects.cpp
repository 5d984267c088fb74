#include "reflection/metaobjects.hpp"

#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "frontend/fact_extractor.hpp"
#include "frontend/names.hpp"
#include "reflection/api.hpp"
#include "strings/string_coloring.hpp"

namespace refract::reflection {

namespace {

using frontend::FactDatabase;
using frontend::FactDomain;

constexpr std::string_view kClassType = "java.lang.Class";
constexpr std::string_view kObjectType = "java.lang.Object";
constexpr std::string_view kMethodType = "java.lang.reflect.Method";
constexpr std::string_view kFieldType = "java.lang.reflect.Field";
constexpr std::string_view kConstructorType = "java.lang.reflect.Constructor";

// The prefix of partial objects named by a string: the string's H name and ">" follow.
constexpr std::string_view kNamedPrefixes[] = {
    "<reflect public methods named ", "<reflect declared methods named ",
    "<reflect public fields named ", "<reflect declared fields named "};

void declare(FactDatabase& facts, const char* name, std::vector<frontend::FactAttribute> attrs,
             const char* meaning) {
  facts.add_relation(name, std::move(attrs), meaning);
}

void declare_relations(FactDatabase& facts) {
  facts.add_domain("R", "the rules of the reflection analysis that found a target");
  declare(facts, "MethodObject", {{"heap", "H"}, {"method", "M"}},
          "the Method or Constructor object of a method: Solar's m^t_s, everything known");
  declare(facts, "FieldObject", {{"heap", "H"}, {"field", "F"}},
          "the Field object of a field: Solar's f^t_s, everything known");
  declare(facts, "PartialMethodObject", {{"heap", "H"}},
          "a Method object with its class or its name unknown (m^t_u, m^u_s, m^u_u)");
  declare(facts, "PartialFieldObject", {{"heap", "H"}},
          "a Field object with its class or its name unknown (f^t_u, f^u_s, f^u_u)");
  declare(facts, "PartialConstructorObject", {{"heap", "H"}},
          "a Constructor object of an unknown class");
  declare(facts, "PartialClass", {{"heap", "H"}, {"type", "T"}},
          "the class of a partial metaobject, when known");
  declare(facts, "PartialName", {{"heap", "H"}, {"string", "H"}},
          "the string object naming a partial metaobject's member, when known");
  declare(facts, "DeclaredScope", {{"heap", "H"}},
          "a partial metaobject of getDeclared*: members the class declares, any access");
  declare(facts, "UnknownClassObject", {{"heap", "H"}, {"invoke", "I"}},
          "the Class object c^u of an unknown class, made at an entry call site");
  declare(facts, "UnknownObject", {{"heap", "H"}, {"invoke", "I"}},
          "the object o^u of unknown type a newInstance call site makes ([L-UkwTp])");
  declare(facts, "ReflectiveObject", {{"heap", "H"}, {"type", "T"}},
          "the object reflection allocates of an instantiable class or array type");
  declare(facts, "MetaArray", {{"heap", "H"}, {"invoke", "I"}},
          "the array a getMethods-like call site returns");
  declare(facts, "StringNamesClass", {{"string", "H"}, {"type", "T"}},
          "a string constant equal to a class's binary name (or an array's descriptor name)");
  declare(facts, "StringNamesMethod", {{"string", "H"}, {"method", "M"}},
          "a string constant equal to a method's name (constructors and <clinit> excluded)");
  declare(facts, "NameSelectingString", {{"string", "H"}},
          "a member-naming string that string merging keeps apart: the only strings that "
          "select members by name alone ([I-InvS2T], [I-GetS2T], [I-SetS2T])");
  declare(facts, "ConstructorOf", {{"type", "T"}, {"method", "M"}}, "a constructor of a class");
  declare(facts, "NoArgConstructor", {{"type", "T"}, {"method", "M"}},
          "the constructor without parameters of a class");
  declare(facts, "PrimitiveBox", {{"primitive", "T"}, {"box", "T"}},
          "a primitive type and the class of its boxed values");
  declare(facts, "NextIndex", {{"index", "Z"}, {"next", "Z"}}, "next = index + 1");
}

std::optional<std::uint64_t> find(const FactDomain& domain, std::string_view name) {
  if (!domain.contains(name)) return std::nullopt;
  return domain.at(name);
}

// A JVM array descriptor for a type in Java source form: "int[]" -> "[I", "a.B[][]" ->
// "[[La.B;"; nothing for a type that is not an array (Class.forName names arrays this way).
std::optional<std::string> array_descriptor_name(std::string_view type) {
  std::size_t dims = 0;
  while (type.size() >= 2 && type.substr(type.size() - 2) == "[]") {
    type.remove_suffix(2);
    ++dims;
  }
  if (dims == 0) return std::nullopt;
  static const std::map<std::string_view, char> kPrimitive = {
      {"boolean", 'Z'}, {"byte", 'B'}, {"char", 'C'},  {"short", 'S'},
      {"int", 'I'},     {"long", 'J'}, {"float", 'F'}, {"double", 'D'}};
  std::string out(dims, '[');
  if (const auto p = kPrimitive.find(type); p != kPrimitive.end()) return out + p->second;
  return out + "L" + std::string(type) + ";";
}

class MetaobjectBuilder {
 public:
  explicit MetaobjectBuilder(FactDatabase& facts) : facts_(facts) {}

  MetaobjectCounts build();

 private:
  std::uint64_t type(std::string_view name) { return facts_.domain("T").intern(name); }
  // A new heap object of the type named `type_name`.
  std::uint64_t heap(const std::string& name, std::uint64_t heap_type) {
    const std::uint64_t h = facts_.domain("H").intern(name);
    facts_.relation("HeapType").add({h, heap_type});
    return h;
  }
  void add_string_names();
  void add_member_objects();
  void add_partial_objects();
  void add_site_objects();
  void add_reflective_objects();
  void add_helpers();

  FactDatabase& facts_;
  MetaobjectCounts counts_;
  std::set<std::uint64_t> method_naming_, field_naming_;  // string constants naming members
};

MetaobjectCounts MetaobjectBuilder::build() {
  declare_relations(facts_);
  add_string_names();
  add_member_objects();
  add_partial_objects();
  add_site_objects();
  add_reflective_objects();
  add_helpers();
  std::set<std::uint64_t> naming = method_naming_;
  naming.insert(field_naming_.begin(), field_naming_.end());
  counts_.member_naming_strings = naming.size();
  return counts_;
}

// [P-ForName]'s toClass and the name parts of [P-GetMtd]/[P-GetFld]: which constants name
// which classes and members. Constants are H elements named by their Java literal.
void MetaobjectBuilder::add_string_names() {
  const auto constant_by_literal = frontend::string_constants_by_literal(facts_);
  auto constant = [&](std::string_view text) -> std::optional<std::uint64_t> {
    const auto it = constant_by_literal.find(frontend::string_literal(text));
    if (it == constant_by_literal.end()) return std::nullopt;
    return it->second;
  };
  // forName takes the binary name of a class or interface, an array's descriptor, and nothing
  // else: "int" and "java.lang.String[]" throw (under insens they reached forName sites before).
  std::set<std::uint64_t> named_by_binary_name;
  for (const char* relation : {"ClassType", "InterfaceType"})
    for (const auto& t : facts_.relation(relation).sorted_tuples())
      named_by_binary_name.insert(t[0]);
  const std::vector<std::string> types = facts_.domain("T").names();
  for (std::uint64_t t = 0; t < types.size(); ++t) {
    if (named_by_binary_name.contains(t))
      if (const auto s = constant(types[t])) facts_.relation("StringNamesClass").add({*s, t});
    if (const auto descriptor = array_descriptor_name(types[t]))
      if (const auto s = constant(*descriptor)) facts_.relation("StringNamesClass").add({*s, t});
  }
  const std::vector<std::string>& methods = facts_.domain("M").names();
  for (const auto& t : facts_.relation("MethodDeclared").sorted_tuples()) {
    const std::string name = frontend::member_name(methods[t[0]]);
    if (name == "<init>" || name == "<clinit>") continue;
    if (const auto s = constant(name)) {
      facts_.relation("StringNamesMethod").add({*s, t[0]});
      method_naming_.insert(*s);
    }
  }
  // StringNamesField is the front end's (Unsafe.objectFieldOffset selects by name too).
  for (const auto& t : facts_.relation("StringNamesField").sorted_tuples())
    field_naming_.insert(t[0]);
  for (const std::uint64_t s : strings::strings_kept_apart(facts_)) {
    if (method_naming_.count(s) != 0 || field_naming_.count(s) != 0)
      facts_.relation("NameSelectingString").add({s});
  }
}

// Member objects, what getMethod & co. return once class and name are known: for the members
// a string constant names ([P-GetMtd], [P-GetFld], [I-InvTp], [I-*S2T] select by name), every
// constructor (getConstructor(s) on a known class) and the members annotations or a TamiFlex
// log name. Other members are reached only through a partial object (m^t_u): [I-*Sig] and
// target search make them targets of a site, not objects. <clinit> is no member reflection
// can reach.
void MetaobjectBuilder::add_member_objects() {
  const std::uint64_t method_type = type(kMethodType);
  const std::uint64_t constructor_type = type(kConstructorType);
  const std::uint64_t field_type = type(kFieldType);
  std::set<std::uint64_t> wanted_methods, wanted_fields;
  for (const auto& t : facts_.relation("StringNamesMethod").sorted_tuples())
    wanted_methods.insert(t[1]);
  for (const auto& t : facts_.relation("StringNamesField").sorted_tuples())
    wanted_fields.insert(t[1]);
  for (const char* r : {"AnnotatedMethod", "LoggedMethod"})
    for (const auto& t : facts_.relation(r).sorted_tuples()) wanted_methods.insert(t[1]);
  for (const char* r : {"AnnotatedField", "LoggedField"})
    for (const auto& t : facts_.relation(r).sorted_tuples()) wanted_fields.insert(t[1]);
  const std::vector<std::string> methods = facts_.domain("M").names();
  for (const auto& t : facts_.relation("MethodDeclared").sorted_tuples()) {
    const std::string name = frontend::member_name(methods[t[0]]);
    if (name == "<clinit>") continue;
    const bool constructor = name == "<init>";
    if (constructor) {
      facts_.relation("ConstructorOf").add({t[1], t[0]});
      if (methods[t[0]].ends_with(" <init>()>"))
        facts_.relation("NoArgConstructor").add({t[1], t[0]});
    }
    if (!constructor && wanted_methods.count(t[0]) == 0) continue;
    const std::uint64_t h =
        heap("<reflect " + methods[t[0]] + ">", constructor ? constructor_type : method_type);
    facts_.relation("MethodObject").add({h, t[0]});
    ++counts_.member_objects;
  }
  const std::vector<std::string> fields = facts_.domain("F").names();
  for (const auto& t : facts_.relation("FieldDeclared").sorted_tuples()) {
    if (wanted_fields.count(t[0]) == 0) continue;
    const std::uint64_t h = heap("<reflect " + fields[t[0]] + ">", field_type);
    facts_.relation("FieldObject").add({h, t[0]});
    ++counts_.member_objects;
  }
}

// Solar's objects with an unknown part, for each scope (public members with inherited ones,
// or members the class declares): per class read (m^t_u), per member-naming string (m^u_s), and
// one with both parts unknown (m^u_u); constructors of an unknown class.
void MetaobjectBuilder::add_partial_objects() {
  const std::uint64_t method_type = type(kMethodType);
  const std::uint64_t constructor_type = type(kConstructorType);
  const std::uint64_t field_type = type(kFieldType);
  const std::vector<std::string> types = facts_.domain("T").names();
  const std::vector<std::string> heaps = facts_.domain("H").names();
  std::set<std::uint64_t> phantoms;
  for (const auto& t : facts_.relation("PhantomType").sorted_tuples()) phantoms.insert(t[0]);
  std::set<std::uint64_t> classes;
  for (const char* r : {"ClassType", "InterfaceType"})
    for (const auto& t : facts_.relation(r).sorted_tuples())
      if (phantoms.count(t[0]) == 0) classes.insert(t[0]);
  for (const bool declared : {false, true}) {
    const std::string scope = declared ? "declared" : "public";
    auto partial = [&](const std::string& name, std::uint64_t heap_type, const char* kind) {
      const std::uint64_t h = heap(name, heap_type);
      facts_.relation(kind).add({h});
      if (declared) facts_.relation("DeclaredScope").add({h});
      ++counts_.partial_objects;
      return h;
    };
    for (const std::uint64_t t : classes) {
      const std::uint64_t m = partial("<reflect " + scope + " methods of " + types[t] + ">",
                                      method_type, "PartialMethodObject");
      facts_.relation("PartialClass").add({m, t});
      const std::uint64_t f = partial("<reflect " + scope + " fields of " + types[t] + ">",
                                      field_type, "PartialFieldObject");
      facts_.relation("PartialClass").add({f, t});
    }
    for (const std::uint64_t s : method_naming_) {
      const std::uint64_t m =
          partial(std::string(kNamedPrefixes[declared ? 1 : 0]) + heaps[s] + ">", method_type,
                  "PartialMethodObject");
      facts_.relation("PartialName").add({m, s});
    }
    for (const std::uint64_t s : field_naming_) {
      const std::uint64_t f =
          partial(std::string(kNamedPrefixes[declared ? 3 : 2]) + heaps[s] + ">", field_type,
                  "PartialFieldObject");
      facts_.relation("PartialName").add({f, s});
    }
    partial("<reflect " + scope + " methods of ?>", method_type, "PartialMethodObject");
    partial("<reflect " + scope + " fields of ?>", field_type, "PartialFieldObject");
    partial("<reflect " + scope + " constructors of ?>", constructor_type,
            "PartialConstructorObject");
  }
}

// Objects made per call site: the unknown class of an entry call, the unknown object of a
// newInstance call, the array a getMethods-like call returns (typed as the method returns it).
void MetaobjectBuilder::add_site_objects() {
  const std::vector<std::string> invokes = facts_.domain("I").names();
  const std::uint64_t class_type = type(kClassType);
  const std::uint64_t object_type = type(kObjectType);
  std::map<std::uint64_t, std::uint64_t> return_type;
  for (const auto& t : facts_.relation("ReturnType").sorted_tuples()) return_type[t[0]] = t[1];
  std::map<std::uint64_t, std::uint64_t> target;
  for (const auto& t : facts_.relation("StaticCall").sorted_tuples()) target[t[0]] = t[1];
  for (const auto& t : facts_.relation("VirtualCall").sorted_tuples()) target[t[0]] = t[2];
  for (const auto& t : facts_.relation("SpecialCall").sorted_tuples()) target[t[0]] = t[2];
  for (const auto& [invoke, kind] : api_call_sites(facts_)) {
    switch (kind) {
      case ApiKind::kForName:
      case ApiKind::kLoadClass:
        facts_.relation("UnknownClassObject")
            .add({heap("<unknown class from " + invokes[invoke] + ">", class_type), invoke});
        ++counts_.unknown_classes;
        break;
      case ApiKind::kClassNewInstance:
      case ApiKind::kConstructorNewInstance:
        facts_.relation("UnknownObject")
            .add({heap("<unknown object from " + invokes[invoke] + ">", object_type), invoke});
        ++counts_.unknown_objects;
        break;
      case ApiKind::kGetMethods:
      case ApiKind::kGetDeclaredMethods:
      case ApiKind::kGetFields:
      case ApiKind::kGetDeclaredFields:
      case ApiKind::kGetConstructors:
      case ApiKind::kGetDeclaredConstructors:
      case ApiKind::kGetInterfaces: {
        const auto returned = return_type.find(target.at(invoke));
        if (returned == return_type.end()) break;
        facts_.relation("MetaArray")
            .add({heap("<reflect array from " + invokes[invoke] + ">", returned->second), invoke});
        ++counts_.metaobject_arrays;
        break;
      }
      default:
        break;
    }
  }
}

// What newInstance and Array.newInstance allocate: one object per instantiable class
// ([L-KwTp], and [L-Cast]/[L-Inv]/[L-GSet] for unknown ones) and per array type.
void MetaobjectBuilder::add_reflective_objects() {
  const std::vector<std::string> types = facts_.domain("T").names();
  std::set<std::uint64_t> not_instantiable;
  for (const char* r : {"AbstractType", "PhantomType", "InterfaceType"})
    for (const auto& t : facts_.relation(r).sorted_tuples()) not_instantiable.insert(t[0]);
  std::set<std::uint64_t> instantiable;
  for (const auto& t : facts_.relation("ClassType").sorted_tuples())
    if (not_instantiable.count(t[0]) == 0) instantiable.insert(t[0]);
  for (const auto& t : facts_.relation("ArrayType").sorted_tuples()) instantiable.insert(t[0]);
  for (const std::uint64_t t : instantiable) {
    facts_.relation("ReflectiveObject").add({heap("<reflective new " + types[t] + ">", t), t});
    ++counts_.reflective_objects;
  }
}

void MetaobjectBuilder::add_helpers() {
  static const std::pair<std::string_view, std::string_view> kBoxes[] = {
      {"boolean", "java.lang.Boolean"}, {"byte", "java.lang.Byte"},
      {"char", "java.lang.Character"},  {"short", "java.lang.Short"},
      {"int", "java.lang.Integer"},     {"long", "java.lang.Long"},
      {"float", "java.lang.Float"},     {"double", "java.lang.Double"}};
  const FactDomain& types = facts_.domain("T");
  for (const auto& [primitive, box] : kBoxes) {
    const auto p = find(types, primitive), b = find(types, box);
    if (p && b) facts_.relation("PrimitiveBox").add({*p, *b});
  }
  const std::uint64_t positions = facts_.domain("Z").size();
  for (std::uint64_t z = 0; z + 1 < positions; ++z) facts_.relation("NextIndex").add({z, z + 1});
  FactDomain& rules = facts_.domain("R");
  for (const std::string& rule : reflection_rule_names()) rules.intern(rule);
}

}  // namespace

MetaobjectCounts add_reflection_facts(frontend::FactDatabase& facts) {
  return MetaobjectBuilder(facts).build();
}

std::map<std::uint64_t, std::string> merge_named_metaobjects(
    const frontend::FactDatabase& facts, const std::map<std::uint64_t, std::string>& string_merge) {
  std::map<std::uint64_t, std::string> out;
  const std::vector<std::string>& heaps = facts.domain("H").names();
  for (const auto& t : facts.relation("PartialName").sorted_tuples()) {
    const auto merged = string_merge.find(t[1]);
    if (merged == string_merge.end()) continue;
    const std::string& name = heaps[t[0]];
    const std::string prefix = name.substr(0, name.size() - heaps[t[1]].size() - 1);
    out.emplace(t[0], prefix + merged->second + ">");
  }
  return out;
}

std::vector<std::uint64_t> context_free_metaobjects(const frontend::FactDatabase& facts) {
  std::set<std::uint64_t> heaps;
  for (const char* r : {"MethodObject", "FieldObject", "PartialMethodObject", "PartialFieldObject",
                        "PartialConstructorObject", "UnknownClassObject", "MetaArray"})
    for (const auto& t : facts.relation(r).sorted_tuples()) heaps.insert(t[0]);
  return {heaps.begin(), heaps.end()};
}

const std::vector<std::string>& reflection_rule_names() {
  static const std::vector<std::string> kRules = {
      "P-ForName", "P-GetMtd",   "P-GetFld", "P-GetCtor", "I-InvTp",        "I-InvSig", "I-InvS2T",
      "I-GetTp",   "I-GetSig",   "I-GetS2T", "I-SetTp",   "I-SetSig",       "I-SetS2T", "L-KwTp",
      "L-UkwTp",   "L-Cast",     "L-Inv",    "L-GSet",    "T-Inv",          "T-Get",    "T-Set",
      "Array",     "annotation", "tamiflex", "services",  "module-services"};
  return kRules;
}

}  // namespace refract::reflection
