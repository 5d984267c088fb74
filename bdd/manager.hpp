// The BuDDy kernel, owned for the lifetime of one Manager. BuDDy keeps global
// state, so at most one Manager exists at a time; constructing a second throws.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bdd/machine_memory.hpp"

namespace refract::bdd {

struct ManagerSettings {
  std::uint64_t initial_nodes = 1'000'000;  // node table size at start
  std::uint64_t cache_size = 200'000;       // operator cache entries
  // Growth of the node table. BuDDy's defaults (at most 50,000 nodes per resize,
  // resize when a collection frees less than 20%) make a table of millions of
  // nodes grow through hundreds of collections, each of which also empties
  // the operator caches: on bench/ points-to inputs a fifth to a third of the
  // time. Up to 4M nodes per resize (80 MB) and resizing below 40% free cut
  // the collections by 3-10x for some more memory.
  // Max nodes added per resize; 0 (with growth_percent 0) leaves BuDDy's own limit.
  std::uint64_t max_increase = 4'000'000;
  // A resize may add this share of the table's size instead, when it is more than
  // max_increase: a table of 100M nodes then grows in a few steps, not 25 collections of 4M
  // each. On antlr 3-obj+2H (300 s) 50% cut collections from 19 to 11 (29.5 to 13.2 s) for
  // 20% more peak RSS; a whole 2-type+H run peaked at 7.1 GB, not 2.8 GiB (garbage waits
  // longer). 0 = max_increase alone.
  unsigned growth_percent = 50;
  std::uint64_t max_nodes = 0;  // hard cap on the node table; 0 = no cap
  // The table stops growing where the process's resident memory would pass this many bytes
  // (checked at each collection, before BuDDy decides to grow): a run too big for the machine
  // then ends in NodeTableExhausted, not in the kernel's OOM killer. 0 = no budget.
  std::uint64_t memory_budget_bytes = 0;
  unsigned min_free_percent = 40;  // resize when a collection frees less; 0 = BuDDy's 20
  // How the budget sees the machine's memory at each collection (bdd/machine_memory.hpp): the
  // table also stops growing where other processes left too little. Empty: the budget alone.
  std::function<std::optional<MachineMemory>()> machine_memory = read_machine_memory;
  // Called where the machine's available memory, not the budget, stops the table from growing
  // as BuDDy would: memory the run may take back from elsewhere (a cache entry being built
  // beside it, cli/jdk_cache.hpp). Returns whether it freed any; the machine is then read again.
  std::function<bool()> release_machine_memory = {};
  // Back the node table with transparent huge pages where the kernel offers them (Linux 6.1's
  // MADV_COLLAPSE; a hint the kernel may refuse, see ManagerStats::huge_pages). Each node
  // lookup probes the table at random, and with 4 KiB pages also misses the TLB: paired, 0.87
  // and 0.91x on checkstyle's insensitive run, 0.84x to the same sweep of antlr's 2-obj+H.
  bool huge_pages = true;
  // How often, while a deadline or production limit is set, a watchdog looks whether it has
  // passed during an operation (Manager::set_deadline).
  std::chrono::milliseconds limit_poll_period{200};
};

// Any error BuDDy reports; BuDDy's own handler would call exit() instead.
class BddError : public std::runtime_error {
 public:
  BddError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// The node table is full and may not grow (max_nodes reached or out of memory).
class NodeTableExhausted : public BddError {
 public:
  NodeTableExhausted(int code, std::uint64_t node_table_size, std::uint64_t memory_budget_bytes,
                     bool machine_memory_held = false);
  std::uint64_t node_table_size() const { return node_table_size_; }
  // The memory budget when it, not max_nodes, kept the table from growing; else 0.
  std::uint64_t memory_budget_bytes() const { return memory_budget_bytes_; }
  // The budget held below its size because other processes left the machine less memory
  // (bdd/machine_memory.hpp).
  bool machine_memory_held() const { return machine_memory_held_; }

 private:
  std::uint64_t node_table_size_;
  std::uint64_t memory_budget_bytes_;
  bool machine_memory_held_;
};

// A limit the caller set (Manager::set_deadline, set_production_limit) was passed during an
// operation: it was abandoned at a garbage collection. The manager stays usable; the
// operation's result is lost.
class OperationStopped : public BddError {
 public:
  OperationStopped(int code, const std::string& why, const std::string& operation);
  const std::string& operation() const { return operation_; }

