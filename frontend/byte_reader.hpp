// Bounds-checked big-endian reading of class file bytes. Every failure is a ClassFormatError
// at the absolute offset in the class file, so a reader over an attribute body reports offsets
// of the whole file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "frontend/format_error.hpp"

namespace refract::frontend {

class ByteReader {
 public:
  // `data` starts at file offset `base`; `context` names the structure in messages
  // ("class file", "Code attribute", ...). `origin` must outlive the reader.
  ByteReader(std::span<const std::uint8_t> data, const std::string& origin, std::uint64_t base,
             std::string_view context)
      : data_(data), origin_(&origin), base_(base), context_(context) {}

  std::uint64_t offset() const { return base_ + pos_; }
  std::size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  const std::string& origin() const { return *origin_; }

  std::uint8_t u1(std::string_view what) {
    need(1, what);
    return data_[pos_++];
  }
  std::uint16_t u2(std::string_view what) {
    need(2, what);
    const auto value = static_cast<std::uint16_t>((data_[pos_] << 8) | data_[pos_ + 1]);
    pos_ += 2;
    return value;
  }
  std::uint32_t u4(std::string_view what) {
    need(4, what);
    const std::uint32_t value = (std::uint32_t{data_[pos_]} << 24) |
                                (std::uint32_t{data_[pos_ + 1]} << 16) |
                                (std::uint32_t{data_[pos_ + 2]} << 8) | data_[pos_ + 3];
    pos_ += 4;
    return value;
  }
  std::span<const std::uint8_t> bytes(std::size_t count, std::string_view what) {
    need(count, what);
    const auto out = data_.subspan(pos_, count);
    pos_ += count;
    return out;
  }
  // A reader over the next `count` bytes, which this reader skips.
  ByteReader sub(std::size_t count, std::string_view what, std::string_view context) {
    const std::uint64_t start = offset();
    return ByteReader(bytes(count, what), *origin_, start, context);
  }

  [[noreturn]] void fail(const std::string& message) const { fail_at(offset(), message); }
  [[noreturn]] void fail_at(std::uint64_t offset, const std::string& message) const {
    throw ClassFormatError(*origin_, offset, message);
  }

 private:
  void need(std::size_t count, std::string_view what) const {
    if (remaining() < count) {
      fail("unexpected end of " + std::string(context_) + " reading " + std::string(what) +
           " (needs " + std::to_string(count) + " bytes, " + std::to_string(remaining()) +
           " left)");
    }
  }

  std::span<const std::uint8_t> data_;
  const std::string* origin_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
  std::string_view context_;
};

}  // namespace refract::frontend
