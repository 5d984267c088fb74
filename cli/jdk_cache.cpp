#include "cli/jdk_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>
#include <vector>

#include "cli/cache_trim.hpp"
#include "cli/jdk_cache_build.hpp"
#include "cli/jdk_facts_cache.hpp"
#include "frontend/class_path.hpp"
#include "frontend/extractor_snapshot.hpp"
#include "support/atomic_file.hpp"
#include "support/bit_width.hpp"
#include "support/content_hash.hpp"
#include "support/error.hpp"
#include "support/stopwatch.hpp"

namespace refract::cli {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kFormat = "refract JDK fixpoint cache 1";

std::vector<fs::path> sorted_files(const fs::path& dir, bool recursive) {
  std::vector<fs::path> files;
  if (recursive) {
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file()) files.push_back(e.path());
  } else {
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Per domain of `facts`: its first `sizes` elements' names hashed, or all of them.
std::string domain_line(const frontend::FactDomain& domain, std::uint64_t size) {
  ContentHash hash;
  for (std::uint64_t i = 0; i < size; ++i) hash.add(domain.names()[i]);
  return domain.name() + "\t" + std::to_string(size) + "\t" + hash.hex();
}

// The DOMAINS file of an entry: every domain of the JDK's part, its size and names' hash.
std::string domains_text(const frontend::FactDatabase& facts) {
  std::string text;
  for (const frontend::FactDomain& d : facts.domains()) text += domain_line(d, d.size()) + "\n";
  return text;
}

// Whether `facts` number their first elements as the entry's DOMAINS say; else why not.
std::optional<std::string> numbering_differs(const fs::path& domains_file,
                                             const frontend::FactDatabase& facts) {
  std::ifstream in(domains_file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t size = 0;
    fields >> name >> size;
    const frontend::FactDomain& domain = facts.domain(name);
    if (domain.size() < size || domain_line(domain, size) != line) {
      return "the program's facts number the JDK's part of domain " + name +
             " otherwise than the JDK alone (classes on the class path that the JDK names, or "
             "an option that merges objects across the JDK and the program)";
    }
  }
  return std::nullopt;
}

std::string manifest_text(const fs::path& entry) {
  std::string text;
  for (const fs::path& file : sorted_files(entry / "state", false))
    text += "state/" + file.filename().string() + "\t" + file_hash(file) + "\n";
  text += "DOMAINS\t" + file_hash(entry / "DOMAINS") + "\n";
  return text;
}

// Why the entry cannot be used (a missing or changed file), or nothing.
std::optional<std::string> corrupt(const fs::path& entry) {
  std::ifstream in(entry / "MANIFEST");
  if (!in) return "no MANIFEST";
  std::map<std::string, std::string> listed;
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos) return "a MANIFEST line without a hash";
    listed[line.substr(0, tab)] = line.substr(tab + 1);
  }
  if (listed.count("DOMAINS") == 0) return "the MANIFEST does not list DOMAINS";
  std::size_t state_files = 0;
  for (const fs::path& file : sorted_files(entry / "state", false)) {
    const std::string name = "state/" + file.filename().string();
    if (listed.count(name) == 0) return name + " is not in the MANIFEST";
    ++state_files;
  }
  if (state_files + 1 != listed.size()) return "a file the MANIFEST lists is missing";
  for (const auto& [name, hash] : listed) {
    if (!fs::is_regular_file(entry / name)) return name + " is missing";
    if (file_hash(entry / name) != hash) return name + " does not match its checksum";
  }
  return std::nullopt;
}

void write_text(const fs::path& file, const std::string& text) {
  AtomicOutputFile out(file);
  out.stream() << text;
  out.commit();
}

// The cache folder `dir` cannot be written (`why`): a bad input where the run named it with
// --cache-dir; at the default place, which the user did not choose, a warning, and the run goes
// on without the fixpoint (status "off: WHY").
void cache_unwritable(JdkCacheUse& use, const AnalyzeArguments& args, const fs::path& dir,
                      const std::string& why) {
  if (args.cache_dir) throw InputError({dir.string()}, why);
  std::cerr << "warning: the JDK cache is off for this run: " << dir.string() << ": " << why
            << " (--cache-dir names another folder, --no-cache turns it off)\n";
  use.status = "off: " + why;
  use.key.clear();
}

