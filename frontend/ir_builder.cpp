#include "frontend/ir_builder.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

#include "frontend/ir_cfg.hpp"
#include "frontend/ir_dynamic.hpp"
#include "frontend/ir_variables.hpp"

namespace refract::frontend {
namespace {

using namespace ir_detail;

// Verification kinds of stack entries and local slots. kHigh is the second slot of a long or
// double local; kTop is a slot that holds nothing usable.
enum class Kind : std::uint8_t { kTop, kInt, kFloat, kLong, kDouble, kRef, kRetAddr, kHigh };

constexpr std::uint32_t kNoDef = 0xFFFFFFFF;

bool is_wide(Kind kind) {
  return kind == Kind::kLong || kind == Kind::kDouble;
}

std::string_view kind_name(Kind kind) {
  switch (kind) {
    case Kind::kTop:
      return "nothing";
    case Kind::kInt:
      return "int";
    case Kind::kFloat:
      return "float";
    case Kind::kLong:
      return "long";
    case Kind::kDouble:
      return "double";
    case Kind::kRef:
      return "reference";
    case Kind::kRetAddr:
      return "returnAddress";
    case Kind::kHigh:
      return "the second half of a long or double";
  }
  return "?";
}

Kind kind_of(const JavaType& type) {
  if (type.is_reference()) return Kind::kRef;
  switch (type.base) {
    case BaseKind::kLong:
      return Kind::kLong;
    case BaseKind::kFloat:
      return Kind::kFloat;
    case BaseKind::kDouble:
      return Kind::kDouble;
    case BaseKind::kVoid:
      return Kind::kTop;
    default:
      return Kind::kInt;
  }
}

ValueKind value_kind(Kind kind) {
  switch (kind) {
    case Kind::kLong:
      return ValueKind::kLong;
    case Kind::kFloat:
      return ValueKind::kFloat;
    case Kind::kDouble:
      return ValueKind::kDouble;
    case Kind::kRef:
      return ValueKind::kReference;
    case Kind::kRetAddr:
      return ValueKind::kReturnAddress;
    default:
      return ValueKind::kInt;
  }
}

JavaType primitive_type(Kind kind) {
  switch (kind) {
    case Kind::kLong:
      return JavaType::primitive(BaseKind::kLong);
    case Kind::kFloat:
      return JavaType::primitive(BaseKind::kFloat);
    case Kind::kDouble:
      return JavaType::primitive(BaseKind::kDouble);
    default:
      return JavaType::primitive(BaseKind::kInt);
  }
}

const Code& empty_code() {
  static const Code code;
  return code;
}

const JavaType& object_type() {
  static const JavaType type = JavaType::object("java/lang/Object");
  return type;
}

struct StackValue {
  Kind kind = Kind::kTop;
  std::uint32_t sub = 0;  // kRetAddr: the subroutine (index in Cfg::subroutines)
  Operand op;             // second pass only
};

struct LocalValue {
  Kind kind = Kind::kTop;
  std::uint32_t sub = 0;       // kRetAddr
  std::uint32_t def = kNoDef;  // a definition of the slot's web (union-find element)
};

struct Frame {
  std::vector<StackValue> stack;
  std::vector<LocalValue> locals;
  std::uint32_t words = 0;  // operand stack depth in JVM words (long/double count two)
};

class UnionFind {
 public:
  explicit UnionFind(std::size_t size) : parent_(size) {
    for (std::size_t i = 0; i < size; ++i) parent_[i] = static_cast<std::uint32_t>(i);
  }
  std::uint32_t find(std::uint32_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  // The smaller root wins, so a web's representative is its first definition.
  void unite(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (b < a) std::swap(a, b);
    parent_[b] = a;
  }

 private:
  std::vector<std::uint32_t> parent_;
};

class Translator {
 public:
  Translator(const ClassFile& cls, const MethodInfo& method, const DecodedCode& decoded)
      : cls_(cls),
        pool_(cls.constant_pool),
        method_(method),
        code_(method.code ? *method.code : empty_code()),
        ins_(decoded.instructions()),
        decoded_(decoded) {
    context_.origin = &cls.origin;
    context_.bytes_offset = code_.bytes_offset;
    context_.method = method.name + method.descriptor;
  }

  MethodIr run() {
    start_ir();
    cfg_ = build_cfg(code_, decoded_, context_);
    check_handler_work();
    lines_ = instruction_lines(code_, decoded_);
    const std::size_t blocks = cfg_.blocks.size();
    entry_.assign(blocks, Frame{});
    reached_.assign(blocks, false);
    caught_.assign(blocks, false);
    jsr_frames_.assign(blocks, std::nullopt);
    rets_of_.assign(cfg_.subroutines.size(), {});
    param_defs_ =
        static_cast<std::uint32_t>(ir_.signature.parameters.size()) + (ir_.is_static() ? 0 : 1);
    webs_ = UnionFind(param_defs_ + ins_.size());
    find_normal_predecessors();
    infer();
    emit_all();
    finish_handlers();
    finish_variables(ir_, facts_, &code_);
    return std::move(ir_);
  }

  // For methods without code: the header, `this` and the parameters.
  MethodIr run_without_body() {
    start_ir();
    declare_parameters(nullptr);
    finish_variables(ir_, facts_, nullptr);
    return std::move(ir_);
  }

 private:
  // ---- setup ------------------------------------------------------------------------------

  void start_ir() {
    ir_.class_name = binary_name_to_java(cls_.this_class);
    ir_.name = method_.name;
    ir_.descriptor = method_.descriptor;
    ir_.access_flags = method_.access_flags;
    try {
      ir_.signature = parse_method_descriptor(method_.descriptor);
    } catch (const DescriptorError& e) {
      throw ClassFormatError(cls_.origin, method_.offset,
                             "method " + method_.name + method_.descriptor + ": " + e.what());
    }
    ir_.has_body = method_.code.has_value();
    if (method_.code) ir_.counts.instructions = ins_.size();
  }

  // The first pass merges the locals into a block's handlers after every store in it; bound
  // that work for hostile input (real methods stay orders of magnitude below).
  void check_handler_work() const {
    constexpr std::uint64_t kMaxWork = std::uint64_t{1} << 27;  // the JDK's maximum: 28,681
    std::uint64_t work = 0;
    for (const Block& block : cfg_.blocks) {
      if (block.handlers.empty()) continue;
      std::uint64_t stores = 1;
      for (std::uint32_t i = block.first; i <= block.last; ++i) {
        stores += local_access(ins_[i]).def >= 0 ? 1 : 0;
      }
      work += stores * block.handlers.size() * (std::uint64_t{code_.max_locals} + 1);
      if (work > kMaxWork) {
        context_.fail(ins_[block.first].pc,
                      "too many stores under too many exception handlers to translate");
      }
    }
  }

  // Which blocks normal control flow enters, and which blocks can take over the stack operands
  // of their only predecessor instead of entry variables: those entered from one earlier block
  // by a branch or by falling through (not jsr/ret, not an exception).
  void find_normal_predecessors() {
    const std::size_t count = cfg_.blocks.size();
    normal_pred_.assign(count, false);
    inherit_from_.assign(count, kNoBlock);
    std::vector<std::uint32_t> preds(count, 0);
    std::vector<bool> special(count, false);
    if (count > 0) special[0] = true;  // also entered by the method call
    for (std::uint32_t b = 0; b < count; ++b) {
      const Block& block = cfg_.blocks[b];
      for (const std::uint32_t s : block.successors) {
        normal_pred_[s] = true;
        ++preds[s];
        if (preds[s] == 1) inherit_from_[s] = b;
        if (block.subroutine >= 0) special[s] = true;
      }
      if (block.return_point != kNoBlock) {
        normal_pred_[block.return_point] = true;
        special[block.return_point] = true;
      }
      if (block.is_handler) special[b] = true;
    }
    for (std::uint32_t b = 0; b < count; ++b) {
      if (preds[b] != 1 || special[b] || inherit_from_[b] >= b) inherit_from_[b] = kNoBlock;
    }
    inherited_.assign(count, {});
  }

  // The initial frame: `this` and the parameters in their slots (JVMS 2.6.1).
  Frame initial_frame() {
    Frame frame;
    frame.locals.assign(code_.max_locals, LocalValue{});
    std::uint32_t slot = 0;
    std::uint32_t def = 0;
    const auto place = [&](Kind kind) {
      const std::uint32_t need = is_wide(kind) ? 2 : 1;
      if (slot + need > code_.max_locals) {
        context_.fail(0, "the parameters need more than max_locals (" +
                             std::to_string(code_.max_locals) + ") slots");
      }
      frame.locals[slot] = LocalValue{kind, 0, def++};
      if (need == 2) frame.locals[slot + 1] = LocalValue{Kind::kHigh, 0, kNoDef};
      slot += need;
    };
    if (!ir_.is_static()) place(Kind::kRef);
    for (const JavaType& p : ir_.signature.parameters) place(kind_of(p));
    return frame;
  }

