#include "frontend/fact_extractor.hpp"

#include <cstdio>
#include <optional>
#include <stdexcept>

#include "frontend/fact_schema.hpp"
#include "frontend/ir_def_use.hpp"
#include "frontend/names.hpp"
#include "frontend/reflection_flow.hpp"

namespace refract::frontend {

std::string internal_name(const JavaType& type) {
  if (type.is_array()) return type.to_descriptor();
  std::string out = type.class_name;
  for (char& c : out) {
    if (c == '.') c = '/';
  }
  return out;
}

std::string string_literal(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::unordered_map<std::string, std::uint64_t> string_constants_by_literal(
    const FactDatabase& facts) {
  const std::vector<std::string>& heaps = facts.domain("H").names();
  std::unordered_map<std::string, std::uint64_t> out;
  for (const auto& t : facts.relation("StringConstant").sorted_tuples())
    out.emplace(heaps[t[0]], t[0]);
  return out;
}

namespace {

const JavaType kObject = JavaType::object("java.lang.Object");
const JavaType kString = JavaType::object("java.lang.String");
const JavaType kThrowable = JavaType::object("java.lang.Throwable");

// The Solar paper's reflection API lives in these classes (Sec. 2.2 and 6).
bool is_reflection_class(const JavaType& owner) {
  if (owner.is_array()) return false;
  const std::string& n = owner.class_name;
  return n == "java.lang.Class" || n == "java.lang.ClassLoader" ||
         n.rfind("java.lang.reflect.", 0) == 0;
}

// The same for a class in internal form ("java/lang/Class"), as resolution names it.
bool is_reflection_class_name(std::string_view internal) {
  return internal == "java/lang/Class" || internal == "java/lang/ClassLoader" ||
         internal.starts_with("java/lang/reflect/");
}

// A call of the reflection API, by its declared owner or by the owner of the method it resolves
// to (a subclass of ClassLoader may name itself).
bool is_reflective_call(const MethodRef& ref, const MethodLookup& resolved) {
  return is_reflection_class(ref.owner) ||
         (resolved.found() && is_reflection_class_name(resolved.method.class_name()));
}

// What the array a reflective call is passed holds: the arguments of the member it runs
// (Method.invoke, Constructor.newInstance: Solar's Ptp(args), Sec. 5.4.3), or the parameter
// types of the member it looks up (getMethod and getConstructor and their getDeclared forms).
enum class ArrayRole { kArguments, kParameterTypes };

// Such an array among a call's arguments (the receiver not counted).
struct ArraySlot {
  std::size_t slot;
  ArrayRole role;
};

// The calls whose array is read, and where it is. Compared by parts: making the signature of
// every resolved call would cost a string each.
std::optional<ArraySlot> reflective_array_slot(const MethodDecl& resolved) {
  const std::string_view owner = resolved.class_name();
  const std::string_view name = resolved.name();
  const std::string_view descriptor = resolved.descriptor();
  if (owner == "java/lang/reflect/Method" && name == "invoke" &&
      descriptor == "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;")
    return ArraySlot{1, ArrayRole::kArguments};
  if (owner == "java/lang/reflect/Constructor" && name == "newInstance" &&
      descriptor == "([Ljava/lang/Object;)Ljava/lang/Object;")
    return ArraySlot{0, ArrayRole::kArguments};
  if (owner != "java/lang/Class") return std::nullopt;
  if ((name == "getMethod" || name == "getDeclaredMethod") &&
      descriptor == "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;")
    return ArraySlot{1, ArrayRole::kParameterTypes};
  if ((name == "getConstructor" || name == "getDeclaredConstructor") &&
      descriptor == "([Ljava/lang/Class;)Ljava/lang/reflect/Constructor;")
    return ArraySlot{0, ArrayRole::kParameterTypes};
  return std::nullopt;
}

// The IR variable behind an operand, when it is one.
VarId operand_var(const Operand& o) {
  return o.is_var() ? o.var : kNoVar;
}

}  // namespace

// Per-method state: the method's name, its site numbering and its reference variables.
struct FactExtractor::MethodContext {
  const ClassFile& cls;
  const MethodIr& ir;
  std::string signature;
  std::uint64_t id;
  SiteNamer namer;
  std::vector<std::optional<std::uint64_t>> vars;  // by VarId, interned on first use
  unsigned concats = 0;
  // Calls the reflection facts look at once every statement is in (add_reflection_flow).
  struct ReflectionSite {
    std::uint32_t statement;
    std::uint64_t invoke;
    std::optional<ArraySlot> array;  // reflective_array_slot
    bool result_cast = false;        // a reflective call with a reference result
  };
  std::vector<ReflectionSite> reflection_sites;
  std::optional<DefUse> def_use;  // of a method with a body
};

FactExtractor::FactExtractor(ClassHierarchy& hierarchy)
    : hierarchy_(hierarchy), db_(make_fact_schema()) {}

std::uint64_t FactExtractor::type(const JavaType& t) {
  FactDomain& types = db_.domain("T");
  const std::string name = t.to_java();
  const std::uint64_t before = types.size();
  const std::uint64_t id = types.intern(name);
  if (id == before) {
    type_list_.push_back(t);
    if (t.is_array()) {
      db_.relation("ArrayType").add({id});
      db_.relation("ComponentType").add({id, type(t.element())});
    }
  }
  return id;
}

std::uint64_t FactExtractor::position(std::size_t index) {
  FactDomain& z = db_.domain("Z");
  while (z.size() <= index) z.intern(std::to_string(z.size()));
  return index;
}

std::uint64_t FactExtractor::string_heap(const std::string& text) {
  const std::uint64_t h = db_.domain("H").intern(string_literal(text));
  db_.relation("HeapType").add({h, type(kString)});
  db_.relation("StringConstant").add({h});
  return h;
}

void FactExtractor::add_class(const ClassFile& cls, const std::vector<MethodIr>& methods) {
  ++counts_.classes;
  const JavaType self = JavaType::object(cls.this_class);
  const std::uint64_t t = type(self);
  const bool is_abstract = (cls.access_flags & access::kAbstract) != 0;
  db_.relation(cls.is_interface() ? "InterfaceType" : "ClassType").add({t});
  if ((cls.access_flags & access::kPublic) != 0) db_.relation("PublicType").add({t});
  if (is_abstract || cls.is_interface()) {
    db_.relation("AbstractType").add({t});
  } else {
    concrete_classes_.insert(cls.this_class);
  }
  if (cls.super_class)
    db_.relation("DirectSuper").add({t, type(JavaType::object(*cls.super_class))});
  for (const std::string& i : cls.interfaces) {
    db_.relation("DirectSuper").add({t, type(JavaType::object(i))});
  }
  for (const FieldInfo& f : cls.fields) {
    const auto field_type = try_parse_field_descriptor(f.descriptor);
    if (!field_type) continue;  // the class parser accepted it; the IR rejects its uses
    const std::uint64_t id =
        db_.domain("F").intern(soot_field_signature(cls.this_class, f.name, *field_type));
    db_.relation("FieldDeclared").add({id, t});
    db_.relation("FieldType").add({id, type(*field_type)});
    if ((f.access_flags & access::kStatic) != 0) db_.relation("StaticField").add({id});
    if ((f.access_flags & access::kPublic) != 0) db_.relation("PublicField").add({id});
    if ((f.access_flags & access::kProtected) != 0) db_.relation("ProtectedField").add({id});
  }
  for (const MethodIr& ir : methods) add_method(cls, ir);
}

void FactExtractor::add_module_access(const ClassFile& cls, const ModuleAccess& module) {
  const std::uint64_t t = type(JavaType::object(cls.this_class));
  db_.relation("ModuleType").add({t});
  if (module.exported) db_.relation("ExportedType").add({t});
  if (module.open) db_.relation("OpenType").add({t});
}

void FactExtractor::add_entry(const std::string& method_signature) {
  db_.relation("EntryMethod").add({method(method_signature)});
  jvm_objects_ = true;
}

void FactExtractor::add_method(const ClassFile& cls, const MethodIr& ir) {
  ++counts_.methods;
  MethodContext m{cls,
                  ir,
                  soot_method_signature(cls.this_class, ir.name, ir.signature),
                  0,
                  SiteNamer(""),
                  {},
                  0,
                  {},
                  std::nullopt};
  m.id = method(m.signature);
  m.namer = SiteNamer(m.signature);
  m.vars.resize(ir.variables.size());
  const std::uint64_t declaring = type(JavaType::object(cls.this_class));
  db_.relation("MethodDeclared").add({m.id, declaring});
  if (!ir.signature.return_type.is_void()) {
    db_.relation("ReturnType").add({m.id, type(ir.signature.return_type)});
  }
  if (ir.is_static()) db_.relation("StaticMethod").add({m.id});
  if ((ir.access_flags & access::kNative) != 0) db_.relation("NativeMethod").add({m.id});
  if ((ir.access_flags & access::kAbstract) != 0) db_.relation("AbstractMethod").add({m.id});
  if (ir.name == "<clinit>") db_.relation("ClassInit").add({declaring, m.id});
  if ((ir.access_flags & access::kPublic) != 0) db_.relation("PublicMethod").add({m.id});
  if ((ir.access_flags & access::kProtected) != 0) db_.relation("ProtectedMethod").add({m.id});
  db_.relation("MethodArity").add({m.id, position(ir.signature.parameters.size())});
  add_parameter_types(m.id, ir.signature.parameters);

  auto var = [&](VarId v) { return variable(m, v); };
  if (auto v = var(ir.this_var)) db_.relation("ThisVar").add({m.id, *v});
  for (std::size_t i = 0; i < ir.parameters.size(); ++i) {
    if (auto v = value_variable(m, ir.parameters[i])) {
      db_.relation("FormalParam").add({m.id, position(i + 1), *v});
    }
  }
  if (!ir.has_body) return;
  ++counts_.methods_with_code;
  counts_.instructions += ir.counts.instructions;
  counts_.statements += ir.statements.size();
  m.def_use.emplace(ir);
  for (const Statement& s : ir.statements) add_statement(m, s);
  if (!m.reflection_sites.empty()) add_reflection_flow(m);
}

// Each exception table entry whose range covers `pc` and whose handler is reachable: its
// handler's variable and the type it catches (java.lang.Throwable for a catch-all entry).
template <typename Visit>
void FactExtractor::for_each_handler(MethodContext& m, std::uint32_t pc, Visit&& visit) {
  for (const Handler& h : m.ir.handlers) {
    if (pc < h.start_pc || pc >= h.end_pc) continue;
    if (const auto var = variable(m, h.var)) visit(*var, type(h.catch_type.value_or(kThrowable)));
  }
}

std::optional<std::uint64_t> FactExtractor::variable(MethodContext& m, VarId v) {
  if (v == kNoVar || m.ir.variables[v].kind != ValueKind::kReference) return std::nullopt;
  return value_variable(m, v);
}

std::optional<std::uint64_t> FactExtractor::value_variable(MethodContext& m, VarId v) {
  if (v == kNoVar) return std::nullopt;
  const ValueKind kind = m.ir.variables[v].kind;
  if (kind != ValueKind::kReference && kind != ValueKind::kLong) return std::nullopt;
  if (!m.vars[v]) {
    const Variable& declared = m.ir.variables[v];
    const std::uint64_t id = db_.domain("V").intern(m.namer.variable(declared.name));
    db_.relation("VarMethod").add({id, m.id});
    db_.relation("VarType").add({id, type(declared.type)});
    m.vars[v] = id;
  }
  return m.vars[v];
}

void FactExtractor::add_statement(MethodContext& m, const Statement& s) {
  const MethodIr& ir = m.ir;
  auto var = [&](VarId v) { return variable(m, v); };
  auto arg = [&](std::size_t i) {
    return i < s.args.size() ? var(operand_var(s.args[i])) : std::nullopt;
  };
  // references and longs: the values that moves, array elements and returns carry
  auto value = [&](VarId v) { return value_variable(m, v); };
  auto value_arg = [&](std::size_t i) {
    return i < s.args.size() ? value(operand_var(s.args[i])) : std::nullopt;
  };
  auto allocate = [&](const JavaType& t) {
    const std::uint64_t h = db_.domain("H").intern(m.namer.next_allocation(t));
    db_.relation("HeapType").add({h, type(t)});
    if (auto d = var(s.dst)) db_.relation("Alloc").add({*d, h});
    return h;
  };

  switch (s.kind) {
    case StatementKind::kAssign:
      if (auto d = value(s.dst)) {
        if (auto from = value_arg(0)) db_.relation("Assign").add({*d, *from});
      }
      break;
    case StatementKind::kStringConstant:
      if (auto d = var(s.dst)) db_.relation("Alloc").add({*d, string_heap(ir.strings[s.payload])});
      break;
    case StatementKind::kClassConstant:
      if (auto d = var(s.dst)) db_.relation("ClassConstant").add({*d, type(ir.types[s.payload])});
      break;
    case StatementKind::kMethodTypeConstant:
      allocate(JavaType::object("java.lang.invoke.MethodType"));
      break;
    case StatementKind::kMethodHandleConstant:
      allocate(JavaType::object("java.lang.invoke.MethodHandle"));
      break;
    case StatementKind::kDynamicConstant:
      counts_.dynamic_constants.push_back(
          {m.signature, s.pc, method_handle_text(ir.dynamic_sites[s.payload].bootstrap)});
      break;
    case StatementKind::kNew: {
      const JavaType& t = ir.types[s.payload];
      allocate(t);
      db_.relation("InitTrigger").add({m.id, type(t)});
      break;
    }
    case StatementKind::kNewArray:
      allocate(ir.types[s.payload]);
      break;
    case StatementKind::kLambda:
      add_lambda(m, s);
      break;
    case StatementKind::kStringConcat:
      add_concat(m, s);
      break;
    case StatementKind::kFieldLoad:
    case StatementKind::kFieldStore:
    case StatementKind::kStaticLoad:
    case StatementKind::kStaticStore:
      add_field_access(m, s);
      break;
    case StatementKind::kArrayLoad:
      if (auto d = value(s.dst)) {
        if (auto base = var(operand_var(s.base))) db_.relation("ArrayLoad").add({*base, *d});
      }
      break;
    case StatementKind::kArrayStore:
      if (auto from = value_arg(1)) {
        if (auto base = var(operand_var(s.base))) db_.relation("ArrayStore").add({*base, *from});
      }
      break;
    case StatementKind::kInvoke:
      add_invoke(m, s);
      break;
    case StatementKind::kInvokeDynamic: {
      const DynamicSite& site = ir.dynamic_sites[s.payload];
      counts_.unsupported_invokedynamic.push_back(
          {m.signature, s.pc, method_handle_text(site.bootstrap) + " " + site.name});
      break;
    }
    case StatementKind::kReturn:
      if (auto v = value_arg(0)) db_.relation("ReturnVar").add({m.id, *v});
      break;
    case StatementKind::kThrow:
      if (auto v = arg(0)) {
        db_.relation("Throw").add({*v});
        for_each_handler(m, s.pc, [&](std::uint64_t handler, std::uint64_t type) {
          db_.relation("ThrowHandler").add({*v, handler, type});
        });
      }
      break;
    case StatementKind::kCatch:
      if (auto d = var(s.dst)) {
        const CatchClause& clause = ir.catches[s.payload];
        for (const JavaType& t : clause.types) db_.relation("Catch").add({*d, type(t)});
        if (clause.any) db_.relation("Catch").add({*d, type(kThrowable)});
      }
      break;
    case StatementKind::kCast:
      if (auto d = var(s.dst)) {
        if (auto from = arg(0)) {
          db_.relation("Cast").add({*d, *from, type(ir.types[s.payload])});
        }
      }
      break;
    default:
      break;  // this, parameters, primitives, branches, monitors: no points-to effect
  }
}

FactExtractor::ResolvedField FactExtractor::resolved_field(MethodContext& m, const FieldRef& ref,
                                                           std::uint32_t pc) {
  const FieldLookup found =
      hierarchy_.resolve_field(internal_name(ref.owner), ref.name, ref.descriptor, m.signature);
  if (found.found()) {
    return {found.field.signature(), JavaType::object(found.field.class_name())};
  }
  counts_.unresolved.push_back({m.signature, pc,
                                std::string("field ") + field_text(ref) + ": " +
                                    std::string(lookup_status_name(found.status))});
  const std::string symbolic = soot_field_signature(internal_name(ref.owner), ref.name, ref.type);
  const std::uint64_t f = db_.domain("F").intern(symbolic);
  db_.relation("FieldType").add({f, type(ref.type)});
  db_.relation("FieldDeclared").add({f, type(ref.owner)});
  return {symbolic, ref.owner};
}

void FactExtractor::add_field_access(MethodContext& m, const Statement& s) {
  const FieldRef& ref = m.ir.fields[s.payload];
  const ResolvedField field = resolved_field(m, ref, s.pc);
  const bool is_static =
      s.kind == StatementKind::kStaticLoad || s.kind == StatementKind::kStaticStore;
  if (is_static) {
    // JVMS 5.5: getstatic/putstatic initialise the class that declares the field.
    db_.relation("InitTrigger").add({m.id, type(field.declaring)});
  }
  if (!ref.type.is_reference() && ref.type.base != BaseKind::kLong) return;
  const std::uint64_t f = db_.domain("F").intern(field.signature);
  auto var = [&](const Operand& o) { return variable(m, operand_var(o)); };
  auto value = [&](const Operand& o) { return value_variable(m, operand_var(o)); };
  const Operand dst = Operand::variable(s.dst);
  switch (s.kind) {
    case StatementKind::kFieldLoad:
      if (auto base = var(s.base)) {
        if (auto to = value(dst)) db_.relation("Load").add({*base, f, *to});
      }
      break;
    case StatementKind::kFieldStore:
      if (auto base = var(s.base)) {
        if (auto from = value(s.args.at(0))) db_.relation("Store").add({*base, f, *from});
      }
      break;
    case StatementKind::kStaticLoad:
      if (auto to = value(dst)) db_.relation("StaticLoad").add({f, *to});
      break;
    default:
      if (auto from = value(s.args.at(0))) db_.relation("StaticStore").add({f, *from});
      break;
  }
}

namespace {

// The method a MethodHandle or method reference names, resolved as its kind says (JVMS 5.4.3.5).
MethodLookup resolve_handle(ClassHierarchy& hierarchy, const MethodHandleInfo& h,
                            const std::string& referrer) {
  const std::string owner = internal_name(h.owner);
  return h.interface ? hierarchy.resolve_interface_method(owner, h.name, h.descriptor, referrer)
                     : hierarchy.resolve_method(owner, h.name, h.descriptor, referrer);
}

}  // namespace

// One call: its site, its arguments and result, and how it binds (JVMS 6.5 invoke*).
void FactExtractor::add_invoke(MethodContext& m, const Statement& s) {
  const MethodRef& ref = m.ir.methods[s.payload];
  const std::string owner = internal_name(ref.owner);
  const std::uint64_t site = db_.domain("I").intern(m.namer.next_invocation(owner, ref.name));
  if (positions_.size() <= site) positions_.resize(site + 1);
  positions_[site].pc = s.pc;
  if (s.line != 0) positions_[site].line = s.line;
  const std::string declared_owner = ref.owner.is_array() ? "java/lang/Object" : owner;
  const std::uint64_t declared =
      method(soot_method_signature(declared_owner, ref.name, ref.signature));
  db_.relation("CallIn").add({site, m.id});
  db_.relation("DeclaredTarget").add({site, declared});
  if (is_reflection_class(ref.owner)) db_.relation("ReflectiveCall").add({site, declared});
  for_each_handler(m, s.pc, [&](std::uint64_t handler, std::uint64_t type) {
    db_.relation("CallHandler").add({site, handler, type});
  });
  for (std::size_t i = 0; i < s.args.size(); ++i) {
    if (auto v = value_variable(m, operand_var(s.args[i]))) {
      db_.relation("ActualArg").add({site, position(i + 1), *v});
    }
  }
  const MethodLookup resolved =
      ref.interface ? hierarchy_.resolve_interface_method(owner, ref.name, ref.descriptor,
                                                          m.signature)
                    : hierarchy_.resolve_method(owner, ref.name, ref.descriptor, m.signature);
  // A result the code drops at once (javac's `pop` after `map.put(k, v)`: a stack value nothing
  // reads) is no CallResult: under insens its variable took every value the callee returns
  // anywhere (every map's old values) and passed them nowhere. A local keeps its result even
  // unread (a user may ask what it points to), and so does a reflective call: the report reads
  // a site's targets from its result (reflection/soundness.datalog).
  const bool reflective = is_reflective_call(ref, resolved);
  if (s.dst != kNoVar) {
    const bool dropped =
        m.ir.variables[s.dst].origin == VariableOrigin::kStack && m.def_use->uses(s.dst).empty();
    if (!dropped || reflective) {
      if (auto r = value_variable(m, s.dst)) db_.relation("CallResult").add({site, *r});
    }
  }
  note_reflection_site(m, s, site, ref, resolved, reflective);
  if (!resolved.found()) {
    counts_.unresolved.push_back({m.signature, s.pc,
                                  "method " + method_text(ref.owner, ref.name, ref.signature) +
                                      ": " + std::string(lookup_status_name(resolved.status))});
    return;
  }
  const std::optional<std::uint64_t> base = variable(m, operand_var(s.base));
  switch (s.opcode) {
    case Opcode::kInvokestatic:
      db_.relation("StaticCall").add({site, method(resolved.method.signature())});
      db_.relation("InitTrigger").add({m.id, type(JavaType::object(resolved.method.class_name()))});
      break;
    case Opcode::kInvokespecial: {
      const MethodLookup selected =
          hierarchy_.select_special(m.cls.this_class, owner, resolved.method, m.signature);
      if (!selected.found()) {
        counts_.unresolved.push_back({m.signature, s.pc,
                                      "invokespecial " + resolved.method.signature() +
                                          ": selection " +
                                          std::string(lookup_status_name(selected.status))});
      } else if (base) {
        db_.relation("SpecialCall").add({site, *base, method(selected.method.signature())});
      }
      break;
    }
    default:             // invokevirtual, invokeinterface
      if (!base) break;  // a null receiver: the call throws before running anything
      if (resolved.method.is_private()) {
        // JVMS 5.4.6: a private method is selected as resolved (nest-mate calls).
        db_.relation("SpecialCall").add({site, *base, method(resolved.method.signature())});
      } else {
        db_.relation("VirtualCall").add({site, *base, method(resolved.method.signature())});
      }
      break;
  }
}

// Keeps the call for add_reflection_flow when it passes an array the rules read
// (reflective_array_slot) or is reflective (by its declared or its resolved owner) with a
// reference result.
void FactExtractor::note_reflection_site(MethodContext& m, const Statement& s, std::uint64_t site,
                                         const MethodRef& ref, const MethodLookup& resolved,
                                         bool reflective) {
  std::optional<ArraySlot> array;
  if (resolved.found()) array = reflective_array_slot(resolved.method);
  const bool result_cast =
      reflective && s.dst != kNoVar && ref.signature.return_type.is_reference();
  if (!array && !result_cast) return;
  const auto statement = static_cast<std::uint32_t>(&s - m.ir.statements.data());
  m.reflection_sites.push_back({statement, site, array, result_cast});
}

// Solar's Ptp(args) and post-dominating casts (Sec. 5.4.3): ExactArgs, ExactArgElement and
// ExactArgNull for the argument arrays known element-wise; LookupParamCount for the
// parameter-types arrays known so; ResultCast for results only cast.
void FactExtractor::add_reflection_flow(MethodContext& m) {
  const DefUse& def_use = *m.def_use;
  const auto is_call = [&](const OperandUse& use) {
    for (const MethodContext::ReflectionSite& r : m.reflection_sites) {
      if (r.statement == use.statement && r.array && static_cast<int>(r.array->slot) == use.slot)
        return true;
    }
    return false;
  };
  for (const MethodContext::ReflectionSite& r : m.reflection_sites) {
    const Statement& s = m.ir.statements[r.statement];
    if (r.array && r.array->slot < s.args.size()) {
      if (const auto array = exact_array(m.ir, def_use, s.args[r.array->slot], is_call)) {
        if (r.array->role == ArrayRole::kParameterTypes) {
          db_.relation("LookupParamCount").add({r.invoke, position(array->length)});
        } else {
          add_exact_args(r.invoke, m, *array);
        }
      }
    }
    if (r.result_cast) {
      if (const auto casts = cast_only_uses(m.ir, def_use, s.dst)) {
        for (const std::uint32_t t : *casts) add_result_cast(r.invoke, m.ir.types[t]);
      }
    }
  }
}

// ExactArgs, ExactArgElement and ExactArgNull of an argument array known element-wise.
void FactExtractor::add_exact_args(std::uint64_t invoke, MethodContext& m,
                                   const ExactArray& array) {
  db_.relation("ExactArgs").add({invoke, position(array.length)});
  std::vector<bool> filled(array.length, false);
  for (const ExactArrayStore& store : array.stores) {
    const auto value = variable(m, store.value);
    if (!value) continue;  // an array of references stores references only
    db_.relation("ExactArgElement").add({invoke, position(store.index + 1), *value});
    filled[store.index] = true;
  }
  for (std::uint32_t k = 0; k < array.length; ++k) {
    if (!filled[k]) db_.relation("ExactArgNull").add({invoke, position(k + 1)});
  }
}

// A LambdaMetafactory call site: a new object of a synthetic class whose interface method
// loads the captured values from fields of the object and calls the implementation with them
// and its own parameters. The synthetic class and method are facts like any other, so the
// points-to rules need nothing special for lambdas.
void FactExtractor::add_lambda(MethodContext& m, const Statement& s) {
  ++counts_.lambdas;
  const LambdaInfo& info = m.ir.lambdas[s.payload];
  const JavaType lambda_type = JavaType::object(info.class_name);
  const std::string lambda_internal = internal_name(lambda_type);
  const std::uint64_t t = type(lambda_type);
  const std::uint64_t h = db_.domain("H").intern(m.namer.next_allocation(lambda_type));
  db_.relation("HeapType").add({h, t});
  const MethodDescriptor sam = parse_method_descriptor(info.method_descriptor);
  const std::string synthetic = soot_method_signature(lambda_internal, info.method_name, sam);
  const std::uint64_t syn = method(synthetic);
  const MethodLookup impl = resolve_handle(hierarchy_, info.implementation, m.signature);
  const std::string impl_signature =
      impl.found()
          ? impl.method.signature()
          : soot_method_signature(internal_name(info.implementation.owner),
                                  info.implementation.name, info.implementation.descriptor);
  db_.relation("LambdaImpl").add({h, method(impl_signature)});

  // Captured values: stored into fields cap$i of the new object here, loaded back in the
  // synthetic method. A lambda object dropped at once (no variable) stores nothing.
  std::vector<std::optional<std::uint64_t>> values;  // V elements of the synthetic method
  auto synthetic_var = [&](const std::string& name, const JavaType& vt) {
    const std::uint64_t v = db_.domain("V").intern(variable_name(synthetic, name));
    db_.relation("VarMethod").add({v, syn});
    db_.relation("VarType").add({v, type(vt)});
    return v;
  };
  const std::uint64_t this_var = synthetic_var("this", lambda_type);
  const std::optional<std::uint64_t> object = variable(m, s.dst);
  if (object) db_.relation("Alloc").add({*object, h});
  for (std::size_t i = 0; i < s.args.size(); ++i) {
    const VarId captured = operand_var(s.args[i]);
    const auto v = variable(m, captured);
    if (!v) {
      values.push_back(std::nullopt);
      continue;
    }
    const JavaType& vt = m.ir.variables[captured].type;
    const std::string cap = "cap$" + std::to_string(i);
    const std::uint64_t f = db_.domain("F").intern(soot_field_signature(lambda_internal, cap, vt));
    db_.relation("FieldDeclared").add({f, t});
    db_.relation("FieldType").add({f, type(vt)});
    if (object) db_.relation("Store").add({*object, f, *v});
    const std::uint64_t loaded = synthetic_var(cap, vt);
    db_.relation("Load").add({this_var, f, loaded});
    values.push_back(loaded);
  }

  if (lambda_classes_.count(info.class_name) == 0) {
    std::vector<JavaType> supers = {info.interface_type};
    supers.insert(supers.end(), info.marker_interfaces.begin(), info.marker_interfaces.end());
    lambda_classes_.emplace(info.class_name, supers);
    db_.relation("ClassType").add({t});
    db_.relation("DirectSuper").add({t, type(kObject)});
    for (const JavaType& super : supers) db_.relation("DirectSuper").add({t, type(super)});
    db_.relation("MethodDeclared").add({syn, t});
    if (!sam.return_type.is_void()) db_.relation("ReturnType").add({syn, type(sam.return_type)});
    db_.relation("ThisVar").add({syn, this_var});
    // The interface method, and each bridge, dispatches to the synthetic method.
    std::vector<std::string> descriptors = {info.method_descriptor};
    descriptors.insert(descriptors.end(), info.bridge_descriptors.begin(),
                       info.bridge_descriptors.end());
    for (const std::string& d : descriptors) {
      const MethodLookup sam_method = hierarchy_.resolve_interface_method(
          internal_name(info.interface_type), info.method_name, d, m.signature);
      const std::string resolved =
          sam_method.found()
              ? sam_method.method.signature()
              : soot_method_signature(internal_name(info.interface_type), info.method_name, d);
      db_.relation("Dispatch").add({t, method(resolved), syn});
    }
  }
  // The call of the implementation (JVMS 5.4.3.5 reference kinds): the receiver first where
  // the handle has one, then the handle's parameters.
  const MethodHandleInfo& target = info.implementation;
  const MethodDescriptor impl_descriptor = parse_method_descriptor(target.descriptor);
  const bool has_receiver = target.kind == ReferenceKind::kInvokeVirtual ||
                            target.kind == ReferenceKind::kInvokeInterface ||
                            target.kind == ReferenceKind::kInvokeSpecial;
  std::vector<JavaType> expected;  // what the implementation takes at each value's position
  if (has_receiver) expected.push_back(target.owner);
  expected.insert(expected.end(), impl_descriptor.parameters.begin(),
                  impl_descriptor.parameters.end());
  // The interface method's parameters. The JVM's lambda class converts each to the type the
  // implementation takes (InnerClassLambdaMetafactory: checkcast, or unboxing to a primitive),
  // so an object of another class never reaches the implementation: a cast, as `checkcast`
  // is. Without it, under insens, every Function.apply(Object) call site handed its argument
  // to every implementation's parameter whatever its type (a String parameter got Field
  // objects).
  for (std::size_t j = 0; j < sam.parameters.size(); ++j) {
    if (!sam.parameters[j].is_reference()) {
      values.push_back(std::nullopt);
      continue;
    }
    const std::uint64_t p = synthetic_var("p$" + std::to_string(j), sam.parameters[j]);
    db_.relation("FormalParam").add({syn, position(j + 1), p});
    const std::size_t at = values.size();
    if (at >= expected.size() || expected[at] == sam.parameters[j]) {
      values.push_back(p);
    } else if (!expected[at].is_reference()) {
      values.push_back(std::nullopt);  // unboxed: a primitive, which leaves no fact
    } else {
      const std::uint64_t cast = synthetic_var("arg$" + std::to_string(j), expected[at]);
      db_.relation("Cast").add({cast, p, type(expected[at])});
      values.push_back(cast);
    }
  }

  const std::uint64_t site = db_.domain("I").intern(
      invocation_site_name(synthetic, internal_name(target.owner), target.name, 0));
  db_.relation("CallIn").add({site, syn});
  db_.relation("DeclaredTarget").add({site, method(impl_signature)});
  if (is_reflection_class(target.owner)) {
    db_.relation("ReflectiveCall").add({site, method(impl_signature)});
  }
  std::optional<std::uint64_t> receiver;
  std::size_t first_arg = 0;
  if (target.kind == ReferenceKind::kNewInvokeSpecial) {
    const std::uint64_t fresh = synthetic_var("$new", target.owner);
    const std::uint64_t created =
        db_.domain("H").intern(allocation_site_name(synthetic, target.owner, 0));
    db_.relation("HeapType").add({created, type(target.owner)});
    db_.relation("Alloc").add({fresh, created});
    db_.relation("InitTrigger").add({syn, type(target.owner)});
    db_.relation("ReturnVar").add({syn, fresh});
    receiver = fresh;
  } else if (has_receiver && !values.empty()) {
    receiver = values[0];
    first_arg = 1;
  }
  for (std::size_t i = first_arg; i < values.size(); ++i) {
    if (values[i]) db_.relation("ActualArg").add({site, position(i - first_arg + 1), *values[i]});
  }
  if (target.kind != ReferenceKind::kNewInvokeSpecial &&
      impl_descriptor.return_type.is_reference()) {
    const std::uint64_t result = synthetic_var("$ret", impl_descriptor.return_type);
    db_.relation("CallResult").add({site, result});
    db_.relation("ReturnVar").add({syn, result});
  }
  if (!impl.found()) {
    counts_.unresolved.push_back({m.signature, s.pc,
                                  "lambda implementation " + method_handle_text(target) + ": " +
                                      std::string(lookup_status_name(impl.status))});
    return;
  }
  const std::uint64_t callee = method(impl.method.signature());
  switch (target.kind) {
    case ReferenceKind::kInvokeStatic:
      db_.relation("StaticCall").add({site, callee});
      db_.relation("InitTrigger").add({syn, type(JavaType::object(impl.method.class_name()))});
      break;
    case ReferenceKind::kInvokeVirtual:
    case ReferenceKind::kInvokeInterface:
      if (!receiver) break;
      db_.relation(impl.method.is_private() ? "SpecialCall" : "VirtualCall")
          .add({site, *receiver, callee});
      break;
    default:  // kInvokeSpecial, kNewInvokeSpecial: no dispatch
      if (receiver) db_.relation("SpecialCall").add({site, *receiver, callee});
      break;
  }
}

// A StringConcatFactory call site: a new String, with its recipe's parts kept in order.
void FactExtractor::add_concat(MethodContext& m, const Statement& s) {
  ++counts_.string_concats;
  const ConcatInfo& info = m.ir.concats[s.payload];
  const std::uint64_t h =
      db_.domain("H").intern(m.signature + "/concat/" + std::to_string(m.concats++));
  db_.relation("HeapType").add({h, type(kString)});
  if (auto d = variable(m, s.dst)) db_.relation("Alloc").add({*d, h});
  for (std::size_t k = 0; k < info.parts.size(); ++k) {
    const ConcatPart& part = info.parts[k];
    if (!part.is_arg) {
      db_.relation("ConcatText").add({h, position(k), string_heap(part.text)});
    } else if (part.arg < s.args.size()) {
      if (auto v = variable(m, operand_var(s.args[part.arg]))) {
        db_.relation("ConcatArg").add({h, position(k), *v});
      }
    }
  }
}

void FactExtractor::finish() {
  for (const std::string& cls : concrete_classes_) {
    const std::uint64_t t = type(JavaType::object(cls));
    for (const DispatchEntry& e : hierarchy_.dispatch_table(cls)) {
      db_.relation("Dispatch")
          .add({t, method(e.resolved.signature()), method(e.selected.signature())});
    }
  }
  concrete_classes_.clear();
  // Types first (the JVM's objects, java.lang.Class), then what is made for every type.
  if (jvm_objects_ && !jvm_objects_added_) {
    add_jvm_elements();
    jvm_objects_added_ = true;
  }
  type(JavaType::object("java.lang.Class"));
  add_deferred_types();
  add_array_dispatch();
  add_subtype_closure();
  add_class_objects();
  add_field_names();
  finished_types_ = type_list_.size();
  positions_.resize(db_.domain("I").size());
}

ExtractorResumeState FactExtractor::resume_state() const {
  if (!concrete_classes_.empty() || finished_types_ != type_list_.size() ||
      !deferred_parameter_types_.empty() || !deferred_result_casts_.empty()) {
    throw std::logic_error("an extractor's state is taken after finish()");
  }
  return {counts_, type_list_, lambda_classes_, positions_, jvm_objects_, jvm_objects_added_};
}

void FactExtractor::resume(FactDatabase facts, ExtractorResumeState state) {
  if (!type_list_.empty() || db_.domain("M").size() != 0 || counts_.classes != 0) {
    throw std::logic_error("only a fresh extractor resumes another's state");
  }
  if (state.types.size() != facts.domain("T").size()) {
    throw std::invalid_argument("the resumed state has " + std::to_string(state.types.size()) +
                                " types for " + std::to_string(facts.domain("T").size()) +
                                " T elements");
  }
  if (state.positions.size() != facts.domain("I").size()) {
    throw std::invalid_argument("the resumed state has " + std::to_string(state.positions.size()) +
                                " positions for " + std::to_string(facts.domain("I").size()) +
                                " I elements");
  }
  for (std::size_t i = 0; i < state.types.size(); ++i) {
    if (state.types[i].to_java() != facts.domain("T").names()[i]) {
      throw std::invalid_argument("the resumed state's type " + std::to_string(i) + " is " +
                                  state.types[i].to_java() + ", its T element " +
                                  facts.domain("T").names()[i]);
    }
  }
  db_ = std::move(facts);
  counts_ = std::move(state.counts);
  type_list_ = std::move(state.types);
  finished_types_ = type_list_.size();
  lambda_classes_ = std::move(state.lambda_classes);
  positions_ = std::move(state.positions);
  jvm_objects_ = state.jvm_objects;
  jvm_objects_added_ = state.jvm_objects_added;
}

// MethodParamType of the types met already; the others wait for finish (add_deferred_types).
void FactExtractor::add_parameter_types(std::uint64_t method,
                                        const std::vector<JavaType>& parameters) {
  const FactDomain& types = db_.domain("T");
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const std::string name = parameters[i].to_java();
    if (types.contains(name)) {
      db_.relation("MethodParamType").add({method, position(i + 1), types.at(name)});
    } else {
      deferred_parameter_types_.push_back({method, i + 1, parameters[i]});
    }
  }
}

// ResultCast, deferred as MethodParamType is when its type is new.
void FactExtractor::add_result_cast(std::uint64_t invoke, const JavaType& cast) {
  const FactDomain& types = db_.domain("T");
  const std::string name = cast.to_java();
  if (types.contains(name)) {
    db_.relation("ResultCast").add({invoke, types.at(name)});
  } else {
    deferred_result_casts_.push_back({invoke, cast});
  }
}

// The MethodParamType and ResultCast tuples whose types were new when met, interned only now:
// after the types of the classes read, of the JVM's objects and java.lang.Class, so that these
// keep the numbers they have without the reflection facts.
void FactExtractor::add_deferred_types() {
  FactRelation& parameters = db_.relation("MethodParamType");
  for (const DeferredParameterType& p : deferred_parameter_types_) {
    parameters.add({p.method, position(p.index), type(p.type)});
  }
  FactRelation& casts = db_.relation("ResultCast");
  for (const DeferredResultCast& c : deferred_result_casts_) casts.add({c.invoke, type(c.type)});
  deferred_parameter_types_.clear();
  deferred_result_casts_.clear();
}

// JVMS 5.4.6 on an array receiver: an array type has the members of java.lang.Object (its
// clone is public), so every instance method of Object a virtual call can name selects itself.
void FactExtractor::add_array_dispatch() {
  const ClassFile* object = hierarchy_.find("java/lang/Object");
  if (object == nullptr) return;
  std::vector<std::uint64_t> methods;
  for (const MethodInfo& m : object->methods) {
    if ((m.access_flags & (access::kStatic | access::kPrivate)) != 0 || m.name == "<init>" ||
        m.name == "<clinit>")
      continue;
    const auto descriptor = try_parse_method_descriptor(m.descriptor);
    if (!descriptor) continue;
    methods.push_back(method(soot_method_signature("java/lang/Object", m.name, *descriptor)));
  }
  FactRelation& dispatch = db_.relation("Dispatch");
  for (std::size_t i = finished_types_; i < type_list_.size(); ++i) {
    if (!type_list_[i].is_array()) continue;
    for (const std::uint64_t m : methods) dispatch.add({i, m, m});
  }
}

// The java.lang.Class object of each type met, named `<class T>` (one per type, as the JVM has
// one per class and loader), for class constants, getClass() and the reflection rules.
void FactExtractor::add_class_objects() {
  const std::uint64_t class_id = type(JavaType::object("java.lang.Class"));
  const std::size_t count = type_list_.size();  // the loop adds no types
  FactDomain& heaps = db_.domain("H");
  for (std::size_t i = finished_types_; i < count; ++i) {
    const std::uint64_t h = heaps.intern("<class " + type_list_[i].to_java() + ">");
    db_.relation("HeapType").add({h, class_id});
    db_.relation("ClassObject").add({h, i});
  }
}

// Which string constants name which fields: Unsafe.objectFieldOffset(Class, String) selects a
// field by its name (natives.datalog), as Class.getField does under reflection.
void FactExtractor::add_field_names() {
  const auto constant_by_literal = string_constants_by_literal(db_);
  const std::vector<std::string>& fields = db_.domain("F").names();
  for (const auto& t : db_.relation("FieldDeclared").sorted_tuples()) {
    const auto s = constant_by_literal.find(string_literal(member_name(fields[t[0]])));
    if (s != constant_by_literal.end()) db_.relation("StringNamesField").add({s->second, t[0]});
  }
}

// What the JVM creates and calls itself around main (FACTS.md, "The JVM's own objects"):
// main's argument array and its strings, the system and main thread groups, the main thread,
// and the call site from which the finalizer thread runs finalize().
void FactExtractor::add_jvm_elements() {
  FactDomain& heaps = db_.domain("H");
  auto object = [&](const std::string& name, const JavaType& t) {
    db_.relation("HeapType").add({heaps.intern("<jvm>/new " + t.to_java() + "/" + name), type(t)});
  };
  object("0", JavaType::array_of(kString));                // main's String[] argument
  object("0", kString);                                    // the strings in it
  object("1", kString);                                    // names the JVM gives
  object("0", JavaType::object("java.lang.ThreadGroup"));  // the system thread group
  object("1", JavaType::object("java.lang.ThreadGroup"));  // the main thread group
  object("0", JavaType::object("java.lang.Thread"));       // the main thread
  db_.domain("I").intern("<jvm>/java.lang.Object.finalize/0");
}

namespace {
const std::vector<JavaType>& array_roots() {
  static const std::vector<JavaType> roots = {JavaType::object("java.lang.Object"),
                                              JavaType::object("java.lang.Cloneable"),
                                              JavaType::object("java.io.Serializable")};
  return roots;
}
}  // namespace

// SubtypeOf over every type met, as JVMS 6.5 (checkcast) defines assignability. Classes first:
// their supertypes may add types; array supertypes are then only those already met. A class's
// supertypes are fixed, so a later finish() visits only new classes; an array type has more
// supertypes as more array types are met, so every finish() visits all of them.
void FactExtractor::add_subtype_closure() {
  FactRelation& subtype = db_.relation("SubtypeOf");
  std::vector<std::size_t> arrays;
  for (std::size_t i = 0; i < type_list_.size(); ++i) {
    const JavaType t = type_list_[i];
    if (t.is_array()) {
      arrays.push_back(i);
      continue;
    }
    if (i < finished_types_) continue;
    subtype.add({i, i});
    if (!t.is_reference()) continue;
    subtype.add({i, type(kObject)});
    const std::string name = internal_name(t);
    if (auto lambda = lambda_classes_.find(t.class_name); lambda != lambda_classes_.end()) {
      for (const JavaType& super : lambda->second) {
        subtype.add({i, type(super)});
        for (std::string_view s : hierarchy_.superinterfaces(internal_name(super))) {
          subtype.add({i, type(JavaType::object(s))});
        }
      }
      continue;
    }
    if (hierarchy_.is_phantom(name)) db_.relation("PhantomType").add({i});
    for (std::string_view s : hierarchy_.superclasses(name)) {
      subtype.add({i, type(JavaType::object(s))});
    }
    for (std::string_view s : hierarchy_.superinterfaces(name)) {
      subtype.add({i, type(JavaType::object(s))});
    }
  }
  const FactDomain& types = db_.domain("T");
  for (const std::size_t i : arrays) {
    const JavaType t = type_list_[i];
    subtype.add({i, i});
    // T[]..[] (d dims) is a subtype of X[]..[] (d-k dims) for X in Object, Cloneable,
    // Serializable and 1 <= k <= d, and of S[]..[] (d dims) for every supertype S of T.
    for (unsigned k = 1; k <= t.dims; ++k) {
      for (JavaType root : array_roots()) {
        root.dims = static_cast<std::uint8_t>(t.dims - k);
        if (types.contains(root.to_java())) subtype.add({i, types.at(root.to_java())});
      }
    }
    if (t.base != BaseKind::kReference) continue;
    const std::string element = internal_name(JavaType::object(t.class_name));
    std::vector<std::string_view> supers = hierarchy_.superclasses(element);
    const auto interfaces = hierarchy_.superinterfaces(element);
    supers.insert(supers.end(), interfaces.begin(), interfaces.end());
    for (std::string_view s : supers) {
      JavaType super = JavaType::object(s);
      super.dims = t.dims;
      if (types.contains(super.to_java())) subtype.add({i, types.at(super.to_java())});
    }
  }
}

}  // namespace refract::frontend
