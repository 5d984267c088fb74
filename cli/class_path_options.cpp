#include "cli/class_path_options.hpp"

#include "support/error.hpp"

namespace refract::cli {

namespace po = boost::program_options;

void add_class_path_options(po::options_description& options) {
  options.add_options()("classpath,cp", po::value<std::string>(),
                        "jars, jmods and class folders, separated by ':'")(
      "jdk", po::value<std::string>(),
      "the JDK whose jmods are the library (default: the JDK 17 of `java` on the PATH, or "
      "under /usr/lib/jvm)")("skip-bad-classes",
                             "leave out classes that do not parse or translate, listing each, "
                             "instead of stopping at the first");
}

ClassPathArguments class_path_arguments(const po::variables_map& vm) {
  ClassPathArguments args;
  if (!vm.count("classpath")) throw po::error("missing --classpath");
  const std::string text = vm["classpath"].as<std::string>();
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(':', start), text.size());
    if (end > start) args.entries.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (args.entries.empty()) throw po::error("--classpath names no entry");
  if (vm.count("jdk")) args.jdk = vm["jdk"].as<std::string>();
  args.skip_bad_classes = vm.count("skip-bad-classes") != 0;
  return args;
}

std::filesystem::path jdk_home(const ClassPathArguments& args) {
  if (args.jdk) {
    const std::filesystem::path jdk = *args.jdk;
    if (!std::filesystem::is_directory(jdk / "jmods")) {
      throw InputError({jdk.string()}, "not a JDK: it has no jmods folder");
    }
    return jdk;
  }
  if (auto found = frontend::find_default_jdk()) return *found;
  throw InputError({"--jdk"},
                   "no JDK 17 found (looked for `java` on the PATH and under /usr/lib/jvm); "
                   "name one with --jdk DIR");
}

frontend::ClassPath open_class_path(const ClassPathArguments& args) {
  frontend::ClassPath path;
  path.add_jdk(jdk_home(args));
  for (const std::string& entry : args.entries) path.add(entry);  // names a missing entry
  return path;
}

}  // namespace refract::cli
