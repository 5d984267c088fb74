#include "support/atomic_file.hpp"

#include <system_error>

#include "support/error.hpp"

namespace refract {

namespace {
std::filesystem::path temporary_name_for(const std::filesystem::path& target) {
  std::filesystem::path tmp = target;
  tmp += ".tmp-refract";
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
