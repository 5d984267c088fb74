// The options `refract facts`, `refract ir` and `refract analyze` share: the class path, the
// JDK and what to do with classes that do not parse.
#pragma once

#include <boost/program_options.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "frontend/class_path.hpp"

namespace refract::cli {

struct ClassPathArguments {
  std::vector<std::string> entries;  // --classpath split at ':'
  std::optional<std::string> jdk;
  bool skip_bad_classes = false;
};

void add_class_path_options(boost::program_options::options_description& options);
ClassPathArguments class_path_arguments(const boost::program_options::variables_map& vm);

// The JDK's home: --jdk (InputError unless it has a jmods folder), else the system's JDK 17
// (InputError when there is none).
std::filesystem::path jdk_home(const ClassPathArguments& args);

// The class path: the JDK's jmods (jdk_home), then the entries.
// A missing entry or JDK is an InputError naming it.
frontend::ClassPath open_class_path(const ClassPathArguments& args);

}  // namespace refract::cli
