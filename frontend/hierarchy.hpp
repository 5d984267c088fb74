// The class hierarchy of a class path, as the JVM links it: classes are read and parsed the
// first time something asks for them and kept; a class that is asked for but absent is a
// phantom, listed with whatever referred to it. On top of that: supertypes and subtypes,
// the subtype test of checkcast/instanceof (arrays included), method and field resolution
// (JVMS 17 5.4.3.2-5.4.3.4), method selection for invokevirtual/invokeinterface (5.4.6, with
// the overriding rule of 5.4.5) and for invokespecial (6.5), nest mates (5.4.4), and the
// dispatch table of a concrete class.
//
// Names are the JVM's: classes by binary name in internal form ("java/lang/String"), arrays by
// descriptor ("[I", "[Ljava/lang/String;") wherever a CONSTANT_Class may name an array.
// The run-time package of a class is its package name: refract models one class loader.
//
// Not safe for concurrent use (loading mutates the cache). Pointers it hands out (ClassFile,
// MethodInfo, FieldInfo and the string_views into them) stay valid as long as the hierarchy.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/class_file.hpp"
#include "frontend/class_path.hpp"

namespace refract::frontend {

// A method declared by a loaded class.
struct MethodDecl {
  const ClassFile* owner = nullptr;
  const MethodInfo* method = nullptr;

  explicit operator bool() const { return method != nullptr; }
  std::string_view class_name() const { return owner->this_class; }
  std::string_view name() const { return method->name; }
  std::string_view descriptor() const { return method->descriptor; }
  std::uint16_t access_flags() const { return method->access_flags; }
  bool is_static() const { return (method->access_flags & access::kStatic) != 0; }
  bool is_private() const { return (method->access_flags & access::kPrivate) != 0; }
  bool is_abstract() const { return (method->access_flags & access::kAbstract) != 0; }
  // Soot signature "<a.B: ret name(params)>". The class file parser does not check
  // descriptors, so a malformed one is a DescriptorError here.
  std::string signature() const;

  friend bool operator==(const MethodDecl& a, const MethodDecl& b) { return a.method == b.method; }
};

// A field declared by a loaded class.
struct FieldDecl {
  const ClassFile* owner = nullptr;
  const FieldInfo* field = nullptr;

  explicit operator bool() const { return field != nullptr; }
  std::string_view class_name() const { return owner->this_class; }
  std::string_view name() const { return field->name; }
  std::string_view descriptor() const { return field->descriptor; }
  bool is_static() const { return (field->access_flags & access::kStatic) != 0; }
  // Soot signature "<a.B: type name>"; a malformed descriptor is a DescriptorError.
  std::string signature() const;

  friend bool operator==(const FieldDecl& a, const FieldDecl& b) { return a.field == b.field; }
};

// How a resolution or selection ended. The JVM would throw the error in brackets.
enum class LookupStatus : std::uint8_t {
  kFound,
  // Nothing was found, and a class the search had to look at is absent (a phantom, see
  // `phantom`), so the answer is unknown. Searches step over absent superinterfaces and
  // answer from the classes they know; an absent superclass ends the superclass chain.
  kPhantom,
  kNotFound,      // [NoSuchMethodError, NoSuchFieldError, AbstractMethodError]
  kIncompatible,  // [IncompatibleClassChangeError]: e.g. a Methodref naming an interface, or
                  // several maximally-specific default methods at selection
};

// "found", "phantom", "not found", "incompatible".
std::string_view lookup_status_name(LookupStatus status);

struct MethodLookup {
  LookupStatus status = LookupStatus::kNotFound;
  MethodDecl method;    // when kFound
  std::string phantom;  // when kPhantom: the first absent class met
  bool found() const { return status == LookupStatus::kFound; }
};

struct FieldLookup {
  LookupStatus status = LookupStatus::kNotFound;
  FieldDecl field;
  std::string phantom;
  bool found() const { return status == LookupStatus::kFound; }
};

// A class that was needed but is not on the class path.
struct Phantom {
  std::string name;                     // binary name
  std::vector<std::string> referrers;   // sorted, each once: what note_reference was told
  std::vector<std::string> subclasses;  // loaded classes naming it as a direct supertype
};

// One row of a dispatch table: a virtual call whose resolved method is `resolved`, on a
// receiver of the table's class, runs `selected`.
struct DispatchEntry {
  MethodDecl resolved;
  MethodDecl selected;
};

// A class that failed to parse while skip_bad_classes was on.
struct SkippedClass {
  std::string name;
  std::string message;  // "ORIGIN:OFFSET: message"
};

class ClassHierarchy {
 public:
  // `path` must outlive the hierarchy.
  explicit ClassHierarchy(const ClassPath& path);
  ClassHierarchy(const ClassHierarchy&) = delete;
  ClassHierarchy& operator=(const ClassHierarchy&) = delete;
  ~ClassHierarchy();

