// Which jobs the worker takes, from the pool's text or JSON, and the filter itself.
#include "worker/gate/eligibility.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace mc::worker {
namespace {

peertube::AvailableJob Job(std::string type, std::optional<int> resolution,
                           std::optional<double> fps) {
  return {.uuid = "87122e69-1443-40d8-9d96-37de866a95a6",
          .type = std::move(type),
          .resolution = resolution,
          .fps = fps};
}

TEST(Eligibility, ReadsTypesResolutionAndFrameRateFromText) {
  Result<Eligibility> eligibility = ParseEligibility(
      "types=vod-web-video-transcoding,vod-hls-transcoding;max-resolution=1080;max-fps=29.97");
  ASSERT_TRUE(eligibility) << eligibility.error_message();
  EXPECT_EQ(eligibility->job_types,
            (std::set<std::string>{"vod-web-video-transcoding", "vod-hls-transcoding"}));
  EXPECT_EQ(eligibility->max_resolution, 1080);
  EXPECT_EQ(eligibility->max_fps, 29.97);
  EXPECT_EQ(EligibilityText(*eligibility),
            "types=vod-hls-transcoding,vod-web-video-transcoding;max-resolution=1080;"
            "max-fps=29.97");
  Result<Eligibility> everything = ParseEligibility("");
  ASSERT_TRUE(everything);
  EXPECT_TRUE(everything->job_types.empty());
  EXPECT_FALSE(everything->max_resolution);
}

TEST(Eligibility, ReadsTheSameFromJson) {
  Result<Eligibility> eligibility = ParseEligibilityJson(
      R"({"types":["vod-audio-merge-transcoding"],"max_resolution":720,"max_fps":60})");
  ASSERT_TRUE(eligibility) << eligibility.error_message();
  EXPECT_EQ(eligibility->job_types, (std::set<std::string>{"vod-audio-merge-transcoding"}));
  EXPECT_EQ(eligibility->max_resolution, 720);
  EXPECT_EQ(eligibility->max_fps, 60.0);
}

TEST(Eligibility, NamesThePartThatIsWrong) {
  const std::pair<const char*, const char*> text_cases[] = {
      {"types=vod-av1-transcoding", "part 1 (types): \"vod-av1-transcoding\" is not a runner job"},
      {"max-resolution=1080;max-fps=fast", "part 2 (max-fps): \"fast\" is not a frame rate"},
      {"max-resolution=0", "part 1 (max-resolution): \"0\" is not a resolution"},
      {"max-resolution=1080p", "\"1080p\" is not a resolution"},
      {"colour=blue", "part 1 (colour): unknown key"},
      {"types", "part 1 (types): not KEY=VALUE"},
  };
  for (const auto& [text, why] : text_cases) {
    Result<Eligibility> eligibility = ParseEligibility(text);
    ASSERT_FALSE(eligibility) << text;
    EXPECT_TRUE(eligibility.error().IsInvalidInput());
    EXPECT_NE(eligibility.error_message().find(why), std::string::npos)
        << eligibility.error_message();
  }
  const std::pair<const char*, const char*> json_cases[] = {
      {R"({"types":["x"]})", "eligibility.types[0]: \"x\" is not"},
      {R"({"max_resolution":"1080"})", "eligibility.max_resolution: expected an integer"},
      {R"({"max_fps":0})", "eligibility.max_fps: expected a frame rate"},
      {R"({"maxFps":30})", "eligibility.maxFps: unknown member"},
      {"[", "not JSON"},
      {R"({"max_fps":1e330})", "a number out of range"},
  };
  for (const auto& [text, why] : json_cases) {
    Result<Eligibility> eligibility = ParseEligibilityJson(text);
    ASSERT_FALSE(eligibility) << text;
    EXPECT_NE(eligibility.error_message().find(why), std::string::npos)
        << eligibility.error_message();
  }
}

TEST(Eligible, TakesEveryVodTypeAndNothingElseWhenNoTypeIsNamed) {
  const Eligibility all;
  EXPECT_TRUE(Eligible(Job("vod-web-video-transcoding", 2160, 60), all));
  EXPECT_TRUE(Eligible(Job("vod-hls-transcoding", 240, 30), all));
  EXPECT_TRUE(Eligible(Job("vod-audio-merge-transcoding", 480, 25), all));
  EXPECT_FALSE(Eligible(Job("video-transcription", std::nullopt, std::nullopt), all));
  EXPECT_FALSE(Eligible(Job("live-rtmp-hls-transcoding", std::nullopt, std::nullopt), all));
  EXPECT_FALSE(Eligible(Job("generate-video-storyboard", std::nullopt, std::nullopt), all));
  EXPECT_FALSE(Eligible(Job("a-type-of-a-later-peertube", 720, 30), all));
}

TEST(Eligible, TakesAnotherKindOnlyWhereNamedAndWithoutTheTranscodeLimits) {
  Result<Eligibility> named =
      ParseEligibility("types=vod-hls-transcoding,generate-video-storyboard;max-resolution=720");
  ASSERT_TRUE(named) << named.error_message();
  EXPECT_TRUE(Eligible(Job("generate-video-storyboard", std::nullopt, std::nullopt), *named));
  EXPECT_FALSE(Eligible(Job("video-transcription", std::nullopt, std::nullopt), *named));
  EXPECT_FALSE(Eligible(Job("vod-hls-transcoding", std::nullopt, 30), *named));
  EXPECT_EQ(EligibilityText(*named),
            "types=generate-video-storyboard,vod-hls-transcoding;max-resolution=720");
}

TEST(Eligible, HoldsTheLimitsAndFailsClosedOnAnUnknownClass) {
  Result<Eligibility> limits =
      ParseEligibility("types=vod-hls-transcoding;max-resolution=1080;max-fps=30");
  ASSERT_TRUE(limits);
  EXPECT_TRUE(Eligible(Job("vod-hls-transcoding", 1080, 30), *limits));
  EXPECT_FALSE(Eligible(Job("vod-web-video-transcoding", 1080, 30), *limits));
  EXPECT_FALSE(Eligible(Job("vod-hls-transcoding", 1440, 30), *limits));
  EXPECT_FALSE(Eligible(Job("vod-hls-transcoding", 720, 60), *limits));
  EXPECT_FALSE(Eligible(Job("vod-hls-transcoding", std::nullopt, 30), *limits));
  EXPECT_FALSE(Eligible(Job("vod-hls-transcoding", 720, std::nullopt), *limits));
}

constexpr const char* kListed = "87122e69-1443-40d8-9d96-37de866a95a6";
constexpr const char* kOther = "0f3c2b1a-9d8e-4c7b-a6f5-e4d3c2b1a090";

TEST(Eligibility, ReadsTheJobListTheManagerSendsAndWritesItBack) {
  const std::string text = "max-resolution=1080;jobs=" + std::string(kOther) + "," + kListed;
  Result<Eligibility> eligibility = ParseEligibility(text);
  ASSERT_TRUE(eligibility) << eligibility.error_message();
  ASSERT_TRUE(eligibility->jobs);
  EXPECT_EQ(*eligibility->jobs, (std::set<std::string>{kListed, kOther}));
  EXPECT_EQ(EligibilityText(*eligibility), text);
  EXPECT_EQ(EligibilityWords(*eligibility),
            "max-resolution=1080;jobs=2 listed by the pool manager");

  Result<Eligibility> json =
      ParseEligibilityJson(R"({"jobs":[")" + std::string(kListed) + R"("]})");
  ASSERT_TRUE(json) << json.error_message();
  EXPECT_EQ(json->jobs, (std::set<std::string>{kListed}));

  Result<Eligibility> none = ParseEligibility("jobs=");
  ASSERT_TRUE(none) << none.error_message();
  ASSERT_TRUE(none->jobs);
  EXPECT_TRUE(none->jobs->empty());
  EXPECT_EQ(EligibilityText(*none), "jobs=");
}

TEST(Eligibility, RefusesAJobThatIsNotAUuidAndAListTooLong) {
  Result<Eligibility> text = ParseEligibility(std::string("jobs=") + kListed + ",job-2");
  ASSERT_FALSE(text);
  EXPECT_NE(text.error_message().find("part 1 (jobs): \"job-2\" is not a runner job's UUID"),
            std::string::npos)
      << text.error_message();
  Result<Eligibility> json =
      ParseEligibilityJson(R"({"jobs":[")" + std::string(kListed) + R"(", 7]})");
  ASSERT_FALSE(json);
  EXPECT_NE(json.error_message().find("eligibility.jobs"), std::string::npos)
      << json.error_message();

  std::string many = "jobs=";
  for (std::size_t i = 0; i <= kLargestJobList; ++i) {
    char uuid[37];
    std::snprintf(uuid, sizeof uuid, "%08zx-0000-4000-8000-000000000000", i);
    many += (i == 0 ? "" : ",") + std::string(uuid);
  }
  Result<Eligibility> long_list = ParseEligibility(many);
  ASSERT_FALSE(long_list);
  EXPECT_NE(long_list.error_message().find("more than 1000 jobs"), std::string::npos)
      << long_list.error_message();
}

TEST(Eligible, TakesOnlyTheListedTranscodesAndLeavesTheOtherKindsToTheTypes) {
  Result<Eligibility> listed = ParseEligibility(
      std::string("types=vod-hls-transcoding,generate-video-storyboard;jobs=") + kListed);
  ASSERT_TRUE(listed) << listed.error_message();
  peertube::AvailableJob job = Job("vod-hls-transcoding", 720, 30);
  EXPECT_TRUE(Eligible(job, *listed));
  job.uuid = kOther;
  EXPECT_FALSE(Eligible(job, *listed));
  peertube::AvailableJob storyboard = Job("generate-video-storyboard", std::nullopt, std::nullopt);
  storyboard.uuid = kOther;
  EXPECT_TRUE(Eligible(storyboard, *listed));

  Result<Eligibility> none = ParseEligibility("jobs=");
  ASSERT_TRUE(none);
  EXPECT_FALSE(Eligible(Job("vod-web-video-transcoding", 720, 30), *none));
}

TEST(MayAdmitMore, OnlyAListThatLostJobsAndNothingElseAsksTheRunnerNothing) {
  const std::string both = std::string("jobs=") + kListed + "," + kOther;
  const std::string one = std::string("jobs=") + kListed;
  const auto parsed = [](const std::string& text) { return *ParseEligibility(text); };
  EXPECT_FALSE(MayAdmitMore(parsed(both), parsed(one)));
  EXPECT_FALSE(MayAdmitMore(parsed(both), parsed("jobs=")));
  EXPECT_FALSE(MayAdmitMore(parsed(one), parsed(one)));
  EXPECT_TRUE(MayAdmitMore(parsed(one), parsed(both)));
  EXPECT_TRUE(MayAdmitMore(parsed(one), parsed("")));
  EXPECT_TRUE(MayAdmitMore(parsed(""), parsed(one)));
  EXPECT_TRUE(MayAdmitMore(parsed("max-resolution=720;" + both), parsed(one)));
}

}  // namespace
}  // namespace mc::worker