// Solves the JDK's part alone with `args`' options into a new entry `entry`.
void build_entry(const AnalyzeArguments& args, const fs::path& entry, std::ostream* progress) {
  const fs::path building = building_folder(entry, ::getpid());
  fs::remove_all(building);
  fs::create_directories(building);
  try {
    AnalyzeInputs inputs;
    ClassPathArguments jdk_only = args.class_path;
    jdk_only.entries.clear();  // the JDK alone: what the application adds is not its part
    JdkFactsCache facts = jdk_facts_cache(args.class_path, entry.parent_path());
    inputs.program = extract_jdk_part(jdk_only, nullptr, &facts);
    PreparedAnalysis prepared = prepare_analysis(args, inputs, nullptr);
    pointsto::AnalysisOptions options = prepared.options;
    options.context_element_capacity = context_capacity(args, prepared.facts());
    options.domain_room = domain_room(prepared.facts());
    options.work_dir = building / "facts";
    options.state_dir = building / "state";
    options.read_results = false;
    options.rule_stats.reset();
    options.dumps.clear();
    options.progress = progress;
    pointsto::Analysis analysis(prepared.facts(), inputs.program->extractor->invocation_positions(),
                                options);
    analysis.run();
    fs::remove_all(building / "facts");
    write_text(building / "DOMAINS", domains_text(prepared.facts()));
    write_text(building / "MANIFEST", manifest_text(building));
    std::time_t now = std::time(nullptr);
    char created[32];
    std::strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    write_text(building / "INFO", std::string(kFormat) + "\ncreated\t" + created + "\nflavour\t" +
                                      args.context + "\njdk\t" +
                                      jdk_home(args.class_path).string() + "\n");
    std::error_code error;
    fs::rename(building, entry, error);
    // Another analysis put the same entry in place first: theirs serves as well as ours.
    if (error) fs::remove_all(building);
  } catch (...) {
    fs::remove_all(building);
    throw;
  }
}

}  // namespace

fs::path default_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0')
    return fs::path(xdg) / "refract";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return fs::path(home) / ".cache" / "refract";
  return fs::temp_directory_path() / "refract-cache";
}

std::optional<std::string> jdk_cache_unsupported(const AnalyzeArguments& args) {
  if (!args.jdk_cache) return kCacheNotUsed;
  if (args.reflection.mode.kind != reflection::ModeKind::kNone)
    return "reflection adds facts over the JDK's part that depend on the program; the cache "
           "serves --reflection none";
  const pointsto::ContextFlavour flavour =
      pointsto::parse_context_flavour(args.context, "--context");
  if (flavour.kind == pointsto::ContextKind::kCloning)
    return "cloning numbers the paths of the whole program's call graph, which the JDK alone "
           "does not fix; the cache serves insens, K-call+H, K-obj and K-type";
  // bench/README.md, "The JDK once from the seed's prefixes": each of the three ways to go on
  // from the fixpoint took longer than a run without it.
  if (flavour.kind == pointsto::ContextKind::kCall && flavour.heap_depth == 0)
    return "under call-site contexts without heap contexts a run from the JDK's fixpoint took "
           "longer than one without it (antlr 1-call: over 577 s against 149-290 s); the cache "
           "serves insens, K-call+H, K-obj and K-type";
  return std::nullopt;
}

namespace {

std::optional<std::string> context_element_domain(const AnalyzeArguments& args) {
  return pointsto::context_element_domain(
      pointsto::parse_context_flavour(args.context, "--context"));
}

}  // namespace

namespace {

// What an entry leaves for the program beside a domain's JDK part: twice it, rounded up to a
// power of two.
std::uint64_t twice_rounded_up(std::uint64_t jdk_part) {
  return std::uint64_t{1} << (bits_for_size(jdk_part) + 1);
}

}  // namespace

std::uint64_t context_capacity(const AnalyzeArguments& args, const frontend::FactDatabase& facts) {
  const std::optional<std::string> domain = context_element_domain(args);
  if (!domain) return 0;
  return twice_rounded_up(facts.jdk_part_size(*domain));
}

std::map<std::string, std::uint64_t> domain_room(const frontend::FactDatabase& facts) {
  std::map<std::string, std::uint64_t> room;
  for (const frontend::FactDomain& d : facts.domains())
    room[d.name()] = twice_rounded_up(facts.jdk_part_size(d.name()));
  return room;
}

namespace {

// Why the entry at `entry` cannot seed the run of `args` on `facts`: they number the JDK's part
// otherwise, or the program has more elements than the entry's context fields hold.
std::optional<std::string> cannot_serve(const fs::path& entry, const AnalyzeArguments& args,
                                        const frontend::FactDatabase& facts) {
  if (auto why = numbering_differs(entry / "DOMAINS", facts)) return why;
  const std::optional<std::string> domain = context_element_domain(args);
  const std::uint64_t capacity = context_capacity(args, facts);
  if (domain && facts.domain(*domain).size() > capacity) {
    return "the program has " + std::to_string(facts.domain(*domain).size()) + " elements of " +
           *domain + ", more than the " + std::to_string(capacity) +
           " the entry's context fields hold (twice the JDK's part, rounded up)";
  }
  return std::nullopt;
}

}  // namespace

