#include "solver/default_order.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace refract::solver {

namespace {

// One '<' constraint between two instances (indices in default position order).
struct Before {
  std::size_t above = 0;
  std::size_t below = 0;
  std::string what;  // "'v<h' of relation vP (FILE:LINE:COL)"
};

class OrderBuilder {
 public:
  OrderBuilder(const Program& program, const InstanceLayout& layout) {
    for (std::size_t d = 0; d < program.domains.size(); ++d) {
      const std::string& name = program.domains[d].name;
      domain_names_.push_back(name);
      const unsigned count = std::max(1U, layout.instances_needed.at(name));
      for (unsigned k = 0; k < count; ++k) {
        index_of_[name + std::to_string(k)] = names_.size();
        names_.push_back(name + std::to_string(k));
        domain_.push_back(d);
      }
    }
    parent_.resize(names_.size());
    std::iota(parent_.begin(), parent_.end(), 0);
    for (std::size_t r = 0; r < program.relations.size(); ++r) {
      const RelationDecl& relation = program.relations[r];
      auto instance = [&](std::size_t attribute) {
        return index_of_.at(relation.attributes[attribute].domain +
                            std::to_string(layout.relation_instances[r][attribute]));
      };
      for (const OrderConstraint& c : relation.order_constraints) {
        const std::string what =
            "'" + c.text + "' of relation " + relation.name + " (" + c.where.to_string() + ")";
        if (c.interleaved) {
          unite(instance(c.left), instance(c.right));
        } else {
          befores_.push_back({instance(c.left), instance(c.right), what});
        }
      }
    }
  }

  DefaultOrder build() {
    drop_befores_within_groups("another constraint interleaves the two");
    interleave_domains();
    return sort_groups();
  }

 private:
  std::size_t find(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void unite(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

  void drop_befores_within_groups(const std::string& why) {
    std::erase_if(befores_, [&](const Before& b) {
      if (find(b.above) != find(b.below)) return false;
      notes_.push_back("order constraint " + b.what + " is not honoured: " + why);
      return true;
    });
  }

  // Whether a chain of '<' constraints leads from group `from` to group `to`.
  bool reaches(std::size_t from, std::size_t to) {
    std::set<std::size_t> seen{from};
    std::vector<std::size_t> work{from};
    while (!work.empty()) {
      const std::size_t g = work.back();
      work.pop_back();
      if (g == to) return true;
      for (const Before& b : befores_)
        if (find(b.above) == g && seen.insert(find(b.below)).second) work.push_back(find(b.below));
    }
    return false;
  }

  // A domain's instances share a block unless the constraints order two of them.
  void interleave_domains() {
    std::map<std::size_t, std::vector<std::size_t>> groups_of_domain;
    for (std::size_t i = 0; i < names_.size(); ++i) {
      std::vector<std::size_t>& groups = groups_of_domain[domain_[i]];
      if (std::find(groups.begin(), groups.end(), find(i)) == groups.end())
        groups.push_back(find(i));
    }
    for (const auto& [domain, groups] : groups_of_domain) {
      bool ordered = false;
      for (std::size_t a : groups)
        for (std::size_t b : groups) ordered = ordered || (a != b && reaches(a, b));
      if (ordered) {
        notes_.push_back("the instances of domain " + domain_names_[domain] +
                         " are not interleaved: order constraints put some above others");
        continue;
      }
      for (std::size_t g : groups) unite(groups.front(), g);
    }
  }

  // Groups top to bottom: each after the groups constraints put above it, otherwise in
  // declaration order; a cycle loses the constraints into the earliest group left.
  DefaultOrder sort_groups() {
    std::vector<std::size_t> left;
    for (std::size_t i = 0; i < names_.size(); ++i)
      if (find(i) == i) left.push_back(i);  // a group's root is its earliest instance
    std::string text;
    while (!left.empty()) {
      auto blocked = [&](std::size_t g) {
        return std::any_of(befores_.begin(), befores_.end(), [&](const Before& b) {
          return find(b.below) == g && std::count(left.begin(), left.end(), find(b.above)) != 0;
        });
      };
      auto next =
          std::find_if(left.begin(), left.end(), [&](std::size_t g) { return !blocked(g); });
      if (next == left.end()) {
        next = left.begin();
        std::erase_if(befores_, [&](const Before& b) {
          if (find(b.below) != *next || std::count(left.begin(), left.end(), find(b.above)) == 0)
            return false;
          notes_.push_back("order constraint " + b.what +
                           " is not honoured: the constraints form a cycle");
          return true;
        });
      }
      std::string block;
      for (std::size_t i = 0; i < names_.size(); ++i)
        if (find(i) == *next) block += (block.empty() ? "" : "x") + names_[i];
      text += (text.empty() ? "" : "_") + block;
      left.erase(next);
    }
    return {text, std::move(notes_)};
  }

  std::vector<std::string> domain_names_;
  std::vector<std::string> names_;   // instances in declaration order
  std::vector<std::size_t> domain_;  // per instance, its domain's index
  std::map<std::string, std::size_t> index_of_;
  std::vector<std::size_t> parent_;  // union-find of instances sharing a block
  std::vector<Before> befores_;
  std::vector<std::string> notes_;
};

}  // namespace

DefaultOrder default_var_order(const Program& program, const InstanceLayout& layout) {
  return OrderBuilder(program, layout).build();
}

}  // namespace refract::solver
