#include "common/base/json_text.h"

#include <gtest/gtest.h>

namespace mc {
namespace {

TEST(JsonText, BytesThatAreNotUtf8BecomeReplacementCharactersWhereTheWriterWouldThrow) {
  // Half of "é" and a byte that is never UTF-8, as a cut or a hostile answer leaves them.
  const nlohmann::json value = {{"reason", "caf\xc3 \xff!"}};
  EXPECT_THROW((void)value.dump(), nlohmann::json::type_error);
  EXPECT_EQ(JsonText(value), "{\"reason\":\"caf\xef\xbf\xbd \xef\xbf\xbd!\"}");
  EXPECT_EQ(nlohmann::json::parse(JsonText(value))["reason"], "caf\xef\xbf\xbd \xef\xbf\xbd!");
}

TEST(JsonText, WritesOrderedDocumentsAndIndents) {
  const nlohmann::ordered_json value = {{"b", 1}, {"a", "x"}};
  EXPECT_EQ(JsonText(value), R"({"b":1,"a":"x"})");
  EXPECT_EQ(JsonText(value, 2), "{\n  \"b\": 1,\n  \"a\": \"x\"\n}");
}

}  // namespace
}  // namespace mc