std::string jdk_cache_key(const AnalyzeArguments& args) {
  ContentHash hash;
  hash.add(kFormat);
  hash.add_file("/proc/self/exe");  // this refract build
  hash.add(jmods_hash(args.class_path));
  for (const fs::path& rule : sorted_files(args.rules, true)) {
    hash.add(fs::relative(rule, args.rules).string());
    hash.add_file(rule);
  }
  // What changes the relations or the numbering; an --order, the limits and the output do not.
  std::ostringstream options;
  options << "context " << args.context << "\ncontext-bits "
          << (args.context_bits ? static_cast<int>(*args.context_bits) : -1) << "\nexceptions "
          << pointsto::to_string(args.exception_objects) << "\nbuilders "
          << pointsto::to_string(args.string_builders) << "\nprimitive arrays "
          << pointsto::to_string(args.primitive_arrays) << "\nallocated strings "
          << pointsto::to_string(args.allocated_strings) << "\ncoloring " << args.color_strings
          << "\nheap numbering " << pointsto::to_string(args.heap_numbering) << "\nreflection "
          << args.reflection.mode.to_string() << "\nskip bad classes "
          << args.class_path.skip_bad_classes << "\n";
  hash.add(options.str());
  return hash.hex();
}

JdkCacheUse start_jdk_cache(const AnalyzeArguments& args, std::ostream* progress) {
  JdkCacheUse use;
  if (const auto why = jdk_cache_unsupported(args)) {
    use.status = "off: " + *why;
    // Asked for and not given: a warning, not only a line of stats.json.
    if (args.jdk_cache_asked)
      std::cerr << "warning: the JDK cache is off for this run: " << *why << "\n";
    return use;
  }
  const fs::path dir = args.cache_dir ? fs::path(*args.cache_dir) : default_cache_dir();
  use.key = jdk_cache_key(args);
  use.entry = dir / use.key;
  use.status = "hit";
  if (fs::exists(use.entry)) {
    mark_cache_item_used(use.entry);  // first: a run trimming the cache now keeps it
    if (const auto why = corrupt(use.entry)) {
      std::cerr << "warning: the cached JDK fixpoint " << use.entry.string() << " is corrupt ("
                << *why << "): rebuilding it\n";
      fs::remove_all(use.entry);
      use.status = "rebuilt: " + *why;
    }
  } else {
    use.status = "built";
  }
  if (use.status == "hit") return use;
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) {
    cache_unwritable(use, args, dir, "cannot create the cache folder: " + error.message());
    return use;
  }
  const bool beside = args.cache_build_beside.value_or(std::thread::hardware_concurrency() >= 2);
  use.build = beside ? "beside" : "first";
  if (!beside) return use;
  if (progress) {
    *progress
        << "[cache] solving the JDK's start-up part alone into " << use.entry.string()
        << " in a second process; this run solves without it (--no-cache turns the cache off)\n";
  }
  const fs::path entry = use.entry;
  use.building = start_child(
      [&args, entry] {
        try {
          build_entry(args, entry, nullptr);
          return 0;
        } catch (const std::exception& e) {
          std::cerr << "warning: the JDK's fixpoint was not cached in " << entry.string() << ": "
                    << e.what() << "\n";
          return 1;
        }
      },
      std::nullopt);
  return use;
}

void use_jdk_cache(JdkCacheUse& use, const AnalyzeArguments& args,
                   const frontend::FactDatabase& facts, std::ostream* progress) {
  if (use.key.empty()) return;  // off
  if (facts.jdk_part_size("M") == 0) {
    use.status = "off: the class path has no JDK";
    return;
  }
  if (use.build == "beside") return;  // this run solves without it
  if (use.build == "first") {
    if (progress) {
      *progress << "[cache] solving the JDK's start-up part alone into " << use.entry.string()
                << "\n";
    }
    const auto start = Clock::now();
    try {
      build_entry(args, use.entry, progress);
    } catch (const fs::filesystem_error& e) {
      cache_unwritable(use, args, use.entry.parent_path(),
                       std::string("cannot write the cache: ") + e.what());
      return;
    }
    use.build_seconds = seconds_since(start);
  }
  if (const auto why = cannot_serve(use.entry, args, facts)) {
    use.status = "off: " + *why;
    return;
  }
  use.context_capacity = context_capacity(args, facts);
  use.domain_room = domain_room(facts);
  use.state = use.entry / "state";
  if (progress)
    *progress << "[cache] starting from " << use.state->string() << " (" << use.status << ")\n";
}

