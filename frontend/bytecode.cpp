#include "frontend/bytecode.hpp"

#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace refract::frontend {
namespace {

// How the operands of an opcode are laid out (JVMS 6.5).
enum class Format : std::uint8_t {
  kInvalid,
  kNone,
  kByte,             // bipush: s1
  kShort,            // sipush: s2
  kConstantIndex1,   // ldc: u1 constant pool index
  kConstantIndex2,   // u2 constant pool index
  kLocal,            // u1 local index (u2 after wide)
  kIinc,             // u1 local, s1 increment (u2, s2 after wide)
  kBranch2,          // s2 branch offset
  kBranch4,          // s4 branch offset
  kTableSwitch,      // padding, default, low, high, offsets
  kLookupSwitch,     // padding, default, npairs, (match, offset) pairs
  kInvokeInterface,  // u2 index, u1 count, u1 zero
  kInvokeDynamic,    // u2 index, u1 zero, u1 zero
  kNewArray,         // u1 atype
  kMultiANewArray,   // u2 index, u1 dimensions
  kWide,             // prefix
};

struct OpcodeInfo {
  std::string_view name;
  Format format = Format::kInvalid;
};

constexpr std::array<OpcodeInfo, 256> kOpcodes = {{
    {"nop", Format::kNone},
    {"aconst_null", Format::kNone},
    {"iconst_m1", Format::kNone},
    {"iconst_0", Format::kNone},
    {"iconst_1", Format::kNone},
    {"iconst_2", Format::kNone},
    {"iconst_3", Format::kNone},
    {"iconst_4", Format::kNone},
    {"iconst_5", Format::kNone},
    {"lconst_0", Format::kNone},
    {"lconst_1", Format::kNone},
    {"fconst_0", Format::kNone},
    {"fconst_1", Format::kNone},
    {"fconst_2", Format::kNone},
    {"dconst_0", Format::kNone},
    {"dconst_1", Format::kNone},
    {"bipush", Format::kByte},
    {"sipush", Format::kShort},
    {"ldc", Format::kConstantIndex1},
    {"ldc_w", Format::kConstantIndex2},
    {"ldc2_w", Format::kConstantIndex2},
    {"iload", Format::kLocal},
    {"lload", Format::kLocal},
    {"fload", Format::kLocal},
    {"dload", Format::kLocal},
    {"aload", Format::kLocal},
    {"iload_0", Format::kNone},
    {"iload_1", Format::kNone},
    {"iload_2", Format::kNone},
    {"iload_3", Format::kNone},
    {"lload_0", Format::kNone},
    {"lload_1", Format::kNone},
    {"lload_2", Format::kNone},
    {"lload_3", Format::kNone},
    {"fload_0", Format::kNone},
    {"fload_1", Format::kNone},
    {"fload_2", Format::kNone},
    {"fload_3", Format::kNone},
    {"dload_0", Format::kNone},
    {"dload_1", Format::kNone},
    {"dload_2", Format::kNone},
    {"dload_3", Format::kNone},
    {"aload_0", Format::kNone},
    {"aload_1", Format::kNone},
    {"aload_2", Format::kNone},
    {"aload_3", Format::kNone},
    {"iaload", Format::kNone},
    {"laload", Format::kNone},
    {"faload", Format::kNone},
    {"daload", Format::kNone},
    {"aaload", Format::kNone},
    {"baload", Format::kNone},
    {"caload", Format::kNone},
    {"saload", Format::kNone},
    {"istore", Format::kLocal},
    {"lstore", Format::kLocal},
    {"fstore", Format::kLocal},
    {"dstore", Format::kLocal},
    {"astore", Format::kLocal},
    {"istore_0", Format::kNone},
    {"istore_1", Format::kNone},
    {"istore_2", Format::kNone},
    {"istore_3", Format::kNone},
    {"lstore_0", Format::kNone},
    {"lstore_1", Format::kNone},
    {"lstore_2", Format::kNone},
    {"lstore_3", Format::kNone},
    {"fstore_0", Format::kNone},
    {"fstore_1", Format::kNone},
    {"fstore_2", Format::kNone},
    {"fstore_3", Format::kNone},
    {"dstore_0", Format::kNone},
    {"dstore_1", Format::kNone},
    {"dstore_2", Format::kNone},
    {"dstore_3", Format::kNone},
    {"astore_0", Format::kNone},
    {"astore_1", Format::kNone},
    {"astore_2", Format::kNone},
    {"astore_3", Format::kNone},
    {"iastore", Format::kNone},
    {"lastore", Format::kNone},
    {"fastore", Format::kNone},
    {"dastore", Format::kNone},
    {"aastore", Format::kNone},
    {"bastore", Format::kNone},
    {"castore", Format::kNone},
    {"sastore", Format::kNone},
    {"pop", Format::kNone},
    {"pop2", Format::kNone},
    {"dup", Format::kNone},
    {"dup_x1", Format::kNone},
    {"dup_x2", Format::kNone},
    {"dup2", Format::kNone},
    {"dup2_x1", Format::kNone},
    {"dup2_x2", Format::kNone},
    {"swap", Format::kNone},
    {"iadd", Format::kNone},
    {"ladd", Format::kNone},
    {"fadd", Format::kNone},
    {"dadd", Format::kNone},
    {"isub", Format::kNone},
    {"lsub", Format::kNone},
    {"fsub", Format::kNone},
    {"dsub", Format::kNone},
    {"imul", Format::kNone},
    {"lmul", Format::kNone},
    {"fmul", Format::kNone},
    {"dmul", Format::kNone},
    {"idiv", Format::kNone},
    {"ldiv", Format::kNone},
    {"fdiv", Format::kNone},
    {"ddiv", Format::kNone},
    {"irem", Format::kNone},
    {"lrem", Format::kNone},
    {"frem", Format::kNone},
    {"drem", Format::kNone},
    {"ineg", Format::kNone},
    {"lneg", Format::kNone},
    {"fneg", Format::kNone},
    {"dneg", Format::kNone},
    {"ishl", Format::kNone},
    {"lshl", Format::kNone},
    {"ishr", Format::kNone},
    {"lshr", Format::kNone},
    {"iushr", Format::kNone},
    {"lushr", Format::kNone},
    {"iand", Format::kNone},
    {"land", Format::kNone},
    {"ior", Format::kNone},
    {"lor", Format::kNone},
    {"ixor", Format::kNone},
    {"lxor", Format::kNone},
    {"iinc", Format::kIinc},
    {"i2l", Format::kNone},
    {"i2f", Format::kNone},
    {"i2d", Format::kNone},
    {"l2i", Format::kNone},
    {"l2f", Format::kNone},
    {"l2d", Format::kNone},
    {"f2i", Format::kNone},
    {"f2l", Format::kNone},
    {"f2d", Format::kNone},
    {"d2i", Format::kNone},
    {"d2l", Format::kNone},
    {"d2f", Format::kNone},
    {"i2b", Format::kNone},
    {"i2c", Format::kNone},
    {"i2s", Format::kNone},
    {"lcmp", Format::kNone},
    {"fcmpl", Format::kNone},
    {"fcmpg", Format::kNone},
    {"dcmpl", Format::kNone},
    {"dcmpg", Format::kNone},
    {"ifeq", Format::kBranch2},
    {"ifne", Format::kBranch2},
    {"iflt", Format::kBranch2},
    {"ifge", Format::kBranch2},
    {"ifgt", Format::kBranch2},
    {"ifle", Format::kBranch2},
    {"if_icmpeq", Format::kBranch2},
    {"if_icmpne", Format::kBranch2},
    {"if_icmplt", Format::kBranch2},
    {"if_icmpge", Format::kBranch2},
    {"if_icmpgt", Format::kBranch2},
    {"if_icmple", Format::kBranch2},
    {"if_acmpeq", Format::kBranch2},
    {"if_acmpne", Format::kBranch2},
    {"goto", Format::kBranch2},
    {"jsr", Format::kBranch2},
    {"ret", Format::kLocal},
    {"tableswitch", Format::kTableSwitch},
    {"lookupswitch", Format::kLookupSwitch},
    {"ireturn", Format::kNone},
    {"lreturn", Format::kNone},
    {"freturn", Format::kNone},
    {"dreturn", Format::kNone},
    {"areturn", Format::kNone},
    {"return", Format::kNone},
    {"getstatic", Format::kConstantIndex2},
    {"putstatic", Format::kConstantIndex2},
    {"getfield", Format::kConstantIndex2},
    {"putfield", Format::kConstantIndex2},
    {"invokevirtual", Format::kConstantIndex2},
    {"invokespecial", Format::kConstantIndex2},
    {"invokestatic", Format::kConstantIndex2},
    {"invokeinterface", Format::kInvokeInterface},
    {"invokedynamic", Format::kInvokeDynamic},
    {"new", Format::kConstantIndex2},
    {"newarray", Format::kNewArray},
    {"anewarray", Format::kConstantIndex2},
    {"arraylength", Format::kNone},
    {"athrow", Format::kNone},
    {"checkcast", Format::kConstantIndex2},
    {"instanceof", Format::kConstantIndex2},
    {"monitorenter", Format::kNone},
    {"monitorexit", Format::kNone},
    {"wide", Format::kWide},
    {"multianewarray", Format::kMultiANewArray},
    {"ifnull", Format::kBranch2},
    {"ifnonnull", Format::kBranch2},
    {"goto_w", Format::kBranch4},
    {"jsr_w", Format::kBranch4},
}};

constexpr OpcodeInfo info_of(Opcode opcode) {
  return kOpcodes[static_cast<std::uint8_t>(opcode)];
}

std::string hex_byte(unsigned byte) {
  std::array<char, 8> text{};
  std::snprintf(text.data(), text.size(), "0x%02x", byte);
  return text.data();
}

class Decoder {
 public:
  Decoder(const ClassFile& cls, const MethodInfo& method, const Code& code)
      : cls_(cls), method_(method), code_(code), bytes_(code.bytes) {}

