#include "dra/plugin/health_board.h"

#include <gtest/gtest.h>

#include <thread>

namespace mc::dra {
namespace {

using std::chrono::milliseconds;

TEST(HealthBoard, ANewValueMovesTheVersion) {
  HealthBoard board;
  board.Set("gpu0", {true, ""});
  const HealthSnapshot first = board.Snapshot();
  board.Set("gpu0", {false, "the query failed"});
  const HealthSnapshot second = board.Snapshot();
  EXPECT_NE(first.version, second.version);
  EXPECT_EQ(second.devices.at("gpu0"), (DeviceHealth{false, "the query failed"}));
}

TEST(HealthBoard, TheSameValueAgainIsNoChange) {
  HealthBoard board;
  board.Set("gpu0", {true, ""});
  const std::uint64_t version = board.Snapshot().version;
  board.Set("gpu0", {true, ""});
  EXPECT_EQ(board.Snapshot().version, version);
  EXPECT_FALSE(board.WaitForChange(version, milliseconds(10)));
}

TEST(HealthBoard, AWaiterWakesOnAChangeFromAnotherThread) {
  HealthBoard board;
  const std::uint64_t version = board.Snapshot().version;
  std::thread writer([&] {
    std::this_thread::sleep_for(milliseconds(20));
    board.Set("gpu0", {true, ""});
  });
  EXPECT_TRUE(board.WaitForChange(version, milliseconds(5000)));
  writer.join();
}

TEST(HealthBoard, RemovingADeviceIsAChange) {
  HealthBoard board;
  board.Set("gpu0", {true, ""});
  const std::uint64_t version = board.Snapshot().version;
  board.Remove("gpu0");
  EXPECT_NE(board.Snapshot().version, version);
  EXPECT_TRUE(board.Snapshot().devices.empty());
}

}  // namespace
}  // namespace mc::dra