void finish_jdk_cache(JdkCacheUse& use, const AnalyzeArguments& args,
                      const frontend::FactDatabase& facts) {
  if (!use.building) return;
  const ChildOutcome outcome = wait_for_child(*use.building, 0);
  use.building.reset();
  use.build_seconds = outcome.seconds;
  if (!outcome.exit_code || *outcome.exit_code != 0) {
    if (outcome.signal) {
      std::cerr << "warning: the JDK's fixpoint was not cached: its solve ended by "
                << describe(outcome) << "\n";
    }
    use.status = "off: building the entry failed (" + describe(outcome) + ")";
    return;
  }
  // An entry that could not have served this run (as under first) says so alike; without a
  // JDK use_jdk_cache has said so already.
  if (facts.jdk_part_size("M") == 0) return;
  if (const auto why = cannot_serve(use.entry, args, facts)) use.status = "off: " + *why;
}

namespace {

// A facts file being written (support/atomic_file.hpp), or left half written by a run that was
// killed.
bool is_facts_temporary(const fs::path& file) {
  const std::string name = file.filename().string();
  const std::size_t mark = name.find(kAtomicTemporaryMark);
  return mark != std::string::npos && is_jdk_facts_file(name.substr(0, mark));
}

// An entry's name is a key (jdk_cache_key); a build in progress adds `.building-PID`, and an
// entry or facts file being trimmed (cli/cache_trim.hpp) `.trimming-PID`.
bool is_build_name(const std::string& name) {
  const std::size_t dot = name.find(kBuildingMark);
  if (dot != std::string::npos && is_cache_key(name.substr(0, dot))) return true;
  const std::size_t aside = name.find(kTrimmingMark);
  if (aside == std::string::npos) return false;
  const std::string item = name.substr(0, aside);
  return is_cache_key(item) || is_jdk_facts_file(item);
}

// A cached facts file (cli/jdk_facts_cache.hpp) as an entry: corrupt when it does not read.
JdkCacheEntry facts_entry(const fs::path& file) {
  JdkCacheEntry entry;
  entry.key = file.filename().string();
  entry.bytes = cached_item_bytes(file);
  entry.info = "the JDK's start-up facts";
  entry.last_used = last_used_text(file);
  try {
    frontend::read_extractor_snapshot(file);
  } catch (const std::exception& e) {
    entry.corrupt = e.what();
  }
  return entry;
}

}  // namespace

std::vector<JdkCacheEntry> list_jdk_cache(const fs::path& dir) {
  std::vector<JdkCacheEntry> entries;
  if (!fs::is_directory(dir)) return entries;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && is_jdk_facts_file(e.path())) {
      entries.push_back(facts_entry(e.path()));
      continue;
    }
    if (!e.is_directory() || !is_cache_key(name)) continue;
    JdkCacheEntry entry;
    entry.key = name;
    entry.last_used = last_used_text(e.path());
    entry.bytes = cached_item_bytes(e.path());
    std::ifstream info(e.path() / "INFO");
    std::string line;
    std::getline(info, line);  // the format line
    while (std::getline(info, line)) {
      std::replace(line.begin(), line.end(), '\t', ' ');
      entry.info += (entry.info.empty() ? "" : "; ") + line;
    }
    entry.corrupt = corrupt(e.path());
    entries.push_back(std::move(entry));
  }
  std::sort(entries.begin(), entries.end(),
            [](const JdkCacheEntry& a, const JdkCacheEntry& b) { return a.key < b.key; });
  return entries;
}

void keep_jdk_cache_within_limit(const AnalyzeArguments& args, std::ostream* progress) {
  if (!args.jdk_cache) return;
  const fs::path dir = args.cache_dir ? fs::path(*args.cache_dir) : default_cache_dir();
  const std::uint64_t limit_mib = args.cache_limit_mib.value_or(kDefaultCacheLimitMib);
  const std::vector<fs::path> removed =
      trim_cache(dir, limit_mib << 20, fs::file_time_type::clock::now(), kCacheTrimGuard);
  if (progress && !removed.empty()) {
    *progress << "[cache] removed " << removed.size() << " least recently used entries to keep "
              << dir.string() << " within " << limit_mib << " MiB (--cache-limit)\n";
  }
}

std::size_t clear_jdk_cache(const fs::path& dir) {
  std::size_t removed = 0;
  if (!fs::is_directory(dir)) return removed;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (!is_cache_key(name) && !is_build_name(name) && !is_jdk_facts_file(e.path()) &&
        !is_facts_temporary(e.path()))
      continue;
    fs::remove_all(e.path());
    ++removed;
  }
  return removed;
}

}  // namespace refract::cli