  DecodedCode run() {
    const auto length = static_cast<std::uint32_t>(bytes_.size());
    std::vector<std::int32_t> index_by_pc(length, -1);
    std::vector<Instruction> instructions;
    instructions.reserve(length / 2 + 1);
    std::uint32_t pc = 0;
    while (pc < length) {
      index_by_pc[pc] = static_cast<std::int32_t>(instructions.size());
      instructions.push_back(decode_one(pc));
      pc += instructions.back().length;
    }
    for (const Instruction& ins : instructions) {
      if (has_target(ins)) check_target(ins, ins.target, index_by_pc);
      for (const SwitchCase& c : ins.cases) check_target(ins, c.target, index_by_pc);
    }
    check_exception_table(index_by_pc);
    return DecodedCode(std::move(instructions), std::move(index_by_pc));
  }

 private:
  [[noreturn]] void fail(std::uint32_t pc, const std::string& message) const {
    throw ClassFormatError(cls_.origin, std::uint64_t{code_.bytes_offset} + pc,
                           "method " + method_.name + method_.descriptor + ": " + message);
  }

  // Checks that `count` operand bytes follow position `at` of the instruction at `pc`.
  void need(std::uint32_t pc, std::uint64_t at, std::uint64_t count, Opcode opcode) const {
    if (at + count > bytes_.size()) {
      fail(pc, "truncated " + std::string(opcode_name(opcode)) + " at pc " + std::to_string(pc) +
                   ": needs " + std::to_string(at + count - pc) + " bytes, " +
                   std::to_string(bytes_.size() - pc) + " left in the code");
    }
  }
  std::uint8_t u1(std::uint32_t at) const { return bytes_[at]; }
  std::uint16_t u2(std::uint32_t at) const {
    return static_cast<std::uint16_t>((bytes_[at] << 8) | bytes_[at + 1]);
  }
  std::int32_t s4(std::uint32_t at) const {
    return static_cast<std::int32_t>((std::uint32_t{bytes_[at]} << 24) |
                                     (std::uint32_t{bytes_[at + 1]} << 16) |
                                     (std::uint32_t{bytes_[at + 2]} << 8) | bytes_[at + 3]);
  }

