// A 128-bit hash of bytes, strings and files, for cache keys and checksums (the JDK's cached
// fixpoint, issue 35). Not cryptographic: it guards against accidents (a changed jmod, a
// truncated file), not against an adversary who writes the cache directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace refract {

class ContentHash {
 public:
  void add(std::span<const std::uint8_t> bytes);
  // The text and its length: "ab" then "c" differs from "a" then "bc".
  void add(std::string_view text);
  // The file's size and bytes; std::runtime_error naming it when it cannot be read.
  void add_file(const std::filesystem::path& file);
  // 32 hexadecimal digits.
  std::string hex() const;

 private:
  void mix_word(std::uint64_t word);

  std::uint64_t a_ = 0x243F6A8885A308D3ull;  // the digits of pi: any two distinct constants do
  std::uint64_t b_ = 0x13198A2E03707344ull;
  std::uint64_t length_ = 0;
  std::uint64_t pending_ = 0;  // bytes not yet mixed, little-endian
  unsigned pending_bytes_ = 0;
};

// The hash of one file (ContentHash::add_file), as hex().
std::string file_hash(const std::filesystem::path& file);

}  // namespace refract
