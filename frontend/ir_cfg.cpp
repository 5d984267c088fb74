#include "frontend/ir_cfg.hpp"

#include <algorithm>
#include <deque>

#include "frontend/format_error.hpp"

namespace refract::frontend::ir_detail {

void MethodContext::fail(std::uint32_t pc, const std::string& message) const {
  throw ClassFormatError(*origin, bytes_offset + pc, "method " + method + ": " + message);
}

bool SlotSet::merge(const SlotSet& other) {
  bool changed = false;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    const std::uint64_t next = words_[i] | other.words_[i];
    changed |= next != words_[i];
    words_[i] = next;
  }
  return changed;
}

bool SlotSet::merge_masked(const SlotSet& other, const SlotSet& mask, bool inverted) {
  bool changed = false;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    const std::uint64_t m = inverted ? ~mask.words_[i] : mask.words_[i];
    const std::uint64_t next = words_[i] | (other.words_[i] & m);
    changed |= next != words_[i];
    words_[i] = next;
  }
  return changed;
}

bool SlotSet::merge_difference(const SlotSet& a, const SlotSet& b) {
  return merge_masked(a, b, true);
}

bool falls_through(Opcode opcode) {
  switch (opcode) {
    case Opcode::kGoto:
    case Opcode::kGotoW:
    case Opcode::kJsr:
    case Opcode::kJsrW:
    case Opcode::kRet:
    case Opcode::kTableswitch:
    case Opcode::kLookupswitch:
    case Opcode::kIreturn:
    case Opcode::kLreturn:
    case Opcode::kFreturn:
    case Opcode::kDreturn:
    case Opcode::kAreturn:
    case Opcode::kReturn:
    case Opcode::kAthrow:
      return false;
    default:
      return true;
  }
}

namespace {

bool is_conditional_branch(Opcode opcode) {
  const auto op = static_cast<std::uint8_t>(opcode);
  return (op >= 0x99 && op <= 0xa6) || opcode == Opcode::kIfnull || opcode == Opcode::kIfnonnull;
}

bool is_jsr(Opcode opcode) {
  return opcode == Opcode::kJsr || opcode == Opcode::kJsrW;
}

// Ends a block: a branch of any kind, a switch, return, athrow, jsr or ret.
bool ends_block(Opcode opcode) {
  return !falls_through(opcode) || is_conditional_branch(opcode);
}

class CfgBuilder {
 public:
  CfgBuilder(const Code& code, const DecodedCode& decoded, const MethodContext& context)
      : code_(code), ins_(decoded.instructions()), decoded_(decoded), context_(context) {}

  Cfg run() {
    cfg_.slots = code_.max_locals;
    split_blocks();
    // The builder keeps a state of every local slot per block; bound that for hostile input.
    if (std::uint64_t{cfg_.blocks.size()} * (cfg_.slots + 1) > kMaxStateCells) {
      context_.fail(0, std::to_string(cfg_.blocks.size()) + " basic blocks with " +
                           std::to_string(cfg_.slots) + " local slots are too many to translate");
    }
    link_blocks();
    if (!cfg_.subroutines.empty()) analyse_subroutines();
    compute_liveness();
    return std::move(cfg_);
  }

 private:
  std::uint32_t index_at(std::uint32_t pc) const {
    return static_cast<std::uint32_t>(*decoded_.index_at(pc));  // the decoder checked targets
  }

  void split_blocks() {
    const std::size_t n = ins_.size();
    std::vector<bool> leader(n, false);
    if (n > 0) leader[0] = true;
    const auto mark_pc = [&](std::uint32_t pc) {
      if (const auto index = decoded_.index_at(pc)) leader[*index] = true;
    };
    for (std::size_t i = 0; i < n; ++i) {
      const Instruction& ins = ins_[i];
      if (ends_block(ins.opcode) && i + 1 < n) leader[i + 1] = true;
      if (is_conditional_branch(ins.opcode) || ins.opcode == Opcode::kGoto ||
          ins.opcode == Opcode::kGotoW || is_jsr(ins.opcode) ||
          ins.opcode == Opcode::kTableswitch || ins.opcode == Opcode::kLookupswitch) {
        mark_pc(ins.target);
      }
      for (const SwitchCase& c : ins.cases) mark_pc(c.target);
    }
    for (const ExceptionHandler& h : code_.exception_table) {
      mark_pc(h.start_pc);
      mark_pc(h.end_pc);  // nothing when it is the code length
      mark_pc(h.handler_pc);
    }
    cfg_.block_of.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (leader[i]) {
        Block block;
        block.first = static_cast<std::uint32_t>(i);
        cfg_.blocks.push_back(block);
      }
      cfg_.blocks.back().last = static_cast<std::uint32_t>(i);
      cfg_.block_of[i] = static_cast<std::uint32_t>(cfg_.blocks.size() - 1);
    }
  }

