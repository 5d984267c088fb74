// Runs the refract executable (REFRACT_BINARY) as a child process and captures
// its exit code, stdout and stderr; plus a fresh temporary directory per test.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace refract::test {

struct RunResult {
  int exit_code = -1;  // -1 when the child did not exit normally (signal)
  std::string out;
  std::string err;
};

inline std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_file(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

// The lines of a text, without their newlines.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// The fields of a TSV line (an empty line is one empty field).
inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string::npos ? tab : tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

// Runs the program argv[0] with its arguments in `working_dir`. Output goes through files
// rather than pipes, so a chatty child can never block on a full pipe.
// `environment` is set in the child on top of this process's.
inline RunResult run_program(
    std::vector<std::string> argv_text, const std::filesystem::path& working_dir,
    const std::vector<std::pair<std::string, std::string>>& environment = {}) {
  const std::filesystem::path out_file = working_dir / ".refract_test_stdout";
  const std::filesystem::path err_file = working_dir / ".refract_test_stderr";
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    const int out = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 ||
        chdir(working_dir.c_str()) != 0) {
      _exit(126);
    }
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out_file);
  result.err = read_file(err_file);
  std::filesystem::remove(out_file);
  std::filesystem::remove(err_file);
  return result;
}

// Whether `refract ARGS...` names the JDK cache (--jdk-cache, --no-cache, --cache-dir,
// --cache-build, --cache-limit).
inline bool names_the_jdk_cache(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) {
    for (const char* option :
         {"--jdk-cache", "--no-cache", "--cache-dir", "--cache-build", "--cache-limit"})
      if (a == option || a.rfind(std::string(option) + "=", 0) == 0) return true;
    return false;
  });
}

// Runs `refract ARGS...` in `working_dir` as a user would, the JDK cache on by default, with
// `environment` (XDG_CACHE_HOME, say) set for it.
inline RunResult run_refract_with_default_cache(
    const std::vector<std::string>& args, const std::filesystem::path& working_dir,
    const std::vector<std::pair<std::string, std::string>>& environment = {}) {
  std::vector<std::string> argv_text{REFRACT_BINARY};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  return run_program(std::move(argv_text), working_dir, environment);
}

// Runs `refract ARGS...` in `working_dir`. The suite tests the analysis, not the user's cache:
// `analyze` gets --no-cache unless the test names the cache itself (tests/cli/jdk_cache_test).
inline RunResult run_refract(const std::vector<std::string>& args,
                             const std::filesystem::path& working_dir) {
  std::vector<std::string> with = args;
  if (!with.empty() && with.front() == "analyze" && !names_the_jdk_cache(with) &&
      std::find(with.begin(), with.end(), "--help") == with.end())
    with.push_back("--no-cache");
  return run_refract_with_default_cache(with, working_dir);
}

// A fresh, empty directory named after the running test; removed afterwards.
class TempDir {
 public:
  TempDir() {
    // Outside a test (SetUpTestSuite, static set-up) there is no test name to use.
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string owner = info != nullptr
                                  ? std::string(info->test_suite_name()) + "_" + info->name()
                                  : std::string("suite");
    path_ = std::filesystem::temp_directory_path() /
            ("refract_cli_" + owner + "_" + std::to_string(std::random_device{}()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// Every regular file under `dir`, as sorted paths relative to it.
inline std::vector<std::string> files_under(const std::filesystem::path& dir) {
  std::vector<std::string> files;
  if (!std::filesystem::exists(dir)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file())
      files.push_back(std::filesystem::relative(entry.path(), dir).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace refract::test
