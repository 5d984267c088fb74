// A small JSON reader for tests that parse refract's JSON outputs back (no JSON library is
// among the project's dependencies). Strict: throws std::runtime_error with the offset.
#pragma once

#include <cctype>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace refract::test {

struct JsonValue {
  using Array = std::vector<JsonValue>;
  using Object = std::map<std::string, JsonValue>;
  std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<Array>,
               std::shared_ptr<Object>>
      value;

  bool is_object() const { return std::holds_alternative<std::shared_ptr<Object>>(value); }
  bool is_array() const { return std::holds_alternative<std::shared_ptr<Array>>(value); }
  bool is_string() const { return std::holds_alternative<std::string>(value); }
  bool is_number() const { return std::holds_alternative<double>(value); }
  const Object& object() const { return *std::get<std::shared_ptr<Object>>(value); }
  const Array& array() const { return *std::get<std::shared_ptr<Array>>(value); }
  const std::string& string() const { return std::get<std::string>(value); }
  double number() const { return std::get<double>(value); }
  const JsonValue& at(const std::string& key) const { return object().at(key); }
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  JsonValue document() {
    JsonValue v = value();
    skip_space();
    if (at_ != text_.size()) fail("text after the document");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("JSON offset " + std::to_string(at_) + ": " + why);
  }
  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  char peek() {
    skip_space();
    if (at_ >= text_.size()) fail("unexpected end");
    return text_[at_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++at_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  JsonValue value() {
    const char c = peek();
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return JsonValue{string()};
    if (literal("true")) return JsonValue{true};
    if (literal("false")) return JsonValue{false};
    if (literal("null")) return JsonValue{nullptr};
    return number();
  }

  JsonValue object() {
    expect('{');
    auto out = std::make_shared<JsonValue::Object>();
    if (peek() == '}') {
      ++at_;
      return JsonValue{out};
    }
    while (true) {
      if (peek() != '"') fail("expected a key");
      std::string key = string();
      expect(':');
      if (!out->emplace(key, value()).second) fail("duplicate key " + key);
      if (peek() == ',') {
        ++at_;
        continue;
      }
      expect('}');
      return JsonValue{out};
    }
  }

  JsonValue array() {
    expect('[');
    auto out = std::make_shared<JsonValue::Array>();
    if (peek() == ']') {
      ++at_;
      return JsonValue{out};
    }
    while (true) {
      out->push_back(value());
      if (peek() == ',') {
        ++at_;
        continue;
      }
      expect(']');
      return JsonValue{out};
    }
  }

  std::string string() {
    expect('"');
    std::string out;
    while (true) {
      if (at_ >= text_.size()) fail("unterminated string");
      const char c = text_[at_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= text_.size()) fail("unterminated escape");
      const char e = text_[at_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u': {
          if (at_ + 4 > text_.size()) fail("short \\u escape");
          const unsigned code = std::stoul(std::string(text_.substr(at_, 4)), nullptr, 16);
          at_ += 4;
          out += code < 0x80 ? static_cast<char>(code) : '?';  // tests compare ASCII names
          break;
        }
        default:
          fail("bad escape");
      }
    }
  }

  JsonValue number() {
    const std::size_t start = at_;
    while (at_ < text_.size() &&
           (std::isdigit(static_cast<unsigned char>(text_[at_])) ||
            std::string_view("+-.eE").find(text_[at_]) != std::string_view::npos)) {
      ++at_;
    }
    if (start == at_) fail("expected a value");
    return JsonValue{std::stod(std::string(text_.substr(start, at_ - start)))};
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

}  // namespace refract::test
