#include "pointsto/heap_classes.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace refract::pointsto {

std::vector<std::pair<std::uint64_t, std::uint64_t>> heap_classes(
    const frontend::FactDatabase& facts, const std::vector<std::uint64_t>& context_free) {
  std::map<std::uint64_t, std::uint64_t> method_of_var;
  for (const auto& t : facts.relation("VarMethod").sorted_tuples()) method_of_var[t[0]] = t[1];
  std::map<std::uint64_t, std::uint64_t> class_of_method;
  for (const auto& t : facts.relation("MethodDeclared").sorted_tuples()) {
    class_of_method[t[0]] = t[1];
  }
  std::map<std::uint64_t, std::set<std::uint64_t>> classes_of_heap;
  for (const auto& t : facts.relation("Alloc").sorted_tuples()) {
    const auto method = method_of_var.find(t[0]);
    if (method == method_of_var.end()) continue;
    const auto cls = class_of_method.find(method->second);
    if (cls != class_of_method.end()) classes_of_heap[t[1]].insert(cls->second);
  }
  std::map<std::uint64_t, std::uint64_t> type_of_heap;
  for (const auto& t : facts.relation("HeapType").sorted_tuples()) type_of_heap[t[0]] = t[1];
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (const auto& [heap, classes] : classes_of_heap) {
    const auto type = type_of_heap.find(heap);
    const bool merged =
        classes.size() > 1 || std::binary_search(context_free.begin(), context_free.end(), heap);
    if (merged && type != type_of_heap.end()) {
      out.emplace_back(heap, type->second);
    } else {
      for (std::uint64_t cls : classes) out.emplace_back(heap, cls);
    }
  }
  // Objects no method allocates (the JVM's own, Class objects) are their own type: without an
  // element, Merge has no callee context for them and every call on them is lost.
  for (const auto& [heap, type] : type_of_heap) {
    if (!classes_of_heap.count(heap)) out.emplace_back(heap, type);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace refract::pointsto
