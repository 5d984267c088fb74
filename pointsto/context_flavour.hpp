// The context flavours of `refract analyze --context`: what a context is made of (call sites,
// receiver objects, or the classes that allocated them), how deep contexts and heap contexts
// go, and how many bits each takes once laid out as fields of the C and HC domains.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace refract::pointsto {

enum class ContextKind {
  kInsensitive,  // one context
  kCall,         // the last K call sites
  kObject,       // the receiver's allocation site and its heap context (Milanova et al.)
  kType,         // the classes declaring the methods that allocated the receivers
  kCloning,      // every acyclic call path (Whaley and Lam, PLDI 2004)
};

struct ContextFlavour {
  ContextKind kind = ContextKind::kInsensitive;
  unsigned depth = 0;       // K: fields of a method context
  unsigned heap_depth = 0;  // fields of a heap context: K-1 with +H, J with +JH, else 0
  std::string name;         // as given, normalised ("2-obj+H")
};

// Parses "insens", "K-call", "K-obj", "K-type" (K = 1..4) with an optional "+H" (heap
// context depth K-1) or "+JH" (depth J, 1 <= J <= K), and "cloning". InputError on anything
// else, naming `option`.
ContextFlavour parse_context_flavour(const std::string& text, const std::string& option);

// How contexts are laid out as bits: each field is a presence bit followed by the element's
// number, so an unfilled field (all zero) differs from element 0; field 0 is the most
// recent element and the most significant bits of the domain.
struct ContextLayout {
  unsigned field_bits = 0;              // 1 + bits of the element domain
  std::uint64_t context_size = 1;       // size of domain C: 2^(K * field_bits), or 1
  std::uint64_t heap_context_size = 1;  // size of domain HC
};

// How the variable order places the fields of C and HC: each field's bits together, field 0
// on top (consecutive), or bit i of every field together (interleaved: the domains laid out in
// lanes, bdd::lay_out). Interleaved keeps the shifted copies of the constructors (field f+1
// of the callee context = field f of the caller's or the receiver's) a few nodes per bit;
// consecutive costs 2^field_bits nodes per level for each.
enum class ContextBits { kConsecutive, kInterleaved };

// "consecutive" or "interleaved"; InputError naming `option` otherwise.
ContextBits parse_context_bits(const std::string& text, const std::string& option);
std::string to_string(ContextBits bits);

// The lanes (rel::DomainSpace::set_lanes) of the domains C and HC under `bits`: each domain of
// two or more fields, by name, when interleaved; none when consecutive.
std::map<std::string, unsigned> context_lanes(const ContextFlavour& flavour, ContextBits bits);

// The layout `refract analyze` uses when --context-bits gives none: interleaved where Merge
// copies two or more fields one field down (K-call with K >= 3, heap contexts of depth >= 2),
// which consecutive fields cannot build on real programs (3-obj+2H on antlr: Merge not built
// in 8 minutes); consecutive elsewhere, where it solved faster (2-obj+H on antlr, 300 s:
// sweep 28 against 25). pointsto/README.md, "Context bits", has the measurements.
ContextBits default_context_bits(const ContextFlavour& flavour);

// The domain whose elements a context field holds: I (K-call), H (K-obj), T (K-type); none for
// insens and cloning.
std::optional<std::string> context_element_domain(const ContextFlavour& flavour);

// The layout for `flavour` given the number of elements of the domain its fields hold
// (invocation sites, heap objects or types). InputError naming `option` when a context would
// need more than 62 bits, the largest domain refract encodes.
ContextLayout context_layout(const ContextFlavour& flavour, std::uint64_t element_count,
                             const std::string& option);

// The variable order `refract analyze` uses for `flavour` when --order gives none
// (pointsto/README.md, "Variable orders", has the measurements). The constructors are bit
// equalities between context fields and the elements they hold, so C, HC and the element
// domain (H, I or T) are interleaved: kept apart, Record alone took 12.6M nodes for 3-obj+2H.
std::string default_order(const ContextFlavour& flavour);

// The schedule (solver/schedule.hpp) `refract analyze` uses for `flavour` when --schedule gives
// none: cheap-first where objects have heap contexts, rule-fixpoint elsewhere (bench/README.md,
// "Schedules").
std::string default_schedule(const ContextFlavour& flavour);

// How a run from the JDK cache evaluates the strata that took their seeds
// (solver::EngineOptions::seeded_first_sweep): a first sweep where objects have heap contexts,
// the seed's prefixes and the gains elsewhere (bench/README.md, "The JDK once from the seed's
// prefixes").
bool seeded_first_sweep(const ContextFlavour& flavour);

}  // namespace refract::pointsto