  std::uint32_t branch(std::uint32_t pc, std::int64_t delta, Opcode opcode) const {
    const std::int64_t target = std::int64_t{pc} + delta;
    if (target < 0 || target >= static_cast<std::int64_t>(bytes_.size())) {
      fail(pc, std::string(opcode_name(opcode)) + " at pc " + std::to_string(pc) + " branches to " +
                   std::to_string(target) + ", outside the code (length " +
                   std::to_string(bytes_.size()) + ")");
    }
    return static_cast<std::uint32_t>(target);
  }

  static bool has_target(const Instruction& ins) {
    const Format format = info_of(ins.opcode).format;
    return format == Format::kBranch2 || format == Format::kBranch4 ||
           format == Format::kTableSwitch || format == Format::kLookupSwitch;
  }

  void check_target(const Instruction& ins, std::uint32_t target,
                    const std::vector<std::int32_t>& index_by_pc) const {
    if (index_by_pc[target] < 0) {
      fail(ins.pc, std::string(opcode_name(ins.opcode)) + " at pc " + std::to_string(ins.pc) +
                       " branches to pc " + std::to_string(target) +
                       ", which is not the start of an instruction");
    }
  }

  void check_exception_table(const std::vector<std::int32_t>& index_by_pc) const {
    const auto starts = [&](std::uint32_t pc) {
      return pc < index_by_pc.size() && index_by_pc[pc] >= 0;
    };
    for (const ExceptionHandler& handler : code_.exception_table) {
      const bool ok = starts(handler.start_pc) && starts(handler.handler_pc) &&
                      (handler.end_pc == index_by_pc.size() || starts(handler.end_pc));
      if (!ok) {
        throw ClassFormatError(
            cls_.origin, handler.offset,
            "method " + method_.name + method_.descriptor + ": exception handler [" +
                std::to_string(handler.start_pc) + ", " + std::to_string(handler.end_pc) + ") -> " +
                std::to_string(handler.handler_pc) + " is not on instruction boundaries");
      }
    }
  }

