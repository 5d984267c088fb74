// The class hierarchy (frontend/hierarchy.hpp) over the Java fixtures in
// tests/fixtures/java/hierarchy and over all of java.base: loading on demand, phantoms,
// supertypes, subtyping with arrays, resolution (JVMS 5.4.3), selection (5.4.6, 6.5
// invokespecial), overriding across packages (5.4.5), nest mates (5.4.4), dispatch tables.
#include "frontend/hierarchy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "frontend/bytecode.hpp"
#include "frontend/class_builder.hpp"
#include "frontend/names.hpp"
#include "frontend/test_util.hpp"

namespace refract::frontend {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kString = "()Ljava/lang/String;";

// The fixture classes over java.base (read as a jmod, like every class path refract builds).
struct FixtureHierarchy {
  ClassPath path;
  std::unique_ptr<ClassHierarchy> hierarchy;

  explicit FixtureHierarchy(const fs::path& classes, const fs::path& jdk) {
    path.add(jdk / "jmods" / "java.base.jmod");
    path.add(classes);
    hierarchy = std::make_unique<ClassHierarchy>(path);
  }
};

// Skips the test when there is no JDK 17 (the fixture classes need java.base under them).
#define REQUIRE_JDK(home)                  \
  const auto home = testing::find_jdk17(); \
  if (!home) GTEST_SKIP() << testing::kNoJdkMessage

// The method `cls` declares; fails the test if it does not.
MethodDecl declared(ClassHierarchy& h, std::string_view cls, std::string_view name,
                    std::string_view descriptor) {
  const ClassFile* file = h.find(cls);
  EXPECT_NE(file, nullptr) << cls;
  if (file == nullptr) return {};
  const MethodDecl m = h.declared_method(*file, name, descriptor);
  EXPECT_TRUE(m) << cls << "." << name << descriptor;
  return m;
}

// "pkg/Cls.name" of a lookup, or its status, for readable expectations.
std::string where(const MethodLookup& lookup) {
  if (!lookup.found()) {
    std::string out(lookup_status_name(lookup.status));
    if (!lookup.phantom.empty()) out += " " + lookup.phantom;
    return out;
  }
  return std::string(lookup.method.class_name()) + "." + std::string(lookup.method.name());
}

std::string where(const FieldLookup& lookup) {
  if (!lookup.found()) return std::string(lookup_status_name(lookup.status));
  return std::string(lookup.field.class_name()) + "." + std::string(lookup.field.name());
}

// The first member reference of `opcode` in the code of cls.method.
MemberRef first_ref(ClassHierarchy& h, std::string_view cls, std::string_view method,
                    Opcode opcode) {
  const ClassFile* file = h.find(cls);
  for (const MethodInfo& m : file->methods) {
    if (m.name != method || !m.code) continue;
    const DecodedCode code = decode_code(*file, m);
    for (const Instruction& insn : code.instructions()) {
      if (insn.opcode == opcode) return file->constant_pool.member_ref(insn.constant);
    }
  }
  ADD_FAILURE() << "no " << opcode_name(opcode) << " in " << cls << "." << method;
  return {};
}

const std::string kD = "hierarchy/defaults/Defaults$";

TEST(HierarchyTest, LoadsOnDemandAndCaches) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  EXPECT_EQ(h.loaded_count(), 0u);
  const ClassFile* diamond = h.find(kD + "Diamond");
  ASSERT_NE(diamond, nullptr);
  EXPECT_EQ(h.loaded_count(), 1u);
  EXPECT_EQ(h.find(kD + "Diamond"), diamond);  // parsed once, then cached
  EXPECT_EQ(h.loaded_count(), 1u);
  EXPECT_EQ(h.find("[Ljava/lang/Object;"), nullptr);  // arrays are not class files
  EXPECT_EQ(h.phantom_count(), 0u);
  EXPECT_EQ(h.find("no/such/Class"), nullptr);
  EXPECT_EQ(h.find("no/such/Class"), nullptr);
  EXPECT_EQ(h.phantom_count(), 1u);
  EXPECT_TRUE(h.is_phantom("no/such/Class"));
  EXPECT_TRUE(h.is_phantom("[[Lno/such/Class;"));
  EXPECT_FALSE(h.is_phantom("[I"));
  EXPECT_FALSE(h.is_phantom("java/lang/String"));
}