  std::uint32_t block_at_pc(std::uint32_t pc) const { return cfg_.block_of[index_at(pc)]; }

  static void add_unique(std::vector<std::uint32_t>& list, std::uint32_t value) {
    if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
  }

  void link_blocks() {
    const std::size_t n = ins_.size();
    cfg_.subroutine_at.assign(cfg_.blocks.size(), -1);
    cfg_.ret_subroutines.assign(cfg_.blocks.size(), {});
    for (std::uint32_t b = 0; b < cfg_.blocks.size(); ++b) {
      Block& block = cfg_.blocks[b];
      const Instruction& last = ins_[block.last];
      const bool has_next = block.last + 1 < n;
      const std::uint32_t next = has_next ? cfg_.block_of[block.last + 1] : kNoBlock;
      if (is_jsr(last.opcode)) {
        const std::uint32_t entry = block_at_pc(last.target);
        block.successors.push_back(entry);
        block.return_point = next;
        std::int32_t& sub = cfg_.subroutine_at[entry];
        if (sub < 0) {
          sub = static_cast<std::int32_t>(cfg_.subroutines.size());
          Subroutine s;
          s.entry = entry;
          s.modified = SlotSet(cfg_.slots);
          cfg_.subroutines.push_back(std::move(s));
        }
        cfg_.subroutines[static_cast<std::size_t>(sub)].jsr_blocks.push_back(b);
        block.subroutine = sub;
      } else if (last.opcode == Opcode::kTableswitch || last.opcode == Opcode::kLookupswitch) {
        add_unique(block.successors, block_at_pc(last.target));
        for (const SwitchCase& c : last.cases) add_unique(block.successors, block_at_pc(c.target));
      } else if (last.opcode == Opcode::kGoto || last.opcode == Opcode::kGotoW) {
        block.successors.push_back(block_at_pc(last.target));
      } else if (is_conditional_branch(last.opcode)) {
        if (has_next) {
          block.successors.push_back(next);
        } else {
          block.falls_off_end = true;
        }
        add_unique(block.successors, block_at_pc(last.target));
      } else if (falls_through(last.opcode)) {
        if (has_next) {
          block.successors.push_back(next);
        } else {
          block.falls_off_end = true;
        }
      }
    }
    link_handlers();
  }

  // Blocks are in pc order and split at every range boundary, so the blocks an entry covers
  // are the consecutive run starting at its start_pc.
  void link_handlers() {
    std::uint64_t coverage = 0;
    for (const ExceptionHandler& h : code_.exception_table) {
      const std::uint32_t handler = block_at_pc(h.handler_pc);
      cfg_.blocks[handler].is_handler = true;
      if (h.start_pc >= h.end_pc) continue;  // an empty range covers nothing
      for (std::uint32_t b = block_at_pc(h.start_pc);
           b < cfg_.blocks.size() && ins_[cfg_.blocks[b].first].pc < h.end_pc; ++b) {
        if (++coverage > kMaxHandlerCoverage) {
          context_.fail(h.start_pc, "the exception table covers too many blocks to translate");
        }
        cfg_.blocks[b].handlers.push_back(handler);
      }
    }
    // Deduplicate, keeping table order: several entries often share a handler.
    std::vector<std::uint32_t> stamp(cfg_.blocks.size(), kNoBlock);
    for (std::uint32_t b = 0; b < cfg_.blocks.size(); ++b) {
      auto& list = cfg_.blocks[b].handlers;
      std::size_t kept = 0;
      for (const std::uint32_t h : list) {
        if (stamp[h] == b) continue;
        stamp[h] = b;
        list[kept++] = h;
      }
      list.resize(kept);
    }
  }

  // Blocks reachable from `start` without entering subroutines (a jsr continues at its return
  // point) and without leaving them (a ret ends the walk), skipping blocks in `excluded`.
  std::vector<bool> reach_without_subroutines(std::uint32_t start,
                                              const std::vector<bool>* excluded) const {
    std::vector<bool> seen(cfg_.blocks.size(), false);
    if (excluded != nullptr && (*excluded)[start]) return seen;
    std::deque<std::uint32_t> queue{start};
    seen[start] = true;
    while (!queue.empty()) {
      const std::uint32_t b = queue.front();
      queue.pop_front();
      const Block& block = cfg_.blocks[b];
      std::vector<std::uint32_t> next = block.handlers;
      if (block.subroutine >= 0) {
        if (block.return_point != kNoBlock) next.push_back(block.return_point);
      } else {
        next.insert(next.end(), block.successors.begin(), block.successors.end());
      }
      for (const std::uint32_t s : next) {
        if (seen[s] || (excluded != nullptr && (*excluded)[s])) continue;
        seen[s] = true;
        queue.push_back(s);
      }
    }
    return seen;
  }

