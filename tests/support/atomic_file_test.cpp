// support/atomic_file: a target holds one writer's whole file, also when two processes write
// it at once (an analysis and the JDK cache entry built beside it both cache the JDK's facts).
#include "support/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace refract {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes `rounds` times a file of `size` bytes `fill`; whether every commit succeeded.
bool write_rounds(const fs::path& target, char fill, std::size_t size, int rounds) {
  const std::string chunk(4096, fill);
  try {
    for (int r = 0; r < rounds; ++r) {
      AtomicOutputFile out(target);
      for (std::size_t written = 0; written < size; written += chunk.size())
        out.stream().write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
      out.commit();
    }
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

TEST(AtomicFileTest, TwoProcessesWritingOneTargetLeaveOneWholeFile) {
  const fs::path dir =
      fs::temp_directory_path() / ("atomic-file-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path target = dir / "shared.bin";
  constexpr std::size_t kSize = 4 << 20;
  constexpr int kRounds = 8;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) std::_Exit(write_rounds(target, 'b', kSize, kRounds) ? 0 : 1);
  const bool parent_ok = write_rounds(target, 'a', kSize, kRounds);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(parent_ok);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child's commits failed";

  const std::string text = read_text(target);
  ASSERT_EQ(text.size(), kSize);
  EXPECT_EQ(text.find_first_not_of(text.front()), std::string::npos)
      << "the file mixes both writers' bytes";
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(kAtomicTemporaryMark), std::string::npos)
        << e.path();
  fs::remove_all(dir);
}

TEST(AtomicFileTest, AnUncommittedFileLeavesNoTemporaryAndNoTarget) {
  const fs::path dir =
      fs::temp_directory_path() / ("atomic-file-test-u" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    AtomicOutputFile out(dir / "never.txt");
    out.stream() << "half";
  }
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace refract