TEST(HierarchyTest, Supertypes) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  using V = std::vector<std::string_view>;
  const std::string concrete = kD + "Concrete";
  EXPECT_EQ(h.superclass(concrete), kD + "StillAbstract");
  EXPECT_EQ(h.superclasses(concrete), (V{kD + "StillAbstract", "java/lang/Object"}));
  EXPECT_EQ(h.superinterfaces(concrete), (V{kD + "Reabstract", kD + "Left", kD + "Top"}));
  EXPECT_EQ(h.superinterfaces(kD + "Diamond"), (V{kD + "Left", kD + "Right", kD + "Top"}));
  EXPECT_EQ(h.superclasses("java/lang/Object"), V{});
  EXPECT_FALSE(h.superclass("java/lang/Object").has_value());
  // An interface's superclass in the class file is Object (JVMS 4.1).
  EXPECT_EQ(h.superclasses(kD + "Left"), V{"java/lang/Object"});
}

TEST(HierarchyTest, SubtypeTestIncludingArrays) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  EXPECT_TRUE(h.is_subtype(kD + "Concrete", kD + "Top"));
  EXPECT_TRUE(h.is_subtype(kD + "Concrete", kD + "StillAbstract"));
  EXPECT_TRUE(h.is_subtype(kD + "Left", "java/lang/Object"));
  EXPECT_TRUE(h.is_subtype(kD + "Left", kD + "Left"));
  EXPECT_FALSE(h.is_subtype(kD + "Top", kD + "Left"));
  EXPECT_FALSE(h.is_subtype(kD + "Base", kD + "Top"));
  EXPECT_TRUE(h.is_subtype("java/lang/String", "java/lang/CharSequence"));
  EXPECT_TRUE(h.is_subtype("java/util/HashMap", "java/util/Map"));
  EXPECT_FALSE(h.is_subtype("java/util/Map", "java/util/HashMap"));
  // Arrays: Object, Cloneable and Serializable, covariance, primitives exact.
  EXPECT_TRUE(h.is_subtype("[I", "java/lang/Object"));
  EXPECT_TRUE(h.is_subtype("[I", "java/lang/Cloneable"));
  EXPECT_TRUE(h.is_subtype("[I", "java/io/Serializable"));
  EXPECT_FALSE(h.is_subtype("[I", "java/lang/Comparable"));
  EXPECT_FALSE(h.is_subtype("[I", "[J"));
  EXPECT_FALSE(h.is_subtype("[I", "[Ljava/lang/Object;"));
  EXPECT_TRUE(h.is_subtype("[[I", "[Ljava/lang/Object;"));
  EXPECT_TRUE(h.is_subtype("[[I", "[Ljava/lang/Cloneable;"));
  EXPECT_TRUE(h.is_subtype("[Ljava/lang/String;", "[Ljava/lang/Object;"));
  EXPECT_TRUE(h.is_subtype("[Ljava/lang/String;", "[Ljava/lang/CharSequence;"));
  EXPECT_TRUE(h.is_subtype("[[Ljava/lang/String;", "[[Ljava/lang/Comparable;"));
  EXPECT_FALSE(h.is_subtype("[[Ljava/lang/String;", "[Ljava/lang/String;"));
  EXPECT_FALSE(h.is_subtype("[Ljava/lang/Object;", "[Ljava/lang/String;"));
  EXPECT_FALSE(h.is_subtype("java/lang/Object", "[Ljava/lang/Object;"));
  EXPECT_TRUE(h.is_subtype("[" + ("L" + kD + "Concrete;"), "[L" + kD + "Top;"));
}

TEST(HierarchyTest, SubtypesOfLoadedClasses) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  for (const std::string& name : f.path.class_names(false)) {
    if (name.starts_with("hierarchy/defaults/")) h.find(name);
  }
  using V = std::vector<std::string_view>;
  EXPECT_EQ(h.subtypes(kD + "Top"),
            (V{kD + "ClassWins", kD + "Concrete", kD + "Diamond", kD + "Left", kD + "Reabstract",
               kD + "Right", kD + "StillAbstract", kD + "Top"}));
  EXPECT_EQ(h.subtypes(kD + "Base"), (V{kD + "Base", kD + "ClassWins"}));
}

