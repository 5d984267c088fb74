// Internal to the IR builder: the basic blocks of a method body, which exception handlers cover
// them, its jsr/ret subroutines and the liveness of local slots at block entries. Liveness lets
// the builder forget dead slots at joins, so that one slot reused for unrelated values is split
// into separate def-use webs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/bytecode.hpp"
#include "frontend/class_file.hpp"

namespace refract::frontend::ir_detail {

inline constexpr std::uint32_t kNoBlock = 0xFFFFFFFF;

// Where a method body is, for ClassFormatErrors about it: "ORIGIN:OFFSET: method NAME DESC: ...".
struct MethodContext {
  const std::string* origin = nullptr;
  std::uint64_t bytes_offset = 0;  // file offset of the code array
  std::string method;              // "NAME DESCRIPTOR"

  [[noreturn]] void fail(std::uint32_t pc, const std::string& message) const;
};

// Bounds on the work one method may cause, so that hostile input cannot hang the translation
// or exhaust memory. Real code stays far below them: over all JDK 17 modules the maxima are
// 720 (block, handler) pairs and 12,555 block x slot states.
inline constexpr std::uint64_t kMaxHandlerCoverage = std::uint64_t{1} << 22;
inline constexpr std::uint64_t kMaxStateCells = std::uint64_t{1} << 24;

// A set of local slots.
class SlotSet {
 public:
  SlotSet() = default;
  explicit SlotSet(std::size_t slots) : words_((slots + 63) / 64, 0) {}
  bool test(std::size_t slot) const { return (words_[slot / 64] >> (slot % 64)) & 1; }
  void set(std::size_t slot) { words_[slot / 64] |= std::uint64_t{1} << (slot % 64); }
  void set_all(std::size_t slots) {
    for (std::size_t i = 0; i < slots; ++i) set(i);
  }
  // this |= other; true if this changed.
  bool merge(const SlotSet& other);
  // this |= (other & mask) or (other & ~mask); true if this changed.
  bool merge_masked(const SlotSet& other, const SlotSet& mask, bool inverted);
  // this |= (a & ~b); true if this changed.
  bool merge_difference(const SlotSet& a, const SlotSet& b);

 private:
  std::vector<std::uint64_t> words_;
};

struct Block {
  std::uint32_t first = 0;  // index of its first instruction
  std::uint32_t last = 0;   // index of its last instruction (inclusive)
  // Normal successors in a fixed order (targets deduplicated). A jsr block's only successor
  // is the subroutine entry; a ret block has none here (see Cfg::ret_subroutines).
  std::vector<std::uint32_t> successors;
  // The handler blocks of the exception table entries that cover this block, deduplicated, in
  // table order. Blocks are split at every range boundary, so an entry covers all of a block
  // or none of it.
  std::vector<std::uint32_t> handlers;
  bool falls_off_end = false;             // the last instruction falls through past the code
  bool is_handler = false;                // some exception table entry's handler_pc
  std::uint32_t return_point = kNoBlock;  // jsr blocks: the block after the jsr
  std::int32_t subroutine = -1;           // jsr blocks: the index in Cfg::subroutines
};

struct Subroutine {
  std::uint32_t entry = 0;                // block
  std::vector<std::uint32_t> jsr_blocks;  // blocks ending in a jsr to it
  SlotSet modified;                       // slots it (or a subroutine it calls) may store to
};

struct Cfg {
  std::vector<Block> blocks;                // in pc order; block 0 starts at pc 0
  std::vector<std::uint32_t> block_of;      // instruction index -> block
  std::vector<Subroutine> subroutines;      // one per distinct jsr target
  std::vector<std::int32_t> subroutine_at;  // block -> subroutine entered there, or -1
  // For a block ending in ret: the subroutines whose body (found statically) contains it.
  std::vector<std::vector<std::uint32_t>> ret_subroutines;
  std::size_t slots = 0;         // max_locals
  std::vector<SlotSet> live_in;  // block -> slots live at its entry
};

// Whether control can continue to the next instruction after `opcode`.
bool falls_through(Opcode opcode);

// Builds the blocks, subroutines and liveness of a decoded method body.
Cfg build_cfg(const Code& code, const DecodedCode& decoded, const MethodContext& context);

// The source line of each instruction (index-aligned with decoded.instructions()), from the
// LineNumberTable; 0 where none applies.
std::vector<std::uint32_t> instruction_lines(const Code& code, const DecodedCode& decoded);

// The local slot an instruction reads and the slots it writes (a long/double store writes two).
struct LocalAccess {
  std::int32_t use = -1;
  std::int32_t def = -1;
  bool wide = false;  // def covers def and def + 1
};
LocalAccess local_access(const Instruction& ins);

}  // namespace refract::frontend::ir_detail
