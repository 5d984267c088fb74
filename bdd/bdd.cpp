#include "bdd/bdd.hpp"

#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "bdd/buddy_c_api.hpp"
#include "bdd/manager.hpp"

// Exported by libbdd but declared only in its private kernel.h.
extern "C" int bdd_makenode(unsigned int level, int low, int high);

namespace refract::bdd {

Bdd::Bdd() : root_(buddy::kFalse) {}

Bdd::Bdd(int root) : root_(root) {
  // A node id of 0 after an error is not a result: check_error throws first.
  bdd_addref(root_);
}

Bdd::Bdd(const Bdd& other) : root_(other.root_) {
  bdd_addref(root_);
}

Bdd::Bdd(Bdd&& other) noexcept : root_(other.root_) {
  other.root_ = buddy::kFalse;
}

Bdd& Bdd::operator=(const Bdd& other) {
  if (this != &other) {
    bdd_addref(other.root_);
    bdd_delref(root_);
    root_ = other.root_;
  }
  return *this;
}

Bdd& Bdd::operator=(Bdd&& other) noexcept {
  if (this != &other) {
    bdd_delref(root_);
    root_ = other.root_;
    other.root_ = buddy::kFalse;
  }
  return *this;
}

Bdd::~Bdd() {
  bdd_delref(root_);
}

namespace {
// Runs one BuDDy operation and turns a reported error into an exception before
// the (meaningless) result is wrapped.
template <typename Op>
int checked(const char* name, Op&& op) {
  int result = 0;
  {
    OperationScope scope(name);
    result = op();
  }
  check_error(name);
  return result;
}
}  // namespace

Bdd Bdd::zero() {
  return Bdd(buddy::kFalse);
}
Bdd Bdd::one() {
  return Bdd(buddy::kTrue);
}
Bdd Bdd::variable(int var) {
  return Bdd(checked("bdd_ithvar", [&] { return bdd_ithvar(var); }));
}
Bdd Bdd::node(int var, const Bdd& low, const Bdd& high) {
  // Both children are referenced, so a collection inside makenode keeps them.
  // No OperationScope: makenode runs under no setjmp of BuDDy's, so running
  // out of nodes must not unwind (to a stale jmp_buf); it returns 0 instead.
  const int root = bdd_makenode(static_cast<unsigned>(bdd_var2level(var)), low.root_, high.root_);
  check_error("bdd_makenode");
  return Bdd(root);
}
Bdd Bdd::negated_variable(int var) {
  return Bdd(checked("bdd_nithvar", [&] { return bdd_nithvar(var); }));
}

Bdd Bdd::variable_set(std::span<const int> vars) {
  std::vector<int> copy(vars.begin(), vars.end());
  return Bdd(checked("bdd_makeset",
                     [&] { return bdd_makeset(copy.data(), static_cast<int>(copy.size())); }));
}

bool Bdd::is_zero() const {
  return root_ == buddy::kFalse;
}
bool Bdd::is_one() const {
  return root_ == buddy::kTrue;
}

std::uint64_t Bdd::node_count() const {
  return static_cast<std::uint64_t>(checked("bdd_nodecount", [&] { return bdd_nodecount(root_); }));
}

double Bdd::approximate_count(const Bdd& variables) const {
  const double count = bdd_satcountset(root_, variables.root_);
  check_error("bdd_satcountset");
  return count;
}

Bdd Bdd::operator&(const Bdd& other) const {
  return Bdd(checked("and", [&] { return bdd_apply(root_, other.root_, bddop_and); }));
}
Bdd Bdd::operator|(const Bdd& other) const {
  return Bdd(checked("or", [&] { return bdd_apply(root_, other.root_, bddop_or); }));
}
// As this ^ (this & other): libbdd 2.4's bddop_diff has no terminal case for an empty left
// side or equal sides, so it walks all of `other` even when this is a few tuples (a rule's new
// tuples less a relation of millions of nodes: 0.21 s against 0.0001 s for 1.5M nodes), while
// and and xor stop where a side is empty or both are the same node.
Bdd Bdd::operator-(const Bdd& other) const {
  const Bdd common(checked("diff", [&] { return bdd_apply(root_, other.root_, bddop_and); }));
  return Bdd(checked("diff", [&] { return bdd_apply(root_, common.root_, bddop_xor); }));
}
Bdd Bdd::operator^(const Bdd& other) const {
  return Bdd(checked("xor", [&] { return bdd_apply(root_, other.root_, bddop_xor); }));
}
Bdd Bdd::operator!() const {
  return Bdd(checked("not", [&] { return bdd_not(root_); }));
}
Bdd Bdd::biimp(const Bdd& other) const {
  return Bdd(checked("biimp", [&] { return bdd_apply(root_, other.root_, bddop_biimp); }));
}

Bdd Bdd::ite(const Bdd& condition, const Bdd& then_branch, const Bdd& else_branch) {
  return Bdd(checked(
      "ite", [&] { return bdd_ite(condition.root_, then_branch.root_, else_branch.root_); }));
}

Bdd Bdd::exists(const Bdd& variables) const {
  return Bdd(checked("exist", [&] { return bdd_exist(root_, variables.root_); }));
}

Bdd Bdd::support() const {
  // Not bdd_support: libbdd 2.4 frees its support array in bdd_done but keeps its size, so the
  // first call under a later manager writes into freed memory. bdd_varprofile allocates anew.
  const int vars = bdd_varnum();
  std::unique_ptr<int, decltype(&std::free)> profile(bdd_varprofile(root_), &std::free);
  check_error("bdd_varprofile");
  std::vector<int> support;
  for (int v = 0; profile && v < vars; ++v)
    if (profile.get()[v] > 0) support.push_back(v);
  return variable_set(support);
}

Bdd Bdd::and_exists(const Bdd& other, const Bdd& variables) const {
  return Bdd(checked("relprod",
                     [&] { return bdd_appex(root_, other.root_, bddop_and, variables.root_); }));
}

Bdd Bdd::replace(const VarPermutation& permutation) const {
  return Bdd(checked("replace",
                     [&] { return bdd_replace(root_, static_cast<bddPair*>(permutation.raw())); }));
}

int Bdd::raw_var(int node) {
  return bdd_var(node);
}
int Bdd::raw_low(int node) {
  return bdd_low(node);
}
int Bdd::raw_high(int node) {
  return bdd_high(node);
}

VarPermutation::VarPermutation(std::span<const int> from, std::span<const int> to) {
  bddPair* pair = bdd_newpair();
  check_error("bdd_newpair");
  std::vector<int> old_vars(from.begin(), from.end());
  std::vector<int> new_vars(to.begin(), to.end());
  bdd_setpairs(pair, old_vars.data(), new_vars.data(), static_cast<int>(old_vars.size()));
  pair_ = pair;
  check_error("bdd_setpairs");
}

VarPermutation::VarPermutation(VarPermutation&& other) noexcept : pair_(other.pair_) {
  other.pair_ = nullptr;
}

VarPermutation& VarPermutation::operator=(VarPermutation&& other) noexcept {
  if (this != &other) {
    if (pair_ != nullptr) bdd_freepair(static_cast<bddPair*>(pair_));
    pair_ = other.pair_;
    other.pair_ = nullptr;
  }
  return *this;
}

VarPermutation::~VarPermutation() {
  if (pair_ != nullptr) bdd_freepair(static_cast<bddPair*>(pair_));
}

}  // namespace refract::bdd