  // ---- first pass: kinds and webs ----------------------------------------------------------

  void infer() {
    emit_ = false;
    if (cfg_.blocks.empty()) return;
    current_ = 0;
    const Frame start = initial_frame();
    merge_into(0, start.stack, start.locals);
    // Each revisit of a block makes some local slot of its entry unusable, so the analysis
    // ends; the budget only stops pathological input from taking long (javac's code needs a
    // few visits per instruction).
    constexpr std::uint64_t kMaxSteps = std::uint64_t{1} << 26;
    std::uint64_t steps = 0;
    while (!queue_.empty()) {
      const std::uint32_t b = *queue_.begin();
      queue_.erase(queue_.begin());
      steps += cfg_.blocks[b].last - cfg_.blocks[b].first + 1;
      if (steps > kMaxSteps) {
        context_.fail(ins_[cfg_.blocks[b].first].pc, "control flow too complex to translate");
      }
      Frame frame = entry_[b];
      simulate(b, frame);
    }
  }

  void enqueue(std::uint32_t b) { queue_.insert(b); }

  // Merges an incoming frame into the entry of block `b` (first pass). Stack shapes must
  // agree; local slots that disagree become unusable, and live slots that agree join webs.
  void merge_into(std::uint32_t b, const std::vector<StackValue>& stack,
                  const std::vector<LocalValue>& locals) {
    const SlotSet& live = cfg_.live_in[b];
    Frame& entry = entry_[b];
    if (!reached_[b]) {
      reached_[b] = true;
      entry.stack.clear();
      entry.words = 0;
      for (const StackValue& v : stack) {
        entry.stack.push_back(StackValue{v.kind, v.sub, Operand{}});
        entry.words += is_wide(v.kind) ? 2 : 1;
      }
      entry.locals.assign(locals.size(), LocalValue{});
      for (std::size_t k = 0; k < locals.size(); ++k) {
        if (live.test(k) && locals[k].kind != Kind::kHigh) entry.locals[k] = locals[k];
      }
      // Keep the second halves of the long and double values kept.
      for (std::size_t k = 0; k + 1 < locals.size(); ++k) {
        if (is_wide(entry.locals[k].kind)) entry.locals[k + 1] = LocalValue{Kind::kHigh, 0, kNoDef};
      }
      enqueue(b);
      return;
    }
    const std::uint32_t target_pc = ins_[cfg_.blocks[b].first].pc;
    if (entry.stack.size() != stack.size()) {
      fail("the operand stack has " + std::to_string(stack.size()) + " entries here but " +
           std::to_string(entry.stack.size()) + " at pc " + std::to_string(target_pc) +
           ", where control flow joins");
    }
    for (std::size_t i = 0; i < stack.size(); ++i) {
      const StackValue& a = entry.stack[i];
      const StackValue& v = stack[i];
      if (a.kind != v.kind || (a.kind == Kind::kRetAddr && a.sub != v.sub)) {
        fail("operand stack entry " + std::to_string(i) + " is " + std::string(kind_name(v.kind)) +
             " here but " + std::string(kind_name(a.kind)) + " at pc " + std::to_string(target_pc) +
             ", where control flow joins");
      }
    }
    bool changed = false;
    for (std::size_t k = 0; k < locals.size(); ++k) {
      LocalValue& a = entry.locals[k];
      if (a.kind == Kind::kTop) continue;
      const LocalValue& v = locals[k];
      if (a.kind != v.kind || (a.kind == Kind::kRetAddr && a.sub != v.sub)) {
        a = LocalValue{};
        changed = true;
      } else if (a.def != kNoDef && v.def != kNoDef) {
        webs_.unite(a.def, v.def);
      }
    }
    if (changed) {
      // A long or double that lost its second half is gone too.
      for (std::size_t k = 0; k + 1 < locals.size(); ++k) {
        if (is_wide(entry.locals[k].kind) && entry.locals[k + 1].kind != Kind::kHigh) {
          entry.locals[k] = LocalValue{};
        }
        if (entry.locals[k + 1].kind == Kind::kHigh && !is_wide(entry.locals[k].kind)) {
          entry.locals[k + 1] = LocalValue{};
        }
      }
      enqueue(b);
    }
  }

  // The exception handlers of a block receive the locals of every instruction they cover
  // (JVMS 4.10.2.2), with just the exception on the stack.
  void merge_into_handlers(const Block& block, const Frame& frame) {
    static const std::vector<StackValue> exception_stack = {StackValue{Kind::kRef, 0, Operand{}}};
    for (const std::uint32_t h : block.handlers) {
      caught_[h] = true;
      merge_into(h, exception_stack, frame.locals);
    }
  }

  // ---- the shared simulation of a block ------------------------------------------------------

  void simulate(std::uint32_t b, Frame& frame) {
    const Block& block = cfg_.blocks[b];
    block_ = b;
    locals_changed_ = true;
    for (std::uint32_t i = block.first; i <= block.last; ++i) {
      current_ = i;
      if (!emit_ && locals_changed_ && !block.handlers.empty()) {
        merge_into_handlers(block, frame);
      }
      locals_changed_ = false;
      execute(ins_[i], frame);
    }
    if (falls_through(ins_[block.last].opcode) && !ends_with_branch(block)) {
      if (block.falls_off_end) fail("execution falls off the end of the code");
      flow(block, frame);
    }
  }

  bool ends_with_branch(const Block& block) const {
    const auto op = static_cast<std::uint8_t>(ins_[block.last].opcode);
    return (op >= 0x99 && op <= 0xa6) || op == 0xc6 || op == 0xc7;
  }

  // Passes the frame at the end of a block on to its normal successors: merges in the first
  // pass, copies of the remaining stack into the successors' entry variables in the second.
  void flow(const Block& block, const Frame& frame) {
    if (block.falls_off_end && ends_with_branch(block)) {
      fail("execution falls off the end of the code");
    }
    for (const std::uint32_t s : block.successors) {
      if (emit_ && inherit_from_[s] != kNoBlock) {
        inherited_[s].clear();
        for (const StackValue& v : frame.stack) inherited_[s].push_back(v.op);
      } else if (emit_) {
        copy_stack_to(s, frame.stack);
      } else {
        merge_into(s, frame.stack, frame.locals);
      }
    }
  }

  // ---- second pass: statements -------------------------------------------------------------

  void emit_all() {
    emit_ = true;
    declare_parameters(&cfg_);
    for (std::uint32_t b = 0; b < cfg_.blocks.size(); ++b) {
      const Block& block = cfg_.blocks[b];
      if (!reached_[b]) {
        ir_.counts.unreachable_instructions += block.last - block.first + 1;
        continue;
      }
      block_start_ = ir_.statements.size();
      Frame frame = entry_[b];
      current_ = block.first;
      for (std::size_t i = 0; i < frame.stack.size(); ++i) {
        frame.stack[i].op =
            inherit_from_[b] != kNoBlock ? inherited_[b].at(i) : Operand::variable(entry_var(b, i));
      }
      if (caught_[b]) emit_catch(b);
      simulate(b, frame);
    }
  }

  // `this` and parameter variables with their identity statements.
  void declare_parameters(const Cfg* cfg) {
    std::uint32_t slot = 0;
    std::uint32_t def = 0;
    const auto declare = [&](const JavaType& type, StatementKind kind, std::uint32_t index) {
      VarId v;
      if (cfg != nullptr) {
        v = web_var(def, static_cast<std::int32_t>(slot), kind_of(type));
      } else {
        v = new_variable(value_kind(kind_of(type)), VariableOrigin::kLocal,
                         static_cast<std::int32_t>(slot));
      }
      facts_[v].def_pcs.push_back(0);
      note_def(v, type);
      Statement s;
      s.kind = kind;
      s.payload = index;
      s.dst = v;
      s.line = lines_.empty() ? 0 : lines_[0];
      ir_.statements.push_back(std::move(s));
      ++def;
      slot += type.slots();
      return v;
    };
    if (!ir_.is_static()) {
      ir_.this_var = declare(JavaType::object(cls_.this_class), StatementKind::kThis, 0);
    }
    for (std::uint32_t i = 0; i < ir_.signature.parameters.size(); ++i) {
      ir_.parameters.push_back(declare(ir_.signature.parameters[i], StatementKind::kParameter, i));
    }
  }

