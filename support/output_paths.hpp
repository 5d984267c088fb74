// Checks made on output paths before a long run starts, so that a run that would fail to write
// its results fails at once, names the path, and writes nothing.
#pragma once

#include <filesystem>

namespace refract {

// `directory` is a folder, or can be created as one: it and each of its existing parents are
// folders. Otherwise an InputError naming it.
void check_output_directory(const std::filesystem::path& directory);

// `file` can be written: it is not a folder, and its folder exists or is `created_directory`
// (the output folder the same run creates first, already checked). Otherwise an InputError
// naming it.
void check_output_file(const std::filesystem::path& file,
                       const std::filesystem::path& created_directory = {});

}  // namespace refract