TEST(HierarchyTest, DefaultMethodsDiamondAndClassWins) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  const MethodDecl top_m = declared(h, kD + "Top", "m", kString);
  const MethodDecl left_m = declared(h, kD + "Left", "m", kString);
  // Diamond: Left.m is the single maximally-specific method (it overrides Top.m).
  EXPECT_EQ(where(h.resolve_method(kD + "Diamond", "m", kString)), kD + "Left.m");
  EXPECT_EQ(where(h.select_virtual(kD + "Diamond", top_m)), kD + "Left.m");
  EXPECT_EQ(where(h.select_virtual(kD + "Diamond", left_m)), kD + "Left.m");
  const auto ms = h.maximally_specific(kD + "Diamond", "m", kString);
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0], left_m);
  // A class method, even inherited, wins over a default.
  EXPECT_EQ(where(h.resolve_method(kD + "ClassWins", "m", kString)), kD + "Base.m");
  EXPECT_EQ(where(h.select_virtual(kD + "ClassWins", left_m)), kD + "Base.m");
  EXPECT_EQ(where(h.dispatch(kD + "ClassWins", "m", kString)), kD + "Base.m");
  // Re-abstracted below Left: only Reabstract.m is maximally specific, and it is abstract.
  const auto below = h.maximally_specific(kD + "StillAbstract", "m", kString);
  ASSERT_EQ(below.size(), 1u);
  EXPECT_EQ(below[0].class_name(), kD + "Reabstract");
  // No non-abstract one, so nothing is selected (AbstractMethodError, JVMS 5.4.6 and 6.5).
  EXPECT_EQ(h.select_virtual(kD + "StillAbstract", top_m).status, LookupStatus::kNotFound);
  EXPECT_TRUE(h.dispatch_table(kD + "StillAbstract").empty());
  EXPECT_EQ(where(h.select_virtual(kD + "Concrete", top_m)), kD + "Concrete.m");
  // Interface method resolution: the interface, then Object's public methods, then supers.
  EXPECT_EQ(where(h.resolve_interface_method(kD + "Right", "m", kString)), kD + "Top.m");
  EXPECT_EQ(where(h.resolve_interface_method(kD + "Reabstract", "m", kString)),
            kD + "Reabstract.m");
  EXPECT_EQ(where(h.resolve_interface_method(kD + "Top", "hashCode", "()I")),
            "java/lang/Object.hashCode");
  // Object.clone is protected, so not found through an interface.
  EXPECT_EQ(h.resolve_interface_method(kD + "Top", "clone", "()Ljava/lang/Object;").status,
            LookupStatus::kNotFound);
  // The kinds of reference must match the kind of class.
  EXPECT_EQ(h.resolve_method(kD + "Top", "m", kString).status, LookupStatus::kIncompatible);
  EXPECT_EQ(h.resolve_interface_method(kD + "Diamond", "m", kString).status,
            LookupStatus::kIncompatible);
}

TEST(HierarchyTest, PrivateAndStaticInterfaceMethods) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  const std::string with_private = kD + "WithPrivate";
  const std::string uses = kD + "UsesPrivate";
  // javac 17 calls a private interface method with invokeinterface (nest mates, JDK 11).
  const MemberRef helper_ref = first_ref(h, with_private, "run", Opcode::kInvokeinterface);
  EXPECT_EQ(helper_ref.name, "helper");
  const MethodLookup helper = h.resolve(helper_ref);
  ASSERT_TRUE(helper.found());
  EXPECT_TRUE(helper.method.is_private());
  // Selection of a private method is the method itself, whatever the receiver.
  EXPECT_EQ(h.select_virtual(uses, helper.method).method, helper.method);
  const MemberRef util_ref = first_ref(h, with_private, "run", Opcode::kInvokestatic);
  EXPECT_EQ(util_ref.tag, ConstantTag::kInterfaceMethodref);
  EXPECT_EQ(where(h.resolve(util_ref)), with_private + ".util");
  // Neither private nor static interface methods are inherited by implementing classes.
  EXPECT_EQ(h.resolve_method(uses, "util", "()I").status, LookupStatus::kNotFound);
  EXPECT_EQ(h.resolve_method(uses, "helper", "()I").status, LookupStatus::kNotFound);
  EXPECT_EQ(where(h.resolve_method(uses, "run", "()I")), with_private + ".run");
  // The dispatch table lists the default method, not the private or static one.
  std::vector<std::string> rows;
  for (const DispatchEntry& e : h.dispatch_table(uses)) {
    if (e.resolved.class_name() != "java/lang/Object") {
      rows.push_back(e.resolved.signature() + " -> " + e.selected.signature());
    }
  }
  EXPECT_EQ(rows,
            std::vector<std::string>{"<hierarchy.defaults.Defaults$WithPrivate: int run()> -> "
                                     "<hierarchy.defaults.Defaults$WithPrivate: int run()>"});
}

