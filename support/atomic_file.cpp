#include "support/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <string>
#include <system_error>

#include "support/error.hpp"

namespace refract {

namespace {
// Unique per process and file: two processes writing one target at once (an analysis and the
// cache entry built beside it, both caching the JDK's facts) must not write one temporary.
std::filesystem::path temporary_name_for(const std::filesystem::path& target) {
  static std::atomic<unsigned> count{0};
  std::filesystem::path tmp = target;
  tmp += std::string(kAtomicTemporaryMark) + std::to_string(::getpid()) + "-" +
         std::to_string(count++);
  return tmp;
}
}  // namespace

AtomicOutputFile::AtomicOutputFile(std::filesystem::path target)
    : target_(std::move(target)), temporary_(temporary_name_for(target_)) {
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_) throw InputError({target_.string()}, "cannot open for writing");
}

AtomicOutputFile::~AtomicOutputFile() {
  if (committed_) return;
  out_.close();
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
}

void AtomicOutputFile::commit() {
  out_.flush();
  if (!out_) throw InputError({target_.string()}, "write failed");
  out_.close();
  std::error_code ec;
  std::filesystem::rename(temporary_, target_, ec);
  if (ec) throw InputError({target_.string()}, "cannot rename temporary file: " + ec.message());
  committed_ = true;
}

}  // namespace refract