  VarId new_variable(ValueKind kind, VariableOrigin origin, std::int32_t slot) {
    Variable v;
    v.kind = kind;
    v.origin = origin;
    v.slot = slot;
    ir_.variables.push_back(std::move(v));
    facts_.emplace_back();
    pinned_.push_back(false);
    def_statement_.push_back(0);
    return static_cast<VarId>(ir_.variables.size() - 1);
  }

  // The variable of the web that definition `def` belongs to.
  VarId web_var(std::uint32_t def, std::int32_t slot, Kind kind) {
    const std::uint32_t root = webs_.find(def);
    if (web_vars_.empty()) web_vars_.assign(param_defs_ + ins_.size(), kNoVar);
    VarId& v = web_vars_[root];
    if (v == kNoVar) {
      v = new_variable(value_kind(kind), VariableOrigin::kLocal, slot);
      pinned_[v] = true;
    }
    return v;
  }

  // The variable holding stack entry `depth` at the entry of block `b`.
  VarId entry_var(std::uint32_t b, std::size_t depth) {
    auto [it, inserted] = entry_vars_.try_emplace(std::pair{b, depth}, kNoVar);
    if (inserted) {
      const bool caught = caught_[b] && depth == 0;
      const Kind kind = entry_[b].stack[depth].kind;
      it->second = new_variable(
          value_kind(kind), caught ? VariableOrigin::kCaughtException : VariableOrigin::kStack, -1);
      // A handler's exception variable may take a local's name unless normal control flow
      // also reaches the handler and assigns it.
      pinned_[it->second] = !(caught && !normal_pred_[b]);
    }
    return it->second;
  }

  VarId new_temp(Kind kind) { return new_variable(value_kind(kind), VariableOrigin::kStack, -1); }

  void note_def(VarId v, const JavaType& type) {
    VariableFacts& f = facts_[v];
    if (!f.has_type) {
      f.type = type;
      f.has_type = true;
    } else if (!(f.type == type)) {
      f.conflict = true;
    }
  }

  // The type an operand has, as far as known so far.
  std::optional<JavaType> type_of(const Operand& op) const {
    switch (op.kind) {
      case Operand::Kind::kVar:
        if (facts_[op.var].has_type) return facts_[op.var].type;
        return std::nullopt;
      case Operand::Kind::kInt:
        return JavaType::primitive(BaseKind::kInt);
      case Operand::Kind::kLong:
        return JavaType::primitive(BaseKind::kLong);
      case Operand::Kind::kFloat:
        return JavaType::primitive(BaseKind::kFloat);
      case Operand::Kind::kDouble:
        return JavaType::primitive(BaseKind::kDouble);
      default:
        return std::nullopt;  // null has no type of its own
    }
  }

  void note_copy(VarId dst, const Operand& src) {
    if (const auto type = type_of(src)) note_def(dst, *type);
  }

  Statement make(StatementKind kind) const {
    Statement s;
    s.kind = kind;
    s.opcode = ins_[current_].opcode;
    s.pc = ins_[current_].pc;
    s.line = lines_[current_];
    return s;
  }

  void add(Statement s) {
    if (s.dst != kNoVar) def_statement_[s.dst] = ir_.statements.size();
    ir_.statements.push_back(std::move(s));
  }

  void emit_catch(std::uint32_t b) {
    const std::uint32_t pc = ins_[cfg_.blocks[b].first].pc;
    Statement s = make(StatementKind::kCatch);
    s.opcode = Opcode::kNop;
    const auto clause = catch_clause_of(pc);
    s.payload = clause;
    s.dst = entry_var(b, 0);
    const CatchClause& c = ir_.catches[clause];
    note_def(s.dst,
             !c.any && c.types.size() == 1 ? c.types[0] : JavaType::object("java/lang/Throwable"));
    catch_statements_.emplace_back(pc, ir_.statements.size());
    add(std::move(s));
  }

  // Each handler block is emitted once, so each clause is made once.
  std::uint32_t catch_clause_of(std::uint32_t handler_pc) {
    if (entries_by_handler_.empty()) {
      for (std::size_t i = 0; i < code_.exception_table.size(); ++i) {
        entries_by_handler_[code_.exception_table[i].handler_pc].push_back(i);
      }
    }
    CatchClause clause;
    clause.handler_pc = handler_pc;
    for (const std::size_t i : entries_by_handler_[handler_pc]) {
      const ExceptionHandler& h = code_.exception_table[i];
      if (!h.catch_type) {
        clause.any = true;
        continue;
      }
      const JavaType type = class_type(*h.catch_type, h.offset);
      if (std::find(clause.types.begin(), clause.types.end(), type) == clause.types.end()) {
        clause.types.push_back(type);
      }
    }
    ir_.catches.push_back(std::move(clause));
    return static_cast<std::uint32_t>(ir_.catches.size() - 1);
  }

  void finish_handlers() {
    std::unordered_map<std::uint32_t, VarId> caught;
    for (const auto& [pc, index] : catch_statements_) caught[pc] = ir_.statements[index].dst;
    for (const ExceptionHandler& h : code_.exception_table) {
      Handler out;
      out.start_pc = h.start_pc;
      out.end_pc = h.end_pc;
      out.handler_pc = h.handler_pc;
      if (h.catch_type) out.catch_type = class_type(*h.catch_type, h.offset);
      if (const auto it = caught.find(h.handler_pc); it != caught.end()) out.var = it->second;
      ir_.handlers.push_back(std::move(out));
    }
  }

  // Copies the stack into the entry variables of block `s` (second pass). The copies act in
  // parallel: a source that is itself one of the targets is read into a temporary first.
  void copy_stack_to(std::uint32_t s, const std::vector<StackValue>& stack) {
    if (stack.empty()) return;
    std::vector<VarId> targets(stack.size());
    for (std::size_t i = 0; i < stack.size(); ++i) targets[i] = entry_var(s, i);
    std::vector<Operand> sources(stack.size());
    for (std::size_t i = 0; i < stack.size(); ++i) sources[i] = stack[i].op;
    for (std::size_t i = 0; i < stack.size(); ++i) {
      if (!sources[i].is_var()) continue;
      for (std::size_t j = 0; j < stack.size(); ++j) {
        if (j != i && targets[j] == sources[i].var) {
          const VarId temp = new_temp(stack[i].kind);
          assign(temp, sources[i]);
          sources[i] = Operand::variable(temp);
          break;
        }
      }
    }
    for (std::size_t i = 0; i < stack.size(); ++i) {
      if (sources[i].is_var() && sources[i].var == targets[i]) continue;
      assign(targets[i], sources[i]);
    }
  }

  void assign(VarId dst, const Operand& src) {
    Statement s = make(StatementKind::kAssign);
    s.dst = dst;
    s.args.push_back(src);
    note_copy(dst, src);
    add(std::move(s));
  }

  // ---- stack primitives (both passes) ------------------------------------------------------

  [[noreturn]] void fail(const std::string& message) const {
    const Instruction& ins = ins_[current_];
    context_.fail(ins.pc, std::string(opcode_name(ins.opcode)) + " at pc " +
                              std::to_string(ins.pc) + ": " + message);
  }

  StackValue pop_any(Frame& frame) {
    if (frame.stack.empty()) fail("operand stack underflow");
    StackValue v = std::move(frame.stack.back());
    frame.stack.pop_back();
    frame.words -= is_wide(v.kind) ? 2 : 1;
    return v;
  }

  StackValue pop(Frame& frame, Kind expected) {
    if (frame.stack.empty()) fail("operand stack underflow");
    if (frame.stack.back().kind != expected) {
      fail("expects " + std::string(kind_name(expected)) + " on the operand stack, found " +
           std::string(kind_name(frame.stack.back().kind)));
    }
    return pop_any(frame);
  }

  StackValue pop_category(Frame& frame, int category) {
    StackValue v = pop_any(frame);
    if ((is_wide(v.kind) ? 2 : 1) != category) {
      fail("expects a category " + std::to_string(category) +
           " value on the operand stack, found " + std::string(kind_name(v.kind)));
    }
    return v;
  }

  void push(Frame& frame, StackValue v) {
    frame.words += is_wide(v.kind) ? 2 : 1;
    if (frame.words > code_.max_stack) {
      fail("operand stack overflow (max_stack " + std::to_string(code_.max_stack) + ")");
    }
    frame.stack.push_back(std::move(v));
  }

