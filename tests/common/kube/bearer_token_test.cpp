#include "common/kube/bearer_token.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>
#include <vector>

#include "support/temp_dir.h"

namespace mc::kube {
namespace {

using ::mc::testing::TempDir;

// File times move in clock ticks (a few milliseconds); a rewrite of the same size within one
// tick would look unchanged, which the kubelet's rotations, an hour apart, never are.
void WaitForTheNextFileTimeTick() { std::this_thread::sleep_for(std::chrono::milliseconds(30)); }

TEST(BearerToken, AFixedTokenIsGivenAsItIs) {
  BearerToken token("fixed", "");
  EXPECT_EQ(token.Current().value(), "fixed");
  BearerToken none("", "");
  EXPECT_EQ(none.Current().value(), "");
}

TEST(BearerToken, AFileIsReadWithoutItsSurroundingWhiteSpace) {
  TempDir dir;
  const auto file = dir.Write("token", "  from-file\n");
  BearerToken token("fixed", file);
  EXPECT_EQ(token.Current().value(), "from-file");
}

TEST(BearerToken, AFileRewrittenInPlaceIsReadAgainEvenAtTheSameSize) {
  TempDir dir;
  const auto file = dir.Write("token", "first-token");
  BearerToken token("", file);
  EXPECT_EQ(token.Current().value(), "first-token");
  EXPECT_EQ(token.Current().value(), "first-token");
  WaitForTheNextFileTimeTick();
  dir.Write("token", "other-token");
  EXPECT_EQ(token.Current().value(), "other-token");
}

TEST(BearerToken, ALinkSwappedToANewFileIsReadAgain) {
  // The kubelet writes a projected token into a new directory and swaps the "..data" link.
  TempDir dir;
  dir.Write("a/token", "token-a");
  dir.Write("b/token", "token-b");
  dir.Link("..data", "a");
  dir.Link("token", "..data/token");
  BearerToken token("", dir.path() / "token");
  EXPECT_EQ(token.Current().value(), "token-a");
  dir.Link("..data.new", "b");
  std::filesystem::rename(dir.path() / "..data.new", dir.path() / "..data");
  EXPECT_EQ(token.Current().value(), "token-b");
}

TEST(BearerToken, AMissingOrEmptyFileIsAnErrorUntilItIsBack) {
  TempDir dir;
  const auto file = dir.path() / "token";
  BearerToken token("fixed", file);
  Result<std::string> missing = token.Current();
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error_message(), "token file " + file.string() + ": No such file or directory");
  dir.Write("token", " \n");
  Result<std::string> empty = token.Current();
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error_message(), "token file " + file.string() + " is empty");
  WaitForTheNextFileTimeTick();
  dir.Write("token", "back");
  EXPECT_EQ(token.Current().value(), "back");
}

TEST(BearerToken, ManyThreadsMayAskAtOnce) {
  TempDir dir;
  const auto file = dir.Write("token", "shared");
  BearerToken token("", file);
  std::vector<std::thread> threads;
  std::atomic<int> good{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < 200; ++j) {
        Result<std::string> current = token.Current();
        if (current && *current == "shared") ++good;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(good, 800);
}

}  // namespace
}  // namespace mc::kube