  // Finds each subroutine's body statically: the blocks reachable from its entry that the
  // main code does not reach. Its modified slots are what the body stores to, plus what the
  // subroutines it calls modify.
  void analyse_subroutines() {
    std::uint64_t jsrs = 0;
    std::uint64_t rets = 0;
    for (const Block& block : cfg_.blocks) {
      jsrs += block.subroutine >= 0 ? 1 : 0;
      rets += ins_[block.last].opcode == Opcode::kRet ? 1 : 0;
    }
    if (std::uint64_t{cfg_.subroutines.size()} * cfg_.blocks.size() > kMaxStateCells ||
        jsrs * rets > kMaxStateCells) {
      context_.fail(
          0, std::to_string(cfg_.subroutines.size()) + " subroutines are too many to translate");
    }
    const std::vector<bool> main = reach_without_subroutines(0, nullptr);
    std::vector<std::vector<std::uint32_t>> calls(cfg_.subroutines.size());
    for (std::size_t s = 0; s < cfg_.subroutines.size(); ++s) {
      Subroutine& sub = cfg_.subroutines[s];
      if (main[sub.entry]) {
        // Main code falls into the subroutine: nothing can be said about what it keeps.
        sub.modified.set_all(cfg_.slots);
        continue;
      }
      const std::vector<bool> body = reach_without_subroutines(sub.entry, &main);
      for (std::uint32_t b = 0; b < cfg_.blocks.size(); ++b) {
        if (!body[b]) continue;
        const Block& block = cfg_.blocks[b];
        for (std::uint32_t i = block.first; i <= block.last; ++i) {
          const LocalAccess access = local_access(ins_[i]);
          if (access.def >= 0) mark(sub.modified, access.def, access.wide);
        }
        if (ins_[block.last].opcode == Opcode::kRet) {
          cfg_.ret_subroutines[b].push_back(static_cast<std::uint32_t>(s));
        }
        if (block.subroutine >= 0) calls[s].push_back(static_cast<std::uint32_t>(block.subroutine));
      }
    }
    // Nested calls: iterate to a fixpoint (recursion is invalid but must still terminate).
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t s = 0; s < cfg_.subroutines.size(); ++s) {
        for (const std::uint32_t callee : calls[s]) {
          if (callee == s) continue;
          changed |= cfg_.subroutines[s].modified.merge(cfg_.subroutines[callee].modified);
        }
      }
    }
  }

  void mark(SlotSet& set, std::int32_t slot, bool wide) const {
    const auto s = static_cast<std::size_t>(slot);
    if (s < cfg_.slots) set.set(s);
    if (wide && s + 1 < cfg_.slots) set.set(s + 1);
  }

  // Backward liveness of local slots. A subroutine call passes the liveness of the slots the
  // subroutine does not modify straight from its return point to the jsr, so values live
  // across a call are not merged with the values other callers hold in the same slot.
  void compute_liveness() {
    const std::size_t count = cfg_.blocks.size();
    std::vector<SlotSet> use(count, SlotSet(cfg_.slots));
    std::vector<SlotSet> def(count, SlotSet(cfg_.slots));
    for (std::size_t b = 0; b < count; ++b) {
      const Block& block = cfg_.blocks[b];
      for (std::uint32_t i = block.first; i <= block.last; ++i) {
        const LocalAccess access = local_access(ins_[i]);
        if (access.use >= 0 && static_cast<std::size_t>(access.use) < cfg_.slots &&
            !def[b].test(static_cast<std::size_t>(access.use))) {
          use[b].set(static_cast<std::size_t>(access.use));
        }
        if (access.def >= 0) mark(def[b], access.def, access.wide);
      }
    }
    std::vector<std::uint32_t> all_return_points;
    for (const Block& block : cfg_.blocks) {
      if (block.return_point != kNoBlock) all_return_points.push_back(block.return_point);
    }
    // dependents[x]: the blocks whose liveness is computed from live_in[x].
    std::vector<std::vector<std::uint32_t>> dependents(count);
    for (std::uint32_t b = 0; b < count; ++b) {
      for (const std::uint32_t x : inputs_of(b, all_return_points)) dependents[x].push_back(b);
    }
    cfg_.live_in.assign(count, SlotSet(cfg_.slots));
    std::vector<bool> queued(count, true);
    std::deque<std::uint32_t> queue;
    for (std::size_t b = count; b-- > 0;) queue.push_back(static_cast<std::uint32_t>(b));
    while (!queue.empty()) {
      const std::uint32_t b = queue.front();
      queue.pop_front();
      queued[b] = false;
      const Block& block = cfg_.blocks[b];
      SlotSet out(cfg_.slots);
      for (const std::uint32_t s : block.successors) out.merge(cfg_.live_in[s]);
      if (block.subroutine >= 0 && block.return_point != kNoBlock) {
        const Subroutine& sub = cfg_.subroutines[static_cast<std::size_t>(block.subroutine)];
        out.merge_difference(cfg_.live_in[block.return_point], sub.modified);
      }
      if (ins_[block.last].opcode == Opcode::kRet) {
        if (cfg_.ret_subroutines[b].empty()) {
          for (const std::uint32_t p : all_return_points) out.merge(cfg_.live_in[p]);
        }
        for (const std::uint32_t s : cfg_.ret_subroutines[b]) {
          const Subroutine& sub = cfg_.subroutines[s];
          for (const std::uint32_t j : sub.jsr_blocks) {
            const std::uint32_t p = cfg_.blocks[j].return_point;
            if (p != kNoBlock) out.merge_masked(cfg_.live_in[p], sub.modified, false);
          }
        }
      }
      SlotSet in = use[b];
      in.merge_difference(out, def[b]);
      for (const std::uint32_t h : block.handlers) in.merge(cfg_.live_in[h]);
      if (!cfg_.live_in[b].merge(in)) continue;
      for (const std::uint32_t d : dependents[b]) {
        if (!queued[d]) {
          queued[d] = true;
          queue.push_back(d);
        }
      }
    }
  }

  // The blocks whose entry liveness the liveness of block `b` is computed from.
  std::vector<std::uint32_t> inputs_of(std::uint32_t b,
                                       const std::vector<std::uint32_t>& all_return_points) const {
    const Block& block = cfg_.blocks[b];
    std::vector<std::uint32_t> inputs = block.successors;
    inputs.insert(inputs.end(), block.handlers.begin(), block.handlers.end());
    if (block.return_point != kNoBlock) inputs.push_back(block.return_point);
    if (ins_[block.last].opcode == Opcode::kRet) {
      if (cfg_.ret_subroutines[b].empty()) {
        inputs.insert(inputs.end(), all_return_points.begin(), all_return_points.end());
      }
      for (const std::uint32_t s : cfg_.ret_subroutines[b]) {
        for (const std::uint32_t j : cfg_.subroutines[s].jsr_blocks) {
          if (cfg_.blocks[j].return_point != kNoBlock) {
            inputs.push_back(cfg_.blocks[j].return_point);
          }
        }
      }
    }
    return inputs;
  }

  const Code& code_;
  const std::vector<Instruction>& ins_;
  const DecodedCode& decoded_;
  const MethodContext& context_;
  Cfg cfg_;
};

}  // namespace

