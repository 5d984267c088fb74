// Decoding of a method's code array (JVMS 17 chapter 6) into instructions. Every opcode of
// JVMS 17 is decoded, including the wide forms, tableswitch/lookupswitch with their padding
// (aligned relative to the start of the code), jsr/jsr_w/ret, invokedynamic and
// multianewarray. Invalid opcodes, truncated operands, branch targets that are not the start of
// an instruction, exception handlers that are not on instruction boundaries and constant pool
// operands of the wrong kind are ClassFormatErrors at the byte offset in the class file.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/class_file.hpp"

namespace refract::frontend {

// Opcodes by their JVMS value; the names follow the JVMS mnemonics (opcode_name gives the
// mnemonic itself). `wide` is decoded into the instruction it modifies (Instruction::wide), and
// the reserved opcodes (breakpoint, impdep1, impdep2) are invalid in class files.
enum class Opcode : std::uint8_t {
  kNop = 0x00,
  kAconstNull = 0x01,
  kIconstM1 = 0x02,
  kIconst0 = 0x03,
  kIconst1 = 0x04,
  kIconst2 = 0x05,
  kIconst3 = 0x06,
  kIconst4 = 0x07,
  kIconst5 = 0x08,
  kLconst0 = 0x09,
  kLconst1 = 0x0a,
  kFconst0 = 0x0b,
  kFconst1 = 0x0c,
  kFconst2 = 0x0d,
  kDconst0 = 0x0e,
  kDconst1 = 0x0f,
  kBipush = 0x10,
  kSipush = 0x11,
  kLdc = 0x12,
  kLdcW = 0x13,
  kLdc2W = 0x14,
  kIload = 0x15,
  kLload = 0x16,
  kFload = 0x17,
  kDload = 0x18,
  kAload = 0x19,
  kIload0 = 0x1a,
  kIload1 = 0x1b,
  kIload2 = 0x1c,
  kIload3 = 0x1d,
  kLload0 = 0x1e,
  kLload1 = 0x1f,
  kLload2 = 0x20,
  kLload3 = 0x21,
  kFload0 = 0x22,
  kFload1 = 0x23,
  kFload2 = 0x24,
  kFload3 = 0x25,
  kDload0 = 0x26,
  kDload1 = 0x27,
  kDload2 = 0x28,
  kDload3 = 0x29,
  kAload0 = 0x2a,
  kAload1 = 0x2b,
  kAload2 = 0x2c,
  kAload3 = 0x2d,
  kIaload = 0x2e,
  kLaload = 0x2f,
  kFaload = 0x30,
  kDaload = 0x31,
  kAaload = 0x32,
  kBaload = 0x33,
  kCaload = 0x34,
  kSaload = 0x35,
  kIstore = 0x36,
  kLstore = 0x37,
  kFstore = 0x38,
  kDstore = 0x39,
  kAstore = 0x3a,
  kIstore0 = 0x3b,
  kIstore1 = 0x3c,
  kIstore2 = 0x3d,
  kIstore3 = 0x3e,
  kLstore0 = 0x3f,
  kLstore1 = 0x40,
  kLstore2 = 0x41,
  kLstore3 = 0x42,
  kFstore0 = 0x43,
  kFstore1 = 0x44,
  kFstore2 = 0x45,
  kFstore3 = 0x46,
  kDstore0 = 0x47,
  kDstore1 = 0x48,
  kDstore2 = 0x49,
  kDstore3 = 0x4a,
  kAstore0 = 0x4b,
  kAstore1 = 0x4c,
  kAstore2 = 0x4d,
  kAstore3 = 0x4e,
  kIastore = 0x4f,
  kLastore = 0x50,
  kFastore = 0x51,
  kDastore = 0x52,
  kAastore = 0x53,
  kBastore = 0x54,
  kCastore = 0x55,
  kSastore = 0x56,
  kPop = 0x57,
  kPop2 = 0x58,
  kDup = 0x59,
  kDupX1 = 0x5a,
  kDupX2 = 0x5b,
  kDup2 = 0x5c,
  kDup2X1 = 0x5d,
  kDup2X2 = 0x5e,
  kSwap = 0x5f,
  kIadd = 0x60,
  kLadd = 0x61,
  kFadd = 0x62,
  kDadd = 0x63,
  kIsub = 0x64,
  kLsub = 0x65,
  kFsub = 0x66,
  kDsub = 0x67,
  kImul = 0x68,
  kLmul = 0x69,
  kFmul = 0x6a,
  kDmul = 0x6b,
  kIdiv = 0x6c,
  kLdiv = 0x6d,
  kFdiv = 0x6e,
  kDdiv = 0x6f,
  kIrem = 0x70,
  kLrem = 0x71,
  kFrem = 0x72,
  kDrem = 0x73,
  kIneg = 0x74,
  kLneg = 0x75,
  kFneg = 0x76,
  kDneg = 0x77,
  kIshl = 0x78,
  kLshl = 0x79,
  kIshr = 0x7a,
  kLshr = 0x7b,
  kIushr = 0x7c,
  kLushr = 0x7d,
  kIand = 0x7e,
  kLand = 0x7f,
  kIor = 0x80,
  kLor = 0x81,
  kIxor = 0x82,
  kLxor = 0x83,
  kIinc = 0x84,
  kI2l = 0x85,
  kI2f = 0x86,
  kI2d = 0x87,
  kL2i = 0x88,
  kL2f = 0x89,
  kL2d = 0x8a,
  kF2i = 0x8b,
  kF2l = 0x8c,
  kF2d = 0x8d,
  kD2i = 0x8e,
  kD2l = 0x8f,
  kD2f = 0x90,
  kI2b = 0x91,
  kI2c = 0x92,
  kI2s = 0x93,
  kLcmp = 0x94,
  kFcmpl = 0x95,
  kFcmpg = 0x96,
  kDcmpl = 0x97,
  kDcmpg = 0x98,
  kIfeq = 0x99,
  kIfne = 0x9a,
  kIflt = 0x9b,
  kIfge = 0x9c,
  kIfgt = 0x9d,
  kIfle = 0x9e,
  kIfIcmpeq = 0x9f,
  kIfIcmpne = 0xa0,
  kIfIcmplt = 0xa1,
  kIfIcmpge = 0xa2,
  kIfIcmpgt = 0xa3,
  kIfIcmple = 0xa4,
  kIfAcmpeq = 0xa5,
  kIfAcmpne = 0xa6,
  kGoto = 0xa7,
  kJsr = 0xa8,
  kRet = 0xa9,
  kTableswitch = 0xaa,
  kLookupswitch = 0xab,
  kIreturn = 0xac,
  kLreturn = 0xad,
  kFreturn = 0xae,
  kDreturn = 0xaf,
  kAreturn = 0xb0,
  kReturn = 0xb1,
  kGetstatic = 0xb2,
  kPutstatic = 0xb3,
  kGetfield = 0xb4,
  kPutfield = 0xb5,
  kInvokevirtual = 0xb6,
  kInvokespecial = 0xb7,
  kInvokestatic = 0xb8,
  kInvokeinterface = 0xb9,
  kInvokedynamic = 0xba,
  kNew = 0xbb,
  kNewarray = 0xbc,
  kAnewarray = 0xbd,
  kArraylength = 0xbe,
  kAthrow = 0xbf,
  kCheckcast = 0xc0,
  kInstanceof = 0xc1,
  kMonitorenter = 0xc2,
  kMonitorexit = 0xc3,
  kWide = 0xc4,
  kMultianewarray = 0xc5,
  kIfnull = 0xc6,
  kIfnonnull = 0xc7,
  kGotoW = 0xc8,
  kJsrW = 0xc9,
};

// The JVMS mnemonic, e.g. "invokevirtual", "if_icmpeq", "goto_w".
std::string_view opcode_name(Opcode opcode);

struct SwitchCase {
  std::int32_t key = 0;
  std::uint32_t target = 0;  // absolute pc
};

// One decoded instruction. Operands not used by an opcode are 0 / empty.
struct Instruction {
  std::uint32_t pc = 0;      // offset in the code array
  std::uint32_t length = 0;  // bytes, including a wide prefix and switch padding
  Opcode opcode = Opcode::kNop;
  bool wide = false;  // the instruction had a wide prefix (opcode is the modified one)
  // Local variable: xload, xstore, iinc, ret; also the implicit index of xload_<n>/xstore_<n>.
  std::uint16_t local = 0;
  // Constant pool index: ldc*, field and invoke instructions, new, anewarray, checkcast,
  // instanceof, multianewarray. Its tag has been checked against the opcode.
  std::uint16_t constant = 0;
  // bipush/sipush value, iinc increment, newarray atype (4..11), multianewarray dimensions,
  // invokeinterface count; also the value of iconst_<i>/lconst_<l>/fconst_<f>/dconst_<d>.
  std::int32_t immediate = 0;
  // Branch target (absolute pc) of if*, goto*, jsr*; the default target of switches.
  std::uint32_t target = 0;
  std::vector<SwitchCase> cases;  // tableswitch (keys low..high) and lookupswitch (sorted)
};

class DecodedCode {
 public:
  DecodedCode(std::vector<Instruction> instructions, std::vector<std::int32_t> index_by_pc)
      : instructions_(std::move(instructions)), index_by_pc_(std::move(index_by_pc)) {}

  // In increasing pc order; together they cover the whole code array.
  const std::vector<Instruction>& instructions() const { return instructions_; }
  // The position in instructions() of the instruction that starts at `pc`, if one does.
  std::optional<std::size_t> index_at(std::uint32_t pc) const {
    if (pc >= index_by_pc_.size() || index_by_pc_[pc] < 0) return std::nullopt;
    return static_cast<std::size_t>(index_by_pc_[pc]);
  }

 private:
  std::vector<Instruction> instructions_;
  std::vector<std::int32_t> index_by_pc_;
};

// Decodes the Code of `method`, a method of `cls` (whose constant pool the operands refer to).
// A method without code (abstract or native) is a std::invalid_argument: callers check first.
DecodedCode decode_code(const ClassFile& cls, const MethodInfo& method);

}  // namespace refract::frontend
