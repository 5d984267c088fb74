// `refract analyze --reflection MODE`: which reflection analysis runs, and the rule file that
// is it (reflection/*.datalog).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace refract::reflection {

enum class ModeKind {
  kNone,           // reflective calls have no targets (the points-to rules alone)
  kStrings,        // constant names only (Livshits et al.)
  kProbe,          // Solar's light variant (Solar paper, Sec. 5.7)
  kSolar,          // Solar (Sec. 4-6)
  kTamiflex,       // the targets of a TamiFlex log
  kSolarTamiflex,  // Solar's and the log's
};

struct Mode {
  ModeKind kind = ModeKind::kSolar;
  std::optional<std::filesystem::path> log;  // tamiflex=FILE, solar+tamiflex=FILE

  // The mode's entry rule file in `rules_dir`; none for kNone.
  std::optional<std::filesystem::path> rule_file(const std::filesystem::path& rules_dir) const;
  // As written on the command line: "solar", "tamiflex=refl.log", ...
  std::string to_string() const;
};

// Parses the value of `option`: none, strings, probe, solar, tamiflex=FILE,
// solar+tamiflex=FILE. std::invalid_argument names the option and the value otherwise.
Mode parse_mode(const std::string& text, const std::string& option);

}  // namespace refract::reflection
