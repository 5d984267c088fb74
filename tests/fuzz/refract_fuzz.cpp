// refract_fuzz: the mutation fuzzer that bench/fuzz.sh runs under AddressSanitizer and UBSan
// (not a test). It loads seeds from a corpus, derives input I from (--seed, I) alone, runs
// each input through the zip reader, the class-file parser, the bytecode decoder and the IR
// builder (tests/frontend/class_mutator.hpp), and counts the outcomes:
//   accepted  every stage succeeded;
//   rejected  an InputError located in the input (the expected outcome of most mutations);
//   bugs      anything else short of a crash (another exception, a wrong-tag lookup, an error
//             located outside the input, malformed IR): the input is saved, the run goes on.
// A sanitizer report or a fatal signal saves the input being run and prints "CRASH input I";
// an input running longer than --time-limit saves it and prints "HANG input I", then exits 3.
// Either way a RESULT line with the counts so far comes last, so that a caller can resume at
// --first I+1 and add up.
//
// Corpus: --corpus names files or folders (searched recursively, in name order): *.class files
// are class seeds; *.jar and *.zip files are archive seeds, mutated as wholes or repacked with
// one entry mutated; from each *.jmod, --jmod-sample classes spread over its name list become
// class seeds.
//
// Usage: refract_fuzz --corpus PATH [--corpus PATH...] [--inputs N] [--first I] [--seed S]
//                     [--jmod-sample K] [--time-limit SECONDS] [--crash-dir DIR] [--label NAME]
//                     [--stall-at I] [--crash-at I]
// --stall-at and --crash-at make input I hang or crash (a heap overflow under AddressSanitizer,
// abort() otherwise), to check that the reports work.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli/java_inputs.hpp"
#include "frontend/class_mutator.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define REFRACT_FUZZ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REFRACT_FUZZ_ASAN 1
#endif
#endif
#ifdef REFRACT_FUZZ_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace {

namespace fs = std::filesystem;
using refract::frontend::testing::ClassSeed;
using refract::frontend::testing::Random;
namespace fz = refract::frontend::testing;
using Bytes = std::vector<std::uint8_t>;
using Clock = std::chrono::steady_clock;

// --- State the crash and hang reports read --------------------------------------------------
// Written by the main thread; read by the watchdog thread and by the crash handlers, which
// only use async-signal-safe calls (open, write, close).

std::atomic<std::uint64_t> g_index{0};             // the input being run
std::atomic<std::int64_t> g_started_ns{0};         // when it started; 0 between inputs
std::atomic<const std::uint8_t*> g_data{nullptr};  // its bytes
std::atomic<std::size_t> g_size{0};
std::atomic<std::uint64_t> g_done{0}, g_accepted{0}, g_rejected{0}, g_bugs{0}, g_methods{0};
std::atomic<std::uint64_t> g_classes{0}, g_parsed{0};
std::atomic<std::uint64_t> g_slowest_us{0}, g_slowest_input{0};
std::atomic<bool> g_finished{false};
char g_dump_path[4096] = {};  // where the input being run is saved if it crashes or hangs
std::atomic<bool> g_reported{false};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