TEST(HierarchyTest, ConflictingDefaultsAreIncompatible) {
  // Two unrelated defaults of one method: javac rejects the class, but separately compiled
  // class files can have it, and selection must fail with IncompatibleClassChangeError.
  REQUIRE_JDK(home);
  testing::TempDir dir;
  auto write_interface = [&](const std::string& name) {
    testing::ClassBuilder b;
    b.access_flags = 0x0601;  // public interface abstract
    b.this_class = name;
    b.add_method(0x0001, "m", "()V", {b.code_attribute(0, 1, testing::Bytes().u1(0xB1))});
    testing::write_file(dir / (name + ".class"), b.build());
  };
  write_interface("t/X");
  write_interface("t/Y");
  testing::ClassBuilder z;
  z.this_class = "t/Z";
  z.interfaces = {"t/X", "t/Y"};
  testing::write_file(dir / "t/Z.class", z.build());
  FixtureHierarchy f(dir.path(), *home);
  ClassHierarchy& h = *f.hierarchy;
  const MethodDecl xm = declared(h, "t/X", "m", "()V");
  EXPECT_EQ(h.maximally_specific("t/Z", "m", "()V").size(), 2u);
  // Resolution may pick either (JVMS 5.4.3.3 step 3); we pick the nearest, X.m.
  EXPECT_EQ(where(h.resolve_method("t/Z", "m", "()V")), "t/X.m");
  EXPECT_EQ(h.select_virtual("t/Z", xm).status, LookupStatus::kIncompatible);
  EXPECT_EQ(h.dispatch("t/Z", "m", "()V").status, LookupStatus::kIncompatible);
  for (const DispatchEntry& e : h.dispatch_table("t/Z")) {
    EXPECT_NE(e.resolved.name(), "m");
  }
}

TEST(HierarchyTest, PackagePrivateMethodsAcrossPackages) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  const std::string a = "hierarchy/pkga/A", b = "hierarchy/pkgb/B", c = "hierarchy/pkga/C";
  const std::string widen = "hierarchy/pkga/Widen", transitive = "hierarchy/pkgb/Transitive";
  const MethodDecl am = declared(h, a, "m", kString);
  const MethodDecl bm = declared(h, b, "m", kString);
  const MethodDecl cm = declared(h, c, "m", kString);
  const MethodDecl wm = declared(h, widen, "m", kString);
  const MethodDecl tm = declared(h, transitive, "m", kString);
  EXPECT_FALSE(h.can_override(bm, am));  // other package, A.m package-private
  EXPECT_TRUE(h.can_override(cm, am));   // same package as A
  EXPECT_FALSE(h.can_override(cm, bm));  // other package than B
  EXPECT_TRUE(h.can_override(wm, am));
  EXPECT_TRUE(h.can_override(tm, wm));  // Widen.m is public
  EXPECT_TRUE(h.can_override(tm, am));  // transitively, through Widen.m
  // A.callM calls A.m with invokevirtual; what runs depends on the receiver.
  const MethodLookup resolved = h.resolve(first_ref(h, a, "callM", Opcode::kInvokevirtual));
  ASSERT_EQ(resolved.method, am);
  EXPECT_EQ(where(h.select_virtual(b, am)), a + ".m");
  EXPECT_EQ(where(h.select_virtual(c, am)), c + ".m");
  EXPECT_EQ(where(h.select_virtual(c, bm)), b + ".m");
  EXPECT_EQ(where(h.select_virtual(transitive, am)), transitive + ".m");
  // The dispatch table keeps the three methods apart.
  std::vector<std::string> rows;
  for (const DispatchEntry& e : h.dispatch_table(c)) {
    if (e.resolved.name() == "m") {
      rows.push_back(std::string(e.resolved.class_name()) + " -> " +
                     std::string(e.selected.class_name()));
    }
  }
  EXPECT_EQ(rows, (std::vector<std::string>{a + " -> " + c, c + " -> " + c, b + " -> " + b}));
}

