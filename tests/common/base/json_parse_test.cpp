// The one entry for outside JSON: a document nested past the bound is refused while it is
// read, so that writing, comparing or copying what was read never recurses too deep.
#include "common/base/json_parse.h"

#include <gtest/gtest.h>

#include <string>

#include "common/base/json_text.h"

namespace mc {
namespace {

std::string Nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(JsonParse, ADocumentNestedPastTheBoundIsRefusedNamingTheBound) {
  // 100,000 levels in 200 KB: written again, it would overflow the stack.
  Result<nlohmann::json> deep = ParseJson(R"({"availableJobs":[],"note":)" + Nested(100000) + "}");
  ASSERT_FALSE(deep);
  EXPECT_TRUE(deep.error().IsInvalidInput());
  EXPECT_NE(deep.error_message().find("nested deeper than 64 levels"), std::string::npos)
      << deep.error_message();
  EXPECT_TRUE(ParseJson(Nested(kJsonDepthLimit)));
  EXPECT_FALSE(ParseJson(Nested(kJsonDepthLimit + 1)));
  EXPECT_TRUE(ParseJsonOrDiscarded(Nested(kJsonDepthLimit + 1)).is_discarded());
}

TEST(JsonParse, ASyntaxErrorNamesItsByteAndAHugeNumberSaysSo) {
  Result<nlohmann::json> cut = ParseJson(R"({"a": [1, 2)");
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error_message().find("not JSON (at byte"), std::string::npos)
      << cut.error_message();
  Result<nlohmann::json> huge = ParseJson(R"({"a": 1e330})");
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error_message().find("a number out of range"), std::string::npos)
      << huge.error_message();
  EXPECT_FALSE(ParseJson(R"({"a": 1} trailing)"));
  EXPECT_FALSE(ParseJson(""));
}

TEST(JsonParse, ReadsAWholeDocumentAndKeepsAnOrderedOnesMemberOrder) {
  Result<nlohmann::json> value = ParseJson(R"({"b": [1, {"c": null}], "a": "x"})");
  ASSERT_TRUE(value) << value.error_message();
  EXPECT_EQ((*value)["b"][1]["c"], nullptr);
  Result<nlohmann::ordered_json> ordered = ParseJsonAs<nlohmann::ordered_json>(R"({"b":1,"a":2})");
  ASSERT_TRUE(ordered) << ordered.error_message();
  EXPECT_EQ(JsonText(*ordered), R"({"b":1,"a":2})");
}

}  // namespace
}  // namespace mc
