// Assembles class files byte by byte for tests: a constant pool with de-duplicated entries,
// fields, methods and attributes, written in the layout of JVMS chapter 4.
#pragma once

#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace refract::frontend::testing {

// A growable big-endian byte buffer.
class Bytes {
 public:
  Bytes& u1(unsigned value) {
    data_.push_back(static_cast<std::uint8_t>(value));
    return *this;
  }
  Bytes& u2(unsigned value) { return u1(value >> 8).u1(value & 0xFF); }
  Bytes& u4(std::uint32_t value) { return u2(value >> 16).u2(value & 0xFFFF); }
  Bytes& u8(std::uint64_t value) {
    return u4(static_cast<std::uint32_t>(value >> 32)).u4(static_cast<std::uint32_t>(value));
  }
  Bytes& append(const std::vector<std::uint8_t>& bytes) {
    data_.insert(data_.end(), bytes.begin(), bytes.end());
    return *this;
  }
  Bytes& append(const Bytes& other) { return append(other.data_); }
  Bytes& append(std::string_view text) {
    data_.insert(data_.end(), text.begin(), text.end());
    return *this;
  }
  std::size_t size() const { return data_.size(); }
  const std::vector<std::uint8_t>& data() const { return data_; }
  std::vector<std::uint8_t>& data() { return data_; }

 private:
  std::vector<std::uint8_t> data_;
};

class ClassBuilder {
 public:
  // Constant pool entries; equal entries share an index.
  std::uint16_t utf8(std::string_view text) { return utf8_raw(text); }
  // A Utf8 entry with exactly these (modified UTF-8) bytes.
  std::uint16_t utf8_raw(std::string_view bytes) {
    Bytes b;
    b.u1(1).u2(static_cast<unsigned>(bytes.size())).append(bytes);
    return add(b, 1);
  }
  std::uint16_t integer(std::int32_t value) {
    return add(Bytes().u1(3).u4(static_cast<std::uint32_t>(value)), 1);
  }
  std::uint16_t float_value(float value) {
    return add(Bytes().u1(4).u4(std::bit_cast<std::uint32_t>(value)), 1);
  }
  std::uint16_t long_value(std::int64_t value) {
    return add(Bytes().u1(5).u8(static_cast<std::uint64_t>(value)), 2);
  }
  std::uint16_t double_value(double value) {
    return add(Bytes().u1(6).u8(std::bit_cast<std::uint64_t>(value)), 2);
  }
  std::uint16_t class_ref(std::string_view name) { return add(Bytes().u1(7).u2(utf8(name)), 1); }
  std::uint16_t string(std::string_view value) { return add(Bytes().u1(8).u2(utf8(value)), 1); }
  std::uint16_t name_and_type(std::string_view name, std::string_view descriptor) {
    const auto n = utf8(name);
    const auto d = utf8(descriptor);
    return add(Bytes().u1(12).u2(n).u2(d), 1);
  }
  std::uint16_t fieldref(std::string_view owner, std::string_view name, std::string_view desc) {
    return member(9, owner, name, desc);
  }
  std::uint16_t methodref(std::string_view owner, std::string_view name, std::string_view desc) {
    return member(10, owner, name, desc);
  }
  std::uint16_t interface_methodref(std::string_view owner, std::string_view name,
                                    std::string_view desc) {
    return member(11, owner, name, desc);
  }
  std::uint16_t method_handle(unsigned kind, std::uint16_t reference) {
    return add(Bytes().u1(15).u1(kind).u2(reference), 1);
  }
  std::uint16_t method_type(std::string_view descriptor) {
    return add(Bytes().u1(16).u2(utf8(descriptor)), 1);
  }
  std::uint16_t dynamic(unsigned bootstrap, std::string_view name, std::string_view desc) {
    return add(Bytes().u1(17).u2(bootstrap).u2(name_and_type(name, desc)), 1);
  }
  std::uint16_t invoke_dynamic(unsigned bootstrap, std::string_view name, std::string_view desc) {
    return add(Bytes().u1(18).u2(bootstrap).u2(name_and_type(name, desc)), 1);
  }
  std::uint16_t module(std::string_view name) { return add(Bytes().u1(19).u2(utf8(name)), 1); }
  std::uint16_t package(std::string_view name) { return add(Bytes().u1(20).u2(utf8(name)), 1); }
  // Appends raw bytes as the next pool entry taking `slots` slots (for malformed pools).
  std::uint16_t raw_constant(const Bytes& bytes, unsigned slots = 1) {
    const auto index = next_;
    pool_.append(bytes);
    next_ = static_cast<std::uint16_t>(next_ + slots);
    return index;
  }