  // Checks the constant pool operand of the instruction at `pc`.
  void check_constant(std::uint32_t pc, Opcode opcode, std::uint16_t index) const {
    const ConstantPool& pool = cls_.constant_pool;
    const auto what = [&] {
      return "method " + method_.name + method_.descriptor + ": " +
             std::string(opcode_name(opcode)) + " at pc " + std::to_string(pc);
    };
    const auto expect = [&](std::initializer_list<ConstantTag> allowed) -> const Constant& {
      const ConstantTag actual = pool.tag(index);
      for (const ConstantTag tag : allowed) {
        if (tag == actual && index != 0) return pool.at(index);
      }
      return pool.expect(index, allowed, cls_.origin, std::uint64_t{code_.bytes_offset} + pc,
                         what());  // throws
    };
    const auto dynamic_is_wide = [&]() {
      const std::string_view descriptor = pool.dynamic(index).descriptor;
      return descriptor == "J" || descriptor == "D";
    };
    switch (opcode) {
      case Opcode::kLdc:
      case Opcode::kLdcW: {
        const Constant& c = expect(
            {ConstantTag::kInteger, ConstantTag::kFloat, ConstantTag::kString, ConstantTag::kClass,
             ConstantTag::kMethodHandle, ConstantTag::kMethodType, ConstantTag::kDynamic});
        if (c.tag == ConstantTag::kDynamic && dynamic_is_wide()) {
          fail(pc, std::string(opcode_name(opcode)) + " at pc " + std::to_string(pc) +
                       " loads a long or double dynamic constant; that needs ldc2_w");
        }
        break;
      }
      case Opcode::kLdc2W: {
        const Constant& c =
            expect({ConstantTag::kLong, ConstantTag::kDouble, ConstantTag::kDynamic});
        if (c.tag == ConstantTag::kDynamic && !dynamic_is_wide()) {
          fail(pc, "ldc2_w at pc " + std::to_string(pc) +
                       " loads a dynamic constant that is neither long nor double");
        }
        break;
      }
      case Opcode::kGetstatic:
      case Opcode::kPutstatic:
      case Opcode::kGetfield:
      case Opcode::kPutfield:
        expect({ConstantTag::kFieldref});
        break;
      case Opcode::kInvokevirtual:
        expect({ConstantTag::kMethodref});
        break;
      case Opcode::kInvokespecial:
      case Opcode::kInvokestatic:
        if (cls_.major_version < 52) {
          expect({ConstantTag::kMethodref});
        } else {
          expect({ConstantTag::kMethodref, ConstantTag::kInterfaceMethodref});
        }
        break;
      case Opcode::kInvokeinterface:
        expect({ConstantTag::kInterfaceMethodref});
        break;
      case Opcode::kInvokedynamic:
        expect({ConstantTag::kInvokeDynamic});
        break;
      case Opcode::kNew:
      case Opcode::kAnewarray:
      case Opcode::kCheckcast:
      case Opcode::kInstanceof:
      case Opcode::kMultianewarray:
        expect({ConstantTag::kClass});
        break;
      default:
        throw std::logic_error("no constant pool operand rule for " +
                               std::string(opcode_name(opcode)));
    }
  }