void put(const char* text) {
  for (std::size_t n = std::strlen(text); n > 0;) {
    const ssize_t w = ::write(2, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<std::size_t>(w);
  }
}

void put_number(std::uint64_t value) {
  char digits[24];
  char* p = digits + sizeof digits;
  *--p = '\0';
  do {
    *--p = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  put(p);
}

void put_result() {
  put("RESULT inputs=");
  put_number(g_done.load());
  put(" accepted=");
  put_number(g_accepted.load());
  put(" rejected=");
  put_number(g_rejected.load());
  put(" bugs=");
  put_number(g_bugs.load());
  put(" classes=");
  put_number(g_classes.load());
  put(" parsed=");
  put_number(g_parsed.load());
  put(" methods=");
  put_number(g_methods.load());
  put(" slowest_us=");
  put_number(g_slowest_us.load());
  put(" slowest_input=");
  put_number(g_slowest_input.load());
  put("\n");
}

// Saves the input being run and reports it as `kind` ("CRASH", "HANG"); once per process.
void report_current(const char* kind) {
  if (g_reported.exchange(true)) return;
  if (g_finished.load()) {
    put(kind);
    put(" after the last input (e.g. a leak report)\n");
    put_result();
    return;
  }
  const std::uint8_t* data = g_data.load();
  const std::size_t size = g_size.load();
  const int fd = ::open(g_dump_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    for (std::size_t off = 0; data != nullptr && off < size;) {
      const ssize_t w = ::write(fd, data + off, size - off);
      if (w <= 0) break;
      off += static_cast<std::size_t>(w);
    }
    ::close(fd);
  }
  put(kind);
  put(" input ");
  put_number(g_index.load());
  put(" saved to ");
  put(g_dump_path);
  put("\n");
  put_result();
}

#ifdef REFRACT_FUZZ_ASAN
void on_sanitizer_death() {
  report_current("CRASH");
}
#endif

void on_fatal_signal(int sig) {
  report_current("CRASH");
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Every 20 ms: has the current input run longer than the limit?
void watchdog(double limit_seconds) {
  const auto limit_ns = static_cast<std::int64_t>(limit_seconds * 1e9);
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::int64_t started = g_started_ns.load();
    if (started != 0 && now_ns() - started > limit_ns) {
      put("HANG: input over the time limit of ");
      put_number(static_cast<std::uint64_t>(limit_seconds));
      put(" s\n");
      report_current("HANG");
      ::_exit(3);
    }
  }
}

// --- Seeds -------------------------------------------------------------------------------------

struct ArchiveSeed {
  std::string name;
  Bytes bytes;
  bool jmod = false;
  std::vector<std::string> entry_names;  // in archive order
  std::map<std::string, Bytes> entries;
  std::map<std::string, ClassSeed> classes;  // the valid class entries, with their Code ranges
};

struct Corpus {
  std::vector<ClassSeed> classes;
  std::vector<ArchiveSeed> archives;
};

void add_class_seed(Corpus& corpus, std::string name, Bytes bytes) {
  try {
    corpus.classes.push_back(fz::class_seed(std::move(name), std::move(bytes)));
  } catch (const refract::InputError& e) {
    std::cerr << "not a seed (does not parse): " << e.what() << '\n';
  }
}

void add_archive_seed(Corpus& corpus, const fs::path& file) {
  ArchiveSeed seed;
  seed.name = file.filename().string();
  seed.bytes = fz::read_file(file);
  seed.jmod = seed.bytes.size() >= 4 && seed.bytes[0] == 'J' && seed.bytes[1] == 'M';
  const refract::frontend::ZipArchive archive =
      refract::frontend::ZipArchive::open_buffer(seed.bytes, seed.name);
  for (std::size_t i = 0; i < archive.entries().size(); ++i) {
    const std::string& entry = archive.entries()[i];
    if (entry.ends_with("/")) continue;
    seed.entry_names.push_back(entry);
    seed.entries[entry] = archive.read(i);
    if (entry.ends_with(".class")) {
      try {
        seed.classes.emplace(entry, fz::class_seed(archive.origin(i), seed.entries[entry]));
      } catch (const refract::InputError& e) {
        std::cerr << "archive entry is not a valid class: " << e.what() << '\n';
      }
    }
  }
  corpus.archives.push_back(std::move(seed));
}

// `sample` classes spread evenly over the jmod's sorted class names.
void add_jmod_classes(Corpus& corpus, const fs::path& file, std::size_t sample) {
  refract::frontend::ClassPath path;
  path.add(file);
  const std::vector<std::string> names = path.class_names(false);
  const std::size_t count = std::min(sample, names.size());
  for (std::size_t k = 0; k < count; ++k) {
    const auto bytes = path.read(names[k * names.size() / count]);
    if (bytes) add_class_seed(corpus, bytes->origin, bytes->bytes);
  }
}

void load(Corpus& corpus, const fs::path& root, std::size_t jmod_sample) {
  std::vector<fs::path> files;
  if (fs::is_directory(root)) {
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(root);
  }
  for (const fs::path& file : files) {
    const std::string ext = file.extension().string();
    if (ext == ".class") {
      add_class_seed(corpus, file.string(), fz::read_file(file));
    } else if (ext == ".jar" || ext == ".zip") {
      add_archive_seed(corpus, file);
    } else if (ext == ".jmod") {
      add_jmod_classes(corpus, file, jmod_sample);
    }
  }
}

// --- Inputs ------------------------------------------------------------------------------------

enum class InputKind { kClass, kArchive, kArchiveFile };

struct Input {
  InputKind kind = InputKind::kClass;
  std::string name;  // the origin (class) or archive name used in messages
  std::string extension;
  Bytes bytes;
  const ArchiveSeed* archive = nullptr;  // the seed of an archive input
};

Bytes mutated_class(const ClassSeed& seed, Random& random) {
  if (random.below(2) == 0) return fz::mutate_code(seed, random);
  Bytes bytes = seed.bytes;
  for (std::size_t n = 1 + random.below(3); n > 0; --n) fz::mutate_bytes(bytes, random);
  return bytes;
}

// The seed archive with one class entry mutated and up to three other entries, repacked as a
// stored zip (or jmod) with correct CRCs, so that the mutated class reaches the parser; now
// and then with a raw edit of the archive on top.
Bytes repacked_archive(const ArchiveSeed& seed, Random& random) {
  refract::test::ZipEntries entries;
  std::vector<std::string> picked;
  if (!seed.classes.empty()) {
    auto it = seed.classes.begin();
    std::advance(it, static_cast<long>(random.below(seed.classes.size())));
    entries.push_back({it->first, mutated_class(it->second, random)});
    picked.push_back(it->first);
  }
  for (std::size_t n = random.below(4); n > 0 && !seed.entry_names.empty(); --n) {
    const std::string& name = seed.entry_names[random.below(seed.entry_names.size())];
    if (std::find(picked.begin(), picked.end(), name) != picked.end()) continue;
    entries.push_back({name, seed.entries.at(name)});
    picked.push_back(name);
  }
  Bytes bytes = seed.jmod ? refract::test::jmod_bytes(entries) : refract::test::zip_bytes(entries);
  if (random.below(4) == 0) fz::mutate_bytes(bytes, random);
  return bytes;
}

Input make_input(const Corpus& corpus, std::uint64_t seed, std::uint64_t index) {
  Random random(seed * 0x9E3779B97F4A7C15ull + index * 0xD1B54A32D192ED03ull + 1);
  const std::size_t total = corpus.classes.size() + corpus.archives.size();
  const std::size_t pick = random.below(total);
  Input input;
  if (pick < corpus.classes.size()) {
    const ClassSeed& s = corpus.classes[pick];
    input.name = s.name;
    input.extension = ".class";
    input.bytes = mutated_class(s, random);
    return input;
  }
  const ArchiveSeed& s = corpus.archives[pick - corpus.classes.size()];
  input.archive = &s;
  input.name = s.name;
  input.extension = s.jmod ? ".jmod" : ".jar";
  input.kind = InputKind::kArchive;
  if (random.below(2) == 0) {
    input.bytes = repacked_archive(s, random);
  } else {
    input.bytes = s.bytes;
    for (std::size_t n = 1 + random.below(3); n > 0; --n) fz::mutate_bytes(input.bytes, random);
    // One raw mutant in 20 goes through a file and a ClassPath: the index and lazy reads.
    if (random.below(20) == 0) input.kind = InputKind::kArchiveFile;
  }
  return input;
}

struct Outcome {
  bool rejected = false;
  std::size_t classes = 0;  // class inputs and class entries run
  std::size_t parsed = 0;   // ... of which parsed
  std::size_t methods = 0;  // methods translated
  std::string bug;
};

Outcome run(const Input& input, const fs::path& scratch) {
  const fz::ClassChecks checks{.decode = true, .build_ir = true};
  Outcome out;
  if (input.kind == InputKind::kClass) {
    const fz::ClassOutcome c = fz::exercise_class(input.bytes, input.name, checks);
    out.rejected = !c.error.empty();
    out.classes = 1;
    out.parsed = c.parsed ? 1 : 0;
    out.methods = c.methods_translated;
    out.bug = c.bug;
    return out;
  }
  fz::ArchiveOutcome a;
  if (input.kind == InputKind::kArchive) {
    // Entries the mutation left as they were are read (the zip reader must cope with the
    // damage around them) but not parsed again.
    a = fz::exercise_archive(input.bytes, input.name, checks,
                             [&](const std::string& entry, const Bytes& bytes) {
                               const auto it = input.archive->entries.find(entry);
                               return it != input.archive->entries.end() && it->second == bytes;
                             });
  } else {
    const fs::path file = scratch / ("input" + input.extension);
    fz::write_file(file, input.bytes);
    a = fz::exercise_class_path(file, checks);
  }
  out.rejected = !a.error.empty();
  out.classes = a.classes;
  out.parsed = a.classes_parsed;
  out.methods = a.methods_translated;
  out.bug = a.bug;
  return out;
}

int usage(const std::string& message) {
  std::cerr << "refract_fuzz: " << message
            << "\nusage: refract_fuzz --corpus PATH [--corpus PATH...] [--inputs N] [--first I] "
               "[--seed S] [--jmod-sample K] [--time-limit SECONDS] [--crash-dir DIR] "
               "[--label NAME] [--stall-at I] [--crash-at I]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> roots;
  std::uint64_t inputs = 1000, first = 0, seed = 1, jmod_sample = 100;
  std::int64_t stall_at = -1, crash_at = -1;
  double time_limit = 10;
  fs::path crash_dir = ".";
  std::string label = "fuzz";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) return usage("missing value of " + arg);
    const std::string value = argv[++i];
    try {
      if (arg == "--corpus") {
        roots.push_back(value);
      } else if (arg == "--inputs") {
        inputs = std::stoull(value);
      } else if (arg == "--first") {
        first = std::stoull(value);
      } else if (arg == "--seed") {
        seed = std::stoull(value);
      } else if (arg == "--jmod-sample") {
        jmod_sample = std::stoull(value);
      } else if (arg == "--time-limit") {
        time_limit = std::stod(value);
      } else if (arg == "--crash-dir") {
        crash_dir = value;
      } else if (arg == "--label") {
        label = value;
      } else if (arg == "--stall-at") {
        stall_at = std::stoll(value);
      } else if (arg == "--crash-at") {
        crash_at = std::stoll(value);
      } else {
        return usage("unknown option " + arg);
      }
    } catch (const std::logic_error&) {
      return usage("bad value of " + arg + ": " + value);
    }
  }
  if (roots.empty()) return usage("missing --corpus");

  Corpus corpus;
  try {
    for (const fs::path& root : roots) load(corpus, root, jmod_sample);
  } catch (const std::exception& e) {
    std::cerr << "refract_fuzz: cannot load the corpus: " << e.what() << '\n';
    return 2;
  }
  if (corpus.classes.empty() && corpus.archives.empty()) return usage("the corpus has no seed");
  std::cerr << "seeds: " << corpus.classes.size() << " classes, " << corpus.archives.size()
            << " archives\n";

  fs::create_directories(crash_dir);
  const fz::TempDir scratch;
#ifdef REFRACT_FUZZ_ASAN
  __sanitizer_set_death_callback(on_sanitizer_death);
#else
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) ::signal(sig, on_fatal_signal);
#endif
  ::signal(SIGABRT, on_fatal_signal);
  std::thread(watchdog, time_limit).detach();

  for (std::uint64_t index = first; index < first + inputs; ++index) {
    const Input input = make_input(corpus, seed, index);
    const std::string dump = (crash_dir / (label + "-seed" + std::to_string(seed) + "-input" +
                                           std::to_string(index) + input.extension))
                                 .string();
    std::snprintf(g_dump_path, sizeof g_dump_path, "%s", dump.c_str());
    g_data = input.bytes.data();
    g_size = input.bytes.size();
    g_index = index;
    const std::int64_t started = now_ns();
    g_started_ns = started;
    if (static_cast<std::int64_t>(index) == stall_at) {
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    if (static_cast<std::int64_t>(index) == crash_at) {
#ifdef REFRACT_FUZZ_ASAN
      std::vector<std::uint8_t> small(1);
      std::cerr << int(*(static_cast<volatile std::uint8_t*>(small.data()) + 64)) << '\n';
#else
      std::abort();
#endif
    }
    const Outcome outcome = run(input, scratch.path());
    const std::int64_t elapsed_us = (now_ns() - started) / 1000;
    g_started_ns = 0;

    if (!outcome.bug.empty()) {
      fz::write_file(dump, input.bytes);
      std::cerr << "BUG input " << index << " (" << input.name << ") saved to " << dump << ": "
                << outcome.bug << '\n';
      ++g_bugs;
    } else if (outcome.rejected) {
      ++g_rejected;
    } else {
      ++g_accepted;
    }
    g_methods += outcome.methods;
    g_classes += outcome.classes;
    g_parsed += outcome.parsed;
    if (static_cast<std::uint64_t>(elapsed_us) > g_slowest_us) {
      g_slowest_us = static_cast<std::uint64_t>(elapsed_us);
      g_slowest_input = index;
    }
    ++g_done;
  }
  g_finished = true;
  std::cerr.flush();
  put_result();
  return g_bugs == 0 ? 0 : 1;
}
