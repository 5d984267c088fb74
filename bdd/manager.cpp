#include "bdd/manager.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csetjmp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <string>

#include "bdd/buddy_c_api.hpp"
#include "bdd/machine_memory.hpp"
#include "bdd/watchdog.hpp"
#include "support/stopwatch.hpp"

// Exported by libbdd but declared only in its private kernel.h.
extern "C" void bdd_operator_reset(void);
extern "C" jmp_buf bddexception;
extern "C" int* bddrefstack;
extern "C" long int bddproduced;  // new nodes since bdd_init (kernel.c)
extern "C" void* bddnodes;        // the node table, malloc'd and realloc'd by BuDDy (kernel.c)
extern "C" int bddnodesize;       // its slots
extern "C" int bddfreepos;        // head of the free list, rebuilt by every collection (kernel.c)
extern "C" int bddfreenum;        // its length
extern "C" int bddmaxnodesize;    // the cap on bddnodesize; 0 for none
extern "C" void bdd_gbc(void);
extern "C" void bdd_noderesize(int rehash);  // grows the table one step (set_next_growth)
extern "C" int* bddvar2level;                // freed by bdd_done but left dangling (kernel.c)
extern "C" int* bddlevel2var;

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25  // Linux 6.1; older kernels refuse it with EINVAL
#endif