  static std::int32_t implicit_constant(Opcode opcode) {
    const auto op = static_cast<std::uint8_t>(opcode);
    if (op >= 0x02 && op <= 0x08) return op - 0x03;  // iconst_m1 .. iconst_5
    if (op >= 0x09 && op <= 0x0a) return op - 0x09;  // lconst_0, lconst_1
    if (op >= 0x0b && op <= 0x0d) return op - 0x0b;  // fconst_0 .. fconst_2
    if (op >= 0x0e && op <= 0x0f) return op - 0x0e;  // dconst_0, dconst_1
    return 0;
  }
  static std::uint16_t implicit_local(Opcode opcode) {
    const auto op = static_cast<std::uint8_t>(opcode);
    if (op >= 0x1a && op <= 0x2d) return (op - 0x1a) % 4;  // xload_<n>
    if (op >= 0x3b && op <= 0x4e) return (op - 0x3b) % 4;  // xstore_<n>
    return 0;
  }

  Instruction decode_one(std::uint32_t pc) const {
    const std::uint8_t byte = bytes_[pc];
    const OpcodeInfo& info = kOpcodes[byte];
    if (info.format == Format::kInvalid) {
      fail(pc, "invalid opcode " + hex_byte(byte) + " at pc " + std::to_string(pc));
    }
    Instruction ins;
    ins.pc = pc;
    ins.opcode = static_cast<Opcode>(byte);
    const Opcode op = ins.opcode;
    const std::uint32_t at = pc + 1;  // first operand byte
    std::uint32_t end = at;           // one past the last byte of the instruction
    switch (info.format) {
      case Format::kInvalid:
      case Format::kNone:
        ins.local = implicit_local(op);
        ins.immediate = implicit_constant(op);
        break;
      case Format::kByte:
        need(pc, at, 1, op);
        ins.immediate = static_cast<std::int8_t>(u1(at));
        end = at + 1;
        break;
      case Format::kShort:
        need(pc, at, 2, op);
        ins.immediate = static_cast<std::int16_t>(u2(at));
        end = at + 2;
        break;
      case Format::kConstantIndex1:
        need(pc, at, 1, op);
        ins.constant = u1(at);
        check_constant(pc, op, ins.constant);
        end = at + 1;
        break;
      case Format::kConstantIndex2:
        need(pc, at, 2, op);
        ins.constant = u2(at);
        check_constant(pc, op, ins.constant);
        end = at + 2;
        break;
      case Format::kLocal:
        need(pc, at, 1, op);
        ins.local = u1(at);
        end = at + 1;
        break;
      case Format::kIinc:
        need(pc, at, 2, op);
        ins.local = u1(at);
        ins.immediate = static_cast<std::int8_t>(u1(at + 1));
        end = at + 2;
        break;
      case Format::kBranch2:
        need(pc, at, 2, op);
        ins.target = branch(pc, static_cast<std::int16_t>(u2(at)), op);
        end = at + 2;
        break;
      case Format::kBranch4:
        need(pc, at, 4, op);
        ins.target = branch(pc, s4(at), op);
        end = at + 4;
        break;
      case Format::kTableSwitch:
        end = decode_tableswitch(ins);
        break;
      case Format::kLookupSwitch:
        end = decode_lookupswitch(ins);
        break;
      case Format::kInvokeInterface:
        need(pc, at, 4, op);
        ins.constant = u2(at);
        check_constant(pc, op, ins.constant);
        ins.immediate = u1(at + 2);
        if (ins.immediate == 0)
          fail(pc, "invokeinterface at pc " + std::to_string(pc) + " has count 0");
        if (u1(at + 3) != 0) {
          fail(pc, "invokeinterface at pc " + std::to_string(pc) + " has a nonzero fourth byte");
        }
        end = at + 4;
        break;
      case Format::kInvokeDynamic:
        need(pc, at, 4, op);
        ins.constant = u2(at);
        check_constant(pc, op, ins.constant);
        if (u1(at + 2) != 0 || u1(at + 3) != 0) {
          fail(pc, "invokedynamic at pc " + std::to_string(pc) + " has nonzero reserved bytes");
        }
        end = at + 4;
        break;
      case Format::kNewArray:
        need(pc, at, 1, op);
        ins.immediate = u1(at);
        if (ins.immediate < 4 || ins.immediate > 11) {
          fail(pc, "newarray at pc " + std::to_string(pc) + " has invalid atype " +
                       std::to_string(ins.immediate));
        }
        end = at + 1;
        break;
      case Format::kMultiANewArray:
        need(pc, at, 3, op);
        ins.constant = u2(at);
        check_constant(pc, op, ins.constant);
        ins.immediate = u1(at + 2);
        if (ins.immediate == 0) {
          fail(pc, "multianewarray at pc " + std::to_string(pc) + " has 0 dimensions");
        }
        end = at + 3;
        break;
      case Format::kWide:
        end = decode_wide(ins);
        break;
    }
    ins.length = end - pc;
    return ins;
  }

