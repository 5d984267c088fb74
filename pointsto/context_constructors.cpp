#include "pointsto/context_constructors.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "bdd/bit_block.hpp"
#include "relations/tuple_io.hpp"
#include "support/error.hpp"

namespace refract::pointsto {

namespace {

using bdd::Bdd;
using bdd::BitBlock;

// The blocks of a relation's attributes, checked against the expected domains.
std::vector<BitBlock> attribute_blocks(const rel::Relation& r,
                                       const std::vector<std::string>& domains) {
  const rel::DomainSpace& space = r.space();
  bool matches = r.arity() == domains.size();
  for (std::size_t a = 0; matches && a < domains.size(); ++a) {
    matches = space.domain(r.attributes()[a].domain).name == domains[a];
  }
  if (!matches) {
    std::string expected;
    for (const std::string& d : domains) expected += (expected.empty() ? "" : ", ") + d;
    throw InputError({r.name()}, "a context constructor must have attributes of domains (" +
                                     expected + ") in that order");
  }
  std::vector<BitBlock> blocks;
  for (const rel::Attribute& a : r.attributes()) blocks.push_back(space.physical(a.physical).block);
  return blocks;
}

// Field `f` of a context block: its presence bit, then the element's bits.
BitBlock field(const BitBlock& context, unsigned field_bits, unsigned f) {
  const auto begin = context.vars.begin() + static_cast<std::ptrdiff_t>(f * field_bits);
  return BitBlock{{begin, begin + field_bits}};
}

BitBlock value_bits(const BitBlock& field) {
  return BitBlock{{field.vars.begin() + 1, field.vars.end()}};
}

Bdd present(const BitBlock& field) {
  return Bdd::variable(field.vars.front());
}

// Field `f` of `context` holds the element in `element`.
Bdd field_holds(const BitBlock& context, unsigned field_bits, unsigned f, const BitBlock& element) {
  const BitBlock target = field(context, field_bits, f);
  return present(target) & bdd::equal_blocks(value_bits(target), element);
}

// Fields [from, end) of `to` copy fields [0, ...) of `source` while `source` has fields;
// the rest of `to` is empty.
Bdd shifted_copy(const BitBlock& to, unsigned to_fields, unsigned from, const BitBlock& source,
                 unsigned source_fields, unsigned field_bits) {
  Bdd out = Bdd::one();
  for (unsigned f = from; f < to_fields; ++f) {
    const BitBlock target = field(to, field_bits, f);
    const unsigned s = f - from;
    out &= s < source_fields ? bdd::equal_blocks(target, field(source, field_bits, s))
                             : target.equals_constant(0);
  }
  return out;
}

// The union of `parts`, joined pairwise so that it costs O(n log n) operations, not O(n^2).
Bdd union_pairwise(std::vector<Bdd> parts) {
  if (parts.empty()) return Bdd::zero();
  for (std::size_t width = 1; width < parts.size(); width *= 2) {
    for (std::size_t i = 0; i + width < parts.size(); i += 2 * width) {
      parts[i] = parts[i] | parts[i + width];
    }
  }
  return parts[0];
}

// Cloning (Whaley-Lam): the union over numbered call edges of
//   invoke = i, method = m, ctx < caller contexts, calleeCtx = ctx + offset (or = ctx on a cycle).
Bdd numbered_edges(const CloningNumbering& numbering, const BitBlock& invoke,
                   const BitBlock& method, const BitBlock& ctx, const BitBlock& callee) {
  std::vector<Bdd> parts;
  for (const NumberedEdge& e : numbering.edges) {
    const Bdd step = e.within_component ? bdd::equal_blocks(callee, ctx)
                                        : bdd::sum_with_constant(ctx, callee, e.offset);
    parts.push_back(invoke.equals_constant(e.invoke) & method.equals_constant(e.callee) &
                    ctx.in_range(0, e.caller_contexts - 1) & step);
  }
  return union_pairwise(std::move(parts));
}

// The heaps in `heaps`, over the first attribute of `r` (domain H).
Bdd heap_set(const rel::Relation& r, const std::vector<std::uint64_t>& heaps) {
  const rel::Attribute& heap = r.attributes()[0];
  rel::Relation set(r.space(), "HeapSet", {{"heap", heap.domain, heap.physical}});
  std::vector<std::vector<std::uint64_t>> tuples;
  for (const std::uint64_t h : heaps) tuples.push_back({h});
  return rel::bdd_from_tuples(set, std::move(tuples));
}

// The (heap, class) pairs with the class written into the first field of `callee`, built one
// class at a time. Built as a product of the pairs over a T instance with the field's equality
// to it, it took 182 s for checkstyle with its libraries (antlr: 4 s): T lies apart from the
// field in K-type's order, so that equality alone has 2^bits nodes.
Bdd class_in_first_field(const rel::Relation& r,
                         const std::vector<std::pair<std::uint64_t, std::uint64_t>>& heap_classes,
                         const BitBlock& callee, unsigned field_bits) {
  std::map<std::uint64_t, std::vector<std::uint64_t>> heaps_of_class;
  for (const auto& [h, t] : heap_classes) heaps_of_class[t].push_back(h);
  const BitBlock first = field(callee, field_bits, 0);
  const BitBlock value = value_bits(first);
  std::vector<Bdd> parts;
  for (const auto& [t, heaps] : heaps_of_class)
    parts.push_back(heap_set(r, heaps) & value.equals_constant(t));
  return present(first) & union_pairwise(std::move(parts));
}

}  // namespace

void ContextConstructors::build_record(rel::Relation& r) const {
  const auto blocks = attribute_blocks(r, {"H", "C", "HC"});
  const BitBlock& ctx = blocks[1];
  const BitBlock& hctx = blocks[2];
  if (flavour.heap_depth == 0) {
    // Insensitive: the one context; cloning and flavours without heap contexts: any context.
    const bool one_context = flavour.kind == ContextKind::kInsensitive;
    r.set_bdd(hctx.equals_constant(0) & (one_context ? ctx.equals_constant(0) : Bdd::one()));
    return;
  }
  // The heap context is the allocating context cut to the heap depth, except for the objects
  // that have none.
  const Bdd from_context =
      shifted_copy(hctx, flavour.heap_depth, 0, ctx, flavour.depth, layout.field_bits);
  const Bdd free = heap_set(r, context_free_heaps);
  const Bdd elements = heap_elements == 0 ? Bdd::one() : blocks[0].in_range(0, heap_elements - 1);
  r.set_bdd((from_context & elements & !free) | (free & hctx.equals_constant(0)));
}

void ContextConstructors::build_merge(rel::Relation& r) const {
  const auto blocks = attribute_blocks(r, {"H", "HC", "I", "M", "C", "C"});
  const BitBlock& heap = blocks[0];
  const BitBlock& hctx = blocks[1];
  const BitBlock& invoke = blocks[2];
  const BitBlock& method = blocks[3];
  const BitBlock& ctx = blocks[4];
  const BitBlock& callee = blocks[5];
  const unsigned k = flavour.depth;
  const unsigned bits = layout.field_bits;
  switch (flavour.kind) {
    case ContextKind::kInsensitive:
      r.set_bdd(ctx.equals_constant(0) & callee.equals_constant(0) & hctx.equals_constant(0));
      return;
    case ContextKind::kCall:
      // The call site, then the caller's context shifted by one.
      r.set_bdd(field_holds(callee, bits, 0, invoke) & shifted_copy(callee, k, 1, ctx, k, bits));
      return;
    case ContextKind::kObject:
      // The receiver object, then its heap context.
      r.set_bdd(field_holds(callee, bits, 0, heap) &
                shifted_copy(callee, k, 1, hctx, flavour.heap_depth, bits));
      return;
    case ContextKind::kType: {
      // The class that allocated the receiver, then the receiver's heap context.
      const rel::DomainSpace& space = r.space();
      const auto t_domain = space.find_domain("T");
      const auto t_instance = t_domain ? space.find_physical(*t_domain, 0) : std::nullopt;
      if (!t_instance) throw InputError({r.name()}, "K-type contexts need the domain T");
      r.set_bdd(class_in_first_field(r, heap_classes, callee, bits) &
                shifted_copy(callee, k, 1, hctx, flavour.heap_depth, bits));
      return;
    }
    case ContextKind::kCloning:
      // The receiver plays no part: the context is the call path.
      r.set_bdd(hctx.equals_constant(0) & numbered_edges(cloning, invoke, method, ctx, callee));
      return;
  }
  throw InputError({r.name()}, "flavour " + flavour.name + " has no Merge constructor");
}

void ContextConstructors::build_merge_static(rel::Relation& r) const {
  const auto blocks = attribute_blocks(r, {"I", "M", "C", "C"});
  const BitBlock& invoke = blocks[0];
  const BitBlock& method = blocks[1];
  const BitBlock& ctx = blocks[2];
  const BitBlock& callee = blocks[3];
  const unsigned k = flavour.depth;
  switch (flavour.kind) {
    case ContextKind::kInsensitive:
      r.set_bdd(ctx.equals_constant(0) & callee.equals_constant(0));
      return;
    case ContextKind::kCall:
      r.set_bdd(field_holds(callee, layout.field_bits, 0, invoke) &
                shifted_copy(callee, k, 1, ctx, k, layout.field_bits));
      return;
    case ContextKind::kObject:
    case ContextKind::kType:
      // A static call has no receiver: the callee runs in its caller's context.
      r.set_bdd(bdd::equal_blocks(callee, ctx));
      return;
    case ContextKind::kCloning:
      r.set_bdd(numbered_edges(cloning, invoke, method, ctx, callee));
      return;
  }
  throw InputError({r.name()}, "flavour " + flavour.name + " has no MergeStatic constructor");
}

void ContextConstructors::build_method_contexts(rel::Relation& r) const {
  const auto blocks = attribute_blocks(r, {"M", "C"});
  if (flavour.kind != ContextKind::kCloning) {
    r.set_bdd(Bdd::zero());
    return;
  }
  // [Cloning's contexts at once] each method's range [0, paths).
  std::vector<Bdd> parts;
  for (const auto& [method, contexts] : cloning.acyclic_method_contexts)
    parts.push_back(blocks[0].equals_constant(method) & blocks[1].in_range(0, contexts - 1));
  r.set_bdd(union_pairwise(std::move(parts)));
}

void ContextConstructors::build_numbered_call_edges(rel::Relation& r) const {
  const auto blocks = attribute_blocks(r, {"I", "M", "C", "C"});
  if (flavour.kind != ContextKind::kCloning) {
    r.set_bdd(Bdd::zero());
    return;
  }
  r.set_bdd(numbered_edges(cloning, blocks[0], blocks[1], blocks[2], blocks[3]));
}

}  // namespace refract::pointsto
