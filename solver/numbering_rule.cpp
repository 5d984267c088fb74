#include "solver/numbering_rule.hpp"

#include <map>
#include <utility>
#include <variant>
#include <vector>

#include "bdd/bit_block.hpp"
#include "solver/path_numbering.hpp"

namespace refract::solver {

namespace {

// The rule's graph. Nodes are numbered by variable (in the order the body first writes
// them), then by value, so that the offsets do not depend on the order tuples come in.
class RuleGraph {
 public:
  RuleGraph(const Rule& rule,
            const std::function<const rel::Relation&(const std::string&)>& relation) {
    for (const Literal& literal : rule.body) atoms_.push_back(&std::get<Atom>(literal));
    const Atom& root = *atoms_.front();
    std::size_t root_column = 0;
    while (root.arguments[root_column].kind != Term::Kind::kVariable) ++root_column;
    const std::size_t root_variable = variable(root.arguments[root_column].text);
    std::vector<std::uint64_t> root_values;
    relation(root.relation).for_each_tuple([&](std::span<const std::uint64_t> t) {
      root_values.push_back(t[root_column]);
      nodes_.emplace(std::make_pair(root_variable, t[root_column]), 0);
    });
    for (std::size_t a = 1; a < atoms_.size(); ++a) {
      const std::size_t from = variable(atoms_[a]->arguments[0].text);
      const std::size_t to = variable(atoms_[a]->arguments[1].text);
      relation(atoms_[a]->relation).for_each_tuple([&](std::span<const std::uint64_t> t) {
        tuples_.push_back({a, t[0], t[1]});
        nodes_.emplace(std::make_pair(from, t[0]), 0);
        nodes_.emplace(std::make_pair(to, t[1]), 0);
      });
    }
    std::size_t next = 0;
    for (auto& [key, id] : nodes_) id = next++;
    graph_.nodes = nodes_.size();
    for (std::uint64_t value : root_values)
      graph_.roots.push_back(nodes_.at({root_variable, value}));
    for (const EdgeTuple& e : tuples_)
      graph_.edges.emplace_back(node(e.atom, 0, e.source), node(e.atom, 1, e.target));
  }

  struct EdgeTuple {
    std::size_t atom = 0;  // index into atoms()
    std::uint64_t source = 0;
    std::uint64_t target = 0;
  };
  const std::vector<const Atom*>& atoms() const { return atoms_; }
  const std::vector<EdgeTuple>& tuples() const { return tuples_; }  // parallel to graph().edges
  const PathGraph& graph() const { return graph_; }

 private:
  std::size_t variable(const std::string& name) {
    for (std::size_t i = 0; i < variables_.size(); ++i)
      if (variables_[i] == name) return i;
    variables_.push_back(name);
    return variables_.size() - 1;
  }
  std::size_t node(std::size_t atom, std::size_t position, std::uint64_t value) {
    return nodes_.at({variable(atoms_[atom]->arguments[position].text), value});
  }

  std::vector<const Atom*> atoms_;
  std::vector<std::string> variables_;
  std::map<std::pair<std::size_t, std::uint64_t>, std::size_t> nodes_;  // (variable, value)
  std::vector<EdgeTuple> tuples_;
  PathGraph graph_;
};

}  // namespace

bdd::Bdd evaluate_numbering_rule(
    const Rule& rule, const std::function<const rel::Relation&(const std::string&)>& relation,
    const rel::Relation& head) {
  const RuleGraph graph(rule, relation);
  const PathNumbers numbers = number_paths(graph.graph());
  const rel::DomainSpace& space = head.space();
  auto block = [&](std::size_t i) -> const bdd::BitBlock& {
    return space.physical(head.attributes()[i].physical).block;
  };
  const rel::LogicalDomain& number_domain = space.domain(head.attributes()[2].domain);
  const std::vector<Term>& head_terms = rule.head.arguments;

  // (paths, offset) -> n < paths & m = n + offset, shared by the edges that have them.
  std::map<std::pair<std::uint64_t, std::uint64_t>, bdd::Bdd> numberings;
  bdd::Bdd result = bdd::Bdd::zero();
  for (std::size_t e = 0; e < graph.tuples().size(); ++e) {
    const RuleGraph::EdgeTuple& edge = graph.tuples()[e];
    const Atom& atom = *graph.atoms()[edge.atom];
    if (atom.arguments[0].text != head_terms[0].text ||
        atom.arguments[1].text != head_terms[1].text || !numbers.offsets[e])
      continue;
    const std::uint64_t paths = numbers.paths[graph.graph().edges[e].first];
    const std::uint64_t offset = *numbers.offsets[e];
    if (numbers.saturated || paths > number_domain.size || offset > number_domain.size - paths)
      throw InputError(rule.where, "numbering rule: the paths to " + atom.arguments[1].text +
                                       " = " + std::to_string(edge.target) +
                                       " need more numbers than domain " + number_domain.name +
                                       " has (" + std::to_string(number_domain.size) + ")");
    auto [it, fresh] = numberings.try_emplace({paths, offset});
    if (fresh)
      it->second =
          block(2).in_range(0, paths - 1) & bdd::sum_with_constant(block(2), block(3), offset);
    result |=
        block(0).equals_constant(edge.source) & block(1).equals_constant(edge.target) & it->second;
  }
  return result;
}

}  // namespace refract::solver
