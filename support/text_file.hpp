// Reading a user's text file whole (annotations, TamiFlex logs): a file that cannot be opened or
// read is bad input, named with what the file was meant to be.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace refract {

// The bytes of `path`; InputError "cannot open WHAT" or "cannot read WHAT" at the file.
std::string read_text_file(const std::filesystem::path& path, std::string_view what);

}  // namespace refract
