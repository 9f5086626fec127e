// The scale the runner asks for, worked out on an input's stated size: an uploader states the
// size, so the arithmetic must hold for any size the input facts let through.
#include "worker/transcode/scale_filter.h"

#include <gtest/gtest.h>

#include <limits>

#include "worker/transcode/input_facts.h"

namespace mc::worker {
namespace {

PictureSize Scaled(std::string_view filter, PictureSize input) {
  Result<ScaleRequest> scale = ParseScaleFilter(filter);
  EXPECT_TRUE(scale) << scale.error_message();
  return scale ? OutputSizeOf(*scale, input) : PictureSize{};
}

TEST(ScaleFilter, KeepsTheAspectAndRoundsToTheDivisorAsFfmpegDoes) {
  const PictureSize size = Scaled("scale=w=-2:h=720", {1920, 1080});
  EXPECT_EQ(size.width, 1280);
  EXPECT_EQ(size.height, 720);
  EXPECT_EQ(Scaled("scale=w=720:h=-2", {1080, 1920}).height, 1280);
}

TEST(ScaleFilter, KeepsTheAspectOfASquareWhosePixelCountOverflowsAnInt) {
  const PictureSize size = Scaled("scale=w=-2:h=65534", {65535, 65535});
  EXPECT_EQ(size.width, 65534);
  EXPECT_EQ(size.height, 65534);
}

TEST(ScaleFilter, AWidthPastAnIntsReachSaturatesAtTheLargestEvenIntRatherThanWrapping) {
  // 1048576x1 scaled to 4320 lines asks for a width of 4.5 billion.
  const PictureSize size = Scaled("scale=w=-2:h=4320", {kMaxPictureSide, 1});
  EXPECT_EQ(size.width, std::numeric_limits<int>::max() - 1);
  EXPECT_EQ(size.height, 4320);
  const PictureSize tall = Scaled("scale=w=4320:h=-4", {1, kMaxPictureSide});
  EXPECT_EQ(tall.height, std::numeric_limits<int>::max() / 4 * 4);
}

TEST(ScaleFilter, ADivisorOfTheMostNegativeIntGivesNoSizeRatherThanOverflowing) {
  const PictureSize size = Scaled("scale=w=-2147483648:h=720", {1920, 1080});
  EXPECT_EQ(size.width, 0);
  EXPECT_EQ(size.height, 720);
}

}  // namespace
}  // namespace mc::worker