TEST(HierarchyTest, BridgeMethods) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  const std::string box = "hierarchy/nested/Outer$Box";
  const MethodDecl compare =
      declared(h, "java/lang/Comparable", "compareTo", "(Ljava/lang/Object;)I");
  const MethodLookup bridge = h.select_virtual(box, compare);
  ASSERT_TRUE(bridge.found());
  EXPECT_EQ(bridge.method.class_name(), box);
  EXPECT_EQ(bridge.method.descriptor(), "(Ljava/lang/Object;)I");
  EXPECT_NE(bridge.method.access_flags() & access::kBridge, 0);
  EXPECT_NE(bridge.method.access_flags() & access::kSynthetic, 0);
  // Covariant return: Dog.self()Dog and the bridge Dog.self()Animal.
  const std::string animal = "hierarchy/nested/Outer$Animal", dog = "hierarchy/nested/Outer$Dog";
  const MethodDecl animal_self = declared(h, animal, "self", "()L" + animal + ";");
  const MethodLookup dog_self = h.select_virtual(dog, animal_self);
  ASSERT_TRUE(dog_self.found());
  EXPECT_EQ(dog_self.method.class_name(), dog);
  EXPECT_NE(dog_self.method.access_flags() & access::kBridge, 0);
  EXPECT_EQ(dog_self.method.signature(),
            "<hierarchy.nested.Outer$Dog: hierarchy.nested.Outer$Animal self()>");
}

TEST(HierarchyTest, NestedClassesAndNestMates) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  const std::string outer = "hierarchy/nested/Outer";
  for (const char* nested : {"$Inner", "$Nested", "$1", "$1Local", "$Box"}) {
    ASSERT_NE(h.find(outer + nested), nullptr) << nested;
    EXPECT_EQ(h.nest_host(outer + nested), outer);
    EXPECT_TRUE(h.are_nestmates(outer, outer + nested));
  }
  EXPECT_EQ(soot_class_name(outer + "$1"), "hierarchy.nested.Outer$1");
  EXPECT_EQ(soot_class_name(outer + "$1Local"), "hierarchy.nested.Outer$1Local");
  EXPECT_EQ(h.nest_host(outer), outer);
  EXPECT_FALSE(h.are_nestmates(outer, kD + "Top"));
  // Inner.peek calls the private Outer.secret with invokevirtual, no accessor (JDK 11+).
  const MemberRef secret_ref = first_ref(h, outer + "$Inner", "peek", Opcode::kInvokevirtual);
  EXPECT_EQ(secret_ref.owner, outer);
  const MethodLookup secret = h.resolve(secret_ref);
  ASSERT_TRUE(secret.found());
  EXPECT_TRUE(secret.method.is_private());
  EXPECT_EQ(h.select_virtual(outer, secret.method).method, secret.method);
  // And the other way: Outer.useInner calls the private Inner.hidden.
  const MemberRef hidden_ref = first_ref(h, outer, "useInner", Opcode::kInvokevirtual);
  EXPECT_EQ(where(h.resolve(hidden_ref)), outer + "$Inner.hidden");
}

TEST(HierarchyTest, ReservedWordNamesInSignatures) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  const std::string cls = "hierarchy/from/cls";
  EXPECT_EQ(declared(h, cls, "from", "()V").signature(), "<hierarchy.'from'.'cls': void 'from'()>");
  EXPECT_EQ(declared(h, cls, "to", "(L" + cls + ";)L" + cls + ";").signature(),
            "<hierarchy.'from'.'cls': hierarchy.'from'.'cls' 'to'(hierarchy.'from'.'cls')>");
  EXPECT_EQ(declared(h, cls, "cls", "([L" + cls + ";)L" + cls + ";").signature(),
            "<hierarchy.'from'.'cls': hierarchy.'from'.'cls' 'cls'(hierarchy.'from'.'cls'[])>");
  EXPECT_EQ(declared(h, cls, "unknown", "()I").signature(),
            "<hierarchy.'from'.'cls': int 'unknown'()>");
  EXPECT_EQ(declared(h, cls, "<init>", "()V").signature(),
            "<hierarchy.'from'.'cls': void <init>()>");
  const FieldLookup with = h.resolve_field(cls, "with", "I");
  ASSERT_TRUE(with.found());
  EXPECT_EQ(with.field.signature(), "<hierarchy.'from'.'cls': int 'with'>");
  EXPECT_EQ(h.resolve_field(cls, "to", "L" + cls + ";").field.signature(),
            "<hierarchy.'from'.'cls': hierarchy.'from'.'cls' 'to'>");
  ASSERT_NE(h.find(cls + "$with"), nullptr);
  EXPECT_EQ(soot_class_name(cls + "$with"), "hierarchy.'from'.cls$with");
}

