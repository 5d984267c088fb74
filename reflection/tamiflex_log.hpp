// TamiFlex's reflection log (refl.log): read in full, with every line checked, and written in
// the subset Soot's `cg` option `reflection-log` reads, as refract's export for Soot, Doop and
// Tai-e.
//
// Format (../shared/FORMATS.md; TamiFlex's PersistedLogEntry.toString() in plast-lab/tamiflex,
// PlayOutAgent/rtlib/de/bodden/tamiflex/playout/rt/): one line per distinct reflective access,
//   KIND;TARGET;CALLER;LINE;META;COUNT
// KIND a label of TamiFlex's Kind enum (`Class.forName`, `Method.getName`, ...); TARGET a class
// name, an array type (`int[]`) or a Soot signature, by KIND; CALLER `declaring.Class.method`
// of the calling frame; LINE its source line, empty without a line-number table; META
// `isAccessible=true|false` for member kinds, else empty; COUNT how often, empty when not
// counted. A class target that is an array may be written as Class.getName() writes it,
// `[La.B;`, whose ';' is then part of TARGET, not a separator.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reflection/api.hpp"
#include "support/error.hpp"

namespace refract::reflection {

struct LogEntry {
  std::string kind_text;        // KIND as written: also the kinds refract does not model
  std::optional<ApiKind> kind;  // kind_from_log_name(kind_text)
  std::string target;           // TARGET as written
  std::string caller;           // CALLER as written
  std::optional<std::uint32_t> line;
  std::string meta;
  std::optional<std::uint64_t> count;
  SourceLocation where;  // the line's file and number (column 0); nothing for made-up entries
};

// What TARGET must be for a KIND.
enum class TargetShape {
  kType,         // a class or array type: Class.forName, Class.getMethods, Array.newInstance, ...
  kMethod,       // a Soot method signature: Method.*, Class.getMethod, ...
  kConstructor,  // a Soot signature of an <init>: Constructor.*
  kField,        // a Soot field signature: Field.*, Class.getField, ...
  kAny,          // a KIND refract does not know: any of the above
};
TargetShape target_shape(std::string_view kind_text);

// Every line of the log at `path`, in file order; empty lines are skipped, a trailing '\r' is
// dropped. A malformed line is an InputError at FILE:LINE:COL saying what is wrong.
std::vector<LogEntry> read_tamiflex_log(const std::filesystem::path& path);
// The same for log text already in memory; `file` names it in errors.
std::vector<LogEntry> parse_tamiflex_log(std::string_view text, const std::string& file);

// The kinds Soot's reflection-log option reads (soot ReflectionTraceInfo); older Soot versions
// fail on any other kind.
bool is_soot_log_kind(std::string_view kind_text);

struct LogWriteCounts {
  std::size_t lines = 0;    // lines written
  std::size_t skipped = 0;  // entries of kinds Soot does not read, left out
};

// Writes the entries of Soot's kinds to `path`, atomically: one line per distinct (KIND,
// TARGET, CALLER, LINE), META the first in byte order among the merged entries, COUNT their
// sum (empty when none has one), lines sorted by byte order as TamiFlex sorts them. An entry
// that could not be read back (a field holding a separator, a malformed TARGET) is a
// std::invalid_argument before anything is written; a file that cannot be written is an
// InputError, and leaves nothing behind.
LogWriteCounts write_tamiflex_log(const std::filesystem::path& path,
                                  std::span<const LogEntry> entries);

}  // namespace refract::reflection
