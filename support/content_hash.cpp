#include "support/content_hash.hpp"

#include <array>
#include <bit>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace refract {

namespace {

// splitmix64's finaliser: every input bit reaches every output bit.
std::uint64_t avalanche(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

void ContentHash::mix_word(std::uint64_t word) {
  a_ = std::rotl((a_ ^ word) * 0x9E3779B97F4A7C15ull, 29);
  b_ = std::rotl((b_ + word) * 0xC2B2AE3D27D4EB4Full, 31) ^ a_;
}

void ContentHash::add(std::span<const std::uint8_t> bytes) {
  for (const std::uint8_t byte : bytes) {
    pending_ |= std::uint64_t{byte} << (8 * pending_bytes_);
    if (++pending_bytes_ == 8) {
      mix_word(pending_);
      pending_ = 0;
      pending_bytes_ = 0;
    }
  }
  length_ += bytes.size();
}

void ContentHash::add(std::string_view text) {
  const std::uint64_t size = text.size();
  std::array<std::uint8_t, 8> size_bytes{};
  for (unsigned i = 0; i < 8; ++i) size_bytes[i] = static_cast<std::uint8_t>(size >> (8 * i));
  add(size_bytes);
  add({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

void ContentHash::add_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::vector<std::uint8_t> buffer(1 << 20);
  std::uint64_t total = 0;
  while (in) {
    in.read(reinterpret_cast<char*>(buffer.data()), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    add({buffer.data(), got});
    total += got;
  }
  if (in.bad()) throw std::runtime_error("read error in " + file.string());
  add(std::to_string(total));
}

std::string ContentHash::hex() const {
  const std::uint64_t tail = pending_ ^ (std::uint64_t{pending_bytes_} << 60);
  std::uint64_t a = a_, b = b_;
  a = std::rotl((a ^ tail) * 0x9E3779B97F4A7C15ull, 29);
  b = std::rotl((b + tail) * 0xC2B2AE3D27D4EB4Full, 31) ^ a;
  const std::uint64_t high = avalanche(a ^ length_);
  const std::uint64_t low = avalanche(b + high);
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(high),
                static_cast<unsigned long long>(low));
  return text;
}

std::string file_hash(const std::filesystem::path& file) {
  ContentHash hash;
  hash.add_file(file);
  return hash.hex();
}

}  // namespace refract
