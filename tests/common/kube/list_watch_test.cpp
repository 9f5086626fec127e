#include "common/kube/list_watch.h"

#include <gtest/gtest.h>

namespace mc::kube {
namespace {

nlohmann::json Named(const std::string& name, int version) {
  return {{"metadata", {{"name", name}, {"resourceVersion", std::to_string(version)}}}};
}

TEST(ApplyWatchUpdate, AListReplacesTheCopyAndEventsChangeOneObjectEach) {
  std::map<std::string, nlohmann::json> objects = {{"stale", Named("stale", 1)}};
  ApplyWatchUpdate(
      {.kind = WatchUpdate::Kind::kReplaceAll, .objects = {Named("a", 2), Named("b", 3)}}, objects);
  ASSERT_EQ(objects.size(), 2u) << "what the list does not hold is gone";
  ApplyWatchUpdate({.kind = WatchUpdate::Kind::kUpsert, .objects = {Named("a", 4)}}, objects);
  EXPECT_EQ(objects["a"]["metadata"]["resourceVersion"], "4");
  ApplyWatchUpdate({.kind = WatchUpdate::Kind::kDelete, .objects = {Named("b", 5)}}, objects);
  EXPECT_EQ(objects.count("b"), 0u);
  EXPECT_EQ(objects.size(), 1u);
}

TEST(UrlEncode, AFieldSelectorIsEscapedAndUnreservedCharactersStay) {
  EXPECT_EQ(UrlEncode("spec.driver=liken.sh,spec.nodeName=node-1_a~"),
            "spec.driver%3Dliken.sh%2Cspec.nodeName%3Dnode-1_a~");
}

}  // namespace
}  // namespace mc::kube