  void push(Frame& frame, Kind kind, Operand op = {}) {
    push(frame, StackValue{kind, 0, std::move(op)});
  }

  // Emits `s` with a fresh temporary of `type` as dst and pushes it.
  void produce(Frame& frame, Kind kind, const JavaType& type, Statement s) {
    if (!emit_) {
      push(frame, kind);
      return;
    }
    const VarId temp = new_temp(kind);
    s.dst = temp;
    note_def(temp, type);
    add(std::move(s));
    push(frame, kind, Operand::variable(temp));
  }

  void emit_statement(Statement s) {
    if (emit_) add(std::move(s));
  }

  // ---- constant pool operands --------------------------------------------------------------

  JavaType class_type(std::string_view name, std::uint64_t offset) const {
    try {
      return parse_class_constant(name);
    } catch (const DescriptorError& e) {
      throw ClassFormatError(cls_.origin, offset, "method " + context_.method + ": " + e.what());
    }
  }

  JavaType class_operand(std::uint16_t index) const {
    try {
      return parse_class_constant(pool_.class_name(index));
    } catch (const DescriptorError& e) {
      fail(e.what());
    }
  }

  std::uint32_t type_index(const JavaType& type) {
    auto [it, inserted] = type_indices_.try_emplace(type.to_descriptor(), 0);
    if (inserted) {
      it->second = static_cast<std::uint32_t>(ir_.types.size());
      ir_.types.push_back(type);
    }
    return it->second;
  }

  std::uint32_t field_index(std::uint16_t constant) {
    auto [it, inserted] = field_indices_.try_emplace(constant, 0);
    if (inserted) {
      const MemberRef ref = pool_.member_ref(constant);
      FieldRef field;
      try {
        field.owner = parse_class_constant(ref.owner);
        field.type = parse_field_descriptor(ref.descriptor);
      } catch (const DescriptorError& e) {
        field_indices_.erase(it);
        fail(e.what());
      }
      field.name = std::string(ref.name);
      field.descriptor = std::string(ref.descriptor);
      it->second = static_cast<std::uint32_t>(ir_.fields.size());
      ir_.fields.push_back(std::move(field));
    }
    return it->second;
  }

  std::uint32_t method_index(std::uint16_t constant) {
    auto [it, inserted] = method_indices_.try_emplace(constant, 0);
    if (inserted) {
      const MemberRef ref = pool_.member_ref(constant);
      MethodRef method;
      try {
        method.owner = parse_class_constant(ref.owner);
        method.signature = parse_method_descriptor(ref.descriptor);
      } catch (const DescriptorError& e) {
        method_indices_.erase(it);
        fail(e.what());
      }
      method.name = std::string(ref.name);
      method.descriptor = std::string(ref.descriptor);
      method.interface = ref.tag == ConstantTag::kInterfaceMethodref;
      it->second = static_cast<std::uint32_t>(ir_.methods.size());
      ir_.methods.push_back(std::move(method));
    }
    return it->second;
  }

  std::uint32_t string_index(std::string_view text) {
    ir_.strings.emplace_back(text);
    return static_cast<std::uint32_t>(ir_.strings.size() - 1);
  }

  // ---- locals ------------------------------------------------------------------------------

  void check_slot(std::uint32_t slot, bool wide) const {
    if (slot + (wide ? 1u : 0u) >= code_.max_locals) {
      fail("local variable " + std::to_string(slot) + " is out of range (max_locals " +
           std::to_string(code_.max_locals) + ")");
    }
  }

  void load(Frame& frame, std::uint32_t slot, Kind kind) {
    check_slot(slot, is_wide(kind));
    const LocalValue& local = frame.locals[slot];
    if (local.kind != kind) {
      fail("local variable " + std::to_string(slot) + " holds " +
           std::string(kind_name(local.kind)) + ", not " + std::string(kind_name(kind)));
    }
    if (!emit_) {
      push(frame, kind);
      return;
    }
    const VarId v = web_var(local.def, static_cast<std::int32_t>(slot), kind);
    facts_[v].use_pcs.push_back(ins_[current_].pc);
    push(frame, kind, Operand::variable(v));
  }

  // Before a local's variable is redefined, stack entries that still hold its old value get
  // their own copy.
  void spill(Frame& frame, VarId v) {
    for (StackValue& entry : frame.stack) {
      if (!entry.op.is_var() || entry.op.var != v) continue;
      const VarId temp = new_temp(entry.kind);
      assign(temp, entry.op);
      entry.op = Operand::variable(temp);
    }
  }

  // Records slot `slot` as holding a new value of `kind` defined by `def`.
  void set_local(Frame& frame, std::uint32_t slot, Kind kind, std::uint32_t sub,
                 std::uint32_t def) {
    auto& locals = frame.locals;
    if (slot > 0 && is_wide(locals[slot - 1].kind)) locals[slot - 1] = LocalValue{};
    if (is_wide(locals[slot].kind) && slot + 1 < locals.size()) locals[slot + 1] = LocalValue{};
    locals[slot] = LocalValue{kind, sub, def};
    if (is_wide(kind)) locals[slot + 1] = LocalValue{Kind::kHigh, 0, kNoDef};
    locals_changed_ = true;
  }

  void store(Frame& frame, std::uint32_t slot, Kind kind) {
    const bool wide = is_wide(kind);
    check_slot(slot, wide);
    StackValue value = pop_any(frame);
    const bool ok = value.kind == kind || (kind == Kind::kRef && value.kind == Kind::kRetAddr);
    if (!ok) {
      fail("expects " + std::string(kind_name(kind)) + " on the operand stack, found " +
           std::string(kind_name(value.kind)));
    }
    const std::uint32_t def = param_defs_ + current_;
    if (emit_) {
      const VarId target = web_var(def, static_cast<std::int32_t>(slot), value.kind);
      spill(frame, target);
      facts_[target].def_pcs.push_back(ins_[current_].pc + ins_[current_].length);
      if (!redirect(frame, value.op, target)) assign(target, value.op);
    }
    set_local(frame, slot, value.kind, value.sub, def);
  }

  // Makes the statement that produced temporary `op` define `target` instead, when nothing
  // between that statement and this store reads or writes `target` and the temporary is not
  // needed elsewhere: `r1 = new T` rather than `$stack0 = new T; r1 = $stack0`.
  bool redirect(const Frame& frame, const Operand& op, VarId target) {
    constexpr std::size_t kMaxScan = 64;
    if (!op.is_var() || pinned_[op.var]) return false;
    const VarId temp = op.var;
    const std::size_t d = def_statement_[temp];
    const std::size_t end = ir_.statements.size();
    if (d < block_start_ || d >= end || ir_.statements[d].dst != temp || end - d > kMaxScan) {
      return false;
    }
    for (const StackValue& entry : frame.stack) {
      if (entry.op.is_var() && entry.op.var == temp) return false;
    }
    const auto mentions = [&](const Statement& s, VarId v) {
      if (s.dst == v || (s.base.is_var() && s.base.var == v)) return true;
      return std::any_of(s.args.begin(), s.args.end(),
                         [&](const Operand& a) { return a.is_var() && a.var == v; });
    };
    for (std::size_t i = d + 1; i < end; ++i) {
      if (mentions(ir_.statements[i], target)) return false;
    }
    const auto rename = [&](Operand& o) {
      if (o.is_var() && o.var == temp) o.var = target;
    };
    ir_.statements[d].dst = target;
    def_statement_[target] = d;
    for (std::size_t i = d + 1; i < end; ++i) {
      rename(ir_.statements[i].base);
      for (Operand& a : ir_.statements[i].args) rename(a);
    }
    if (facts_[temp].has_type) note_def(target, facts_[temp].type);
    facts_[temp].removed = true;
    return true;
  }

  void iinc(Frame& frame, const Instruction& ins) {
    check_slot(ins.local, false);
    const LocalValue old = frame.locals[ins.local];
    if (old.kind != Kind::kInt) {
      fail("local variable " + std::to_string(ins.local) + " holds " +
           std::string(kind_name(old.kind)) + ", not int");
    }
    // iinc reads and writes one variable, like `x += c`: its definition joins the web it
    // reads.
    const std::uint32_t def = param_defs_ + current_;
    webs_.unite(def, old.def);
    if (emit_) {
      const VarId v = web_var(def, ins.local, Kind::kInt);
      spill(frame, v);
      facts_[v].use_pcs.push_back(ins.pc);
      facts_[v].def_pcs.push_back(ins.pc + ins.length);
      Statement s = make(StatementKind::kPrimitiveOp);
      s.dst = v;
      s.args = {Operand::variable(v), Operand::int_constant(ins.immediate)};
      note_def(v, JavaType::primitive(BaseKind::kInt));
      add(std::move(s));
    }
    set_local(frame, ins.local, Kind::kInt, 0, def);
  }

