// The wrapper's arithmetic on an input's stated size, which the uploader controls: the size a
// run's report states for the worker's job book and its plausibility check.
#include "worker/daemon/ffmpeg_wrapper.h"

#include <gtest/gtest.h>

#include <variant>

#include "worker/daemon/local_protocol.h"

namespace mc::worker {
namespace {

InputFacts Stated(int width, int height) {
  InputFacts facts;
  facts.has_video = true;
  facts.width = width;
  facts.height = height;
  return facts;
}

std::pair<std::int64_t, std::int64_t> Size(std::int64_t width, std::int64_t height) {
  return {width, height};
}

TEST(FfmpegWrapper, TheReportedSizeIsThePlansHeightAndTheInputsAspect) {
  EXPECT_EQ(ReportedOutputSize(720, Stated(1920, 1080)), Size(1280, 720));
  EXPECT_EQ(ReportedOutputSize(0, Stated(1920, 1080)), Size(1920, 1080));
  EXPECT_EQ(ReportedOutputSize(720, Stated(0, 0)), Size(0, 720));
}

TEST(FfmpegWrapper, ASquareWhosePixelCountOverflowsAnIntIsReportedWithoutOverflow) {
  EXPECT_EQ(ReportedOutputSize(720, Stated(65535, 65535)), Size(720, 720));
  EXPECT_EQ(ReportedOutputSize(0, Stated(65535, 65535)), Size(65535, 65535));
}

TEST(FfmpegWrapper, AWidthPastWhatAReportCarriesIsHeldThereAndTheWorkerTakesTheReport) {
  // A line of 2^20 pixels scaled to 4320 lines: 4.5 billion wide.
  const auto [width, height] = ReportedOutputSize(4320, Stated(kMaxPictureSide, 1));
  EXPECT_EQ(width, kMaxReportedPictureSide);
  EXPECT_EQ(height, 4320);
  WrapperRunReport report;
  report.width = width;
  report.height = height;
  Result<LocalRequest> read =
      ParseLocalRequest(LocalRequestLine(FinishedRequest{.report = report}));
  ASSERT_TRUE(read) << read.error_message();
  ASSERT_TRUE(std::holds_alternative<FinishedRequest>(*read));
  EXPECT_EQ(std::get<FinishedRequest>(*read).report.width, kMaxReportedPictureSide);
  // A plan's height past it is held there too.
  EXPECT_EQ(ReportedOutputSize(1 << 30, Stated(2, 2)).second, kMaxReportedPictureSide);
}

}  // namespace
}  // namespace mc::worker
