// NvmlListFrom over a driver whose list grows between the sizing call and the fill, as NVML's
// session list does when another process opens an encode in between.
#include "worker/evidence/nvml_list.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace mc::worker {
namespace {

constexpr int kNvmlNotFound = 6;

// GrowingList answers NVML's way (a null buffer sizes; a short buffer is refused with the count
// needed) and grows by `growth` items after each of its first `growing_calls` calls.
struct GrowingList {
  unsigned int size;
  unsigned int growth;
  int growing_calls;
  int calls = 0;

  int operator()(int* buffer, unsigned int* count) {
    const unsigned int now = size;
    if (calls++ < growing_calls) size += growth;
    if (!buffer || *count < now) {
      *count = now;
      return buffer ? kNvmlInsufficientSize : kNvmlSuccess;
    }
    for (unsigned int i = 0; i < now; ++i) buffer[i] = static_cast<int>(i);
    *count = now;
    return kNvmlSuccess;
  }
};

TEST(NvmlListFrom, AListThatStaysPutIsReadInASizingCallAndOneFill) {
  GrowingList driver{.size = 3, .growth = 0, .growing_calls = 0};
  std::vector<int> items;
  EXPECT_EQ(NvmlListFrom<int>(std::ref(driver), items), kNvmlSuccess);
  EXPECT_EQ(items, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(driver.calls, 2);
}

TEST(NvmlListFrom, AListThatOutgrowsTheHeadroomIsAskedAgainWithTheCountTheDriverGave) {
  GrowingList driver{.size = 1, .growth = 20, .growing_calls = 1};
  std::vector<int> items;
  EXPECT_EQ(NvmlListFrom<int>(std::ref(driver), items), kNvmlSuccess);
  EXPECT_EQ(items.size(), 21u);
  EXPECT_EQ(driver.calls, 3);
}

TEST(NvmlListFrom, AListThatNeverStopsGrowingIsRefusedAfterAFewFills) {
  GrowingList driver{.size = 1, .growth = 1000, .growing_calls = 100};
  std::vector<int> items;
  EXPECT_EQ(NvmlListFrom<int>(std::ref(driver), items), kNvmlInsufficientSize);
  EXPECT_TRUE(items.empty());
  EXPECT_EQ(driver.calls, 5);
}

TEST(NvmlListFrom, ASizingCallThatFailsIsPassedOnWithoutAFill) {
  int calls = 0;
  std::vector<int> items;
  EXPECT_EQ(NvmlListFrom<int>(
                [&](int*, unsigned int*) {
                  ++calls;
                  return kNvmlNotFound;
                },
                items),
            kNvmlNotFound);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace mc::worker
