#include "common/kube/watch_event.h"

#include <gtest/gtest.h>

namespace mc::kube {
namespace {

TEST(WatchEvent, EachTypeIsReadWithItsObjectAndResourceVersion) {
  const std::pair<const char*, WatchEvent::Type> types[] = {
      {"ADDED", WatchEvent::Type::kAdded},
      {"MODIFIED", WatchEvent::Type::kModified},
      {"DELETED", WatchEvent::Type::kDeleted},
      {"BOOKMARK", WatchEvent::Type::kBookmark}};
  for (const auto& [name, type] : types) {
    const std::string line =
        std::string(R"({"type":")") + name +
        R"(","object":{"kind":"ResourceSlice","metadata":{"name":"s","resourceVersion":"42"}}})";
    Result<WatchEvent> event = ParseWatchEvent(line);
    ASSERT_TRUE(event) << name << ": " << event.error_message();
    EXPECT_EQ(event->type, type) << name;
    EXPECT_EQ(event->resource_version, "42");
    EXPECT_EQ(event->object["metadata"]["name"], "s");
  }
}

TEST(WatchEvent, AnErrorCarriesItsStatusWithoutResourceVersion) {
  Result<WatchEvent> event = ParseWatchEvent(
      R"json({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 1 (2)","reason":"Expired","code":410}})json");
  ASSERT_TRUE(event) << event.error_message();
  EXPECT_EQ(event->type, WatchEvent::Type::kError);
  EXPECT_EQ(event->object["code"], 410);
  EXPECT_TRUE(event->resource_version.empty());
}

struct BrokenEvent {
  const char* line;
  const char* error;
};

class WatchEventErrors : public ::testing::TestWithParam<BrokenEvent> {};

TEST_P(WatchEventErrors, SayWhatIsWrong) {
  Result<WatchEvent> event = ParseWatchEvent(GetParam().line);
  ASSERT_FALSE(event);
  EXPECT_EQ(event.error_message(), GetParam().error);
}

const BrokenEvent kBrokenEvents[] = {
    {"", "watch event: not valid JSON"},
    {R"({"type":"ADDED","object":{})", "watch event: not valid JSON"},
    {"[1]", "watch event: event: expected an object"},
    {R"({"object":{}})", "watch event: type: missing"},
    {R"({"type":7,"object":{}})", "watch event: type: expected a string"},
    {R"({"type":"RENAMED","object":{}})",
     "watch event: type: \"RENAMED\" is not ADDED, MODIFIED, DELETED, BOOKMARK or ERROR"},
    {R"({"type":"ADDED"})", "watch event: object: missing"},
    {R"({"type":"ERROR","object":"gone"})", "watch event: object: expected an object"},
    {R"({"type":"ADDED","object":{}})", "watch event: object.metadata: missing"},
    {R"({"type":"ADDED","object":{"metadata":[]}})",
     "watch event: object.metadata: expected an object"},
    {R"({"type":"MODIFIED","object":{"metadata":{"name":"s"}}})",
     "watch event: object.metadata.resourceVersion: missing"},
    {R"({"type":"DELETED","object":{"metadata":{"resourceVersion":42}}})",
     "watch event: object.metadata.resourceVersion: expected a string"},
    {R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":""}}})",
     "watch event: object.metadata.resourceVersion: empty"},
};

INSTANTIATE_TEST_SUITE_P(WatchEvent, WatchEventErrors, ::testing::ValuesIn(kBrokenEvents));

TEST(WatchEvent, BytesThatAreNotUtf8AreAnErrorNotAnException) {
  Result<WatchEvent> event = ParseWatchEvent(
      "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"resourceVersion\":\"\xff\"}}}");
  ASSERT_FALSE(event);
  EXPECT_EQ(event.error_message(), "watch event: not valid JSON");
}

}  // namespace
}  // namespace mc::kube
