// Mutation fuzzing of class files and archives, shared by the deterministic fuzz rounds of the
// test suite (fuzz_test.cpp, ir_fuzz_test.cpp) and the refract_fuzz driver of bench/fuzz.sh:
// seeded random edits of the kinds a damaged or hostile file shows, and checks that run one
// input through the zip reader, the class-file parser, the bytecode decoder and the IR builder.
// Every outcome must be success or an InputError (a ClassFormatError "ORIGIN:OFFSET: ..." for
// class bytes); anything else is reported as a bug: another exception, a lookup of a constant
// the parser vouched for that hits a wrong tag, an error located outside the input, an IR whose
// statements name variables it does not have. Crashes and hangs are the callers' to catch.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "frontend/bytecode.hpp"
#include "frontend/class_builder.hpp"
#include "frontend/class_file.hpp"
#include "frontend/class_path.hpp"
#include "frontend/ir.hpp"
#include "frontend/ir_builder.hpp"
#include "frontend/test_util.hpp"
#include "frontend/zip_archive.hpp"
#include "support/error.hpp"

namespace refract::frontend::testing {

// --- Mutations ---------------------------------------------------------------------------------

// One random edit: bit flips, boundary bytes/shorts/ints, truncation, growth of a length field,
// insertion, deletion, or a chunk duplicated elsewhere.
inline void mutate_bytes(std::vector<std::uint8_t>& data, Random& random) {
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

// A valid class file and the file ranges [start, end) of what its Code attributes hold for
// the bytecode decoder and the IR builder: max_stack and max_locals, then the code bytes and
// the exception table (not the attribute's name, length and code_length, whose edits only
// the parser sees).
struct ClassSeed {
  std::string name;
  std::vector<std::uint8_t> bytes;
  std::vector<std::pair<std::size_t, std::size_t>> code_ranges;
  std::size_t code_bytes = 0;  // the total size of code_ranges
};

// Parses `bytes` (a ClassFormatError if they are not a valid class) to find its Code ranges.
inline ClassSeed class_seed(std::string name, std::vector<std::uint8_t> bytes) {
  ClassSeed seed{std::move(name), std::move(bytes), {}, 0};
  const ClassFile cls = parse_class_file(seed.bytes, seed.name);
  for (const MethodInfo& m : cls.methods) {
    if (!m.code) continue;
    const std::size_t end =
        m.code->bytes_offset + m.code->bytes.size() + 2 + 8 * m.code->exception_table.size();
    seed.code_ranges.emplace_back(m.code->offset + 6, m.code->offset + 10);
    seed.code_ranges.emplace_back(m.code->bytes_offset, end);
  }
  for (const auto& [start, end] : seed.code_ranges) seed.code_bytes += end - start;
  return seed;
}

// One to four edits that keep the file's length, mostly (8 in 10) at a byte of code_ranges
// drawn uniformly: random or flipped bytes, opcodes that move the stack or the control flow,
// increments.
inline std::vector<std::uint8_t> mutate_code(const ClassSeed& seed, Random& random) {
  std::vector<std::uint8_t> bytes = seed.bytes;
  const std::size_t edits = 1 + random.below(4);
  for (std::size_t e = 0; e < edits; ++e) {
    std::size_t at = 0;
    if (seed.code_bytes > 0 && random.below(10) < 8) {
      std::size_t n = random.below(seed.code_bytes);
      for (const auto& [start, end] : seed.code_ranges) {
        if (n < end - start) {
          at = start + n;
          break;
        }
        n -= end - start;
      }
    } else {
      at = random.below(bytes.size());
    }
    switch (random.below(4)) {
      case 0:
        bytes[at] = static_cast<std::uint8_t>(random.next());
        break;
      case 1:
        bytes[at] ^= static_cast<std::uint8_t>(1u << random.below(8));
        break;
      case 2:  // an opcode that moves the stack or control flow
        bytes[at] =
            std::array<std::uint8_t, 12>{0x57, 0x58, 0x59, 0x5a, 0x5b, 0x5c,
                                         0x5d, 0x5e, 0x5f, 0xa7, 0xa8, 0xa9}[random.below(12)];
        break;
      default:
        bytes[at] = static_cast<std::uint8_t>(bytes[at] + 1);
        break;
    }
  }
  return bytes;
}

// --- Seeds -------------------------------------------------------------------------------------

// A class using every constant pool tag (but Module/Package) and the attributes and
// instruction forms the front end reads.
inline std::vector<std::uint8_t> rich_class() {
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

// --- Checks ------------------------------------------------------------------------------------

// Looks up again every constant that decoding checked; the accessors throw std::logic_error on
// a wrong tag, which would mean a check was missing.
inline void touch_constants(const ClassFile& cls, const DecodedCode& code) {
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

// The same for the constants the parser checked: bootstrap methods and member references.
inline void touch_class(const ClassFile& cls) {
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

// What to run on a class that parses.
struct ClassChecks {
  bool decode = true;     // decode every method's code and look its constants up again
  bool build_ir = false;  // translate every method (each on its own) and print the IR
};

struct ClassOutcome {
  bool parsed = false;   // parse_class_file succeeded
  bool decoded = false;  // ... and so did decode_code on every method (with checks.decode)
  std::size_t methods_translated = 0;
  std::size_t methods_rejected = 0;  // build_method_ir threw an InputError
  std::string error;                 // the first InputError met, if any
  std::string bug;                   // non-empty: what happened that must never happen

  // Every stage that ran succeeded.
  bool ok() const { return parsed && bug.empty() && error.empty(); }
};

// "unexpected TYPE: what" for an exception other than an InputError.
inline std::string unexpected(const std::exception& e) {
  return std::string("unexpected ") + typeid(e).name() + ": " + e.what();
}

// A ClassFormatError about `bytes` must name `origin` and an offset inside them.
inline std::string check_class_format_error(const ClassFormatError& e, const std::string& origin,
                                            std::size_t size) {
  if (e.origin() != origin) return "error names origin " + e.origin() + ", not " + origin;
  if (e.offset() > size) {
    return "error offset " + std::to_string(e.offset()) + " past the end (" + std::to_string(size) +
           " bytes): " + e.what();
  }
  if (std::string(e.what()).rfind(origin + ":", 0) != 0) {
    return std::string("message does not start with the origin: ") + e.what();
  }
  return "";
}

// The IR names only variables it has.
inline std::string check_ir(const MethodIr& ir) {
  for (const Statement& s : ir.statements) {
    if (s.dst != kNoVar && s.dst >= ir.variables.size()) return "statement defines no variable";
    if (s.base.is_var() && s.base.var >= ir.variables.size()) return "base is no variable";
    for (const Operand& a : s.args) {
      if (a.is_var() && a.var >= ir.variables.size()) return "argument is no variable";
    }
  }
  static_cast<void>(method_ir_text(ir));  // the printer copes with whatever the builder made
  return "";
}

// Parses `bytes` and runs `checks` on the class.
inline ClassOutcome exercise_class(std::span<const std::uint8_t> bytes, const std::string& origin,
                                   ClassChecks checks = {}) {
  ClassOutcome out;
  std::optional<ClassFile> cls;
  try {
    cls = parse_class_file(bytes, origin);
    out.parsed = true;
    touch_class(*cls);
    if (checks.decode) {
      for (const MethodInfo& method : cls->methods) {
        if (method.code) touch_constants(*cls, decode_code(*cls, method));
      }
      out.decoded = true;
    }
  } catch (const ClassFormatError& e) {
    out.error = e.what();
    out.bug = check_class_format_error(e, origin, bytes.size());
  } catch (const std::exception& e) {
    out.bug = unexpected(e);
  } catch (...) {
    out.bug = "unexpected non-standard exception";
  }
  if (!out.parsed || !out.bug.empty() || !checks.build_ir) return out;
  for (const MethodInfo& method : cls->methods) {
    try {
      const MethodIr ir = build_method_ir(*cls, method);
      ++out.methods_translated;
      out.bug = check_ir(ir);
    } catch (const ClassFormatError& e) {
      ++out.methods_rejected;
      if (out.error.empty()) out.error = e.what();
      out.bug = check_class_format_error(e, origin, bytes.size());
    } catch (const InputError& e) {
      ++out.methods_rejected;
      if (out.error.empty()) out.error = e.what();
    } catch (const std::exception& e) {
      out.bug = unexpected(e);
    } catch (...) {
      out.bug = "unexpected non-standard exception";
    }
    if (!out.bug.empty()) {
      out.bug = "method " + method.name + method.descriptor + ": " + out.bug;
      break;
    }
  }
  return out;
}

struct ArchiveOutcome {
  bool opened = false;
  std::size_t entries_read = 0;
  std::size_t classes = 0;         // .class entries read
  std::size_t classes_parsed = 0;  // ... that parsed
  std::size_t methods_translated = 0;
  std::size_t methods_rejected = 0;
  std::string error;  // the first InputError met, if any
  std::string bug;

  bool ok() const { return opened && bug.empty() && error.empty(); }
  void add(const ClassOutcome& c) {
    ++classes;
    classes_parsed += c.parsed ? 1 : 0;
    methods_translated += c.methods_translated;
    methods_rejected += c.methods_rejected;
    if (error.empty()) error = c.error;
    if (bug.empty()) bug = c.bug;
  }
};

// Opens an archive held in memory, reads every entry and runs `checks` on the classes. With
// `unchanged`, an entry whose bytes are those `unchanged(name)` gives is read but not parsed
// again (it is a seed's entry, known to be valid).
template <typename Unchanged>
ArchiveOutcome exercise_archive(std::vector<std::uint8_t> bytes, const std::string& name,
                                ClassChecks checks, Unchanged&& unchanged) {
  ArchiveOutcome out;
  try {
    const ZipArchive archive = ZipArchive::open_buffer(std::move(bytes), name);
    out.opened = true;
    for (std::size_t i = 0; i < archive.entries().size() && out.bug.empty(); ++i) {
      std::vector<std::uint8_t> entry;
      try {
        entry = archive.read(i);
        ++out.entries_read;
      } catch (const InputError& e) {
        if (out.error.empty()) out.error = e.what();
        if (std::string(e.what()).rfind(name + "!", 0) != 0) {
          out.bug = std::string("entry error does not name the entry: ") + e.what();
        }
        continue;
      }
      const std::string& entry_name = archive.entries()[i];
      if (entry_name.ends_with(".class") && !unchanged(entry_name, entry)) {
        out.add(exercise_class(entry, archive.origin(i), checks));
      }
    }
  } catch (const InputError& e) {
    out.error = e.what();
    if (std::string(e.what()).rfind(name + ":", 0) != 0) {
      out.bug = std::string("archive error does not name the archive: ") + e.what();
    }
  } catch (const std::exception& e) {
    out.bug = unexpected(e);
  } catch (...) {
    out.bug = "unexpected non-standard exception";
  }
  return out;
}

inline ArchiveOutcome exercise_archive(std::vector<std::uint8_t> bytes, const std::string& name,
                                       ClassChecks checks = {}) {
  return exercise_archive(
      std::move(bytes), name, checks,
      [](const std::string&, const std::vector<std::uint8_t>&) { return false; });
}

// The archive at `file` through a ClassPath: its index, and a lazy read of every class it
// lists; `checks` run on each class read.
inline ArchiveOutcome exercise_class_path(const std::filesystem::path& file,
                                          ClassChecks checks = {}) {
  ArchiveOutcome out;
  try {
    ClassPath path;
    path.add(file);
    out.opened = true;
    for (const std::string& class_name : path.class_names(false)) {
      if (const auto read = path.read(class_name)) {
        ++out.entries_read;
        out.add(exercise_class(read->bytes, read->origin, checks));
        if (!out.bug.empty()) break;
      }
    }
  } catch (const InputError& e) {
    if (out.error.empty()) out.error = e.what();
    if (std::string(e.what()).rfind(file.string(), 0) != 0) {
      out.bug = std::string("error does not name the archive: ") + e.what();
    }
  } catch (const std::exception& e) {
    out.bug = unexpected(e);
  } catch (...) {
    out.bug = "unexpected non-standard exception";
  }
  return out;
}

}  // namespace refract::frontend::testing