  // ---- instructions ------------------------------------------------------------------------

  void primitive(Frame& frame, std::initializer_list<Kind> operands, Kind result,
                 const JavaType& type) {
    std::array<Operand, 2> args;
    std::size_t count = operands.size();
    for (std::size_t i = count; i-- > 0;) args[i] = pop(frame, *(operands.begin() + i)).op;
    Statement s = make(StatementKind::kPrimitiveOp);
    if (emit_) s.args.assign(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(count));
    produce(frame, result, type, std::move(s));
  }

  void binary(Frame& frame, Kind kind) {
    primitive(frame, {kind, kind}, kind, primitive_type(kind));
  }

  void array_load(Frame& frame, Kind kind, BaseKind element) {
    const Operand index = pop(frame, Kind::kInt).op;
    const Operand array = pop(frame, Kind::kRef).op;
    Statement s = make(StatementKind::kArrayLoad);
    s.base = array;
    s.args = {index};
    JavaType type = kind == Kind::kRef ? object_type() : JavaType::primitive(element);
    if (emit_) {
      // The element type follows from the array's type when that is known (aaload, and
      // baload on boolean[]).
      const auto array_type = type_of(array);
      if (array_type && array_type->is_array() && kind_of(array_type->element()) == kind) {
        type = array_type->element();
      }
    }
    produce(frame, kind, type, std::move(s));
  }

  void array_store(Frame& frame, Kind kind) {
    const Operand value = pop(frame, kind).op;
    const Operand index = pop(frame, Kind::kInt).op;
    const Operand array = pop(frame, Kind::kRef).op;
    Statement s = make(StatementKind::kArrayStore);
    s.base = array;
    s.args = {index, value};
    emit_statement(std::move(s));
  }

  void constant(Frame& frame, const Instruction& ins) {
    const std::uint16_t index = ins.constant;
    switch (pool_.tag(index)) {
      case ConstantTag::kInteger:
        push(frame, Kind::kInt, Operand::int_constant(pool_.integer(index)));
        return;
      case ConstantTag::kFloat:
        push(frame, Kind::kFloat, Operand::float_constant(pool_.float_value(index)));
        return;
      case ConstantTag::kLong:
        push(frame, Kind::kLong, Operand::long_constant(pool_.long_value(index)));
        return;
      case ConstantTag::kDouble:
        push(frame, Kind::kDouble, Operand::double_constant(pool_.double_value(index)));
        return;
      case ConstantTag::kString: {
        Statement s = make(StatementKind::kStringConstant);
        if (emit_) s.payload = string_index(pool_.string(index));
        produce(frame, Kind::kRef, JavaType::object("java/lang/String"), std::move(s));
        return;
      }
      case ConstantTag::kClass: {
        Statement s = make(StatementKind::kClassConstant);
        s.payload = type_index(class_operand(index));
        produce(frame, Kind::kRef, JavaType::object("java/lang/Class"), std::move(s));
        return;
      }
      case ConstantTag::kMethodType: {
        Statement s = make(StatementKind::kMethodTypeConstant);
        if (!try_parse_method_descriptor(pool_.method_type(index))) {
          fail("invalid method descriptor \"" + std::string(pool_.method_type(index)) + "\"");
        }
        if (emit_) s.payload = string_index(pool_.method_type(index));
        produce(frame, Kind::kRef, JavaType::object("java/lang/invoke/MethodType"), std::move(s));
        return;
      }
      case ConstantTag::kMethodHandle: {
        Statement s = make(StatementKind::kMethodHandleConstant);
        MethodHandleInfo info;
        try {
          info = method_handle_info(cls_, index);
        } catch (const DescriptorError& e) {
          fail(e.what());
        }
        if (emit_) {
          s.payload = static_cast<std::uint32_t>(ir_.method_handles.size());
          ir_.method_handles.push_back(std::move(info));
        }
        produce(frame, Kind::kRef, JavaType::object("java/lang/invoke/MethodHandle"), std::move(s));
        return;
      }
      case ConstantTag::kDynamic: {
        JavaType type;
        DynamicSite site;
        try {
          type = parse_field_descriptor(pool_.dynamic(index).descriptor);
          site = dynamic_site(cls_, index);
        } catch (const DescriptorError& e) {
          fail(e.what());
        }
        Statement s = make(StatementKind::kDynamicConstant);
        if (emit_) {
          s.payload = static_cast<std::uint32_t>(ir_.dynamic_sites.size());
          ir_.dynamic_sites.push_back(std::move(site));
          ++ir_.counts.dynamic_constants;
        }
        produce(frame, kind_of(type), type, std::move(s));
        return;
      }
      default:
        fail("loads an unloadable constant");  // the decoder checks tags; kept for safety
    }
  }

  void field(Frame& frame, const Instruction& ins) {
    const std::uint32_t f = field_index(ins.constant);
    const JavaType type = ir_.fields[f].type;
    const Kind kind = kind_of(type);
    switch (ins.opcode) {
      case Opcode::kGetstatic: {
        Statement s = make(StatementKind::kStaticLoad);
        s.payload = f;
        produce(frame, kind, type, std::move(s));
        return;
      }
      case Opcode::kPutstatic: {
        Statement s = make(StatementKind::kStaticStore);
        s.payload = f;
        s.args = {pop(frame, kind).op};
        emit_statement(std::move(s));
        return;
      }
      case Opcode::kGetfield: {
        Statement s = make(StatementKind::kFieldLoad);
        s.payload = f;
        s.base = pop(frame, Kind::kRef).op;
        produce(frame, kind, type, std::move(s));
        return;
      }
      default: {  // putfield
        Statement s = make(StatementKind::kFieldStore);
        s.payload = f;
        s.args = {pop(frame, kind).op};
        s.base = pop(frame, Kind::kRef).op;
        emit_statement(std::move(s));
        return;
      }
    }
  }

  std::vector<Operand> pop_arguments(Frame& frame, const MethodDescriptor& descriptor) {
    const auto& params = descriptor.parameters;
    std::vector<Operand> args(params.size());
    for (std::size_t i = params.size(); i-- > 0;) args[i] = pop(frame, kind_of(params[i])).op;
    return args;
  }

  void invoke(Frame& frame, const Instruction& ins) {
    const std::uint32_t m = method_index(ins.constant);
    const MethodRef& method = ir_.methods[m];
    Statement s = make(StatementKind::kInvoke);
    s.payload = m;
    s.args = pop_arguments(frame, method.signature);
    if (ins.opcode != Opcode::kInvokestatic) s.base = pop(frame, Kind::kRef).op;
    if (emit_) ++ir_.counts.invokes;
    const JavaType& result = method.signature.return_type;
    if (result.is_void()) {
      emit_statement(std::move(s));
    } else {
      const JavaType type = result;  // `method` may move when tables grow
      produce(frame, kind_of(type), type, std::move(s));
    }
  }

  void invokedynamic(Frame& frame, const Instruction& ins) {
    MethodDescriptor descriptor;
    try {
      descriptor = parse_method_descriptor(pool_.dynamic(ins.constant).descriptor);
    } catch (const DescriptorError& e) {
      fail(e.what());
    }
    std::vector<Operand> args = pop_arguments(frame, descriptor);
    const JavaType& result = descriptor.return_type;
    if (!emit_) {
      if (!result.is_void()) push(frame, kind_of(result));
      return;
    }
    DynamicTranslation translation;
    try {
      translation = translate_invokedynamic(cls_, ins.constant, descriptor);
    } catch (const DescriptorError& e) {
      fail(e.what());
    }
    Statement s;
    if (auto* lambda = std::get_if<LambdaInfo>(&translation)) {
      s = make(StatementKind::kLambda);
      s.payload = static_cast<std::uint32_t>(ir_.lambdas.size());
      ir_.lambdas.push_back(std::move(*lambda));
      ++ir_.counts.lambdas;
      ++ir_.counts.allocations;
    } else if (auto* concat = std::get_if<ConcatInfo>(&translation)) {
      s = make(StatementKind::kStringConcat);
      s.payload = static_cast<std::uint32_t>(ir_.concats.size());
      ir_.concats.push_back(std::move(*concat));
      ++ir_.counts.string_concats;
      ++ir_.counts.allocations;
    } else {
      s = make(StatementKind::kInvokeDynamic);
      s.payload = static_cast<std::uint32_t>(ir_.dynamic_sites.size());
      ir_.dynamic_sites.push_back(std::move(std::get<DynamicSite>(translation)));
      ++ir_.counts.unsupported_invokedynamic;
    }
    s.args = std::move(args);
    if (result.is_void()) {
      emit_statement(std::move(s));
    } else {
      produce(frame, kind_of(result), result, std::move(s));
    }
  }

