// A deterministic mutation fuzzer: class files (hand-built and, when a JDK 17 is installed,
// real ones from java.base), a jar and a jmod are mutated thousands of times with seeded
// random edits, then read, parsed and decoded. Every outcome must be success or an
// InputError (ClassFormatError for class bytes): no crash, no hang, no other exception. On
// success, every constant the parser and decoder vouched for is looked up again, which must
// not hit a wrong tag.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <iostream>

#include "frontend/bytecode.hpp"
#include "frontend/class_builder.hpp"
#include "frontend/class_file.hpp"
#include "frontend/class_path.hpp"
#include "frontend/test_util.hpp"
#include "frontend/zip_archive.hpp"
#include "support/error.hpp"

namespace refract::frontend {
namespace {

using testing::Bytes;
using testing::ClassBuilder;
using testing::Random;

constexpr std::size_t kClassMutations = 4000;
constexpr std::size_t kArchiveMutations = 1200;

// A class using every constant pool tag (but Module/Package) and the attributes and
// instruction forms the front end reads.
std::vector<std::uint8_t> rich_class() {
  ClassBuilder b;
  b.this_class = "fuzz/Rich";
  b.interfaces = {"java/lang/Runnable"};
  const auto bsm = b.method_handle(
      6, b.methodref("fuzz/Boot", "bsm",
                     "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/"
                     "invoke/MethodType;)Ljava/lang/invoke/CallSite;"));
  const auto indy = b.invoke_dynamic(0, "run", "()Ljava/lang/Runnable;");
  const auto dyn = b.dynamic(0, "value", "J");
  const auto field = b.fieldref("fuzz/Rich", "count", "I");
  const auto iface = b.interface_methodref("java/util/List", "size", "()I");
  const auto array = b.class_ref("[[Ljava/lang/String;");
  const auto text = b.string("h\xC3\xA9llo \xED\xA0\xBD\xED\xB8\x80");
  const auto l = b.long_value(1234567890123ll);
  const auto d = b.double_value(3.25);
  const auto f = b.float_value(1.5f);
  const auto mt = b.method_type("(I)V");
  b.add_class_attribute(
      b.attribute("BootstrapMethods", Bytes().u2(1).u2(bsm).u2(3).u2(mt).u2(b.integer(9)).u2(f)));

  b.add_field(access::kStatic | access::kFinal, "COUNT", "J",
              {b.attribute("ConstantValue", Bytes().u2(l)),
               b.attribute("Signature", Bytes().u2(b.utf8("J")))});
  b.add_field(access::kPrivate, "count", "I");

  // pc 0 iconst_0; 1 tableswitch (2 padding bytes, cases 0..1) -> 44, 44, 45; 24 iconst_0;
  // 25 lookupswitch (2 padding bytes, key 5) -> 44, 45; 44 return; 45 onwards the rest.
  Bytes c;
  c.u1(0x03);
  c.u1(0xaa).u1(0).u1(0).u4(43).u4(0).u4(1).u4(43).u4(44);
  c.u1(0x03);
  c.u1(0xab).u1(0).u1(0).u4(19).u4(1).u4(5).u4(20);
  c.u1(0xb1);                                               // 44 return
  c.u1(0xc4).u1(0x15).u2(300);                              // 45 wide iload 300
  c.u1(0x57);                                               // 49 pop
  c.u1(0xc4).u1(0x84).u2(2).u2(0xFFFF);                     // 50 wide iinc 2 -1
  c.u1(0xba).u2(indy).u2(0);                                // 56 invokedynamic
  c.u1(0x57);                                               // 61 pop
  c.u1(0x2a).u1(0xb4).u2(field).u1(0x57);                   // 62 aload_0 getfield pop
  c.u1(0x01).u1(0xb9).u2(iface).u1(1).u1(0).u1(0x57);       // 67 aconst_null invokeinterface pop
  c.u1(0x05).u1(0x05).u1(0xc5).u2(array).u1(2).u1(0x57);    // 74 multianewarray [[String 2
  c.u1(0x12).u1(static_cast<std::uint8_t>(text)).u1(0x57);  // 81 ldc pop
  c.u1(0x14).u2(dyn).u1(0x58);                              // 84 ldc2_w dynamic J, pop2
  c.u1(0x14).u2(d).u1(0x58);                                // 88 ldc2_w double, pop2
  c.u1(0xa8).u2(4);                                         // 92 jsr -> 96
  c.u1(0xb1);                                               // 95 return
  c.u1(0x4c).u1(0xa9).u1(1);                                // 96 astore_1, 97 ret 1
  const Bytes lines = Bytes().u2(2).u2(0).u2(1).u2(24).u2(2);
  const Bytes locals = Bytes().u2(1).u2(0).u2(1).u2(b.utf8("this")).u2(b.utf8("Lfuzz/Rich;")).u2(0);
  b.add_method(access::kPublic, "run", "()V",
               {b.code_attribute(4, 400, c, {{0, 24, 44, b.class_ref("java/lang/Exception")}},
                                 {b.attribute("LineNumberTable", lines),
                                  b.attribute("LocalVariableTable", locals)}),
                b.attribute("Exceptions", Bytes().u2(1).u2(b.class_ref("java/io/IOException")))});
  b.add_class_attribute(b.attribute("SourceFile", Bytes().u2(b.utf8("Rich.java"))));
  b.add_class_attribute(b.attribute("InnerClasses", Bytes()
                                                        .u2(1)
                                                        .u2(b.class_ref("fuzz/Rich$In"))
                                                        .u2(b.class_ref("fuzz/Rich"))
                                                        .u2(b.utf8("In"))
                                                        .u2(8)));
  b.add_class_attribute(b.attribute("NestMembers", Bytes().u2(1).u2(b.class_ref("fuzz/Rich$In"))));
  b.add_class_attribute(
      b.attribute("PermittedSubclasses", Bytes().u2(1).u2(b.class_ref("fuzz/Sub"))));
  b.add_class_attribute(
      b.attribute("Record", Bytes()
                                .u2(1)
                                .u2(b.utf8("count"))
                                .u2(b.utf8("I"))
                                .u2(1)
                                .append(b.attribute("Signature", Bytes().u2(b.utf8("I"))))));
  return b.build();
}

// Looks up again every constant that parsing and decoding checked; the accessors throw
// std::logic_error on a wrong tag, which would mean a check was missing.
void touch_constants(const ClassFile& cls, const DecodedCode& code) {
  const ConstantPool& pool = cls.constant_pool;
  for (const Instruction& ins : code.instructions()) {
    switch (ins.opcode) {
      case Opcode::kGetstatic:
      case Opcode::kPutstatic:
      case Opcode::kGetfield:
      case Opcode::kPutfield:
      case Opcode::kInvokevirtual:
      case Opcode::kInvokespecial:
      case Opcode::kInvokestatic:
      case Opcode::kInvokeinterface:
        static_cast<void>(pool.member_ref(ins.constant));
        break;
      case Opcode::kInvokedynamic:
        static_cast<void>(pool.dynamic(ins.constant));
        break;
      case Opcode::kNew:
      case Opcode::kAnewarray:
      case Opcode::kCheckcast:
      case Opcode::kInstanceof:
      case Opcode::kMultianewarray:
        static_cast<void>(pool.class_name(ins.constant));
        break;
      case Opcode::kLdc:
      case Opcode::kLdcW:
      case Opcode::kLdc2W:
        switch (pool.tag(ins.constant)) {
          case ConstantTag::kString:
            static_cast<void>(pool.string(ins.constant));
            break;
          case ConstantTag::kClass:
            static_cast<void>(pool.class_name(ins.constant));
            break;
          case ConstantTag::kMethodHandle:
            static_cast<void>(pool.member_ref(pool.method_handle(ins.constant).reference_index));
            break;
          case ConstantTag::kMethodType:
            static_cast<void>(pool.method_type(ins.constant));
            break;
          case ConstantTag::kDynamic:
            static_cast<void>(
                cls.bootstrap_methods.at(pool.dynamic(ins.constant).bootstrap_method));
            break;
          default:
            break;
        }
        break;
      default:
        break;
    }
  }
}

void touch_class(const ClassFile& cls) {
  const ConstantPool& pool = cls.constant_pool;
  for (const BootstrapMethod& method : cls.bootstrap_methods) {
    static_cast<void>(
        pool.member_ref(pool.method_handle(method.method_handle_index).reference_index));
  }
  for (std::uint32_t i = 1; i < pool.size(); ++i) {
    switch (pool.tag(i)) {
      case ConstantTag::kFieldref:
      case ConstantTag::kMethodref:
      case ConstantTag::kInterfaceMethodref:
        static_cast<void>(pool.member_ref(i));
        break;
      case ConstantTag::kDynamic:
      case ConstantTag::kInvokeDynamic:
        static_cast<void>(cls.bootstrap_methods.at(pool.dynamic(i).bootstrap_method));
        break;
      default:
        break;
    }
  }
}

// Parses and decodes; returns true on success, false on an InputError; anything else fails
// the test.
bool exercise_class(const std::vector<std::uint8_t>& bytes, const std::string& origin,
                    const std::string& context) {
  try {
    const ClassFile cls = parse_class_file(bytes, origin);
    touch_class(cls);
    for (const MethodInfo& method : cls.methods) {
      if (!method.code) continue;
      touch_constants(cls, decode_code(cls, method));
    }
    return true;
  } catch (const ClassFormatError& e) {
    EXPECT_EQ(e.origin(), origin) << context;
    EXPECT_LE(e.offset(), bytes.size()) << context << ": " << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(origin + ":", 0), 0u) << context;
    return false;
  } catch (const std::exception& e) {
    ADD_FAILURE() << context << ": unexpected " << typeid(e).name() << ": " << e.what();
  } catch (...) {
    ADD_FAILURE() << context << ": unexpected non-standard exception";
  }
  return false;
}

// One random edit of the kinds a damaged or hostile file shows.
void mutate(std::vector<std::uint8_t>& data, Random& random) {
  static constexpr std::array<std::uint8_t, 8> kBytes = {0x00, 0x01, 0x7F, 0x80,
                                                         0xFF, 0xFE, 0x10, 0x40};
  static constexpr std::array<std::uint16_t, 7> kShorts = {0x0000, 0x0001, 0x7FFF, 0x8000,
                                                           0xFFFF, 0xFFFE, 0x0100};
  static constexpr std::array<std::uint32_t, 7> kInts = {
      0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x00010000, 0x0000FFFF};
  if (data.empty()) {
    data.push_back(static_cast<std::uint8_t>(random.next()));
    return;
  }
  const std::size_t pos = random.below(data.size());
  const auto put = [&](std::size_t at, std::uint64_t value, unsigned width) {
    for (unsigned i = 0; i < width && at + i < data.size(); ++i) {
      data[at + i] = static_cast<std::uint8_t>(value >> (8 * (width - 1 - i)));
    }
  };
  switch (random.below(9)) {
    case 0:  // bit flips
      for (std::size_t n = 1 + random.below(4); n > 0; --n) {
        data[random.below(data.size())] ^= static_cast<std::uint8_t>(1u << random.below(8));
      }
      break;
    case 1:
      data[pos] = kBytes[random.below(kBytes.size())];
      break;
    case 2:
      put(pos, kShorts[random.below(kShorts.size())], 2);
      break;
    case 3:
      put(pos, kInts[random.below(kInts.size())], 4);
      break;
    case 4:  // truncation
      data.resize(pos);
      break;
    case 5: {  // length-field inflation: grow the u2 or u4 at pos
      const unsigned width = random.below(2) == 0 ? 2 : 4;
      std::uint64_t value = 0;
      for (unsigned i = 0; i < width && pos + i < data.size(); ++i)
        value = (value << 8) | data[pos + i];
      static constexpr std::array<std::uint32_t, 6> kGrowth = {1, 2, 7, 0x100, 0x1000, 0x7FFF};
      put(pos, value + kGrowth[random.below(kGrowth.size())], width);
      break;
    }
    case 6: {  // insertion
      std::vector<std::uint8_t> inserted(1 + random.below(16));
      for (auto& byte : inserted) byte = static_cast<std::uint8_t>(random.next());
      data.insert(data.begin() + static_cast<long>(pos), inserted.begin(), inserted.end());
      break;
    }
    case 7: {  // deletion
      const std::size_t count = std::min(data.size() - pos, 1 + random.below(16));
      data.erase(data.begin() + static_cast<long>(pos),
                 data.begin() + static_cast<long>(pos + count));
      break;
    }
    default: {  // duplicate a chunk elsewhere
      const std::size_t count = std::min(data.size() - pos, 1 + random.below(32));
      const std::vector<std::uint8_t> chunk(data.begin() + static_cast<long>(pos),
                                            data.begin() + static_cast<long>(pos + count));
      const std::size_t to = random.below(data.size());
      data.insert(data.begin() + static_cast<long>(to), chunk.begin(), chunk.end());
      break;
    }
  }
}

struct Seed {
  std::string name;
  std::vector<std::uint8_t> bytes;
};

std::vector<Seed> class_seeds() {
  std::vector<Seed> seeds = {{"fuzz/Rich", rich_class()}};
  if (const auto home = testing::find_jdk17()) {
    ClassPath path;
    path.add(*home / "jmods" / "java.base.jmod");
    for (const char* name : {"java/lang/Object", "java/util/Optional", "java/lang/Record",
                             "java/util/ArrayList$Itr", "java/lang/Thread$State", "module-info"}) {
      if (auto bytes = path.read(name)) seeds.push_back({name, std::move(bytes->bytes)});
    }
  }
  return seeds;
}

TEST(FuzzTest, RichSeedIsValid) {
  const auto bytes = rich_class();
  const ClassFile cls = parse_class_file(bytes, "rich");
  const DecodedCode code = decode_code(cls, cls.methods.at(0));
  EXPECT_EQ(code.instructions()[1].opcode, Opcode::kTableswitch);
  EXPECT_EQ(code.instructions()[1].cases.size(), 2u);
  EXPECT_EQ(code.instructions()[3].opcode, Opcode::kLookupswitch);
  EXPECT_EQ(code.instructions()[3].target, 44u);
  ASSERT_EQ(code.instructions()[3].cases.size(), 1u);
  EXPECT_EQ(code.instructions()[3].cases[0].target, 45u);
  EXPECT_EQ(code.instructions()[4].pc, 44u);
  EXPECT_EQ(code.instructions().back().pc, 97u);
  EXPECT_TRUE(exercise_class(bytes, "rich", "seed"));
}

TEST(FuzzTest, MutatedClassFiles) {
  const auto start = std::chrono::steady_clock::now();
  const auto seeds = class_seeds();
  for (const Seed& seed : seeds) {
    ASSERT_TRUE(exercise_class(seed.bytes, "seed!" + seed.name, seed.name)) << "seed must be valid";
  }
  std::size_t parsed = 0;
  std::size_t rejected = 0;
  for (std::size_t i = 0; i < kClassMutations; ++i) {
    const Seed& seed = seeds[i % seeds.size()];
    Random random(0x5EED0000 + i);
    std::vector<std::uint8_t> bytes = seed.bytes;
    for (std::size_t n = 1 + random.below(3); n > 0; --n) mutate(bytes, random);
    const std::string origin = "fuzz.jar!" + seed.name + ".class";
    (exercise_class(bytes, origin, "case " + std::to_string(i) + " of " + seed.name) ? parsed
                                                                                     : rejected)++;
    if (HasFailure()) break;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << kClassMutations << " mutated class files from " << seeds.size()
            << " seeds: " << parsed << " parsed, " << rejected << " rejected, " << seconds
            << " s\n";
  EXPECT_GT(rejected, 0u);
}

// Reads every entry of a (mutated) archive and parses the classes; true if nothing failed.
bool exercise_archive(std::vector<std::uint8_t> bytes, const std::string& name,
                      const std::string& context) {
  try {
    const ZipArchive archive = ZipArchive::open_buffer(std::move(bytes), name);
    bool ok = true;
    for (std::size_t i = 0; i < archive.entries().size(); ++i) {
      std::vector<std::uint8_t> entry;
      try {
        entry = archive.read(i);
      } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(name + "!", 0), 0u) << context << ": " << e.what();
        ok = false;
        continue;
      }
      if (archive.entries()[i].ends_with(".class")) {
        ok = exercise_class(entry, archive.origin(i), context) && ok;
      }
    }
    return ok;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(name + ":", 0), 0u) << context << ": " << e.what();
    return false;
  } catch (const std::exception& e) {
    ADD_FAILURE() << context << ": unexpected " << typeid(e).name() << ": " << e.what();
  } catch (...) {
    ADD_FAILURE() << context << ": unexpected non-standard exception";
  }
  return false;
}