TEST(HierarchyTest, InvokespecialSelectsFromTheDirectSuperclass) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  const std::string s = "hierarchy/special/Special$";
  // Leaf.m's super.m() names Skip.m, which resolves to Mid.m.
  const MemberRef super_ref = first_ref(h, s + "Leaf", "m", Opcode::kInvokespecial);
  EXPECT_EQ(super_ref.owner, s + "Skip");
  const MethodLookup resolved = h.resolve(super_ref);
  EXPECT_EQ(where(resolved), s + "Mid.m");
  EXPECT_EQ(where(h.select_special(s + "Leaf", super_ref.owner, resolved.method)), s + "Mid.m");
  // A super call naming an older superclass still starts at the direct superclass (ACC_SUPER).
  const MethodDecl root_m = declared(h, s + "Root", "m", kString);
  EXPECT_EQ(where(h.select_special(s + "Leaf", s + "Root", root_m)), s + "Mid.m");
  // Not a super call (own class): the method named.
  const MethodDecl leaf_m = declared(h, s + "Leaf", "m", kString);
  EXPECT_EQ(where(h.select_special(s + "Leaf", s + "Leaf", leaf_m)), s + "Leaf.m");
  // Constructors are never looked up in the superclass.
  const MethodDecl skip_init = declared(h, s + "Skip", "<init>", "()V");
  EXPECT_EQ(h.select_special(s + "Leaf", s + "Skip", skip_init).method, skip_init);
  // An interface super call, I.super.m().
  const MemberRef greet_ref = first_ref(h, s + "Polite", "greet", Opcode::kInvokespecial);
  EXPECT_EQ(greet_ref.tag, ConstantTag::kInterfaceMethodref);
  const MethodLookup greet = h.resolve(greet_ref);
  EXPECT_EQ(where(h.select_special(s + "Polite", greet_ref.owner, greet.method)),
            s + "Greeter.greet");
}

TEST(HierarchyTest, FieldResolution) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  const std::string p = "hierarchy/fields/Fields$";
  // Superinterfaces are searched before the superclass.
  EXPECT_EQ(where(h.resolve_field(p + "Derived", "X", "I")), p + "Constants.X");
  EXPECT_EQ(where(h.resolve_field(p + "Derived", "f", "I")), p + "Base.f");
  EXPECT_EQ(where(h.resolve_field(p + "Shadow", "f", "I")), p + "Shadow.f");
  EXPECT_EQ(h.resolve_field(p + "Derived", "f", "J").status, LookupStatus::kNotFound);
  EXPECT_EQ(h.resolve_field("[I", "length", "I").status, LookupStatus::kNotFound);
  EXPECT_EQ(where(h.resolve_field("java/lang/Integer", "MAX_VALUE", "I")),
            "java/lang/Integer.MAX_VALUE");
}

TEST(HierarchyTest, ArrayMethods) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  // javac writes `ints.clone()` as a Methodref of class "[I".
  const MemberRef clone_ref =
      first_ref(h, "hierarchy/nested/Outer", "arrays", Opcode::kInvokevirtual);
  EXPECT_EQ(clone_ref.owner, "[I");
  const MethodLookup clone = h.resolve(clone_ref);
  EXPECT_EQ(where(clone), "java/lang/Object.clone");
  EXPECT_EQ(h.select_virtual("[I", clone.method).method, clone.method);
  EXPECT_EQ(where(h.dispatch("[Ljava/lang/String;", "hashCode", "()I")),
            "java/lang/Object.hashCode");
}

TEST(HierarchyTest, DispatchTable) {
  REQUIRE_JDK(home);
  FixtureHierarchy f(REFRACT_FIXTURE_CLASSES, *home);
  ClassHierarchy& h = *f.hierarchy;
  std::vector<std::string> rows;
  for (const DispatchEntry& e : h.dispatch_table(kD + "Diamond")) {
    EXPECT_FALSE(e.selected.is_abstract());
    EXPECT_NE(e.resolved.name(), "<init>");
    rows.push_back(std::string(e.resolved.class_name()) + "." + std::string(e.resolved.name()) +
                   " -> " + std::string(e.selected.class_name()));
  }
  EXPECT_NE(std::find(rows.begin(), rows.end(), kD + "Top.m -> " + kD + "Left"), rows.end());
  EXPECT_NE(std::find(rows.begin(), rows.end(), kD + "Left.m -> " + kD + "Left"), rows.end());
  EXPECT_NE(std::find(rows.begin(), rows.end(), "java/lang/Object.hashCode -> java/lang/Object"),
            rows.end());
  // Object's private and static methods are not in it.
  for (const std::string& row : rows) {
    EXPECT_EQ(row.find("registerNatives"), std::string::npos) << row;
  }
  EXPECT_TRUE(h.dispatch_table(kD + "Top").empty());  // an interface
}

