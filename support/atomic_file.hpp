// Output files are written under a temporary name and renamed on success, so a
// failed or interrupted run never leaves a half-written file under the real name.
#pragma once

#include <filesystem>
#include <fstream>

namespace refract {

// In the name of every temporary file (TARGET.tmp-refract-PID-N), until it is renamed.
inline constexpr const char* kAtomicTemporaryMark = ".tmp-refract-";

class AtomicOutputFile {
 public:
  explicit AtomicOutputFile(std::filesystem::path target);
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;
  ~AtomicOutputFile();  // removes the temporary file unless commit() succeeded

  std::ostream& stream() { return out_; }
  // Flushes, checks for write errors and renames onto the target.
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace refract