LocalAccess local_access(const Instruction& ins) {
  LocalAccess access;
  const auto op = static_cast<std::uint8_t>(ins.opcode);
  if ((op >= 0x15 && op <= 0x19) || (op >= 0x1a && op <= 0x2d)) {  // xload, xload_<n>
    access.use = ins.local;
  } else if ((op >= 0x36 && op <= 0x3a) || (op >= 0x3b && op <= 0x4e)) {  // xstore(_<n>)
    access.def = ins.local;
    const bool is_long = ins.opcode == Opcode::kLstore || ins.opcode == Opcode::kDstore ||
                         (op >= 0x3f && op <= 0x42) || (op >= 0x47 && op <= 0x4a);
    access.wide = is_long;
  } else if (ins.opcode == Opcode::kIinc) {
    access.use = ins.local;
    access.def = ins.local;
  } else if (ins.opcode == Opcode::kRet) {
    access.use = ins.local;
  }
  return access;
}

Cfg build_cfg(const Code& code, const DecodedCode& decoded, const MethodContext& context) {
  return CfgBuilder(code, decoded, context).run();
}

std::vector<std::uint32_t> instruction_lines(const Code& code, const DecodedCode& decoded) {
  const auto& ins = decoded.instructions();
  std::vector<std::uint32_t> lines(ins.size(), 0);
  if (code.line_numbers.empty()) return lines;
  std::vector<LineNumber> table = code.line_numbers;
  std::stable_sort(table.begin(), table.end(), [](const LineNumber& a, const LineNumber& b) {
    return a.start_pc < b.start_pc;
  });
  std::size_t next = 0;
  std::uint32_t line = 0;
  for (std::size_t i = 0; i < ins.size(); ++i) {
    // Several entries may share a start_pc; the last one in the table wins, as in javap.
    while (next < table.size() && table[next].start_pc <= ins[i].pc) line = table[next++].line;
    lines[i] = line;
  }
  return lines;
}

}  // namespace refract::frontend::ir_detail