  // attribute_info with the given name and body.
  Bytes attribute(std::string_view name, const Bytes& body) {
    Bytes out;
    out.u2(utf8(name)).u4(static_cast<std::uint32_t>(body.size())).append(body);
    return out;
  }

  struct Handler {
    unsigned start, end, handler, catch_type;
  };
  Bytes code_attribute(unsigned max_stack, unsigned max_locals, const Bytes& code,
                       const std::vector<Handler>& handlers = {},
                       const std::vector<Bytes>& attributes = {}) {
    Bytes body;
    body.u2(max_stack).u2(max_locals).u4(static_cast<std::uint32_t>(code.size())).append(code);
    body.u2(static_cast<unsigned>(handlers.size()));
    for (const Handler& h : handlers) body.u2(h.start).u2(h.end).u2(h.handler).u2(h.catch_type);
    append_attributes(body, attributes);
    return attribute("Code", body);
  }

  void add_field(unsigned flags, std::string_view name, std::string_view descriptor,
                 const std::vector<Bytes>& attributes = {}) {
    fields_.u2(flags).u2(utf8(name)).u2(utf8(descriptor));
    append_attributes(fields_, attributes);
    ++field_count_;
  }
  void add_method(unsigned flags, std::string_view name, std::string_view descriptor,
                  const std::vector<Bytes>& attributes = {}) {
    methods_.u2(flags).u2(utf8(name)).u2(utf8(descriptor));
    append_attributes(methods_, attributes);
    ++method_count_;
  }
  void add_class_attribute(const Bytes& attribute) { class_attributes_.push_back(attribute); }

  std::uint16_t major = 61;
  std::uint16_t minor = 0;
  unsigned access_flags = 0x0021;  // public super
  std::string this_class = "test/Sample";
  std::string super_class = "java/lang/Object";  // empty: super_class 0
  std::vector<std::string> interfaces;

  std::vector<std::uint8_t> build() {
    const auto this_index = class_ref(this_class);
    const auto super_index = super_class.empty() ? 0 : class_ref(super_class);
    std::vector<std::uint16_t> interface_indices;
    for (const auto& name : interfaces) interface_indices.push_back(class_ref(name));
    Bytes out;
    out.u4(0xCAFEBABE).u2(minor).u2(major).u2(next_).append(pool_);
    out.u2(access_flags).u2(this_index).u2(super_index);
    out.u2(static_cast<unsigned>(interface_indices.size()));
    for (const auto index : interface_indices) out.u2(index);
    out.u2(field_count_).append(fields_);
    out.u2(method_count_).append(methods_);
    append_attributes(out, class_attributes_);
    return out.data();
  }

  static void append_attributes(Bytes& out, const std::vector<Bytes>& attributes) {
    out.u2(static_cast<unsigned>(attributes.size()));
    for (const Bytes& a : attributes) out.append(a);
  }

 private:
  std::uint16_t member(unsigned tag, std::string_view owner, std::string_view name,
                       std::string_view desc) {
    const auto c = class_ref(owner);
    const auto nat = name_and_type(name, desc);
    return add(Bytes().u1(tag).u2(c).u2(nat), 1);
  }
  std::uint16_t add(const Bytes& entry, unsigned slots) {
    const auto [it, inserted] = known_.try_emplace(entry.data(), next_);
    if (inserted) {
      pool_.append(entry);
      next_ = static_cast<std::uint16_t>(next_ + slots);
    }
    return it->second;
  }

  Bytes pool_;
  std::uint16_t next_ = 1;
  std::map<std::vector<std::uint8_t>, std::uint16_t> known_;
  Bytes fields_;
  Bytes methods_;
  unsigned field_count_ = 0;
  unsigned method_count_ = 0;
  std::vector<Bytes> class_attributes_;
};

}  // namespace refract::frontend::testing
