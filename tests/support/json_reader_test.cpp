// support/json_reader: the JSON refract writes reads back exactly, and malformed text is an
// error naming its offset.
#include "support/json_reader.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "support/json.hpp"

namespace refract {
namespace {

TEST(JsonReaderTest, ReadsNestedValues) {
  const JsonValue doc =
      JsonReader(R"({"a": [1, 2.5, -3e2], "b": {"c": true, "d": null}, "e": "x"})").document();
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc.at("a").array().size(), 3U);
  EXPECT_DOUBLE_EQ(doc.at("a").array()[1].number(), 2.5);
  EXPECT_DOUBLE_EQ(doc.at("a").array()[2].number(), -300);
  EXPECT_TRUE(doc.at("b").at("c").boolean());
  EXPECT_TRUE(doc.at("b").at("d").is_null());
  EXPECT_EQ(doc.at("e").string(), "x");
  EXPECT_TRUE(doc.has("e"));
  EXPECT_FALSE(doc.has("f"));
}

TEST(JsonReaderTest, KeepsTheTextOfNumbersPastDoublePrecision) {
  const JsonValue doc = JsonReader("[123456789012345678901234567890]").document();
  EXPECT_EQ(doc.array()[0].number_text, "123456789012345678901234567890");
}

TEST(JsonReaderTest, ReadsBackWhatJsonStringWrites) {
  const std::string text = "tab\there \"quoted\" back\\slash \x01 caf\xC3\xA9";
  EXPECT_EQ(JsonReader(json_string(text)).document().string(), text);
}

TEST(JsonReaderTest, DecodesUnicodeEscapesToUtf8) {
  EXPECT_EQ(JsonReader(R"("\u00e9\u20ac\ud83d\ude00")").document().string(),
            "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
}

TEST(JsonReaderTest, RejectsMalformedText) {
  for (const char* bad :
       {"{", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "1 2", "-", "{\"a\":1,\"a\":2}", "\"\\uzzzz\""}) {
    EXPECT_THROW(JsonReader(bad).document(), std::runtime_error) << bad;
  }
  try {
    JsonReader("[1, x]").document();
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("offset 4"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace refract