  // --- loading ---------------------------------------------------------------------------
  // Where classes come from: asking it whether a name is there makes no phantom.
  const ClassPath& class_path() const { return path_; }
  // The class, parsed on first request; nullptr if it is not on the class path (it is then a
  // phantom) or `name` is an array. A class that does not parse is an InputError (a
  // ClassFormatError), unless skip_bad_classes is on: then it is skipped and a phantom.
  const ClassFile* find(std::string_view name);
  // Whether the class is (or would be) on the class path; loads it.
  bool exists(std::string_view name) { return find(name) != nullptr; }
  // Loads every class of the class path (`include_jdk`: the JDK's too), as `refract ... --all`.
  void load_all(bool include_jdk);
  // The loaded classes, sorted by name.
  std::vector<const ClassFile*> loaded_classes() const;
  std::size_t loaded_count() const { return loaded_count_; }

  void set_skip_bad_classes(bool skip) { skip_bad_classes_ = skip; }
  const std::vector<SkippedClass>& skipped_classes() const { return skipped_; }
  // From now on a JDK class not read yet is not read: it is a phantom. For the classes a
  // program adds to its closed world without its main class reaching them by name
  // (ProgramScope::add_late_root): the JDK classes only they name stay out.
  void seal_jdk() { jdk_sealed_ = true; }
  // Classes another hierarchy over the same class path read (its loaded_classes(), when a
  // ProgramScope resumes after its walk): this one reads them when first asked for, also
  // after seal_jdk, as that one would have them.
  void admit_read_classes(const std::vector<std::string>& names);

  // --- phantoms --------------------------------------------------------------------------
  // Records that `referrer` (a method signature, usually) refers to class `name`. An array
  // name refers to its element class; primitives refer to nothing. Returns whether the class
  // is a phantom (and so was recorded).
  bool note_reference(std::string_view name, std::string_view referrer);
  // Whether `name` (an array: its element class) is absent from the class path.
  bool is_phantom(std::string_view name);
  // Every class found absent so far, sorted by name, with who referred to it.
  std::vector<Phantom> phantoms() const;
  std::size_t phantom_count() const { return phantoms_.size(); }

  // --- supertypes and subtypes -----------------------------------------------------------
  // The direct superclass, if the class is loaded and has one.
  std::optional<std::string_view> superclass(std::string_view name);
  // The superclass chain above `name`, nearest first, up to java/lang/Object or to the first
  // phantom (which is included: it is known to be a supertype).
  std::vector<std::string_view> superclasses(std::string_view name);
  // Every interface the class or interface implements or extends, directly or through its
  // superclasses and superinterfaces; each once, nearest first (breadth first).
  std::vector<std::string_view> superinterfaces(std::string_view name);
  // Whether a value of type `sub` may be assigned to `super` (the rules of checkcast and
  // instanceof, JVMS 6.5): reflexive; every class and interface is a subtype of Object; an
  // array is a subtype of Object, Cloneable and java.io.Serializable, and of TC[] when its
  // element type is the same primitive or a reference subtype of TC. Unknown (phantom)
  // supertypes are not followed, so the answer is false where they would be needed.
  bool is_subtype(std::string_view sub, std::string_view super);
  // The loaded classes and interfaces that are subtypes of `name`, itself included if loaded,
  // sorted by name. Only what has been loaded is seen: load_all() first for the full answer.
  std::vector<std::string_view> subtypes(std::string_view name);

  // --- resolution (JVMS 5.4.3) -----------------------------------------------------------
  // `referrer` (if not empty) is noted against every phantom the search meets.
  // Method resolution for a Methodref (5.4.3.3): the class itself (including a signature
  // polymorphic method of MethodHandle/VarHandle, 2.9.3), its superclasses, then the
  // maximally-specific superinterface methods. An interface owner is kIncompatible; an array
  // owner resolves in java/lang/Object.
  MethodLookup resolve_method(std::string_view owner, std::string_view name,
                              std::string_view descriptor, std::string_view referrer = {});
  // Interface method resolution for an InterfaceMethodref (5.4.3.4): the interface itself,
  // the public instance methods of Object, then the maximally-specific superinterface
  // methods. A class owner is kIncompatible.
  MethodLookup resolve_interface_method(std::string_view owner, std::string_view name,
                                        std::string_view descriptor,
                                        std::string_view referrer = {});
  // Either of the two by the reference's tag (Methodref or InterfaceMethodref).
  MethodLookup resolve(const MemberRef& ref, std::string_view referrer = {});
  // Field resolution (5.4.3.2): the class, its superinterfaces (recursively, each direct
  // superinterface in order), then its superclass.
  FieldLookup resolve_field(std::string_view owner, std::string_view name,
                            std::string_view descriptor, std::string_view referrer = {});

