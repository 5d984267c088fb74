#include "frontend/hierarchy.hpp"

#include <algorithm>
#include <deque>
#include <tuple>
#include <utility>

#include "frontend/format_error.hpp"
#include "frontend/names.hpp"

namespace refract::frontend {
namespace {

constexpr std::string_view kObject = "java/lang/Object";
constexpr std::string_view kCloneable = "java/lang/Cloneable";
constexpr std::string_view kSerializable = "java/io/Serializable";

bool is_array_name(std::string_view name) {
  return !name.empty() && name.front() == '[';
}

// The run-time package of a class (JVMS 5.3): with one class loader, its package name.
std::string_view package_of(std::string_view binary_name) {
  const std::size_t slash = binary_name.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : binary_name.substr(0, slash);
}

// The class an array type's elements bottom out in ("[[La/B;" -> "a/B"); empty for arrays of
// primitives. A name that is not an array is returned as it is.
std::string_view element_class(std::string_view name) {
  std::size_t dims = 0;
  while (dims < name.size() && name[dims] == '[') ++dims;
  if (dims == 0) return name;
  const std::string_view element = name.substr(dims);
  if (element.size() >= 2 && element.front() == 'L' && element.back() == ';') {
    return element.substr(1, element.size() - 2);
  }
  return {};
}

// A signature polymorphic method (JVMS 2.9.3): declared in MethodHandle or VarHandle, one
// formal parameter of type Object[], ACC_VARARGS and ACC_NATIVE set.
bool is_signature_polymorphic(const ClassFile& cls, const MethodInfo& method) {
  if (cls.this_class != "java/lang/invoke/MethodHandle" &&
      cls.this_class != "java/lang/invoke/VarHandle") {
    return false;
  }
  constexpr std::uint16_t kFlags = access::kVarargs | access::kNative;
  return (method.access_flags & kFlags) == kFlags &&
         method.descriptor.starts_with("([Ljava/lang/Object;)");
}

bool is_instance(const MethodInfo& method) {
  return (method.access_flags & access::kStatic) == 0;
}

bool is_initializer(std::string_view name) {
  return name == "<init>" || name == "<clinit>";
}

MethodLookup found(MethodDecl method) {
  return {LookupStatus::kFound, method, {}};
}
MethodLookup status(LookupStatus status) {
  return {status, {}, {}};
}
MethodLookup phantom_method(std::string_view name) {
  return {LookupStatus::kPhantom, {}, std::string(name)};
}

}  // namespace

std::string MethodDecl::signature() const {
  return soot_method_signature(class_name(), name(), descriptor());
}

std::string FieldDecl::signature() const {
  return soot_field_signature(class_name(), name(), descriptor());
}

std::string_view lookup_status_name(LookupStatus status) {
  switch (status) {
    case LookupStatus::kFound:
      return "found";
    case LookupStatus::kPhantom:
      return "phantom";
    case LookupStatus::kNotFound:
      return "not found";
    case LookupStatus::kIncompatible:
      return "incompatible";
  }
  return "?";
}

// What supertypes_of() computes once per class.
struct ClassHierarchy::Supertypes {
  std::vector<std::string_view> superclasses;  // nearest first; may end with a phantom
  std::vector<std::string_view> interfaces;    // breadth first, each once, phantoms included
  std::vector<std::string_view> sorted;        // both, sorted, for is_subtype
  std::vector<std::string_view> phantoms;      // absent classes among them
};

struct ClassHierarchy::Entry {
  std::unique_ptr<ClassFile> file;  // null: absent from the class path, or skipped
  std::optional<Supertypes> supertypes;
};

ClassHierarchy::ClassHierarchy(const ClassPath& path) : path_(path) {}
ClassHierarchy::~ClassHierarchy() = default;

// --- loading -------------------------------------------------------------------------------

ClassHierarchy::Entry* ClassHierarchy::entry(std::string_view name) {
  if (name.empty() || is_array_name(name)) return nullptr;
  if (const auto it = classes_.find(name); it != classes_.end()) return it->second.get();
  auto fresh = std::make_unique<Entry>();
  // Reading the entry is inside the try: a jar entry whose data is corrupt is as skippable
  // as a class that does not parse.
  try {
    if (jdk_sealed_ && path_.in_jdk(name) && !admitted_.contains(name)) {
      // outside the program's closed world: a phantom (seal_jdk)
    } else if (auto bytes = path_.read(name)) {
      auto cls = std::make_unique<ClassFile>(parse_class_file(bytes->bytes, bytes->origin));
      // JVMS 5.3.5: a class file found under a name must declare that name.
      if (cls->this_class != name) {
        throw ClassFormatError(
            bytes->origin, 0,
            "class file declares " + cls->this_class + ", expected " + std::string(name));
      }
      fresh->file = std::move(cls);
      ++loaded_count_;
    }
  } catch (const InputError& e) {
    if (!skip_bad_classes_) throw;
    skipped_.push_back({std::string(name), e.what()});
  }
  if (!fresh->file) record_phantom(name, {});
  Entry* out = fresh.get();
  classes_.emplace(std::string(name), std::move(fresh));
  return out;
}

const ClassFile* ClassHierarchy::find(std::string_view name) {
  Entry* e = entry(name);
  return e == nullptr ? nullptr : e->file.get();
}

void ClassHierarchy::load_all(bool include_jdk) {
  for (const std::string& name : path_.class_names(include_jdk)) find(name);
}

void ClassHierarchy::admit_read_classes(const std::vector<std::string>& names) {
  admitted_.insert(names.begin(), names.end());
}

std::vector<const ClassFile*> ClassHierarchy::loaded_classes() const {
  std::vector<const ClassFile*> out;
  out.reserve(loaded_count_);
  for (const auto& [name, e] : classes_) {
    if (e->file) out.push_back(e->file.get());
  }
  std::sort(out.begin(), out.end(),
            [](const ClassFile* a, const ClassFile* b) { return a->this_class < b->this_class; });
  return out;
}

// --- phantoms ------------------------------------------------------------------------------

void ClassHierarchy::record_phantom(std::string_view name, std::string_view referrer) {
  auto it = phantoms_.find(name);
  if (it == phantoms_.end())
    it = phantoms_.emplace(std::string(name), std::set<std::string>{}).first;
  if (!referrer.empty()) it->second.emplace(referrer);
}

bool ClassHierarchy::note_reference(std::string_view name, std::string_view referrer) {
  const std::string_view cls = element_class(name);
  if (cls.empty() || exists(cls)) return false;
  record_phantom(cls, referrer);
  return true;
}

bool ClassHierarchy::is_phantom(std::string_view name) {
  const std::string_view cls = element_class(name);
  return !cls.empty() && !exists(cls);
}

std::vector<Phantom> ClassHierarchy::phantoms() const {
  std::map<std::string_view, std::vector<std::string>> subclasses;
  for (const auto& [name, e] : classes_) {
    if (!e->file) continue;
    const ClassFile& cls = *e->file;
    auto note = [&](std::string_view super) {
      if (phantoms_.contains(super)) subclasses[super].push_back(cls.this_class);
    };
    if (cls.super_class) note(*cls.super_class);
    for (const std::string& i : cls.interfaces) note(i);
  }
  std::vector<Phantom> out;
  out.reserve(phantoms_.size());
  for (const auto& [name, referrers] : phantoms_) {
    Phantom p{name, {referrers.begin(), referrers.end()}, {}};
    if (auto it = subclasses.find(name); it != subclasses.end()) {
      p.subclasses = std::move(it->second);
      std::sort(p.subclasses.begin(), p.subclasses.end());
    }
    out.push_back(std::move(p));
  }
  return out;
}

// --- supertypes ----------------------------------------------------------------------------

const ClassHierarchy::Supertypes& ClassHierarchy::supertypes_of(Entry& start) {
  if (start.supertypes) return *start.supertypes;
  Supertypes out;
  std::set<std::string_view> seen;
  std::deque<std::string_view> queue;  // interfaces to visit
  if (start.file) {
    const ClassFile& cls = *start.file;
    seen.insert(cls.this_class);
    queue.insert(queue.end(), cls.interfaces.begin(), cls.interfaces.end());
    // The superclass chain; a repeated name (a circular hierarchy, which the JVM rejects with
    // ClassCircularityError) ends it.
    std::optional<std::string_view> next = cls.super_class;
    while (next && seen.insert(*next).second) {
      out.superclasses.push_back(*next);
      const ClassFile* super = find(*next);
      if (super == nullptr) {
        out.phantoms.push_back(*next);
        break;
      }
      queue.insert(queue.end(), super->interfaces.begin(), super->interfaces.end());
      next = super->super_class;
    }
  }
  while (!queue.empty()) {
    const std::string_view name = queue.front();
    queue.pop_front();
    if (!seen.insert(name).second) continue;
    out.interfaces.push_back(name);
    const ClassFile* cls = find(name);
    if (cls == nullptr) {
      out.phantoms.push_back(name);
      continue;
    }
    queue.insert(queue.end(), cls->interfaces.begin(), cls->interfaces.end());
  }
  out.sorted = out.superclasses;
  out.sorted.insert(out.sorted.end(), out.interfaces.begin(), out.interfaces.end());
  std::sort(out.sorted.begin(), out.sorted.end());
  start.supertypes = std::move(out);
  return *start.supertypes;
}

std::optional<std::string_view> ClassHierarchy::superclass(std::string_view name) {
  const ClassFile* cls = find(name);
  if (cls == nullptr || !cls->super_class) return std::nullopt;
  return std::string_view(*cls->super_class);
}

std::vector<std::string_view> ClassHierarchy::superclasses(std::string_view name) {
  Entry* e = entry(name);
  return e == nullptr ? std::vector<std::string_view>{} : supertypes_of(*e).superclasses;
}

std::vector<std::string_view> ClassHierarchy::superinterfaces(std::string_view name) {
  Entry* e = entry(name);
  return e == nullptr ? std::vector<std::string_view>{} : supertypes_of(*e).interfaces;
}

bool ClassHierarchy::is_subtype(std::string_view sub, std::string_view super) {
  if (sub == super) return true;
  if (is_array_name(sub)) {
    // JVMS 6.5 checkcast: arrays are Objects, Cloneable and Serializable (JLS 10.8), and
    // array types are covariant in reference element types.
    if (super == kObject || super == kCloneable || super == kSerializable) return true;
    if (!is_array_name(super)) return false;
    const std::string_view sc = sub.substr(1);
    const std::string_view tc = super.substr(1);
    const bool sc_reference = sc.front() == 'L' || sc.front() == '[';
    const bool tc_reference = tc.front() == 'L' || tc.front() == '[';
    if (!sc_reference || !tc_reference) return sc == tc;
    auto as_class_name = [](std::string_view element) {
      return element.front() == 'L' ? element.substr(1, element.size() - 2) : element;
    };
    return is_subtype(as_class_name(sc), as_class_name(tc));
  }
  if (is_array_name(super)) return false;
  if (super == kObject) return true;
  Entry* e = entry(sub);
  if (e == nullptr || !e->file) return false;
  const auto& sorted = supertypes_of(*e).sorted;
  return std::binary_search(sorted.begin(), sorted.end(), super);
}

std::vector<std::string_view> ClassHierarchy::subtypes(std::string_view name) {
  std::vector<std::string_view> out;
  for (const ClassFile* cls : loaded_classes()) {
    if (is_subtype(cls->this_class, name)) out.push_back(cls->this_class);
  }
  return out;
}

// --- lookup in one class -------------------------------------------------------------------

MethodDecl ClassHierarchy::declared_method(const ClassFile& cls, std::string_view name,
                                           std::string_view descriptor) const {
  for (const MethodInfo& m : cls.methods) {
    if (m.name == name && m.descriptor == descriptor) return {&cls, &m};
  }
  return {};
}

FieldDecl ClassHierarchy::declared_field(const ClassFile& cls, std::string_view name,
                                         std::string_view descriptor) const {
  for (const FieldInfo& f : cls.fields) {
    if (f.name == name && f.descriptor == descriptor) return {&cls, &f};
  }
  return {};
}

// --- resolution ----------------------------------------------------------------------------

// JVMS 5.4.3.3 step 2: the class itself, then its superclasses, each checked for a signature
// polymorphic method of that name (when asked) and for a method with the name and descriptor.
MethodLookup ClassHierarchy::lookup_in_superclasses(std::string_view start, std::string_view name,
                                                    std::string_view descriptor,
                                                    bool signature_polymorphic,
                                                    std::string_view referrer) {
  std::set<std::string_view> seen;
  std::optional<std::string_view> next = start;
  while (next && seen.insert(*next).second) {
    const ClassFile* cls = find(*next);
    if (cls == nullptr) {
      record_phantom(*next, referrer);
      return phantom_method(*next);
    }
    if (signature_polymorphic) {
      const MethodInfo* only = nullptr;
      std::size_t named = 0;
      for (const MethodInfo& m : cls->methods) {
        if (m.name == name) {
          only = &m;
          ++named;
        }
      }
      if (named == 1 && is_signature_polymorphic(*cls, *only)) return found({cls, only});
    }
    if (const MethodDecl m = declared_method(*cls, name, descriptor)) return found(m);
    next = cls->super_class;
  }
  return status(LookupStatus::kNotFound);
}

std::vector<MethodDecl> ClassHierarchy::maximally_specific(std::string_view name,
                                                           std::string_view method_name,
                                                           std::string_view descriptor,
                                                           std::string_view referrer) {
  Entry* e = entry(name);
  if (e == nullptr) return {};
  const Supertypes& supers = supertypes_of(*e);
  for (const std::string_view p : supers.phantoms) record_phantom(p, referrer);
  std::vector<MethodDecl> candidates;
  for (const std::string_view i : supers.interfaces) {
    const ClassFile* cls = find(i);
    if (cls == nullptr) continue;
    const MethodDecl m = declared_method(*cls, method_name, descriptor);
    if (m && !m.is_private() && !m.is_static()) candidates.push_back(m);
  }
  // Keep a candidate unless another one is declared in a subinterface of its interface.
  std::vector<MethodDecl> out;
  for (const MethodDecl& m : candidates) {
    const bool overridden = std::any_of(candidates.begin(), candidates.end(), [&](const auto& o) {
      return o.owner != m.owner && is_subtype(o.class_name(), m.class_name());
    });
    if (!overridden) out.push_back(m);
  }
  return out;
}

// JVMS 5.4.3.3 step 3 / 5.4.3.4 steps 4-5, and the last step of selection (5.4.6, 6.5): the
// single non-abstract maximally-specific superinterface method. For resolution
// (`pick_any_abstract`), failing that, any maximally-specific one: the JVMS lets resolution
// choose arbitrarily among them; we choose the nearest, for determinism.
MethodLookup ClassHierarchy::lookup_in_superinterfaces(std::string_view cls, std::string_view name,
                                                       std::string_view descriptor,
                                                       std::string_view referrer,
                                                       bool pick_any_abstract) {
  const std::vector<MethodDecl> candidates = maximally_specific(cls, name, descriptor, referrer);
  std::vector<MethodDecl> concrete;
  for (const MethodDecl& m : candidates) {
    if (!m.is_abstract()) concrete.push_back(m);
  }
  if (concrete.size() == 1) return found(concrete.front());
  if (pick_any_abstract && !candidates.empty()) return found(candidates.front());
  if (concrete.size() > 1) return status(LookupStatus::kIncompatible);
  Entry* e = entry(cls);
  if (e != nullptr && !supertypes_of(*e).phantoms.empty()) {
    return phantom_method(supertypes_of(*e).phantoms.front());
  }
  return status(LookupStatus::kNotFound);
}

MethodLookup ClassHierarchy::resolve_method(std::string_view owner, std::string_view name,
                                            std::string_view descriptor,
                                            std::string_view referrer) {
  // An array class has the methods of Object (its superclass) and declares none itself.
  if (is_array_name(owner)) owner = kObject;
  const ClassFile* cls = find(owner);
  if (cls == nullptr) {
    record_phantom(owner, referrer);
    return phantom_method(owner);
  }
  // Step 1: a Methodref must name a class.
  if (cls->is_interface()) return status(LookupStatus::kIncompatible);
  MethodLookup in_classes = lookup_in_superclasses(owner, name, descriptor, true, referrer);
  if (in_classes.status != LookupStatus::kNotFound) return in_classes;
  return lookup_in_superinterfaces(owner, name, descriptor, referrer, true);
}

MethodLookup ClassHierarchy::resolve_interface_method(std::string_view owner, std::string_view name,
                                                      std::string_view descriptor,
                                                      std::string_view referrer) {
  const ClassFile* cls = find(owner);
  if (cls == nullptr) {
    record_phantom(owner, referrer);
    return phantom_method(owner);
  }
  // Step 1: an InterfaceMethodref must name an interface.
  if (!cls->is_interface()) return status(LookupStatus::kIncompatible);
  // Step 2: the interface itself, whatever the method's flags.
  if (const MethodDecl m = declared_method(*cls, name, descriptor)) return found(m);
  // Step 3: a public instance method of Object.
  if (const ClassFile* object = find(kObject)) {
    const MethodDecl m = declared_method(*object, name, descriptor);
    if (m && (m.access_flags() & access::kPublic) != 0 && !m.is_static()) return found(m);
  } else {
    record_phantom(kObject, referrer);
  }
  // Steps 4 and 5: the superinterfaces.
  return lookup_in_superinterfaces(owner, name, descriptor, referrer, true);
}

MethodLookup ClassHierarchy::resolve(const MemberRef& ref, std::string_view referrer) {
  if (ref.tag == ConstantTag::kInterfaceMethodref) {
    return resolve_interface_method(ref.owner, ref.name, ref.descriptor, referrer);
  }
  if (ref.tag == ConstantTag::kMethodref) {
    return resolve_method(ref.owner, ref.name, ref.descriptor, referrer);
  }
  return status(LookupStatus::kIncompatible);  // a Fieldref: use resolve_field
}

// JVMS 5.4.3.2: the class, then each direct superinterface recursively, then the superclass.
FieldLookup ClassHierarchy::resolve_field_in(std::string_view name, std::string_view field,
                                             std::string_view descriptor, std::string_view referrer,
                                             std::set<std::string_view>& visited) {
  FieldLookup result;
  if (!visited.insert(name).second) return result;
  const ClassFile* cls = find(name);
  if (cls == nullptr) {
    record_phantom(name, referrer);
    return {LookupStatus::kPhantom, {}, std::string(name)};
  }
  if (const FieldDecl f = declared_field(*cls, field, descriptor)) {
    return {LookupStatus::kFound, f, {}};
  }
  // An absent superinterface might have declared the field; the search goes on past it, and
  // answers kPhantom only if nothing else declares it.
  auto consider = [&](std::string_view super) -> bool {
    FieldLookup r = resolve_field_in(super, field, descriptor, referrer, visited);
    if (r.found()) {
      result = std::move(r);
      return true;
    }
    if (r.status == LookupStatus::kPhantom && result.status != LookupStatus::kPhantom) {
      result = std::move(r);
    }
    return false;
  };
  for (const std::string& i : cls->interfaces) {
    if (consider(i)) return result;
  }
  if (cls->super_class && consider(*cls->super_class)) return result;
  return result;
}

FieldLookup ClassHierarchy::resolve_field(std::string_view owner, std::string_view name,
                                          std::string_view descriptor, std::string_view referrer) {
  if (is_array_name(owner)) return {};  // arrays have no fields (length is an instruction)
  std::set<std::string_view> visited;
  return resolve_field_in(owner, name, descriptor, referrer, visited);
}

// --- selection -----------------------------------------------------------------------------

bool ClassHierarchy::can_override(const MethodDecl& overrider, const MethodDecl& overridden) {
  if (!overrider || !overridden) return false;
  if (overrider.name() != overridden.name() || overrider.descriptor() != overridden.descriptor()) {
    return false;
  }
  if (overrider.is_static() || overridden.is_static() || overrider.is_private()) return false;
  const std::uint16_t flags = overridden.access_flags();
  if ((flags & (access::kPublic | access::kProtected)) != 0) return true;
  if ((flags & access::kPrivate) != 0) return false;
  // Package-private: same run-time package, or transitively through an intermediate class.
  if (package_of(overrider.class_name()) == package_of(overridden.class_name())) return true;
  return can_override_through(overrider, overridden);
}

// The transitive case of JVMS 5.4.5: mC overrides package-private mA if some mB, declared in a
// class B between C and A, can override mA and can be overridden by mC.
bool ClassHierarchy::can_override_through(const MethodDecl& overrider,
                                          const MethodDecl& overridden) {
  const std::vector<std::string_view> chain = superclasses(overrider.class_name());
  const auto a = std::find(chain.begin(), chain.end(), overridden.class_name());
  if (a == chain.end()) return false;  // C is not a subclass of A
  for (auto b = chain.begin(); b != a; ++b) {
    const ClassFile* cls = find(*b);
    if (cls == nullptr) continue;
    const MethodDecl middle = declared_method(*cls, overridden.name(), overridden.descriptor());
    if (middle && can_override(middle, overridden) && can_override(overrider, middle)) {
      return true;
    }
  }
  return false;
}

MethodLookup ClassHierarchy::select_virtual(std::string_view receiver, const MethodDecl& resolved,
                                            std::string_view referrer) {
  if (!resolved) return status(LookupStatus::kNotFound);
  // Step 1: a private method is not selected but called as resolved.
  if (resolved.is_private()) return found(resolved);
  if (is_array_name(receiver)) receiver = kObject;
  // Step 2: the receiver's class and its superclasses, for a method that can override.
  std::set<std::string_view> seen;
  std::optional<std::string_view> next = receiver;
  while (next && seen.insert(*next).second) {
    const ClassFile* cls = find(*next);
    if (cls == nullptr) {
      record_phantom(*next, referrer);
      return phantom_method(*next);
    }
    const MethodDecl m = declared_method(*cls, resolved.name(), resolved.descriptor());
    if (m && is_instance(*m.method) && can_override(m, resolved)) return found(m);
    next = cls->super_class;
  }
  // Step 3: the maximally-specific superinterface methods.
  return lookup_in_superinterfaces(receiver, resolved.name(), resolved.descriptor(), referrer,
                                   false);
}

MethodLookup ClassHierarchy::select_special(std::string_view current,
                                            std::string_view symbolic_owner,
                                            const MethodDecl& resolved, std::string_view referrer) {
  if (!resolved) return status(LookupStatus::kNotFound);
  // JVMS 6.5 invokespecial: for a super call (every class counts as ACC_SUPER since Java 8),
  // C is the direct superclass of the current class; otherwise the symbolic reference's class.
  std::string_view c = symbolic_owner;
  if (resolved.name() != "<init>" && symbolic_owner != current) {
    const ClassFile* owner = find(symbolic_owner);
    const std::vector<std::string_view> chain = superclasses(current);
    if (owner != nullptr && !owner->is_interface() &&
        std::find(chain.begin(), chain.end(), symbolic_owner) != chain.end()) {
      c = chain.front();
    }
  }
  const ClassFile* cls = find(c);
  if (cls == nullptr) {
    record_phantom(c, referrer);
    return phantom_method(c);
  }
  const std::string_view name = resolved.name();
  const std::string_view descriptor = resolved.descriptor();
  // Step 1: C itself; step 2: for a class, its superclasses.
  if (const MethodDecl m = declared_method(*cls, name, descriptor); m && is_instance(*m.method)) {
    return found(m);
  }
  if (!cls->is_interface()) {
    std::set<std::string_view> seen = {cls->this_class};
    std::optional<std::string_view> next = cls->super_class;
    while (next && seen.insert(*next).second) {
      const ClassFile* super = find(*next);
      if (super == nullptr) {
        record_phantom(*next, referrer);
        return phantom_method(*next);
      }
      const MethodDecl m = declared_method(*super, name, descriptor);
      if (m && is_instance(*m.method)) return found(m);
      next = super->super_class;
    }
  } else if (const ClassFile* object = find(kObject)) {
    // Step 3: an interface C falls back on Object's public instance methods.
    const MethodDecl m = declared_method(*object, name, descriptor);
    if (m && (m.access_flags() & access::kPublic) != 0 && !m.is_static()) return found(m);
  }
  // Step 4: the single non-abstract maximally-specific superinterface method.
  return lookup_in_superinterfaces(c, name, descriptor, referrer, false);
}

// --- dispatch ------------------------------------------------------------------------------

MethodLookup ClassHierarchy::dispatch(std::string_view cls, std::string_view name,
                                      std::string_view descriptor, std::string_view referrer) {
  if (is_array_name(cls)) cls = kObject;
  std::set<std::string_view> seen;
  std::optional<std::string_view> next = cls;
  while (next && seen.insert(*next).second) {
    const ClassFile* c = find(*next);
    if (c == nullptr) {
      record_phantom(*next, referrer);
      return phantom_method(*next);
    }
    const MethodDecl m = declared_method(*c, name, descriptor);
    if (m && is_instance(*m.method) && !m.is_private()) return found(m);
    next = c->super_class;
  }
  return lookup_in_superinterfaces(cls, name, descriptor, referrer, false);
}

std::vector<DispatchEntry> ClassHierarchy::dispatch_table(std::string_view name,
                                                          std::string_view referrer) {
  const ClassFile* cls = find(name);
  if (cls == nullptr || cls->is_interface() || (cls->access_flags & access::kAbstract) != 0) {
    return {};
  }
  std::vector<const ClassFile*> types = {cls};
  Entry* e = entry(name);
  const Supertypes& supers = supertypes_of(*e);
  for (const auto* list : {&supers.superclasses, &supers.interfaces}) {
    for (const std::string_view s : *list) {
      if (const ClassFile* c = find(s)) types.push_back(c);
    }
  }
  std::vector<DispatchEntry> out;
  for (const ClassFile* type : types) {
    for (const MethodInfo& m : type->methods) {
      const MethodDecl resolved{type, &m};
      if (resolved.is_static() || resolved.is_private() || is_initializer(m.name)) continue;
      const MethodLookup selected = select_virtual(name, resolved, referrer);
      if (selected.found() && !selected.method.is_abstract()) {
        out.push_back({resolved, selected.method});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const DispatchEntry& a, const DispatchEntry& b) {
    return std::tuple(a.resolved.class_name(), a.resolved.name(), a.resolved.descriptor()) <
           std::tuple(b.resolved.class_name(), b.resolved.name(), b.resolved.descriptor());
  });
  return out;
}

// --- nests ---------------------------------------------------------------------------------

std::string ClassHierarchy::nest_host(std::string_view name) {
  const ClassFile* cls = find(name);
  if (cls == nullptr || !cls->nest_host) return std::string(name);
  // JVMS 5.4.4: the claimed host must exist, be in the same run-time package and list the
  // class as a member; otherwise the class is the host of its own nest.
  const ClassFile* host = find(*cls->nest_host);
  if (host == nullptr || package_of(host->this_class) != package_of(cls->this_class)) {
    return cls->this_class;
  }
  const auto& members = host->nest_members;
  if (std::find(members.begin(), members.end(), cls->this_class) == members.end()) {
    return cls->this_class;
  }
  return host->this_class;
}

bool ClassHierarchy::are_nestmates(std::string_view a, std::string_view b) {
  return nest_host(a) == nest_host(b);
}

}  // namespace refract::frontend