  std::uint32_t decode_wide(Instruction& ins) const {
    const std::uint32_t pc = ins.pc;
    need(pc, pc + 1, 1, Opcode::kWide);
    const std::uint8_t byte = u1(pc + 1);
    const Format format = kOpcodes[byte].format;
    const bool allowed = (format == Format::kLocal) || (format == Format::kIinc);
    if (!allowed) {
      fail(pc, "wide at pc " + std::to_string(pc) + " modifies " +
                   (kOpcodes[byte].format == Format::kInvalid ? "invalid opcode " + hex_byte(byte)
                                                              : std::string(kOpcodes[byte].name)) +
                   ", which has no wide form");
    }
    ins.opcode = static_cast<Opcode>(byte);
    ins.wide = true;
    const std::uint32_t at = pc + 2;
    if (format == Format::kIinc) {
      need(pc, at, 4, ins.opcode);
      ins.local = u2(at);
      ins.immediate = static_cast<std::int16_t>(u2(at + 2));
      return at + 4;
    }
    need(pc, at, 2, ins.opcode);
    ins.local = u2(at);
    return at + 2;
  }

  // The operands of a switch start at the next multiple of 4 from the start of the code.
  static std::uint32_t aligned_operands(std::uint32_t pc) { return (pc + 4) & ~std::uint32_t{3}; }

  std::uint32_t decode_tableswitch(Instruction& ins) const {
    const std::uint32_t pc = ins.pc;
    const std::uint32_t at = aligned_operands(pc);
    need(pc, at, 12, ins.opcode);
    ins.target = branch(pc, s4(at), ins.opcode);
    const std::int32_t low = s4(at + 4);
    const std::int32_t high = s4(at + 8);
    if (low > high) {
      fail(pc, "tableswitch at pc " + std::to_string(pc) + " has low " + std::to_string(low) +
                   " > high " + std::to_string(high));
    }
    const std::int64_t count = std::int64_t{high} - low + 1;
    need(pc, at + 12, static_cast<std::uint64_t>(count) * 4, ins.opcode);
    ins.cases.reserve(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) {
      const auto entry = static_cast<std::uint32_t>(at + 12 + 4 * i);
      ins.cases.push_back({static_cast<std::int32_t>(low + i), branch(pc, s4(entry), ins.opcode)});
    }
    return static_cast<std::uint32_t>(at + 12 + 4 * count);
  }

  std::uint32_t decode_lookupswitch(Instruction& ins) const {
    const std::uint32_t pc = ins.pc;
    const std::uint32_t at = aligned_operands(pc);
    need(pc, at, 8, ins.opcode);
    ins.target = branch(pc, s4(at), ins.opcode);
    const std::int32_t npairs = s4(at + 4);
    if (npairs < 0) {
      fail(pc, "lookupswitch at pc " + std::to_string(pc) + " has negative npairs " +
                   std::to_string(npairs));
    }
    need(pc, at + 8, std::uint64_t{static_cast<std::uint32_t>(npairs)} * 8, ins.opcode);
    ins.cases.reserve(static_cast<std::size_t>(npairs));
    for (std::int32_t i = 0; i < npairs; ++i) {
      const auto entry = static_cast<std::uint32_t>(at + 8 + 8 * i);
      const std::int32_t key = s4(entry);
      if (i > 0 && key <= ins.cases.back().key) {
        fail(pc, "lookupswitch at pc " + std::to_string(pc) + " has keys out of order (" +
                     std::to_string(ins.cases.back().key) + " then " + std::to_string(key) + ")");
      }
      ins.cases.push_back({key, branch(pc, s4(entry + 4), ins.opcode)});
    }
    return at + 8 + 8 * static_cast<std::uint32_t>(npairs);
  }

  const ClassFile& cls_;
  const MethodInfo& method_;
  const Code& code_;
  const std::vector<std::uint8_t>& bytes_;
};

}  // namespace

std::string_view opcode_name(Opcode opcode) {
  return info_of(opcode).name;
}

DecodedCode decode_code(const ClassFile& cls, const MethodInfo& method) {
  if (!method.code) {
    throw std::invalid_argument("decode_code: method " + method.name + method.descriptor + " of " +
                                cls.this_class + " has no Code attribute");
  }
  return Decoder(cls, method, *method.code).run();
}

}  // namespace refract::frontend
