// Helpers shared by the front end tests: temporary folders, files, zips written with libzip,
// a deterministic random generator and the JDK 17 of the machine.
#pragma once

#include <zip.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "frontend/class_path.hpp"

namespace refract::frontend::testing {

// A fresh folder under the system temporary folder, removed with its contents at the end.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "refract-fe-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline void write_file(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

inline std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::vector<std::uint8_t> text_bytes(std::string_view text) {
  return {text.begin(), text.end()};
}

using ZipEntries = std::vector<std::pair<std::string, std::vector<std::uint8_t>>>;

// Writes a zip with these entries (deflated, or stored when `deflate` is false) using libzip.
inline void write_zip(const std::filesystem::path& path, const ZipEntries& entries,
                      bool deflate = true) {
  struct Discard {
    void operator()(zip_t* archive) const { zip_discard(archive); }
  };
  int error = 0;
  std::unique_ptr<zip_t, Discard> archive(
      zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error));
  if (!archive) throw std::runtime_error("zip_open failed for " + path.string());
  for (const auto& [name, bytes] : entries) {
    zip_source_t* source = zip_source_buffer(archive.get(), bytes.data(), bytes.size(), 0);
    if (source == nullptr) throw std::runtime_error("zip_source_buffer failed");
    const zip_int64_t index = zip_file_add(archive.get(), name.c_str(), source, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(source);
      throw std::runtime_error("zip_file_add failed for " + name);
    }
    zip_set_file_compression(archive.get(), static_cast<zip_uint64_t>(index),
                             deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
  }
  if (zip_close(archive.get()) != 0) throw std::runtime_error("zip_close failed");
  static_cast<void>(archive.release());  // zip_close freed it
}

// The bytes of a zip with these entries.
inline std::vector<std::uint8_t> zip_bytes(const ZipEntries& entries, bool deflate = true) {
  TempDir dir;
  write_zip(dir / "out.zip", entries, deflate);
  return read_file(dir / "out.zip");
}

// The bytes of a jmod: the "JM\1\0" header and a zip.
inline std::vector<std::uint8_t> jmod_bytes(const ZipEntries& entries) {
  std::vector<std::uint8_t> out = {'J', 'M', 0x01, 0x00};
  const auto zip = zip_bytes(entries);
  out.insert(out.end(), zip.begin(), zip.end());
  return out;
}

// SplitMix64: the same sequence on every platform and standard library.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform enough in [0, bound) for tests; bound > 0.
  std::size_t below(std::size_t bound) { return static_cast<std::size_t>(next() % bound); }

 private:
  std::uint64_t state_;
};

// The home of a JDK 17 with jmods: the default JDK if it is a 17, else any
// /usr/lib/jvm/java-17-openjdk-*.
inline std::optional<std::filesystem::path> find_jdk17() {
  if (const auto home = find_default_jdk(); home && jdk_release(*home) == 17) return home;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/usr/lib/jvm", ec), end; !ec && it != end;
       it.increment(ec)) {
    const auto& home = it->path();
    if (home.filename().string().starts_with("java-17-openjdk-") &&
        std::filesystem::exists(home / "jmods" / "java.base.jmod") && jdk_release(home) == 17) {
      return home;
    }
  }
  return std::nullopt;
}

// Why a test that needs java.base skips on this machine.
inline constexpr const char* kNoJdkMessage =
    "no JDK 17 with jmods on this machine (looked for java on PATH and "
    "/usr/lib/jvm/java-17-openjdk-*; install openjdk-17-jdk-headless)";

// The comment lines at the head of a golden file, and the rest.
inline std::pair<std::string, std::string> split_golden(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string comments;
  std::string body;
  std::string line;
  bool in_header = true;
  while (std::getline(in, line)) {
    if (in_header && line.starts_with("#")) {
      comments += line + "\n";
      continue;
    }
    in_header = false;
    body += line + "\n";
  }
  return {comments, body};
}

}  // namespace refract::frontend::testing