TEST(FuzzTest, MutatedJarsAndJmods) {
  const auto start = std::chrono::steady_clock::now();
  const auto rich = rich_class();
  ClassBuilder small;
  small.this_class = "fuzz/Small";
  const testing::ZipEntries entries = {
      {"META-INF/MANIFEST.MF",
       testing::text_bytes("Manifest-Version: 1.0\nMulti-Release: true\n\n")},
      {"fuzz/Rich.class", rich},
      {"META-INF/versions/11/fuzz/Small.class", small.build()},
      {"fuzz/Small.class", small.build()}};
  const std::vector<std::pair<std::string, std::vector<std::uint8_t>>> seeds = {
      {"deflated.jar", testing::zip_bytes(entries, true)},
      {"stored.jar", testing::zip_bytes(entries, false)},
      {"module.jmod", testing::jmod_bytes({{"classes/fuzz/Rich.class", rich}})}};
  for (const auto& [name, bytes] : seeds) {
    ASSERT_TRUE(exercise_archive(bytes, name, "seed " + name));
  }
  std::size_t intact = 0;
  std::size_t rejected = 0;
  testing::TempDir dir;
  for (std::size_t i = 0; i < kArchiveMutations; ++i) {
    const auto& [name, seed] = seeds[i % seeds.size()];
    Random random(0xA4C0000 + i);
    std::vector<std::uint8_t> bytes = seed;
    for (std::size_t n = 1 + random.below(3); n > 0; --n) mutate(bytes, random);
    const std::string context = "archive case " + std::to_string(i) + " of " + name;
    (exercise_archive(bytes, name, context) ? intact : rejected)++;
    if (i % 20 == 0) {
      // Through a file and a class path too: the index and lazy reads of a damaged archive.
      const auto file = dir / ("case" + std::to_string(i) + "-" + name);
      testing::write_file(file, bytes);
      try {
        ClassPath path;
        path.add(file);
        for (const std::string& class_name : path.class_names(false)) {
          if (const auto read = path.read(class_name)) {
            exercise_class(read->bytes, read->origin, context);
          }
        }
      } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(file.string(), 0), 0u) << context << ": " << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << context << ": unexpected " << typeid(e).name() << ": " << e.what();
      }
    }
    if (HasFailure()) break;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << kArchiveMutations << " mutated archives: " << intact << " read in full, " << rejected
            << " with errors, " << seconds << " s\n";
  EXPECT_GT(rejected, 0u);
}

}  // namespace
}  // namespace refract::frontend