  void allocate_array(Frame& frame, const JavaType& array_type, std::uint8_t level) {
    Statement s = make(StatementKind::kNewArray);
    s.args = {pop(frame, Kind::kInt).op};
    s.payload = type_index(array_type);
    s.level = level;
    if (emit_) ++ir_.counts.allocations;
    produce(frame, Kind::kRef, array_type, std::move(s));
  }

  // multianewarray allocates every requested dimension: nested allocations linked by array
  // stores, so inner arrays are objects of their own.
  void multianewarray(Frame& frame, const Instruction& ins) {
    const JavaType type = class_operand(ins.constant);
    const auto dims = static_cast<std::uint32_t>(ins.immediate);
    if (type.dims < dims) {
      fail("creates " + std::to_string(dims) + " dimensions of " + type.to_java() +
           ", which has only " + std::to_string(type.dims));
    }
    std::vector<Operand> counts(dims);
    for (std::uint32_t i = dims; i-- > 0;) counts[i] = pop(frame, Kind::kInt).op;
    if (!emit_) {
      push(frame, Kind::kRef);
      return;
    }
    Operand outer;
    Operand previous;
    JavaType level_type = type;
    for (std::uint32_t level = 0; level < dims; ++level) {
      Statement s = make(StatementKind::kNewArray);
      s.args = {counts[level]};
      s.payload = type_index(level_type);
      s.level = static_cast<std::uint8_t>(std::min<std::uint32_t>(level, 255));
      const VarId temp = new_temp(Kind::kRef);
      s.dst = temp;
      note_def(temp, level_type);
      add(std::move(s));
      ++ir_.counts.allocations;
      const Operand current = Operand::variable(temp);
      if (level == 0) {
        outer = current;
      } else {
        Statement link = make(StatementKind::kArrayStore);
        link.base = previous;
        link.args = {Operand{}, current};  // some element: the index is unknown
        add(std::move(link));
      }
      previous = current;
      level_type = level_type.element();
    }
    push(frame, Kind::kRef, outer);
  }

  void branch(Frame& frame, const Instruction& ins, std::initializer_list<Kind> operands) {
    std::array<Operand, 2> args;
    const std::size_t count = operands.size();
    for (std::size_t i = count; i-- > 0;) args[i] = pop(frame, *(operands.begin() + i)).op;
    flow(cfg_.blocks[block_], frame);
    Statement s = make(StatementKind::kIf);
    s.args.assign(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(count));
    s.payload = ins.target;
    emit_statement(std::move(s));
  }

  void switch_(Frame& frame, const Instruction& ins) {
    const Operand key = pop(frame, Kind::kInt).op;
    flow(cfg_.blocks[block_], frame);
    if (!emit_) return;
    Statement s = make(StatementKind::kSwitch);
    s.args = {key};
    SwitchTable table;
    table.default_target = ins.target;
    for (const SwitchCase& c : ins.cases) {
      table.keys.push_back(c.key);
      table.targets.push_back(c.target);
    }
    s.payload = static_cast<std::uint32_t>(ir_.switches.size());
    ir_.switches.push_back(std::move(table));
    add(std::move(s));
  }

  void jsr(Frame& frame, const Instruction& ins) {
    const Block& block = cfg_.blocks[block_];
    const auto sub = static_cast<std::uint32_t>(block.subroutine);
    const std::uint32_t entry = cfg_.subroutines[sub].entry;
    if (!emit_) {
      jsr_frames_[block_] = frame;
      push(frame, StackValue{Kind::kRetAddr, sub, Operand{}});
      merge_into(entry, frame.stack, frame.locals);
      for (const std::uint32_t r : rets_of_[sub]) enqueue(r);
      return;
    }
    copy_stack_to(entry, frame.stack);
    Statement s = make(StatementKind::kJsr);
    s.dst = entry_var(entry, frame.stack.size());
    s.payload = ins.target;
    add(std::move(s));
  }

  void ret(Frame& frame, const Instruction& ins) {
    check_slot(ins.local, false);
    const LocalValue local = frame.locals[ins.local];
    if (local.kind != Kind::kRetAddr) {
      fail("local variable " + std::to_string(ins.local) + " holds " +
           std::string(kind_name(local.kind)) + ", not a returnAddress");
    }
    const Subroutine& sub = cfg_.subroutines[local.sub];
    if (!emit_) {
      auto& rets = rets_of_[local.sub];
      if (std::find(rets.begin(), rets.end(), block_) == rets.end()) rets.push_back(block_);
      for (const std::uint32_t j : sub.jsr_blocks) {
        if (!jsr_frames_[j]) continue;  // that jsr has not been reached yet
        const std::uint32_t p = cfg_.blocks[j].return_point;
        if (p == kNoBlock) fail("returns to a jsr at the end of the code");
        // The slots the subroutine never stores to keep what they held at the jsr.
        std::vector<LocalValue> locals = jsr_frames_[j]->locals;
        for (std::size_t k = 0; k < locals.size(); ++k) {
          if (sub.modified.test(k)) locals[k] = frame.locals[k];
        }
        merge_into(p, frame.stack, locals);
      }
      return;
    }
    const VarId v = web_var(local.def, ins.local, Kind::kRetAddr);
    facts_[v].use_pcs.push_back(ins.pc);
    SwitchTable table;
    for (const std::uint32_t j : sub.jsr_blocks) {
      const std::uint32_t p = cfg_.blocks[j].return_point;
      if (p == kNoBlock || !reached_[p]) continue;
      copy_stack_to(p, frame.stack);
      table.targets.push_back(ins_[cfg_.blocks[p].first].pc);
    }
    Statement s = make(StatementKind::kRet);
    s.args = {Operand::variable(v)};
    s.payload = static_cast<std::uint32_t>(ir_.switches.size());
    ir_.switches.push_back(std::move(table));
    add(std::move(s));
  }

  void return_(Frame& frame, Kind kind) {
    const JavaType& result = ir_.signature.return_type;
    const Kind expected = result.is_void() ? Kind::kTop : kind_of(result);
    if (expected != kind) {
      fail("returns " + std::string(kind == Kind::kTop ? "void" : kind_name(kind)) +
           " from a method returning " + result.to_java());
    }
    Statement s = make(StatementKind::kReturn);
    if (kind != Kind::kTop) s.args = {pop(frame, kind).op};
    emit_statement(std::move(s));
  }

  void unary_ref(Frame& frame, StatementKind kind) {
    Statement s = make(kind);
    s.args = {pop(frame, Kind::kRef).op};
    emit_statement(std::move(s));
  }

