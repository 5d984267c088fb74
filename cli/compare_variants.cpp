#include "cli/compare_variants.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <set>
#include <sstream>

#include "cli/analyze_arguments.hpp"

namespace refract::cli {

namespace po = boost::program_options;

namespace {

// A name is a folder of OUT/runs: it starts with a letter or digit, so that "." and ".." are
// not names.
bool valid_name(const std::string& name) {
  return !name.empty() && std::isalnum(static_cast<unsigned char>(name.front())) &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
         });
}

std::vector<std::string> split_white_space(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

[[noreturn]] void bad_encoding(const std::string& text, const std::string& why) {
  throw po::error("--encoding '" + text + "': " + why);
}

}  // namespace

const std::vector<std::string>& options_compare_owns() {
  // clang-format off
  static const std::vector<std::string> owned = {
      "help", "classpath", "jdk", "skip-bad-classes", "main", "out", "dump", "dump-bdd",
      "rule-stats", "quiet", "reflection", "reflection-annotations", "reflection-budget",
      "reflection-rules", "closed-world", "time-limit", "max-memory"};
  // clang-format on
  return owned;
}

EncodingVariant parse_encoding(const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos) bad_encoding(text, "expected NAME=OPTIONS");
  EncodingVariant variant;
  variant.text = text;
  variant.name = text.substr(0, equals);
  if (!valid_name(variant.name)) {
    bad_encoding(
        text,
        "the variant name '" + variant.name +
            "' is not a word of letters, digits, '-', '_' and '.' starting with a letter or digit");
  }
  variant.options = split_white_space(text.substr(equals + 1));
  // A word that is neither an option nor the value after one (every option a variant may set
  // takes a value) would be a positional argument, which boost reports without naming it.
  bool value_expected = false;
  for (const std::string& word : variant.options) {
    if (word.front() == '-') {
      value_expected = word.find('=') == std::string::npos;
    } else if (value_expected) {
      value_expected = false;
    } else {
      bad_encoding(text, "'" + word + "' is not an option");
    }
  }
  po::parsed_options parsed(nullptr);
  try {
    parsed = po::command_line_parser(variant.options).options(analyze_options()).run();
  } catch (const po::error& e) {
    bad_encoding(text, e.what());
  }
  const auto& owned = options_compare_owns();
  for (const po::option& option : parsed.options) {
    if (option.string_key.empty() || option.position_key >= 0) {
      bad_encoding(text, "'" + option.original_tokens.front() + "' is not an option");
    }
    if (std::find(owned.begin(), owned.end(), option.string_key) != owned.end()) {
      bad_encoding(text, "--" + option.string_key +
                             " is not an encoding option: compare sets it for every variant");
    }
    if (option.string_key == "context") variant.sets_context = true;
  }
  return variant;
}

std::vector<EncodingVariant> parse_encodings(const std::vector<std::string>& texts) {
  if (texts.empty()) throw po::error("give at least one --encoding NAME=OPTIONS");
  std::vector<EncodingVariant> variants;
  std::set<std::string> names;
  for (const std::string& text : texts) {
    variants.push_back(parse_encoding(text));
    if (!names.insert(variants.back().name).second)
      bad_encoding(text, "the variant name '" + variants.back().name + "' is used twice");
  }
  return variants;
}

}  // namespace refract::cli
