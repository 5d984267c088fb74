#include "reflection/mode.hpp"

#include <stdexcept>

namespace refract::reflection {

namespace {

constexpr const char* kTamiflexPrefix = "tamiflex=";
constexpr const char* kSolarTamiflexPrefix = "solar+tamiflex=";

}  // namespace

std::optional<std::filesystem::path> Mode::rule_file(const std::filesystem::path& rules_dir) const {
  switch (kind) {
    case ModeKind::kNone:
      return std::nullopt;
    case ModeKind::kStrings:
      return rules_dir / "strings.datalog";
    case ModeKind::kProbe:
      return rules_dir / "probe.datalog";
    case ModeKind::kSolar:
      return rules_dir / "solar.datalog";
    case ModeKind::kTamiflex:
      return rules_dir / "tamiflex.datalog";
    case ModeKind::kSolarTamiflex:
      return rules_dir / "solar-tamiflex.datalog";
  }
  return std::nullopt;
}

std::string Mode::to_string() const {
  switch (kind) {
    case ModeKind::kNone:
      return "none";
    case ModeKind::kStrings:
      return "strings";
    case ModeKind::kProbe:
      return "probe";
    case ModeKind::kSolar:
      return "solar";
    case ModeKind::kTamiflex:
      return kTamiflexPrefix + log->string();
    case ModeKind::kSolarTamiflex:
      return kSolarTamiflexPrefix + log->string();
  }
  return "?";
}

Mode parse_mode(const std::string& text, const std::string& option) {
  Mode mode;
  if (text == "none") {
    mode.kind = ModeKind::kNone;
  } else if (text == "strings") {
    mode.kind = ModeKind::kStrings;
  } else if (text == "probe") {
    mode.kind = ModeKind::kProbe;
  } else if (text == "solar") {
    mode.kind = ModeKind::kSolar;
  } else if (text.rfind(kTamiflexPrefix, 0) == 0 || text.rfind(kSolarTamiflexPrefix, 0) == 0) {
    const bool solar = text.rfind(kSolarTamiflexPrefix, 0) == 0;
    mode.kind = solar ? ModeKind::kSolarTamiflex : ModeKind::kTamiflex;
    const std::string file =
        text.substr(std::string(solar ? kSolarTamiflexPrefix : kTamiflexPrefix).size());
    if (file.empty())
      throw std::invalid_argument(option + " " + text + ": the TamiFlex log file is missing");
    mode.log = file;
  } else {
    throw std::invalid_argument("unknown " + option + " value '" + text +
                                "' (expected none, strings, probe, solar, tamiflex=FILE or "
                                "solar+tamiflex=FILE)");
  }
  return mode;
}

}  // namespace refract::reflection
