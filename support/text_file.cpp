#include "support/text_file.hpp"

#include <fstream>
#include <iterator>

#include "support/error.hpp"

namespace refract {

std::string read_text_file(const std::filesystem::path& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path.string()}, "cannot open " + std::string(what));
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw InputError({path.string()}, "cannot read " + std::string(what));
  return text;
}

}  // namespace refract
