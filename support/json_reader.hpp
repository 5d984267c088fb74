// A small, strict JSON reader for refract's own JSON reports read back (`refract compare` reads
// the stats.json of each run; tests parse every report). No JSON library is among the
// project's dependencies. Errors are std::runtime_error naming the offset.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace refract {

struct JsonValue {
  using Array = std::vector<JsonValue>;
  using Object = std::map<std::string, JsonValue>;
  std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<Array>,
               std::shared_ptr<Object>>
      value;
  // A number's text as written: exact where the double is not (tuple counts past 2^53).
  std::string number_text;

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(value); }
  bool is_object() const { return std::holds_alternative<std::shared_ptr<Object>>(value); }
  bool is_array() const { return std::holds_alternative<std::shared_ptr<Array>>(value); }
  bool is_string() const { return std::holds_alternative<std::string>(value); }
  bool is_number() const { return std::holds_alternative<double>(value); }
  bool is_bool() const { return std::holds_alternative<bool>(value); }
  const Object& object() const { return *std::get<std::shared_ptr<Object>>(value); }
  const Array& array() const { return *std::get<std::shared_ptr<Array>>(value); }
  const std::string& string() const { return std::get<std::string>(value); }
  double number() const { return std::get<double>(value); }
  bool boolean() const { return std::get<bool>(value); }
  // The member `key` of an object; std::out_of_range when absent.
  const JsonValue& at(const std::string& key) const { return object().at(key); }
  // Whether an object has the member `key`.
  bool has(const std::string& key) const { return is_object() && object().count(key) != 0; }
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  // The one value of the text, with nothing but white space after it.
  JsonValue document();

 private:
  [[noreturn]] void fail(const std::string& why) const;
  void skip_space();
  char peek();
  void expect(char c);
  bool literal(std::string_view word);
  JsonValue value();
  JsonValue object();
  JsonValue array();
  std::string string();
  unsigned hex4();
  JsonValue number();

  std::string_view text_;
  std::size_t at_ = 0;
};

// The JSON document in `file`; std::runtime_error naming the file when it cannot be read or
// parsed.
JsonValue read_json_file(const std::string& file);

}  // namespace refract
