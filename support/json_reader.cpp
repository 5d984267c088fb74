#include "support/json_reader.hpp"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace refract {

namespace {

// Code point `code` as UTF-8 bytes appended to `out`.
void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

}  // namespace

JsonValue JsonReader::document() {
  JsonValue v = value();
  skip_space();
  if (at_ != text_.size()) fail("text after the document");
  return v;
}

void JsonReader::fail(const std::string& why) const {
  throw std::runtime_error("JSON offset " + std::to_string(at_) + ": " + why);
}

void JsonReader::skip_space() {
  while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
}

char JsonReader::peek() {
  skip_space();
  if (at_ >= text_.size()) fail("unexpected end");
  return text_[at_];
}

void JsonReader::expect(char c) {
  if (peek() != c) fail(std::string("expected '") + c + "'");
  ++at_;
}

bool JsonReader::literal(std::string_view word) {
  if (text_.substr(at_, word.size()) != word) return false;
  at_ += word.size();
  return true;
}

JsonValue JsonReader::value() {
  const char c = peek();
  if (c == '{') return object();
  if (c == '[') return array();
  if (c == '"') return JsonValue{string(), {}};
  if (literal("true")) return JsonValue{true, {}};
  if (literal("false")) return JsonValue{false, {}};
  if (literal("null")) return JsonValue{nullptr, {}};
  return number();
}

JsonValue JsonReader::object() {
  expect('{');
  auto out = std::make_shared<JsonValue::Object>();
  if (peek() == '}') {
    ++at_;
    return JsonValue{out, {}};
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
    return JsonValue{out, {}};
  }
}

JsonValue JsonReader::array() {
  expect('[');
  auto out = std::make_shared<JsonValue::Array>();
  if (peek() == ']') {
    ++at_;
    return JsonValue{out, {}};
  }
  while (true) {
    out->push_back(value());
    if (peek() == ',') {
      ++at_;
      continue;
    }
    expect(']');
    return JsonValue{out, {}};
  }
}

unsigned JsonReader::hex4() {
  if (at_ + 4 > text_.size()) fail("short \\u escape");
  unsigned code = 0;
  for (int i = 0; i < 4; ++i) {
    const char h = text_[at_++];
    if (!std::isxdigit(static_cast<unsigned char>(h))) fail("bad \\u escape");
    code = code * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(h))
                                                 ? h - '0'
                                                 : std::tolower(h) - 'a' + 10);
  }
  return code;
}

std::string JsonReader::string() {
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
        unsigned code = hex4();
        // A high surrogate and its low one make one code point past the BMP.
        if (code >= 0xD800 && code < 0xDC00) {
          if (!literal("\\u")) fail("lone high surrogate");
          const unsigned low = hex4();
          if (low < 0xDC00 || low >= 0xE000) fail("bad low surrogate");
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(out, code);
        break;
      }
      default:
        fail("bad escape");
    }
  }
}

JsonValue JsonReader::number() {
  const std::size_t start = at_;
  while (at_ < text_.size() &&
         (std::isdigit(static_cast<unsigned char>(text_[at_])) ||
          std::string_view("+-.eE").find(text_[at_]) != std::string_view::npos)) {
    ++at_;
  }
  if (start == at_) fail("expected a value");
  const std::string text(text_.substr(start, at_ - start));
  std::size_t used = 0;
  double number = 0;
  try {
    number = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size()) {
    at_ = start;
    fail("bad number " + text);
  }
  return JsonValue{number, text};
}

JsonValue read_json_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string content = text.str();
  try {
    return JsonReader(content).document();
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(file + ": " + e.what());
  }
}

}  // namespace refract
