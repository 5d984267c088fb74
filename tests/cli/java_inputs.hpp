// Inputs for the end-to-end tests of `refract facts` and `refract ir`: class files built byte
// by byte (tests/frontend/class_builder.hpp), stored zips written here by hand (the CLI tests
// do not link libzip), jmods, and a minimal JDK whose only class is java.lang.Object, for
// runs that must not read the real JDK's thousands of classes.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "frontend/class_builder.hpp"

namespace refract::test {

using ByteVector = std::vector<std::uint8_t>;
using ZipEntries = std::vector<std::pair<std::string, ByteVector>>;

inline constexpr unsigned kAccPublic = 0x0001;
inline constexpr unsigned kAccStatic = 0x0008;

inline void write_bytes(const std::filesystem::path& file, const ByteVector& bytes) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

inline ByteVector read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// CRC-32 (ISO-HDLC), as zip entries carry it.
inline std::uint32_t crc32(const ByteVector& bytes) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::uint8_t byte : bytes) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// A zip with these entries, stored uncompressed: local headers and data, then the central
// directory and its end record.
inline ByteVector zip_bytes(const ZipEntries& entries) {
  ByteVector out;
  const auto u2 = [&out](unsigned v) {
    out.push_back(static_cast<std::uint8_t>(v & 0xFF));
    out.push_back(static_cast<std::uint8_t>((v >> 8) & 0xFF));
  };
  const auto u4 = [&u2](std::uint32_t v) {
    u2(v & 0xFFFF);
    u2(v >> 16);
  };
  std::vector<std::uint32_t> offsets;
  for (const auto& [name, data] : entries) {
    offsets.push_back(static_cast<std::uint32_t>(out.size()));
    u4(0x04034b50);
    u2(10);    // version needed
    u2(0);     // flags
    u2(0);     // stored
    u2(0);     // time
    u2(0x21);  // date 1980-01-01
    u4(crc32(data));
    u4(static_cast<std::uint32_t>(data.size()));
    u4(static_cast<std::uint32_t>(data.size()));
    u2(static_cast<unsigned>(name.size()));
    u2(0);
    out.insert(out.end(), name.begin(), name.end());
    out.insert(out.end(), data.begin(), data.end());
  }
  const auto directory = static_cast<std::uint32_t>(out.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& [name, data] = entries[i];
    u4(0x02014b50);
    u2(20);  // made by
    u2(10);  // version needed
    u2(0);
    u2(0);
    u2(0);
    u2(0x21);
    u4(crc32(data));
    u4(static_cast<std::uint32_t>(data.size()));
    u4(static_cast<std::uint32_t>(data.size()));
    u2(static_cast<unsigned>(name.size()));
    u2(0);  // extra
    u2(0);  // comment
    u2(0);  // disk
    u2(0);  // internal attributes
    u4(0);  // external attributes
    u4(offsets[i]);
    out.insert(out.end(), name.begin(), name.end());
  }
  const auto directory_size = static_cast<std::uint32_t>(out.size()) - directory;
  u4(0x06054b50);
  u2(0);
  u2(0);
  u2(static_cast<unsigned>(entries.size()));
  u2(static_cast<unsigned>(entries.size()));
  u4(directory_size);
  u4(directory);
  u2(0);
  return out;
}

// A jmod: the "JM\1\0" header, then a zip.
inline ByteVector jmod_bytes(const ZipEntries& entries) {
  ByteVector out = {'J', 'M', 0x01, 0x00};
  const ByteVector zip = zip_bytes(entries);
  out.insert(out.end(), zip.begin(), zip.end());
  return out;
}

using frontend::testing::Bytes;
using frontend::testing::ClassBuilder;

// a/B-style class with one static method `m()V` that returns; its superclass is `super_class`
// (by default a class that is not on any class path, so reading it pulls in nothing else).
inline ByteVector small_class(const std::string& name,
                              const std::string& super_class = "a/Absent") {
  ClassBuilder b;
  b.this_class = name;
  b.super_class = super_class;
  b.add_method(kAccPublic | kAccStatic, "m", "()V",
               {b.code_attribute(0, 0, Bytes().u1(0xb1))});  // return
  return b.build();
}

// A class whose single constant of its own, a CONSTANT_Class, names pool entry 0x7FFF, far
// past the end of the pool. `*bad_index_at` receives the offset of that index in the file.
inline ByteVector class_with_pool_index_out_of_range(const std::string& name,
                                                     std::size_t* bad_index_at) {
  ClassBuilder b;
  b.this_class = name;
  b.raw_constant(Bytes().u1(7).u2(0x7FFF));
  ByteVector bytes = b.build();
  // The raw constant is the pool's first entry: tag at offset 10, index at 11.
  *bad_index_at = 11;
  if (bytes.size() < 13 || bytes[10] != 7 || bytes[11] != 0x7F || bytes[12] != 0xFF) {
    throw std::logic_error("class_with_pool_index_out_of_range: unexpected layout");
  }
  return bytes;
}

// The class with its major version set to `major` (Java 26 for 70).
inline ByteVector with_major_version(ByteVector bytes, unsigned major) {
  bytes.at(6) = static_cast<std::uint8_t>(major >> 8);
  bytes.at(7) = static_cast<std::uint8_t>(major & 0xFF);
  return bytes;
}

// A class whose method `m` has the undefined opcode 0xcb at pc 0: it parses, but its code does
// not translate. `*opcode_at` receives the offset of the opcode in the file.
inline ByteVector class_with_invalid_opcode(const std::string& name, std::size_t* opcode_at) {
  ClassBuilder b;
  b.this_class = name;
  b.super_class = "a/Absent";
  b.add_method(kAccPublic | kAccStatic, "m", "()V",
               {b.code_attribute(0, 0, Bytes().u1(0xcb).u1(0xb1))});
  ByteVector bytes = b.build();
  // The code is the only 0xcb 0xb1 pair followed by an empty exception table.
  for (std::size_t i = 0; i + 3 < bytes.size(); ++i) {
    if (bytes[i] == 0xcb && bytes[i + 1] == 0xb1 && bytes[i + 2] == 0 && bytes[i + 3] == 0) {
      *opcode_at = i;
      return bytes;
    }
  }
  throw std::logic_error("class_with_invalid_opcode: opcode not found");
}

// A JDK home holding one module, java.base.jmod, with java/lang/Object and nothing else:
// enough for --jdk, and everything else of the JDK is a phantom.
inline void write_minimal_jdk(const std::filesystem::path& home) {
  ClassBuilder b;
  b.this_class = "java/lang/Object";
  b.super_class = "";
  b.add_method(kAccPublic, "<init>", "()V", {b.code_attribute(0, 1, Bytes().u1(0xb1))});
  write_bytes(home / "jmods" / "java.base.jmod",
              jmod_bytes({{"classes/java/lang/Object.class", b.build()}}));
}

// The parts of a located error line "WHERE:OFFSET: message".
struct LocatedError {
  std::string where;  // FILE or FILE!ENTRY
  std::uint64_t offset = 0;
  std::string message;
};

// The first line of `err` split as "WHERE:OFFSET: message"; nothing if it has not that form.
inline std::optional<LocatedError> located_error(const std::string& err) {
  const std::string line = err.substr(0, err.find('\n'));
  static const std::regex form("^(.+):([0-9]+): (.+)$");
  std::smatch match;
  if (!std::regex_match(line, match, form)) return std::nullopt;
  return LocatedError{match[1].str(), std::stoull(match[2].str()), match[3].str()};
}

}  // namespace refract::test