  // The maximally-specific superinterface methods of class or interface `name` for a name
  // and descriptor (5.4.3.3): declared in a superinterface, neither private nor static, and
  // not overridden by such a method of a subinterface of its interface. Nearest first.
  std::vector<MethodDecl> maximally_specific(std::string_view name, std::string_view method_name,
                                             std::string_view descriptor,
                                             std::string_view referrer = {});

  // --- selection -------------------------------------------------------------------------
  // Method selection for invokevirtual and invokeinterface (5.4.6) on a receiver of class
  // `receiver` (an array: java/lang/Object), given the resolved method: a private resolved
  // method is itself (this is how an invokevirtual of a private nest mate method runs); else
  // the first method in the receiver's superclass chain that can override it (5.4.5); else the
  // single non-abstract maximally-specific superinterface method (several are kIncompatible,
  // none kNotFound: AbstractMethodError). The selected method is abstract only when the first
  // overrider in the superclass chain is (so `receiver` is an abstract class or an interface).
  MethodLookup select_virtual(std::string_view receiver, const MethodDecl& resolved,
                              std::string_view referrer = {});
  // Method selection for invokespecial (JVMS 6.5) in class `current`, for a method reference
  // naming class or interface `symbolic_owner`, resolved to `resolved`: a super call (not
  // <init>, owner a proper superclass of `current`) searches from the direct superclass of
  // `current`; otherwise from the owner itself.
  MethodLookup select_special(std::string_view current, std::string_view symbolic_owner,
                              const MethodDecl& resolved, std::string_view referrer = {});
  // Whether `overrider` can override `overridden` (5.4.5): same name and descriptor, both
  // instance methods, the overrider not private, and the overridden one public, protected, or
  // package-private and either in the same run-time package or overridden through an
  // intermediate class that can override it and be overridden in turn.
  bool can_override(const MethodDecl& overrider, const MethodDecl& overridden);

  // --- dispatch --------------------------------------------------------------------------
  // The method a virtual call with this name and descriptor runs on a receiver of class `cls`
  // when the callee is visible as a public method (the usual case; package-private callees
  // need select_virtual with the resolved method): the first non-private instance declaration
  // in the superclass chain, else the single non-abstract maximally-specific default method.
  MethodLookup dispatch(std::string_view cls, std::string_view name, std::string_view descriptor,
                        std::string_view referrer = {});
  // The dispatch table of a concrete class (the `cha` relation): for every instance method
  // that is neither private nor <init> and is declared by the class or a supertype, the
  // method select_virtual picks, when it picks a non-abstract one. Sorted by the resolved
  // method's class, name and descriptor. Empty for interfaces and abstract classes.
  std::vector<DispatchEntry> dispatch_table(std::string_view cls, std::string_view referrer = {});

  // --- nests (JVMS 5.4.4) ----------------------------------------------------------------
  // The nest host of a class: the class its NestHost attribute names, if that class is loaded,
  // in the same run-time package and lists this one among its NestMembers; else the class
  // itself.
  std::string nest_host(std::string_view name);
  bool are_nestmates(std::string_view a, std::string_view b);

  // --- lookup in one class ---------------------------------------------------------------
  // The method the loaded class declares with this name and descriptor.
  MethodDecl declared_method(const ClassFile& cls, std::string_view name,
                             std::string_view descriptor) const;
  FieldDecl declared_field(const ClassFile& cls, std::string_view name,
                           std::string_view descriptor) const;

 private:
  struct Entry;
  struct Supertypes;
  Entry* entry(std::string_view name);
  const Supertypes& supertypes_of(Entry& entry);
  void record_phantom(std::string_view name, std::string_view referrer);

  // Steps shared by resolution and selection.
  MethodLookup lookup_in_superclasses(std::string_view start, std::string_view name,
                                      std::string_view descriptor, bool signature_polymorphic,
                                      std::string_view referrer);
  MethodLookup lookup_in_superinterfaces(std::string_view cls, std::string_view name,
                                         std::string_view descriptor, std::string_view referrer,
                                         bool pick_any_abstract);
  FieldLookup resolve_field_in(std::string_view cls, std::string_view name,
                               std::string_view descriptor, std::string_view referrer,
                               std::set<std::string_view>& visited);
  bool can_override_through(const MethodDecl& overrider, const MethodDecl& overridden);

  const ClassPath& path_;
  bool skip_bad_classes_ = false;
  bool jdk_sealed_ = false;
  std::set<std::string, std::less<>> admitted_;  // admit_read_classes
  struct TransparentHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::unique_ptr<Entry>, TransparentHash, std::equal_to<>>
      classes_;
  std::size_t loaded_count_ = 0;
  // Phantom name -> referrers; std::map keeps them sorted for phantoms().
  std::map<std::string, std::set<std::string>, std::less<>> phantoms_;
  std::vector<SkippedClass> skipped_;
};

}  // namespace refract::frontend
