// The worker's local protocol: every request and answer survives its own JSON line, and a line
// that is not one says what is wrong and where.
#include "worker/daemon/local_protocol.h"

#include <gtest/gtest.h>

#include "worker/gate/eligibility.h"

namespace mc::worker {
namespace {

TEST(LocalProtocol, EveryRequestReadsBackAsItWasWritten) {
  WrapperRunReport report{.job_form = "hls",
                          .output_height = 720,
                          .output_fps = 30,
                          .encode_sessions = 1,
                          .encoder = "h264_nvenc",
                          .exit_code = 0,
                          .evidence_ok = true,
                          .evidence = "nvml encUtil 40",
                          .gpu_failure = "",
                          .runner_died = false,
                          .media_seconds = 5,
                          .wall_seconds = 1.5,
                          .cpu_seconds = 0.2,
                          .width = 1280,
                          .height = 720,
                          .source_width = 1920,
                          .source_height = 1080,
                          .source_codec = "av1",
                          .notes = {"a note"}};
  const std::vector<LocalRequest> requests = {
      ContextRequest{},
      AcquireRequest{.sessions = 2, .pid = 77, .job_form = "web-video", .output_height = 480},
      FinishedRequest{.report = report},
      RefusedRequest{.reason = "no H.264 encoder"},
      DrainRequest{},
      EnableRequest{},
      ConcurrencyRequest{.value = 3},
      ConcurrencyRequest{},
      EligibilityRequest{.text = "max-resolution=1080"},
      StateRequest{}};
  for (const LocalRequest& request : requests) {
    const std::string line = LocalRequestLine(request);
    ASSERT_EQ(line.back(), '\n');
    Result<LocalRequest> read = ParseLocalRequest(line.substr(0, line.size() - 1));
    ASSERT_TRUE(read) << line << ": " << read.error_message();
    EXPECT_EQ(read->index(), request.index()) << line;
    EXPECT_EQ(LocalRequestLine(*read), line);
  }
}

TEST(LocalProtocol, AContextAnswerCarriesTheDeviceAndTheBaseline) {
  LocalAnswer answer{.ok = true, .message = "m", .state = "AVAILABLE"};
  answer.context = WrapperContext{.device = {{"name", "pci-0000-01-00-0"}},
                                  .render_node = "/dev/dri/renderD128",
                                  .cuda_ordinal = 1,
                                  .ffmpeg = "/usr/bin/ffmpeg",
                                  .nvenc_preset = "p5",
                                  .baseline_cpu_seconds_per_media_second = 1.5,
                                  .baseline_pixels_per_frame = 2073600};
  const std::string line = LocalAnswerLine(answer);
  Result<LocalAnswer> read = ParseLocalAnswer(line.substr(0, line.size() - 1));
  ASSERT_TRUE(read) << read.error_message();
  ASSERT_TRUE(read->context);
  EXPECT_EQ(read->context->device["name"], "pci-0000-01-00-0");
  EXPECT_EQ(read->context->cuda_ordinal, 1);
  EXPECT_EQ(read->context->baseline_cpu_seconds_per_media_second, 1.5);
  EXPECT_EQ(LocalAnswerLine(*read), line);
}

TEST(LocalProtocol, ABadLineIsRefusedWithItsPlace) {
  EXPECT_EQ(ParseLocalRequest("not json").error_message(), "not JSON");
  EXPECT_EQ(ParseLocalRequest("[1]").error_message(), "expected a JSON object");
  EXPECT_NE(ParseLocalRequest(R"({"op": "explode"})").error_message().find("unknown operation"),
            std::string::npos);
  EXPECT_NE(
      ParseLocalRequest(R"({"op": "acquire", "sessions": -1})").error_message().find("sessions"),
      std::string::npos);
  EXPECT_NE(ParseLocalRequest(R"({"op": "finished"})").error_message().find("report"),
            std::string::npos);
  EXPECT_NE(ParseLocalRequest(R"({"op": "finished", "report": {"exit_code": "x"}})")
                .error_message()
                .find("exit_code"),
            std::string::npos);
  EXPECT_NE(
      ParseLocalAnswer(R"({"ok": true, "context": {"device": 3}})").error_message().find("device"),
      std::string::npos);
}

TEST(LocalProtocol, AnErrorHoldingBytesThatAreNotUtf8IsAnsweredNotThrown) {
  // An eligibility the pool sent, cut in the middle of a character, then quoted in the error.
  Result<Eligibility> refused = ParseEligibility("types=\xc3\xa9\xff;max_height=720");
  ASSERT_FALSE(refused);
  const LocalAnswer answer{.ok = false, .message = refused.error_message() + " \xc3"};
  const std::string line = LocalAnswerLine(answer);
  Result<LocalAnswer> read = ParseLocalAnswer(line);
  ASSERT_TRUE(read) << read.error_message();
  EXPECT_NE(read->message.find("\xef\xbf\xbd"), std::string::npos) << read->message;
  EXPECT_FALSE(read->ok);
}

}  // namespace
}  // namespace mc::worker
