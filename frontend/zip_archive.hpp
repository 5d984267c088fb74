// Read-only access to a zip archive (a jar) or a jmod (a 4-byte "JM\1\0" header followed by a
// zip). Entry names are indexed when the archive is opened; entry bytes are read on request.
// Errors (missing file, corrupt archive, corrupt entry data) are InputErrors naming the path,
// or "PATH!ENTRY" for an entry. An archive is not safe for concurrent use by several threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace refract::frontend {

class ZipArchive {
 public:
  enum class Kind { kZip, kJmod };

  // Entries larger than this are refused rather than read (a defence against zip bombs).
  static constexpr std::uint64_t kMaxEntrySize = std::uint64_t{256} << 20;

  // Opens a file; a jmod is recognised by its header, whatever the file name.
  static ZipArchive open(const std::filesystem::path& path);
  // Opens an archive held in memory (a nested jar, a test fixture); `name` is used in messages.
  static ZipArchive open_buffer(std::vector<std::uint8_t> bytes, std::string name);

  ZipArchive(ZipArchive&&) noexcept;
  ZipArchive& operator=(ZipArchive&&) noexcept;
  ~ZipArchive();

  // The path (or buffer name) used in messages and origins.
  const std::string& name() const;
  Kind kind() const;

  // Entry names in archive order (directories end with '/').
  const std::vector<std::string>& entries() const;
  // Index of the first entry with this exact name.
  std::optional<std::size_t> find(std::string_view entry) const;

  // Reads the whole uncompressed content of an entry (CRC checked).
  std::vector<std::uint8_t> read(std::size_t index) const;
  // Reads an entry by name; an InputError if there is no such entry.
  std::vector<std::uint8_t> read(std::string_view entry) const;

  // "PATH!ENTRY" for the entry at `index`.
  std::string origin(std::size_t index) const;

 private:
  struct Impl;
  explicit ZipArchive(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace refract::frontend
