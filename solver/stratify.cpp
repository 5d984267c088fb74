#include "solver/stratify.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <queue>
#include <unordered_map>
#include <utility>
#include <variant>

namespace refract::solver {
namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

struct Edge {
  std::size_t body = 0;  // the relation read
  std::size_t head = 0;  // the relation defined
  bool negative = false;
  const Atom* atom = nullptr;
};

class Graph {
 public:
  explicit Graph(const Program& program) {
    for (const RelationDecl& relation : program.relations) node(relation.name);
    for (std::size_t r = 0; r < program.rules.size(); ++r) {
      const Rule& rule = program.rules[r];
      rule_heads.push_back(node(rule.head.relation));
      for (const Literal& literal : rule.body) {
        if (const Atom* atom = std::get_if<Atom>(&literal))
          edges.push_back(Edge{node(atom->relation), rule_heads.back(), atom->negated, atom});
      }
    }
    successors.resize(names.size());
    for (const Edge& edge : edges) successors[edge.body].push_back(edge.head);
  }

  std::vector<std::string> names;                    // node -> relation
  std::vector<std::size_t> rule_heads;               // rule -> head node
  std::vector<Edge> edges;                           // rule order, then literal order
  std::vector<std::vector<std::size_t>> successors;  // body -> heads

 private:
  std::size_t node(const std::string& name) {
    auto [it, inserted] = index_.emplace(name, names.size());
    if (inserted) names.push_back(name);
    return it->second;
  }
  std::unordered_map<std::string, std::size_t> index_;
};

// Tarjan's algorithm without recursion: component[node] for every node.
std::vector<std::size_t> components(const Graph& graph, std::size_t& count) {
  const std::size_t n = graph.names.size();
  std::vector<std::size_t> index(n, kNone), low(n, 0), component(n, kNone);
  std::vector<bool> on_stack(n, false);
  std::vector<std::size_t> stack;
  std::vector<std::pair<std::size_t, std::size_t>> calls;  // node, next successor to visit
  std::size_t counter = 0;
  count = 0;
  auto enter = [&](std::size_t v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = true;
    calls.emplace_back(v, 0);
  };
  for (std::size_t start = 0; start < n; ++start) {
    if (index[start] != kNone) continue;
    enter(start);
    while (!calls.empty()) {
      const std::size_t v = calls.back().first;
      const std::size_t next = calls.back().second;
      if (next < graph.successors[v].size()) {
        ++calls.back().second;
        const std::size_t w = graph.successors[v][next];
        if (index[w] == kNone)
          enter(w);
        else if (on_stack[w])
          low[v] = std::min(low[v], index[w]);
        continue;
      }
      if (low[v] == index[v]) {
        for (;;) {
          const std::size_t w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          component[w] = count;
          if (w == v) break;
        }
        ++count;
      }
      calls.pop_back();
      if (!calls.empty()) {
        const std::size_t parent = calls.back().first;
        low[parent] = std::min(low[parent], low[v]);
      }
    }
  }
  return component;
}

// "p -> !q -> p": from the head of the rule with the negated atom, through
// what each relation depends on, back to the head, `!` marking negations.
std::string negation_cycle(const Graph& graph, const std::vector<std::size_t>& component,
                           const Edge& negated) {
  const std::size_t scc = component[negated.head];
  std::vector<std::vector<const Edge*>> depends(graph.names.size());  // head -> edges it reads
  for (const Edge& edge : graph.edges)
    if (component[edge.body] == scc && component[edge.head] == scc)
      depends[edge.head].push_back(&edge);

  // Breadth-first from the negated relation back to the head.
  std::vector<const Edge*> reached_by(graph.names.size(), nullptr);
  std::vector<bool> seen(graph.names.size(), false);
  std::deque<std::size_t> queue{negated.body};
  seen[negated.body] = true;
  while (!queue.empty() && !seen[negated.head]) {
    const std::size_t v = queue.front();
    queue.pop_front();
    for (const Edge* edge : depends[v]) {
      if (seen[edge->body]) continue;
      seen[edge->body] = true;
      reached_by[edge->body] = edge;
      queue.push_back(edge->body);
    }
  }
  std::vector<const Edge*> path{&negated};
  if (negated.body != negated.head) {
    std::vector<const Edge*> back;
    for (std::size_t v = negated.head; v != negated.body; v = reached_by[v]->head)
      back.push_back(reached_by[v]);
    path.insert(path.end(), back.rbegin(), back.rend());
  }
  std::string text = graph.names[negated.head];
  for (const Edge* edge : path)
    text += std::string(" -> ") + (edge->negative ? "!" : "") + graph.names[edge->body];
  return text;
}

}  // namespace

std::vector<Stratum> stratify(const Program& program) {
  const Graph graph(program);
  std::size_t count = 0;
  const std::vector<std::size_t> component = components(graph, count);

  for (const Edge& edge : graph.edges)
    if (edge.negative && component[edge.body] == component[edge.head])
      throw InputError(edge.atom->where,
                       "negation through recursion: " + negation_cycle(graph, component, edge));

  // One stratum per component that holds a rule head.
  std::vector<std::size_t> stratum_of(count, kNone);
  std::vector<Stratum> strata;
  std::vector<std::size_t> first_rule;
  for (std::size_t r = 0; r < graph.rule_heads.size(); ++r) {
    const std::size_t scc = component[graph.rule_heads[r]];
    if (stratum_of[scc] == kNone) {
      stratum_of[scc] = strata.size();
      strata.emplace_back();
      first_rule.push_back(r);
    }
    strata[stratum_of[scc]].rules.push_back(r);
  }
  std::vector<bool> is_head(graph.names.size(), false);
  for (std::size_t head : graph.rule_heads) is_head[head] = true;
  for (std::size_t v = 0; v < graph.names.size(); ++v)
    if (is_head[v]) strata[stratum_of[component[v]]].relations.push_back(graph.names[v]);

  // Edges between strata; positive edges inside one make it recursive.
  std::vector<std::vector<std::size_t>> readers(strata.size());
  std::vector<std::size_t> unread(strata.size(), 0);  // strata read that are not yet placed
  for (const Edge& edge : graph.edges) {
    const std::size_t to = stratum_of[component[edge.head]];
    const std::size_t from = stratum_of[component[edge.body]];
    if (from == kNone) continue;  // an input or an undefined relation
    if (from == to) {
      strata[to].recursive = true;
      continue;
    }
    readers[from].push_back(to);
    ++unread[to];
  }

  // Kahn's algorithm, earliest first rule first among the ready strata.
  using Ready = std::pair<std::size_t, std::size_t>;  // first rule, stratum
  std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> ready;
  for (std::size_t s = 0; s < strata.size(); ++s)
    if (unread[s] == 0) ready.emplace(first_rule[s], s);
  std::vector<Stratum> ordered;
  ordered.reserve(strata.size());
  while (!ready.empty()) {
    const std::size_t s = ready.top().second;
    ready.pop();
    ordered.push_back(std::move(strata[s]));
    for (std::size_t reader : readers[s])
      if (--unread[reader] == 0) ready.emplace(first_rule[reader], reader);
  }
  return ordered;
}

}  // namespace refract::solver