// The fixture classes without Missing.class, so that it is a phantom.
fs::path copy_without_missing(const testing::TempDir& dir) {
  const fs::path from = fs::path(REFRACT_FIXTURE_CLASSES) / "hierarchy" / "phantom";
  const fs::path to = dir / "classes" / "hierarchy" / "phantom";
  fs::create_directories(to);
  fs::copy_file(from / "User.class", to / "User.class");
  return dir / "classes";
}

TEST(HierarchyTest, PhantomsAreRecordedWithReferrers) {
  REQUIRE_JDK(home);
  testing::TempDir dir;
  FixtureHierarchy f(copy_without_missing(dir), *home);
  ClassHierarchy& h = *f.hierarchy;
  const std::string user = "hierarchy/phantom/User", missing = "hierarchy/phantom/Missing";
  ASSERT_NE(h.find(user), nullptr);
  // Resolve every member reference of User's code, as the facts writer will.
  const ClassFile& cls = *h.find(user);
  std::map<std::string, std::string> results;
  for (const MethodInfo& m : cls.methods) {
    const std::string referrer = soot_method_signature(cls.this_class, m.name, m.descriptor);
    const DecodedCode code = decode_code(cls, m);
    for (const Instruction& insn : code.instructions()) {
      const Opcode op = insn.opcode;
      if (op == Opcode::kGetstatic || op == Opcode::kPutstatic) {
        const MemberRef ref = cls.constant_pool.member_ref(insn.constant);
        results[std::string(ref.name)] =
            where(h.resolve_field(ref.owner, ref.name, ref.descriptor, referrer));
      } else if (op >= Opcode::kInvokevirtual && op <= Opcode::kInvokeinterface) {
        const MemberRef ref = cls.constant_pool.member_ref(insn.constant);
        results[std::string(ref.owner) + "." + std::string(ref.name)] =
            where(h.resolve(ref, referrer));
      } else if (op == Opcode::kNew) {
        h.note_reference(cls.constant_pool.class_name(insn.constant), referrer);
      }
    }
  }
  EXPECT_EQ(results["count"], "phantom");
  EXPECT_EQ(results[user + ".gone"], "phantom " + missing);
  EXPECT_EQ(results[missing + ".<init>"], "phantom " + missing);
  EXPECT_EQ(results["java/lang/Object.toString"], "java/lang/Object.toString");
  // What User declares itself is found although its superclass is missing.
  const MethodDecl run = declared(h, "java/lang/Runnable", "run", "()V");
  EXPECT_EQ(where(h.select_virtual(user, run)), user + ".run");
  EXPECT_EQ(h.select_virtual(user, declared(h, "java/lang/Object", "hashCode", "()I")).status,
            LookupStatus::kPhantom);
  EXPECT_TRUE(h.is_subtype(user, missing));
  EXPECT_TRUE(h.is_subtype(user, "java/lang/Runnable"));
  EXPECT_FALSE(h.is_subtype(user, "java/lang/Comparable"));
  // note_reference of arrays records the element class; present classes are not phantoms.
  EXPECT_TRUE(h.note_reference("[[L" + missing + ";", "an array type"));
  EXPECT_FALSE(h.note_reference("java/lang/String", "x"));
  EXPECT_FALSE(h.note_reference("[J", "x"));
  const std::vector<Phantom> phantoms = h.phantoms();
  ASSERT_EQ(phantoms.size(), 1u);
  EXPECT_EQ(phantoms[0].name, missing);
  EXPECT_EQ(phantoms[0].referrers,
            (std::vector<std::string>{"<hierarchy.phantom.User: java.lang.Object make()>",
                                      "<hierarchy.phantom.User: void <init>()>",
                                      "<hierarchy.phantom.User: void run()>", "an array type"}));
  EXPECT_EQ(phantoms[0].subclasses, std::vector<std::string>{user});
}