 private:
  std::string operation_;
};

// The deadline of Manager::set_deadline passed.
class DeadlinePassed : public OperationStopped {
 public:
  explicit DeadlinePassed(const std::string& operation);
};

// More nodes were produced (ManagerStats::nodes_produced) than Manager::set_production_limit
// allows.
class ProductionLimitPassed : public OperationStopped {
 public:
  explicit ProductionLimitPassed(const std::string& operation);
};

// Calls and seconds of one kind of BuDDy operation ("and", "relprod", "replace", ...).
struct OperationTime {
  std::string name;
  std::uint64_t calls = 0;
  double seconds = 0;
};

struct ManagerStats {
  std::uint64_t node_table_size = 0;  // allocated node slots now
  std::uint64_t used_nodes = 0;       // occupied slots now (live + garbage not yet collected)
  std::uint64_t peak_used_nodes = 0;  // max of used_nodes seen at operation boundaries
  std::uint64_t peak_live_nodes = 0;  // max live nodes right after a garbage collection
  std::uint64_t garbage_collections = 0;
  double gc_seconds = 0;
  std::uint64_t operations = 0;  // BuDDy operations issued through this layer
  // Nodes BuDDy created, found in no unique table: the work of a run, unlike its seconds, does
  // not drift with the machine (creating nodes is about half of all time under perf).
  std::uint64_t nodes_produced = 0;
  std::uint64_t variables = 0;
  std::uint64_t memory_budget_bytes = 0;  // ManagerSettings::memory_budget_bytes
  // The memory budget has kept the table from growing by BuDDy's next step (seen at the start
  // or after a collection): the run collects more often than it would with more memory.
  bool capped_by_memory_budget = false;
  // ... where the machine's available memory, not the budget itself, set the cap
  // (bdd/machine_memory.hpp: other processes held the rest).
  bool capped_by_machine_memory = false;
  bool huge_pages = false;         // the kernel took the node table onto huge pages (last resize)
  std::string huge_pages_refusal;  // else why not: the call the kernel refused, and its errno
  // Per kind of operation, when timing is on (Manager::time_operations): the GCs and node
  // table growth an operation triggers count in its time.
  std::vector<OperationTime> operation_times;
};

class Watchdog;

class Manager {
 public:
  explicit Manager(const ManagerSettings& settings);
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;
  ~Manager();

  // Adds `count` variables at the bottom of the order; returns the first index.
  // Variable index i sits at level i: refract never reorders.
  int add_variables(int count);
  int variable_count() const;

  ManagerStats stats() const;
  // ManagerStats::nodes_produced alone, without copying the rest: cheap enough to read around
  // every rule evaluation.
  std::uint64_t nodes_produced() const;
  // Sampled by the solver between operations to track the peak.
  void sample_peak();
  // Grows the node table until `free_nodes` slots are free, as far as max_nodes and the memory
  // budget allow. Building a BDD of millions of nodes (a seed read from a file) into a table too
  // small collects at each step of growth, and each collection marks every node built so far.
  void reserve_free_nodes(std::uint64_t free_nodes);
  // Times every operation by kind from now on (two clock reads each: a few percent).
  void time_operations(bool on);
  // Operations still running past `deadline` throw DeadlinePassed at their next garbage
  // collection (the only point where BuDDy calls back during a long operation); within
  // limit_poll_period of the deadline a watchdog forces that collection; nullopt: none.
  void set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline);
  // Operations still running once more than `nodes` nodes have been produced in all
  // (ManagerStats::nodes_produced) throw ProductionLimitPassed at their next garbage
  // collection, forced as for a deadline; nullopt: no limit. A cap on the work itself, which
  // unlike a deadline does not depend on the machine's speed.
  void set_production_limit(std::optional<std::uint64_t> nodes);

 private:
  void arm_watchdog();

  std::chrono::milliseconds limit_poll_period_;
  std::unique_ptr<Watchdog> watchdog_;  // started by the first limit set
};

// Called after every BuDDy call: throws if BuDDy reported an error during it.
void check_error(const char* operation);

// Marks a BuDDy operation that runs under BuDDy's own setjmp (apply, ite,
// quantification, replace), so that running out of nodes may unwind it.
class OperationScope {
 public:
  explicit OperationScope(const char* name);
  ~OperationScope();

 private:
  const char* name_;
  std::chrono::steady_clock::time_point start_;
  OperationScope(const OperationScope&) = delete;
  OperationScope& operator=(const OperationScope&) = delete;
};

}  // namespace refract::bdd