  // dup, dup_x1, ..., swap (JVMS 6.5): the forms depend on the categories of the values.
  void stack_op(Frame& frame, Opcode opcode) {
    const auto cat = [](const StackValue& v) { return is_wide(v.kind) ? 2 : 1; };
    switch (opcode) {
      case Opcode::kPop:
        pop_category(frame, 1);
        return;
      case Opcode::kPop2: {
        const StackValue v1 = pop_any(frame);
        if (cat(v1) == 1) pop_category(frame, 1);
        return;
      }
      case Opcode::kDup: {
        const StackValue v1 = pop_category(frame, 1);
        push(frame, v1);
        push(frame, v1);
        return;
      }
      case Opcode::kDupX1: {
        const StackValue v1 = pop_category(frame, 1);
        const StackValue v2 = pop_category(frame, 1);
        push(frame, v1);
        push(frame, v2);
        push(frame, v1);
        return;
      }
      case Opcode::kDupX2: {
        const StackValue v1 = pop_category(frame, 1);
        const StackValue v2 = pop_any(frame);
        if (cat(v2) == 2) {
          push(frame, v1);
          push(frame, v2);
          push(frame, v1);
        } else {
          const StackValue v3 = pop_category(frame, 1);
          push(frame, v1);
          push(frame, v3);
          push(frame, v2);
          push(frame, v1);
        }
        return;
      }
      case Opcode::kDup2: {
        const StackValue v1 = pop_any(frame);
        if (cat(v1) == 2) {
          push(frame, v1);
          push(frame, v1);
        } else {
          const StackValue v2 = pop_category(frame, 1);
          push(frame, v2);
          push(frame, v1);
          push(frame, v2);
          push(frame, v1);
        }
        return;
      }
      case Opcode::kDup2X1: {
        const StackValue v1 = pop_any(frame);
        if (cat(v1) == 2) {
          const StackValue v2 = pop_category(frame, 1);
          push(frame, v1);
          push(frame, v2);
          push(frame, v1);
        } else {
          const StackValue v2 = pop_category(frame, 1);
          const StackValue v3 = pop_category(frame, 1);
          push(frame, v2);
          push(frame, v1);
          push(frame, v3);
          push(frame, v2);
          push(frame, v1);
        }
        return;
      }
      case Opcode::kDup2X2: {
        const StackValue v1 = pop_any(frame);
        if (cat(v1) == 2) {
          const StackValue v2 = pop_any(frame);
          if (cat(v2) == 2) {  // form 4
            push(frame, v1);
            push(frame, v2);
            push(frame, v1);
          } else {  // form 2
            const StackValue v3 = pop_category(frame, 1);
            push(frame, v1);
            push(frame, v3);
            push(frame, v2);
            push(frame, v1);
          }
        } else {
          const StackValue v2 = pop_category(frame, 1);
          const StackValue v3 = pop_any(frame);
          if (cat(v3) == 2) {  // form 3
            push(frame, v2);
            push(frame, v1);
            push(frame, v3);
            push(frame, v2);
            push(frame, v1);
          } else {  // form 1
            const StackValue v4 = pop_category(frame, 1);
            push(frame, v2);
            push(frame, v1);
            push(frame, v4);
            push(frame, v3);
            push(frame, v2);
            push(frame, v1);
          }
        }
        return;
      }
      default: {  // swap
        const StackValue v1 = pop_category(frame, 1);
        const StackValue v2 = pop_category(frame, 1);
        push(frame, v1);
        push(frame, v2);
        return;
      }
    }
  }

  static BaseKind newarray_element(std::int32_t atype) {
    switch (atype) {  // JVMS table 6.5.newarray-A
      case 4:
        return BaseKind::kBoolean;
      case 5:
        return BaseKind::kChar;
      case 6:
        return BaseKind::kFloat;
      case 7:
        return BaseKind::kDouble;
      case 8:
        return BaseKind::kByte;
      case 9:
        return BaseKind::kShort;
      case 10:
        return BaseKind::kInt;
      default:
        return BaseKind::kLong;
    }
  }

  void execute(const Instruction& ins, Frame& frame) {
    using O = Opcode;
    const O op = ins.opcode;
    const auto raw = static_cast<std::uint8_t>(op);
    switch (op) {
      case O::kNop:
        return;
      case O::kAconstNull:
        push(frame, Kind::kRef, Operand::null());
        return;
      case O::kIconstM1:
      case O::kIconst0:
      case O::kIconst1:
      case O::kIconst2:
      case O::kIconst3:
      case O::kIconst4:
      case O::kIconst5:
      case O::kBipush:
      case O::kSipush:
        push(frame, Kind::kInt, Operand::int_constant(ins.immediate));
        return;
      case O::kLconst0:
      case O::kLconst1:
        push(frame, Kind::kLong, Operand::long_constant(ins.immediate));
        return;
      case O::kFconst0:
      case O::kFconst1:
      case O::kFconst2:
        push(frame, Kind::kFloat, Operand::float_constant(static_cast<float>(ins.immediate)));
        return;
      case O::kDconst0:
      case O::kDconst1:
        push(frame, Kind::kDouble, Operand::double_constant(ins.immediate));
        return;
      case O::kLdc:
      case O::kLdcW:
      case O::kLdc2W:
        constant(frame, ins);
        return;
      case O::kIload:
      case O::kIload0:
      case O::kIload1:
      case O::kIload2:
      case O::kIload3:
        load(frame, ins.local, Kind::kInt);
        return;
      case O::kLload:
      case O::kLload0:
      case O::kLload1:
      case O::kLload2:
      case O::kLload3:
        load(frame, ins.local, Kind::kLong);
        return;
      case O::kFload:
      case O::kFload0:
      case O::kFload1:
      case O::kFload2:
      case O::kFload3:
        load(frame, ins.local, Kind::kFloat);
        return;
      case O::kDload:
      case O::kDload0:
      case O::kDload1:
      case O::kDload2:
      case O::kDload3:
        load(frame, ins.local, Kind::kDouble);
        return;
      case O::kAload:
      case O::kAload0:
      case O::kAload1:
      case O::kAload2:
      case O::kAload3:
        load(frame, ins.local, Kind::kRef);
        return;
      case O::kIaload:
        array_load(frame, Kind::kInt, BaseKind::kInt);
        return;
      case O::kLaload:
        array_load(frame, Kind::kLong, BaseKind::kLong);
        return;
      case O::kFaload:
        array_load(frame, Kind::kFloat, BaseKind::kFloat);
        return;
      case O::kDaload:
        array_load(frame, Kind::kDouble, BaseKind::kDouble);
        return;
      case O::kAaload:
        array_load(frame, Kind::kRef, BaseKind::kReference);
        return;
      case O::kBaload:
        array_load(frame, Kind::kInt, BaseKind::kByte);
        return;
      case O::kCaload:
        array_load(frame, Kind::kInt, BaseKind::kChar);
        return;
      case O::kSaload:
        array_load(frame, Kind::kInt, BaseKind::kShort);
        return;
      case O::kIstore:
      case O::kIstore0:
      case O::kIstore1:
      case O::kIstore2:
      case O::kIstore3:
        store(frame, ins.local, Kind::kInt);
        return;
      case O::kLstore:
      case O::kLstore0:
      case O::kLstore1:
      case O::kLstore2:
      case O::kLstore3:
        store(frame, ins.local, Kind::kLong);
        return;
      case O::kFstore:
      case O::kFstore0:
      case O::kFstore1:
      case O::kFstore2:
      case O::kFstore3:
        store(frame, ins.local, Kind::kFloat);
        return;
      case O::kDstore:
      case O::kDstore0:
      case O::kDstore1:
      case O::kDstore2:
      case O::kDstore3:
        store(frame, ins.local, Kind::kDouble);
        return;
      case O::kAstore:
      case O::kAstore0:
      case O::kAstore1:
      case O::kAstore2:
      case O::kAstore3:
        store(frame, ins.local, Kind::kRef);
        return;
      case O::kIastore:
      case O::kBastore:
      case O::kCastore:
      case O::kSastore:
        array_store(frame, Kind::kInt);
        return;
      case O::kLastore:
        array_store(frame, Kind::kLong);
        return;
      case O::kFastore:
        array_store(frame, Kind::kFloat);
        return;
      case O::kDastore:
        array_store(frame, Kind::kDouble);
        return;
      case O::kAastore:
        array_store(frame, Kind::kRef);
        return;
      case O::kPop:
      case O::kPop2:
      case O::kDup:
      case O::kDupX1:
      case O::kDupX2:
      case O::kDup2:
      case O::kDup2X1:
      case O::kDup2X2:
      case O::kSwap:
        stack_op(frame, op);
        return;
      case O::kIinc:
        iinc(frame, ins);
        return;
      case O::kLcmp:
        primitive(frame, {Kind::kLong, Kind::kLong}, Kind::kInt, primitive_type(Kind::kInt));
        return;
      case O::kFcmpl:
      case O::kFcmpg:
        primitive(frame, {Kind::kFloat, Kind::kFloat}, Kind::kInt, primitive_type(Kind::kInt));
        return;
      case O::kDcmpl:
      case O::kDcmpg:
        primitive(frame, {Kind::kDouble, Kind::kDouble}, Kind::kInt, primitive_type(Kind::kInt));
        return;
      case O::kIfeq:
      case O::kIfne:
      case O::kIflt:
      case O::kIfge:
      case O::kIfgt:
      case O::kIfle:
        branch(frame, ins, {Kind::kInt});
        return;
      case O::kIfIcmpeq:
      case O::kIfIcmpne:
      case O::kIfIcmplt:
      case O::kIfIcmpge:
      case O::kIfIcmpgt:
      case O::kIfIcmple:
        branch(frame, ins, {Kind::kInt, Kind::kInt});
        return;
      case O::kIfAcmpeq:
      case O::kIfAcmpne:
        branch(frame, ins, {Kind::kRef, Kind::kRef});
        return;
      case O::kIfnull:
      case O::kIfnonnull:
        branch(frame, ins, {Kind::kRef});
        return;
      case O::kGoto:
      case O::kGotoW: {
        flow(cfg_.blocks[block_], frame);
        Statement s = make(StatementKind::kGoto);
        s.payload = ins.target;
        emit_statement(std::move(s));
        return;
      }
      case O::kJsr:
      case O::kJsrW:
        jsr(frame, ins);
        return;
      case O::kRet:
        ret(frame, ins);
        return;
      case O::kTableswitch:
      case O::kLookupswitch:
        switch_(frame, ins);
        return;
      case O::kIreturn:
        return_(frame, Kind::kInt);
        return;
      case O::kLreturn:
        return_(frame, Kind::kLong);
        return;
      case O::kFreturn:
        return_(frame, Kind::kFloat);
        return;
      case O::kDreturn:
        return_(frame, Kind::kDouble);
        return;
      case O::kAreturn:
        return_(frame, Kind::kRef);
        return;
      case O::kReturn:
        return_(frame, Kind::kTop);
        return;
      case O::kGetstatic:
      case O::kPutstatic:
      case O::kGetfield:
      case O::kPutfield:
        field(frame, ins);
        return;
      case O::kInvokevirtual:
      case O::kInvokespecial:
      case O::kInvokestatic:
      case O::kInvokeinterface:
        invoke(frame, ins);
        return;
      case O::kInvokedynamic:
        invokedynamic(frame, ins);
        return;
      case O::kNew: {
        const JavaType type = class_operand(ins.constant);
        if (type.is_array()) fail("creates an instance of array class " + type.to_java());
        Statement s = make(StatementKind::kNew);
        s.payload = type_index(type);
        if (emit_) ++ir_.counts.allocations;
        produce(frame, Kind::kRef, type, std::move(s));
        return;
      }
      case O::kNewarray:
        allocate_array(frame,
                       JavaType::array_of(JavaType::primitive(newarray_element(ins.immediate))), 0);
        return;
      case O::kAnewarray: {
        const JavaType element = class_operand(ins.constant);
        if (element.dims >= 255) fail("creates an array of more than 255 dimensions");
        allocate_array(frame, JavaType::array_of(element), 0);
        return;
      }
      case O::kArraylength:
        primitive(frame, {Kind::kRef}, Kind::kInt, primitive_type(Kind::kInt));
        return;
      case O::kAthrow:
        unary_ref(frame, StatementKind::kThrow);
        return;
      case O::kCheckcast: {
        const JavaType type = class_operand(ins.constant);
        Statement s = make(StatementKind::kCast);
        s.payload = type_index(type);
        s.args = {pop(frame, Kind::kRef).op};
        produce(frame, Kind::kRef, type, std::move(s));
        return;
      }
      case O::kInstanceof: {
        const JavaType type = class_operand(ins.constant);
        Statement s = make(StatementKind::kInstanceOf);
        s.payload = type_index(type);
        s.args = {pop(frame, Kind::kRef).op};
        produce(frame, Kind::kInt, JavaType::primitive(BaseKind::kBoolean), std::move(s));
        return;
      }
      case O::kMonitorenter:
        unary_ref(frame, StatementKind::kMonitorEnter);
        return;
      case O::kMonitorexit:
        unary_ref(frame, StatementKind::kMonitorExit);
        return;
      case O::kMultianewarray:
        multianewarray(frame, ins);
        return;
      default:
        break;
    }
    // Arithmetic and conversions, by opcode ranges of JVMS chapter 7.
    static constexpr std::array<Kind, 4> kTyped = {Kind::kInt, Kind::kLong, Kind::kFloat,
                                                   Kind::kDouble};
    if (raw >= 0x60 && raw <= 0x73) {  // add, sub, mul, div, rem
      binary(frame, kTyped[(raw - 0x60) % 4]);
    } else if (raw >= 0x74 && raw <= 0x77) {  // neg
      const Kind k = kTyped[raw - 0x74];
      primitive(frame, {k}, k, primitive_type(k));
    } else if (raw >= 0x78 && raw <= 0x7d) {  // shifts: the amount is an int
      const Kind k = (raw % 2 == 0) ? Kind::kInt : Kind::kLong;
      primitive(frame, {k, Kind::kInt}, k, primitive_type(k));
    } else if (raw >= 0x7e && raw <= 0x83) {  // and, or, xor
      binary(frame, (raw % 2 == 0) ? Kind::kInt : Kind::kLong);
    } else if (raw >= 0x85 && raw <= 0x90) {  // i2l .. d2f
      static constexpr std::array<std::pair<Kind, Kind>, 12> kConversions = {{
          {Kind::kInt, Kind::kLong},
          {Kind::kInt, Kind::kFloat},
          {Kind::kInt, Kind::kDouble},
          {Kind::kLong, Kind::kInt},
          {Kind::kLong, Kind::kFloat},
          {Kind::kLong, Kind::kDouble},
          {Kind::kFloat, Kind::kInt},
          {Kind::kFloat, Kind::kLong},
          {Kind::kFloat, Kind::kDouble},
          {Kind::kDouble, Kind::kInt},
          {Kind::kDouble, Kind::kLong},
          {Kind::kDouble, Kind::kFloat},
      }};
      const auto [from, to] = kConversions[raw - 0x85];
      primitive(frame, {from}, to, primitive_type(to));
    } else if (raw >= 0x91 && raw <= 0x93) {  // i2b, i2c, i2s
      static constexpr std::array<BaseKind, 3> kNarrow = {BaseKind::kByte, BaseKind::kChar,
                                                          BaseKind::kShort};
      primitive(frame, {Kind::kInt}, Kind::kInt, JavaType::primitive(kNarrow[raw - 0x91]));
    } else {
      fail("is not translated");  // every valid opcode is handled above
    }
  }