TEST(HierarchyTest, BadClassFiles) {
  REQUIRE_JDK(home);
  testing::TempDir dir;
  const fs::path classes = copy_without_missing(dir);
  testing::write_file(classes / "bad" / "Bad.class", {0xCA, 0xFE, 0xBA, 0xBE, 0x00});
  // A class file stored under another class's name (JVMS 5.3.5: NoClassDefFoundError).
  testing::write_file(classes / "bad" / "Renamed.class",
                      testing::read_file(classes / "hierarchy" / "phantom" / "User.class"));
  {
    FixtureHierarchy f(classes, *home);
    EXPECT_THROW(f.hierarchy->find("bad/Bad"), ClassFormatError);
    try {
      f.hierarchy->find("bad/Renamed");
      ADD_FAILURE() << "no error";
    } catch (const ClassFormatError& e) {
      EXPECT_NE(std::string(e.what()).find("Renamed.class:0: class file declares "
                                           "hierarchy/phantom/User, expected bad/Renamed"),
                std::string::npos)
          << e.what();
    }
  }
  FixtureHierarchy f(classes, *home);
  f.hierarchy->set_skip_bad_classes(true);
  EXPECT_EQ(f.hierarchy->find("bad/Bad"), nullptr);
  EXPECT_EQ(f.hierarchy->find("bad/Renamed"), nullptr);
  ASSERT_EQ(f.hierarchy->skipped_classes().size(), 2u);
  EXPECT_EQ(f.hierarchy->skipped_classes()[0].name, "bad/Bad");
  EXPECT_NE(f.hierarchy->skipped_classes()[0].message.find("Bad.class:"), std::string::npos);
  EXPECT_TRUE(f.hierarchy->is_phantom("bad/Bad"));
}

// Every field and method reference in every class of java.base resolves, or meets a phantom.
TEST(HierarchyTest, EveryReferenceInJavaBaseResolves) {
  REQUIRE_JDK(home);
  ClassPath path;
  path.add(*home / "jmods" / "java.base.jmod");
  ClassHierarchy h(path);
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  auto start = Clock::now();
  h.load_all(false);
  const double load_seconds = seconds_since(start);

  start = Clock::now();
  std::map<LookupStatus, std::size_t> counts;
  std::vector<std::string> failures;
  std::size_t references = 0;
  for (const ClassFile* cls : h.loaded_classes()) {
    const ConstantPool& pool = cls->constant_pool;
    for (std::uint32_t i = 1; i < pool.size(); ++i) {
      const ConstantTag tag = pool.tag(i);
      LookupStatus status;
      if (tag == ConstantTag::kFieldref) {
        const MemberRef ref = pool.member_ref(i);
        status = h.resolve_field(ref.owner, ref.name, ref.descriptor, cls->this_class).status;
      } else if (tag == ConstantTag::kMethodref || tag == ConstantTag::kInterfaceMethodref) {
        status = h.resolve(pool.member_ref(i), cls->this_class).status;
      } else {
        continue;
      }
      ++references;
      ++counts[status];
      if (status != LookupStatus::kFound && status != LookupStatus::kPhantom &&
          failures.size() < 20) {
        const MemberRef ref = pool.member_ref(i);
        failures.push_back(cls->this_class + " -> " + std::string(ref.owner) + "." +
                           std::string(ref.name) + std::string(ref.descriptor) + ": " +
                           std::string(lookup_status_name(status)));
      }
    }
  }
  const double resolve_seconds = seconds_since(start);

  start = Clock::now();
  std::size_t dispatch_rows = 0;
  std::size_t concrete = 0;
  for (const ClassFile* cls : h.loaded_classes()) {
    const std::size_t rows = h.dispatch_table(cls->this_class).size();
    dispatch_rows += rows;
    concrete += rows > 0 ? 1 : 0;
  }
  const double dispatch_seconds = seconds_since(start);

  std::cout << "java.base: " << h.loaded_count() << " classes loaded in " << load_seconds << " s; "
            << references << " member references resolved in " << resolve_seconds << " s ("
            << counts[LookupStatus::kFound] << " found, " << counts[LookupStatus::kPhantom]
            << " phantom, " << counts[LookupStatus::kNotFound] << " not found, "
            << counts[LookupStatus::kIncompatible] << " incompatible); " << h.phantom_count()
            << " phantom classes; dispatch tables of " << concrete << " concrete classes, "
            << dispatch_rows << " rows, in " << dispatch_seconds << " s\n";
  for (const Phantom& p : h.phantoms()) {
    std::cout << "  phantom " << p.name << " (" << p.referrers.size() << " referring classes, e.g. "
              << (p.referrers.empty() ? "-" : p.referrers.front()) << ")\n";
  }
  for (const std::string& failure : failures) ADD_FAILURE() << failure;
  EXPECT_EQ(counts[LookupStatus::kNotFound], 0u);
  EXPECT_EQ(counts[LookupStatus::kIncompatible], 0u);
  EXPECT_LE(h.phantom_count(), 10u);
  EXPECT_GT(references, 100000u);
}

}  // namespace
}  // namespace refract::frontend
