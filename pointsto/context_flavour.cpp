#include "pointsto/context_flavour.hpp"

#include <charconv>
#include <optional>
#include <string_view>

#include "support/bit_width.hpp"
#include "support/error.hpp"

namespace refract::pointsto {

namespace {

constexpr unsigned kMaxDepth = 4;
constexpr unsigned kMaxContextBits = 62;

[[noreturn]] void bad_flavour(const std::string& option, const std::string& text,
                              const std::string& why) {
  throw InputError({option}, "unknown context flavour \"" + text + "\": " + why +
                                 " (expected insens, K-call, K-obj or K-type with K = 1.." +
                                 std::to_string(kMaxDepth) + ", optionally +H or +JH, or cloning)");
}

// A number 1..max at the start of `text`; sets `rest` to what follows.
std::optional<unsigned> leading_number(std::string_view text, std::string_view& rest) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  rest = text.substr(static_cast<std::size_t>(end - text.data()));
  return value;
}

}  // namespace

ContextFlavour parse_context_flavour(const std::string& text, const std::string& option) {
  ContextFlavour flavour;
  flavour.name = text;
  if (text == "insens") return flavour;
  if (text == "cloning") {
    flavour.kind = ContextKind::kCloning;
    return flavour;
  }
  std::string_view rest;
  const std::optional<unsigned> depth = leading_number(text, rest);
  if (!depth) bad_flavour(option, text, "no depth");
  if (*depth < 1 || *depth > kMaxDepth) {
    bad_flavour(option, text,
                "depth " + std::to_string(*depth) + " is outside 1.." + std::to_string(kMaxDepth));
  }
  flavour.depth = *depth;
  const std::size_t plus = rest.find('+');
  const std::string_view kind = rest.substr(0, plus);
  if (kind == "-call") {
    flavour.kind = ContextKind::kCall;
  } else if (kind == "-obj") {
    flavour.kind = ContextKind::kObject;
  } else if (kind == "-type") {
    flavour.kind = ContextKind::kType;
  } else {
    bad_flavour(option, text, "unknown kind \"" + std::string(kind) + "\"");
  }
  if (plus == std::string_view::npos) return flavour;
  std::string_view heap = rest.substr(plus + 1);
  if (heap == "H") {
    flavour.heap_depth = flavour.depth - 1;
    if (flavour.heap_depth == 0) bad_flavour(option, text, "+H needs K >= 2 (use +1H)");
    return flavour;
  }
  std::string_view after;
  const std::optional<unsigned> heap_depth = leading_number(heap, after);
  if (!heap_depth || after != "H") bad_flavour(option, text, "heap context must be +H or +JH");
  if (*heap_depth < 1 || *heap_depth > flavour.depth) {
    bad_flavour(option, text,
                "heap context depth " + std::to_string(*heap_depth) + " is outside 1.." +
                    std::to_string(flavour.depth));
  }
  flavour.heap_depth = *heap_depth;
  return flavour;
}

std::optional<std::string> context_element_domain(const ContextFlavour& flavour) {
  switch (flavour.kind) {
    case ContextKind::kCall:
      return "I";
    case ContextKind::kObject:
      return "H";
    case ContextKind::kType:
      return "T";
    case ContextKind::kInsensitive:
    case ContextKind::kCloning:
      break;
  }
  return std::nullopt;
}

ContextLayout context_layout(const ContextFlavour& flavour, std::uint64_t element_count,
                             const std::string& option) {
  ContextLayout layout;
  if (flavour.depth == 0) return layout;
  layout.field_bits = 1 + bits_for_size(element_count);
  const unsigned context_bits = flavour.depth * layout.field_bits;
  if (context_bits > kMaxContextBits) {
    throw InputError({option}, flavour.name + " needs " + std::to_string(context_bits) +
                                   " bits per context (" + std::to_string(flavour.depth) +
                                   " fields of " + std::to_string(layout.field_bits) +
                                   "), more than the " + std::to_string(kMaxContextBits) +
                                   " refract encodes");
  }
  layout.context_size = std::uint64_t{1} << context_bits;
  if (flavour.heap_depth > 0) {
    layout.heap_context_size = std::uint64_t{1} << (flavour.heap_depth * layout.field_bits);
  }
  return layout;
}

ContextBits parse_context_bits(const std::string& text, const std::string& option) {
  if (text == "consecutive") return ContextBits::kConsecutive;
  if (text == "interleaved") return ContextBits::kInterleaved;
  throw InputError({option}, "unknown " + option + " value '" + text +
                                 "' (expected consecutive or interleaved)");
}

std::string to_string(ContextBits bits) {
  return bits == ContextBits::kInterleaved ? "interleaved" : "consecutive";
}