  const ClassFile& cls_;
  const ConstantPool& pool_;
  const MethodInfo& method_;
  const Code& code_;
  const std::vector<Instruction>& ins_;
  const DecodedCode& decoded_;
  MethodContext context_;
  Cfg cfg_;
  std::vector<std::uint32_t> lines_;
  MethodIr ir_;

  // First pass.
  std::vector<Frame> entry_;
  std::vector<bool> reached_;
  std::vector<bool> caught_;       // entered by an exception edge: starts with a kCatch statement
  std::set<std::uint32_t> queue_;  // blocks to (re)visit, lowest pc first
  std::vector<std::optional<Frame>> jsr_frames_;     // jsr block -> its frame before the jsr
  std::vector<std::vector<std::uint32_t>> rets_of_;  // subroutine -> blocks ending in its ret
  std::uint32_t param_defs_ = 0;  // definitions 0 .. param_defs_-1 are `this` and parameters;
                                  // the one of instruction i is param_defs_ + i
  UnionFind webs_{0};
  std::vector<bool> normal_pred_;
  std::vector<std::uint32_t> inherit_from_;      // block -> its only predecessor, if inheriting
  std::vector<std::vector<Operand>> inherited_;  // block -> the stack operands it inherits

  // Both passes.
  bool emit_ = false;
  std::uint32_t block_ = 0;
  std::uint32_t current_ = 0;  // instruction index
  bool locals_changed_ = false;

  // Second pass.
  std::size_t block_start_ = 0;  // first statement of the block being emitted
  std::vector<VarId> web_vars_;  // web root -> variable
  std::map<std::pair<std::uint32_t, std::size_t>, VarId> entry_vars_;
  std::vector<VariableFacts> facts_;
  std::vector<bool> pinned_;                // locals and entry variables: never renamed away
  std::vector<std::size_t> def_statement_;  // temporaries: their defining statement
  std::vector<std::pair<std::uint32_t, std::size_t>> catch_statements_;  // handler pc, statement
  std::unordered_map<std::uint32_t, std::vector<std::size_t>> entries_by_handler_;
  std::unordered_map<std::uint16_t, std::uint32_t> field_indices_;
  std::unordered_map<std::uint16_t, std::uint32_t> method_indices_;
  std::unordered_map<std::string, std::uint32_t> type_indices_;
};

}  // namespace

MethodIr build_method_ir(const ClassFile& cls, const MethodInfo& method) {
  if (!method.code) {
    static const DecodedCode empty({}, {});
    return Translator(cls, method, empty).run_without_body();
  }
  const DecodedCode decoded = decode_code(cls, method);
  return Translator(cls, method, decoded).run();
}

MethodIr build_method_ir(const ClassFile& cls, const MethodInfo& method, const DecodedCode& code) {
  if (!method.code) return build_method_ir(cls, method);
  return Translator(cls, method, code).run();
}

}  // namespace refract::frontend
