// refract cache list|clear: the cached JDK fixpoints (cli/jdk_cache.hpp) and facts
// (cli/jdk_facts_cache.hpp).
#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "cli/commands.hpp"
#include "cli/jdk_cache.hpp"
#include "cli/run_command.hpp"

namespace refract::cli {

namespace po = boost::program_options;

namespace {

struct CacheArguments {
  std::string action;  // list or clear
  std::filesystem::path dir;
};

std::optional<CacheArguments> parse_arguments(int argc, char** argv) {
  po::options_description options("refract cache (list | clear) [options]");
  options.add_options()("help,h", "show this help")(
      "cache-dir", po::value<std::string>(),
      "the cache directory (default: $XDG_CACHE_HOME/refract, else ~/.cache/refract)");
  po::options_description all;
  all.add(options).add_options()("action", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("action", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
  if (vm.count("help")) {
    std::cout << options
              << "\nlist: each cached JDK fixpoint and facts file (key, size, when it was last "
                 "used, what it was made from, whether it is corrupt); clear: remove them all\n";
    return std::nullopt;
  }
  CacheArguments args;
  if (!vm.count("action")) throw po::error("missing the action: list or clear");
  args.action = vm["action"].as<std::string>();
  if (args.action != "list" && args.action != "clear")
    throw po::error("unknown action '" + args.action + "' (expected list or clear)");
  args.dir = vm.count("cache-dir") ? std::filesystem::path(vm["cache-dir"].as<std::string>())
                                   : default_cache_dir();
  return args;
}

int run_cache(const CacheArguments& args) {
  if (args.action == "clear") {
    std::cout << "removed " << clear_jdk_cache(args.dir) << " entries from " << args.dir.string()
              << "\n";
    return kExitOk;
  }
  const std::vector<JdkCacheEntry> entries = list_jdk_cache(args.dir);
  std::cout << entries.size() << " entries in " << args.dir.string() << "\n";
  for (const JdkCacheEntry& e : entries) {
    std::cout << e.key << "\t" << (e.bytes + 1024 * 1024 - 1) / (1024 * 1024) << " MiB\tlast used "
              << e.last_used << "\t" << e.info << (e.corrupt ? "\tcorrupt: " + *e.corrupt : "")
              << "\n";
  }
  return kExitOk;
}

}  // namespace

int cache_command(int argc, char** argv) {
  return run_command<po::error>(
      "cache", [&] { return parse_arguments(argc, argv); },
      [](const CacheArguments& args) { return run_cache(args); });
}

}  // namespace refract::cli