std::map<std::string, unsigned> context_lanes(const ContextFlavour& flavour, ContextBits bits) {
  std::map<std::string, unsigned> lanes;
  if (bits != ContextBits::kInterleaved) return lanes;
  if (flavour.depth > 1) lanes["C"] = flavour.depth;
  if (flavour.heap_depth > 1) lanes["HC"] = flavour.heap_depth;
  return lanes;
}

ContextBits default_context_bits(const ContextFlavour& flavour) {
  const unsigned shifted_fields =
      flavour.kind == ContextKind::kCall ? flavour.depth - 1 : flavour.heap_depth;
  return shifted_fields >= 2 ? ContextBits::kInterleaved : ContextBits::kConsecutive;
}

std::string default_order(const ContextFlavour& flavour) {
  switch (flavour.kind) {
    case ContextKind::kInsensitive:
      // Found by refract order-search on antlr and hsqldb, kept where full runs of antlr,
      // hsqldb and xalan produced 0.79-0.81x the nodes of the order before
      // (Z0_I0_M0xM1_C0xC1_V0xV1_F0_HC0xHC1_H0xH1_T0xT1): M above I, T above H, H0 and H1
      // apart (bench/README.md, "refract order-search").
      return "Z0_M0xM1_I0_C0xC1_V0xV1_F0_HC0xHC1_T0xT1_H0_H1";
    case ContextKind::kCloning:
      // C below V and F: with C above V, each sweep's join of VirtualCall(i, base, r) with the
      // new VarPointsTo tuples walks their context levels once per call site (antlr: 773 of
      // 2,400 s; sweep 19 in 40 minutes, against sweep 20 in 13 with C below). C0xC1
      // interleaved keeps each numbered edge's adder linear.
      return "Z0_I0_M0xM1_V0xV1_F0_C0xC1_HC0xHC1_H0xH1_T0xT1";
    case ContextKind::kCall:
      // Without heap contexts, H apart below the call sites and contexts: interleaved with
      // them, the call-graph relations (ReceiverEdge, InstanceEdge) compressed worse than their
      // tuples; apart, antlr's 1-call produced 0.64x the nodes in 0.58x the solve time, with
      // the same call graph (bench/README.md, "1-call's order"). With heap contexts (call sites
      // too) the interleaved block stays, unmeasured.
      // 1-call, further: its callee context is the call site and nothing of the caller's, so
      // no constructor ties C0 to C1 or I. C0 below the call-site block, and T above H0, H1
      // apart (insens's finding): 0.85x the nodes again (bench/README.md, "1-call's caller
      // context apart").
      if (flavour.heap_depth == 0 && flavour.depth == 1)
        return "Z0_M0xM1_V0xV1_F0_I0xC1_C0_HC0xHC1_T0xT1_H0_H1";
      if (flavour.heap_depth == 0) return "Z0_M0xM1_V0xV1_F0_I0xC0xC1_HC0xHC1xH0xH1_T0xT1";
      return "Z0_M0xM1_V0xV1_F0_I0xC0xC1xHC0xHC1xH0xH1_T0xT1";
    case ContextKind::kType:
      // H apart from the context fields: a type element is the class allocating the receiver,
      // an arbitrary function of H, which interleaved with H costs about 2^bits nodes per
      // class (antlr: Merge did not finish; apart, 8 s and 342k nodes).
      return "Z0_I0_M0xM1_V0xV1_F0_H0xH1_C0xC1xHC0xHC1_T0xT1";
    case ContextKind::kObject:
      break;
  }
  // The field targets' instances HC1, H1 apart, above the context block: a load then joins
  // VarPointsTo with FieldPointsTo without quantifying bits interleaved with kept ones, and
  // its new tuples move down into VarPointsToT's block cheaply (antlr 2-obj+H, paired: the
  // same progress in 0.82x the time; pointsto/README.md, "Loads on the target's instances").
  return "Z0_I0_M0xM1_V0xV1_F0_HC1xH1_C0xC1xHC0xH0_T0xT1";
}

// Measured on antlr with the JDK 17 jmods, paired runs (bench/README.md, "Schedules,
// 2026-11-30"): cheap-first took 0.66-0.72x rule-fixpoint's time under 2-obj+H, 0.77-0.79x
// under 2-type+H, 0.95x under 1-call and 1.51x under insens, where its many small evaluations
// cost more than they save.
std::string default_schedule(const ContextFlavour& flavour) {
  return flavour.heap_depth >= 1 ? "cheap-first" : "rule-fixpoint";
}

bool seeded_first_sweep(const ContextFlavour& flavour) {
  return flavour.heap_depth >= 1;
}

}  // namespace refract::pointsto
