#include "support/output_paths.hpp"

#include "support/error.hpp"

namespace refract {

namespace fs = std::filesystem;

void check_output_directory(const fs::path& directory) {
  std::error_code error;
  const fs::path absolute = fs::absolute(directory, error);
  for (fs::path p = error ? directory : absolute; !p.empty(); p = p.parent_path()) {
    const fs::file_status status = fs::status(p, error);
    if (status.type() == fs::file_type::not_found) {
      if (p == p.parent_path()) break;
      continue;
    }
    if (status.type() != fs::file_type::directory) {
      const std::string what = p == directory || p == absolute
                                   ? "not a directory"
                                   : "not a directory (" + p.string() + " is a file)";
      throw InputError({directory.string()}, what);
    }
    break;  // the nearest existing ancestor is a folder: the rest can be created
  }
}

void check_output_file(const fs::path& file, const fs::path& created_directory) {
  std::error_code error;
  if (fs::is_directory(file, error)) throw InputError({file.string()}, "is a directory");
  const fs::path parent = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  const bool created =
      !created_directory.empty() &&
      fs::weakly_canonical(parent, error) == fs::weakly_canonical(created_directory, error);
  if (!created && !fs::is_directory(parent, error)) {
    throw InputError({file.string()}, "folder " + parent.string() + " does not exist");
  }
}

}  // namespace refract