namespace refract::bdd {

namespace {

bool g_manager_alive = false;
int g_pending_error = 0;  // set by the error hook, consumed by check_error
// > 0 while a BuDDy operation runs under setjmp(bddexception); the watchdog reads it too.
std::atomic<int> g_operation_depth = 0;
ManagerStats g_stats;
bool g_time_operations = false;
struct TimedKind {
  const char* name;
  std::uint64_t calls;
  double seconds;
};
std::vector<TimedKind> g_operation_times;
// The limits of Manager::set_deadline and set_production_limit, read by the watchdog's thread
// too: the deadline in steady_clock ticks.
using Ticks = std::chrono::steady_clock::rep;
constexpr Ticks kNoDeadline = std::numeric_limits<Ticks>::max();
constexpr std::uint64_t kNoProductionLimit = std::numeric_limits<std::uint64_t>::max();
std::atomic<Ticks> g_deadline = kNoDeadline;
std::atomic<std::uint64_t> g_production_limit = kNoProductionLimit;
std::atomic<bool> g_limit_tripped = false;  // an operation was abandoned at the limits set
// Recorded by the garbage collection hook when the deadline or the production limit has
// passed; outside BuDDy's codes.
constexpr int kDeadlinePassed = -1000;
constexpr int kProductionLimitPassed = -1001;

// kDeadlinePassed or kProductionLimitPassed where that limit has passed, else 0.
int passed_limit() {
  const Ticks now = std::chrono::steady_clock::now().time_since_epoch().count();
  if (now > g_deadline.load(std::memory_order_relaxed)) return kDeadlinePassed;
  const auto produced = static_cast<std::uint64_t>(__atomic_load_n(&bddproduced, __ATOMIC_RELAXED));
  const std::uint64_t limit = g_production_limit.load(std::memory_order_relaxed);
  if (limit != kNoProductionLimit && produced > limit) return kProductionLimitPassed;
  return 0;
}
bool g_stopping = false;          // the running operation is being abandoned at a limit
int g_max_nodes_before_trip = 0;  // the node cap to restore once it has been

void record_error(int code) {
  const bool out_of_nodes = code == BDD_NODENUM || code == BDD_MEMORY;
  // Past a limit the watchdog may have emptied the free list just outside an operation, where
  // no collection stops anything: the table found full is then the limit's stop.
  if (code == BDD_NODENUM) {
    if (const int limit = passed_limit(); limit != 0) code = limit;
  }
  if (g_pending_error == 0) g_pending_error = code;
  // Out of nodes deep inside a recursion: BuDDy would carry on with a null node
  // through an exponential amount of work. Unwind to the operation's setjmp,
  // the path BuDDy itself uses for reordering; it returns false after one retry.
  if (out_of_nodes && g_operation_depth > 0) std::longjmp(bddexception, 1);
}

std::uint64_t g_max_nodes = 0;      // ManagerSettings::max_nodes, as BuDDy took it
std::uint64_t g_memory_budget = 0;  // ManagerSettings::memory_budget_bytes
std::uint64_t g_next_step = 0;      // nodes BuDDy's next resize adds at most (set_next_growth)
bool g_budget_binds = false;        // the table's current cap comes from the memory budget
std::function<std::optional<MachineMemory>()> g_machine_memory;  // ManagerSettings::machine_memory
bool g_machine_binds = false;  // ... and the machine's available memory held it below the budget
std::function<bool()> g_release_machine_memory;  // ManagerSettings::release_machine_memory

// Bytes a node of the table takes, from the table's allocation for `slots` nodes (BuDDy's node
// struct is private to it).
std::uint64_t node_bytes(std::uint64_t slots) {
  return std::max<std::uint64_t>(malloc_usable_size(bddnodes) / std::max<std::uint64_t>(slots, 1),
                                 1);
}

// The process's resident set, from /proc/self/statm; 0 where that cannot be read.
std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size_pages = 0, resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return 0;
  return resident_pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

// Caps the table where growing it would take the process past the memory budget. Runs after
// each collection, which is just before BuDDy decides whether to grow the table.
void cap_table_to_memory_budget() {
  if (g_memory_budget == 0 || bddnodesize <= 0) return;
  const std::uint64_t resident = resident_bytes();
  if (resident == 0) return;
  const auto size = static_cast<std::uint64_t>(bddnodesize);
  const std::uint64_t bytes_per_node = node_bytes(size);
  const auto room_under_limit = [&] {
    const std::uint64_t limit = resident_limit(
        g_memory_budget, resident, g_machine_memory ? g_machine_memory() : std::nullopt);
    g_machine_binds = limit < g_memory_budget;
    return limit > resident ? (limit - resident) / bytes_per_node : 0;
  };
  // BuDDy grows by doubling, at most by its max increase (50,000 unless set_next_growth set it).
  const std::uint64_t wanted = std::min(size, g_next_step != 0 ? g_next_step : 50'000);
  std::uint64_t room = room_under_limit();
  // The machine, not the budget, holds the table back: take back what the run can spare.
  if (g_machine_binds && room < wanted && g_release_machine_memory && g_release_machine_memory())
    room = room_under_limit();
  std::uint64_t cap = std::min<std::uint64_t>(size + room, INT_MAX);
  g_budget_binds = g_max_nodes == 0 || cap < g_max_nodes;
  if (!g_budget_binds) cap = g_max_nodes;
  if (g_budget_binds && room < wanted) {
    g_stats.capped_by_memory_budget = true;
    if (g_machine_binds) g_stats.capped_by_machine_memory = true;
  }
  // BuDDy accepts only caps above the table; its sizes are primes, so size + 1 adds nothing.
  bdd_setmaxnodenum(static_cast<int>(std::max(cap, size + 1)));
}

// Unlinks every free node, so that the next new node makes BuDDy collect (which relinks them)
// and, with the table capped, fail. Only an operation being abandoned does this: jumping out
// again instead loops, since BuDDy's give-up path collects (bdd_checkreorder).
void drop_free_list() {
  bddfreepos = 0;
  bddfreenum = 0;
}

// BuDDy's give-up path reorders (with no method set: it only rebuilds the free list), after
// the collection above: drop the list again there.
void after_reordering(int before) {
  if (!before && g_stopping) drop_free_list();
}

void record_gc(int pre, bddGbcStat* stat) {
  if (pre) return;
  // An operation being abandoned at a limit keeps the cap that ends its retry.
  if (!g_stopping) cap_table_to_memory_budget();
  g_stats.garbage_collections = static_cast<std::uint64_t>(stat->num);
  g_stats.gc_seconds = static_cast<double>(stat->sumtime) / CLOCKS_PER_SEC;
  const auto live = static_cast<std::uint64_t>(stat->nodes - stat->freenodes);
  g_stats.peak_live_nodes = std::max(g_stats.peak_live_nodes, live);
  // Past the deadline or the production limit: abandon the operation the way an exhausted
  // table does (record_error). The collection is complete, so the table is consistent. BuDDy
  // retries an operation once after such a jump; with the table capped at its size and the
  // free list dropped by every collection and reordering that follows, the retry's first new
  // node finds the table full, and the error that raises ends it. Capping alone let a retry
  // whose collections freed much run on for minutes (hsqldb's probe run, 601 s past
  // --time-limit in one and_exists).
  if (g_stopping) {
    drop_free_list();
    return;
  }
  if (g_operation_depth == 0) return;
  if (const int stop = passed_limit(); stop != 0) {
    g_stopping = true;
    g_limit_tripped = true;
    if (g_pending_error == 0) g_pending_error = stop;
    // bdd_setmaxnodenum takes only caps above the table, and such a cap still lets a resize
    // relink the free nodes (it rehashes): set the cap at the table itself.
    g_max_nodes_before_trip = bddmaxnodesize;
    bddmaxnodesize = bddnodesize;
    drop_free_list();
    std::longjmp(bddexception, 1);
  }
}

// The watchdog's check, on its own thread. BuDDy calls back during an operation only when its
// free list runs out; an operation that finds room for all its nodes in a large table never
// collects, so no limit stops it (checkstyle's 2-type+H run went 600 s past --time-limit in
// its first sweep). Emptying the list makes its next new node collect, and record_gc stop it.
// libbdd 2.4's bdd_makenode reads the list's head once per node, so this store is either seen
// there or overwritten, never half used; a collection relinks the list.
void force_collection_past_limit() {
  if (g_operation_depth.load(std::memory_order_relaxed) == 0) return;
  if (g_limit_tripped.load(std::memory_order_relaxed) || passed_limit() == 0) return;
  __atomic_store_n(&bddfreepos, 0, __ATOMIC_RELAXED);
}

std::uint64_t g_max_increase = 0;  // ManagerSettings::max_increase
unsigned g_growth_percent = 0;     // ManagerSettings::growth_percent

// After each resize the next step is max_increase or growth_percent of the new size, whichever
// is larger (BuDDy itself grows by at most doubling, capped by its max increase).
void set_next_growth(int, int new_size) {
  const std::uint64_t share = static_cast<std::uint64_t>(new_size) * g_growth_percent / 100;
  const std::uint64_t step = std::min<std::uint64_t>(std::max(g_max_increase, share), INT_MAX);
  g_next_step = step;
  if (step != 0) bdd_setmaxincrease(static_cast<int>(step));
}

bool g_huge_pages = false;  // ManagerSettings::huge_pages
int g_advised_size = 0;     // the table size huge pages were last asked for

// Asks the kernel to back the node table with 2 MiB pages. The table is read at random (each
// bdd_makenode probes it), so with 4 KiB pages nearly every probe also misses the TLB.
// MADV_HUGEPAGE marks the mapping (BuDDy's realloc keeps the mark when the table grows) and
// MADV_COLLAPSE turns the pages already touched (the first filled_bytes, up to the end of the
// huge page they end in) into huge ones. The rest of a grown table faults in on huge pages; asked
// to collapse it too, Linux 6.18 refused with EINVAL. A hint: a kernel without transparent huge
// pages refuses it, and the table then stays on small pages.
bool advise_huge_pages(std::size_t filled_bytes = SIZE_MAX) {
  g_advised_size = bddnodesize;
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(bddnodes);
  const std::uintptr_t end = begin + malloc_usable_size(bddnodes);
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t last = end & ~(kHuge - 1);
  const std::uintptr_t filled_end = filled_bytes < end - begin ? begin + filled_bytes : end;
  const std::uintptr_t last_filled = std::min(last, (filled_end + kHuge - 1) & ~(kHuge - 1));
  if (bddnodes == nullptr || last <= first) {
    g_stats.huge_pages_refusal = "table smaller than a huge page";
    return false;
  }
  // The mark covers every page of the table, so that the mapping stays one piece: a split one
  // cannot be grown by mremap, and glibc's realloc would copy it instead.
  const std::uintptr_t marked = begin & ~(page - 1);
  g_stats.huge_pages_refusal.clear();
  if (madvise(reinterpret_cast<void*>(marked), ((end + page - 1) & ~(page - 1)) - marked,
              MADV_HUGEPAGE) != 0) {
    g_stats.huge_pages_refusal = std::string("MADV_HUGEPAGE: ") + std::strerror(errno);
    return false;
  }
  if (last_filled > first &&
      madvise(reinterpret_cast<void*>(first), last_filled - first, MADV_COLLAPSE) != 0) {
    g_stats.huge_pages_refusal = std::string("MADV_COLLAPSE: ") + std::strerror(errno);
    return false;
  }
  return true;
}

// BuDDy calls its resize hook just before it reallocs the node table, inside the operation that
// ran out of nodes. A realloc that moves the table splits its huge pages (mremap cannot keep a
// 2 MiB page at an address of another alignment), and that operation, often the largest of the
// run, would then go on with nearly every probe missing the TLB until it returned: on hsqldb
// insens the sweep that grew the table to 91M nodes took 97 s instead of about 6. So the table
// is moved here and its filled part collapsed at once (0.1 s a GB); BuDDy's own realloc to the
// same size then leaves it where it is. Correctness never rests on this: BuDDy reallocs to the
// size it wants.
void grow_node_table(int old_size, int new_size) {
  set_next_growth(old_size, new_size);
  if (!g_huge_pages || bddnodes == nullptr || old_size <= 0) return;
  const std::uint64_t bytes_per_node = node_bytes(static_cast<std::uint64_t>(old_size));
  void* moved = std::realloc(bddnodes, bytes_per_node * static_cast<std::uint64_t>(new_size));
  if (moved == nullptr) return;  // BuDDy's realloc fails the same way and reports BDD_MEMORY
  bddnodes = moved;
  g_stats.huge_pages = advise_huge_pages(bytes_per_node * static_cast<std::uint64_t>(old_size));
}

// bdd_done frees the variable-level maps but leaves them dangling: a later manager that never
// sets a variable count would free them again in its own bdd_done.
void shut_down_buddy() {
  bdd_done();
  bddvar2level = nullptr;
  bddlevel2var = nullptr;
}

int to_int_setting(std::uint64_t value, const char* what) {
  if (value > static_cast<std::uint64_t>(INT_MAX)) {
    throw BddError(0, std::string(what) + " " + std::to_string(value) +
                          " exceeds BuDDy's limit of " + std::to_string(INT_MAX));
  }
  return static_cast<int>(value);
}

}  // namespace

OperationScope::OperationScope(const char* name) : name_(name) {
  if (++g_operation_depth == 1 && g_time_operations) start_ = std::chrono::steady_clock::now();
}

OperationScope::~OperationScope() {
  // The table grew inside this operation but grow_node_table could not move it (BuDDy's own
  // realloc did, splitting its huge pages): take it back onto them now.
  if (g_operation_depth == 1 && g_huge_pages && bddnodesize != g_advised_size)
    g_stats.huge_pages = advise_huge_pages();
  if (--g_operation_depth == 0 && g_time_operations) {
    const double seconds = seconds_since(start_);
    // Names are the literals of bdd.cpp: a dozen kinds, found by pointer.
    auto it = std::find_if(g_operation_times.begin(), g_operation_times.end(),
                           [&](const TimedKind& k) { return k.name == name_; });
    if (it == g_operation_times.end()) it = g_operation_times.insert(it, TimedKind{name_, 0, 0});
    ++it->calls;
    it->seconds += seconds;
  }
}

NodeTableExhausted::NodeTableExhausted(int code, std::uint64_t node_table_size,
                                       std::uint64_t memory_budget_bytes, bool machine_memory_held)
    : BddError(code, "BDD node table exhausted at " + std::to_string(node_table_size) + " nodes (" +
                         bdd_errstring(code) + ")"),
      node_table_size_(node_table_size),
      memory_budget_bytes_(memory_budget_bytes),
      machine_memory_held_(machine_memory_held) {}

void check_error(const char* operation) {
  ++g_stats.operations;
  if (g_pending_error == 0) return;
  const int code = g_pending_error;
  g_pending_error = 0;
  bdd_clear_error();
  // The failed operation may have cached partial results: drop all caches.
  bdd_operator_reset();
  if (g_stopping) {
    g_stopping = false;
    bddmaxnodesize = g_max_nodes_before_trip;
    bdd_gbc();  // relinks the free list the abandoned operation dropped
  }
  if (code == kDeadlinePassed) throw DeadlinePassed(operation);
  if (code == kProductionLimitPassed) throw ProductionLimitPassed(operation);
  if (code == BDD_NODENUM || code == BDD_MEMORY) {
    const bool budget = g_budget_binds && g_stats.capped_by_memory_budget;
    throw NodeTableExhausted(code, static_cast<std::uint64_t>(bdd_getallocnum()),
                             budget ? g_memory_budget : 0, budget && g_machine_binds);
  }
  throw BddError(code, std::string("BuDDy error in ") + operation + ": " + bdd_errstring(code));
}

OperationStopped::OperationStopped(int code, const std::string& why, const std::string& operation)
    : BddError(code, why + " during BDD operation " + operation), operation_(operation) {}

DeadlinePassed::DeadlinePassed(const std::string& operation)
    : OperationStopped(kDeadlinePassed, "deadline passed", operation) {}

ProductionLimitPassed::ProductionLimitPassed(const std::string& operation)
    : OperationStopped(kProductionLimitPassed, "production limit passed", operation) {}

Manager::Manager(const ManagerSettings& settings) : limit_poll_period_(settings.limit_poll_period) {
  if (g_manager_alive) throw BddError(BDD_RUNNING, "a BDD manager already exists");
  const int nodes =
      to_int_setting(std::max<std::uint64_t>(settings.initial_nodes, 1000), "--nodes");
  const int cache = to_int_setting(std::max<std::uint64_t>(settings.cache_size, 1000), "--cache");
  g_pending_error = 0;
  if (const int rc = bdd_init(nodes, cache); rc < 0) {
    throw BddError(rc, std::string("cannot initialise BuDDy: ") + bdd_errstring(rc));
  }
  // bdd_init installs BuDDy's default handler, which calls exit(): replace it.
  bdd_error_hook(record_error);
  g_manager_alive = true;
  g_stats = ManagerStats{};
  g_time_operations = false;
  g_operation_times.clear();
  g_deadline = kNoDeadline;
  g_production_limit = kNoProductionLimit;
  g_limit_tripped = false;
  g_stopping = false;
  bdd_gbc_hook(record_gc);
  bdd_reorder_hook(after_reordering);
  bdd_resize_hook(grow_node_table);
  bdd_disable_reorder();
  g_huge_pages = settings.huge_pages;
  g_stats.huge_pages = g_huge_pages && advise_huge_pages();
  g_max_increase = settings.max_increase;
  g_growth_percent = settings.growth_percent;
  if (settings.max_increase != 0)
    bdd_setmaxincrease(to_int_setting(settings.max_increase, "max increase"));
  set_next_growth(0, bdd_getallocnum());
  if (settings.min_free_percent != 0)
    bdd_setminfreenodes(static_cast<int>(std::min(settings.min_free_percent, 90U)));
  g_max_nodes = 0;
  g_memory_budget = settings.memory_budget_bytes;
  g_budget_binds = false;
  g_machine_binds = false;
  g_machine_memory = settings.machine_memory;
  g_release_machine_memory = settings.release_machine_memory;
  if (settings.max_nodes != 0) {
    // BuDDy rounds the initial table up to a prime and wants a cap above it.
    const auto allocated = static_cast<std::uint64_t>(bdd_getallocnum());
    g_max_nodes = std::max(settings.max_nodes, allocated + 1);
    bdd_setmaxnodenum(to_int_setting(g_max_nodes, "--max-nodes"));
  }
  cap_table_to_memory_budget();
  try {
    check_error("bdd_init");
  } catch (...) {
    shut_down_buddy();
    g_manager_alive = false;
    throw;
  }
}

Manager::~Manager() {
  watchdog_.reset();  // its check reads BuDDy's globals
  shut_down_buddy();
  g_release_machine_memory = nullptr;  // it may refer to what outlives this manager no longer
  g_deadline = kNoDeadline;
  g_production_limit = kNoProductionLimit;
  g_pending_error = 0;
  g_manager_alive = false;
}

int Manager::add_variables(int count) {
  const int first = bdd_varnum();
  if (count <= 0) return first;
  if (first == 0) {
    bdd_setvarnum(count);
  } else {
    bdd_extvarnum(count);
  }
  check_error("bdd_setvarnum");
  // bdd_setvarnum mallocs BuDDy's reference stack (2 * (varnum + 2) node ids)
  // and leaves it uninitialised. Its PUSHREF(op(...)) macro may advance the
  // stack top before the nested operation has written the slot, so a garbage
  // collection inside that operation marks whatever the slot holds: a random
  // id crashes bdd_mark (seen in replace on a fresh table). Zero is bddfalse,
  // which marking skips; later stale ids stay below the table size, which
  // never shrinks, and bdd_mark ignores free nodes.
  std::fill(bddrefstack, bddrefstack + 2 * (static_cast<std::ptrdiff_t>(bdd_varnum()) + 2), 0);
  return first;
}

int Manager::variable_count() const {
  return bdd_varnum();
}

void Manager::sample_peak() {
  g_stats.peak_used_nodes =
      std::max(g_stats.peak_used_nodes, static_cast<std::uint64_t>(bdd_getnodenum()));
}

void Manager::reserve_free_nodes(std::uint64_t free_nodes) {
  for (;;) {
    const int size = bddnodesize;
    if (static_cast<std::uint64_t>(bddfreenum) >= free_nodes) return;
    cap_table_to_memory_budget();
    bdd_noderesize(1);
    check_error("bdd_noderesize");
    if (bddnodesize == size) return;  // at max_nodes or the memory budget
  }
}

void Manager::time_operations(bool on) {
  g_time_operations = on;
}

void Manager::set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) {
  g_deadline = deadline ? deadline->time_since_epoch().count() : kNoDeadline;
  arm_watchdog();
}

void Manager::set_production_limit(std::optional<std::uint64_t> nodes) {
  g_production_limit = nodes ? std::min(*nodes, kNoProductionLimit - 1) : kNoProductionLimit;
  arm_watchdog();
}

void Manager::arm_watchdog() {
  g_limit_tripped = false;
  const bool any = g_deadline != kNoDeadline || g_production_limit != kNoProductionLimit;
  if (any && !watchdog_) {
    watchdog_ = std::make_unique<Watchdog>(limit_poll_period_, force_collection_past_limit);
  }
  if (watchdog_) watchdog_->arm(any);
}

std::uint64_t Manager::nodes_produced() const {
  return static_cast<std::uint64_t>(bddproduced);
}

ManagerStats Manager::stats() const {
  ManagerStats out = g_stats;
  out.node_table_size = static_cast<std::uint64_t>(bdd_getallocnum());
  out.used_nodes = static_cast<std::uint64_t>(bdd_getnodenum());
  out.peak_used_nodes = std::max(out.peak_used_nodes, out.used_nodes);
  out.peak_live_nodes =
      std::max(out.peak_live_nodes, out.peak_used_nodes == 0 ? 0 : out.peak_live_nodes);
  out.variables = static_cast<std::uint64_t>(bdd_varnum());
  out.memory_budget_bytes = g_memory_budget;
  out.nodes_produced = nodes_produced();
  for (const TimedKind& k : g_operation_times)
    out.operation_times.push_back({k.name, k.calls, k.seconds});
  return out;
}

}  // namespace refract::bdd
