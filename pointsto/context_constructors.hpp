// The constructor relations a context flavour supplies to the points-to rules
// (pointsto/rules/), built as BDDs of bit equalities over the fields of C and HC rather than
// as tuples: their size does not grow with the number of contexts.
//   Record(heap : H, ctx : C, hctx : HC)            heap context of an allocation
//   Merge(heap : H, hctx : HC, invoke : I, method : M, ctx : C, calleeCtx : C)
//                                                   callee context of an instance call
//   MergeStatic(invoke : I, method : M, ctx : C, calleeCtx : C)
//                                                   callee context of a static call
//   MethodContext(method : M, ctx : C)              contexts a method has as soon as it runs
//                                                   in one (cloning only)
// Only cloning's constructors depend on the callee method (its contexts number call edges).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "pointsto/cloning_numbering.hpp"
#include "pointsto/context_flavour.hpp"
#include "relations/relation.hpp"

namespace refract::pointsto {

struct ContextConstructors {
  ContextFlavour flavour;
  ContextLayout layout;
  // K-type: (heap, type) pairs, the class declaring the method that allocates each heap object.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> heap_classes;
  // cloning: the numbered call edges of the pre-pass.
  CloningNumbering cloning;
  // H elements whose heap context is always the empty one, whatever the flavour
  // (context_free_heaps in heap_merging.hpp says which and why).
  std::vector<std::uint64_t> context_free_heaps;
  // The facts' H elements: Record holds tuples for these only, so that a run with more
  // elements (a program beyond the JDK's cached part) keeps every tuple of the part's Record,
  // whatever its new objects are (solver/seeding.hpp: an input that lost tuples is no seed).
  // 0 leaves Record over every H value.
  std::uint64_t heap_elements = 0;

  // Each sets the BDD of an empty relation declared with the attributes above (in that
  // order); InputError naming the relation if its attributes have other domains.
  void build_record(rel::Relation& r) const;
  void build_merge(rel::Relation& r) const;
  void build_merge_static(rel::Relation& r) const;
  // MethodContext(method : M, ctx : C): cloning's numbered contexts of each method on no
  // cycle through another method; empty for every other flavour.
  void build_method_contexts(rel::Relation& r) const;
  // NumberedCallEdge(invoke : I, method : M, ctx : C, calleeCtx : C): cloning's numbered edges
  // of the pre-pass's call graph, the call graph its solve follows; empty for every other
  // flavour.
  void build_numbered_call_edges(rel::Relation& r) const;
};

}  // namespace refract::pointsto
