// The variants of `refract compare`: each `--encoding NAME=OPTIONS` names a variant and the
// `refract analyze` options it sets, in either form (`--heap-numbering first-seen` or
// `--heap-numbering=first-seen`); `base=` sets none.
#pragma once

#include <string>
#include <vector>

namespace refract::cli {

struct EncodingVariant {
  std::string name;                  // letters, digits, '-', '_', '.'; first a letter or digit
  std::string text;                  // the --encoding argument as given
  std::vector<std::string> options;  // the analyze options, split at white space
  bool sets_context = false;         // it sets --context, which then overrides compare's
};

// The options compare itself owns (the program, the reflection analysis, the limits and where
// results go): a variant may not set them, since the facts are extracted once for all.
const std::vector<std::string>& options_compare_owns();

// Parses one --encoding argument: its name, and options analyze knows that compare does not
// own. A bad text throws boost::program_options::error naming the --encoding text and the
// option at fault; the values themselves are checked when analyze's parser reads them
// (compare_command.cpp).
EncodingVariant parse_encoding(const std::string& text);

// The variants of every --encoding, in order (the first is the baseline); a usage error for
// none or for a repeated name.
std::vector<EncodingVariant> parse_encodings(const std::vector<std::string>& texts);

}  // namespace refract::cli
