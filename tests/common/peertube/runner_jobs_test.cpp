// PeerTube's runner API as data: the calls told apart by path, the jobs read from the
// recorded answer, the list written back filtered, and the accepted job's downloads pointed
// at the gate.
#include "common/peertube/runner_jobs.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/base/read_file.h"
#include "common/peertube/runner_paths.h"

namespace mc::peertube {
namespace {

constexpr char kWebUuid[] = "e38d0bae-d1f1-4da7-b961-c04b84c9eb18";
constexpr char kHlsUuid[] = "87122e69-1443-40d8-9d96-37de866a95a6";

std::string Recorded() {
  Result<std::string> text = ReadFileText(PEERTUBE_DATA_DIR "/available-jobs-recorded.json");
  EXPECT_TRUE(text) << text.error_message();
  return text ? *text : "";
}

std::string AcceptedRecorded() {
  nlohmann::ordered_json job = nlohmann::ordered_json::parse(Recorded())["availableJobs"][0];
  job["jobToken"] = "ptrjt-11111111-2222-3333-4444-555555555555";
  return nlohmann::ordered_json{{"job", job}}.dump();
}

TEST(RunnerPaths, TellsTheRunnerApisCallsApart) {
  const std::string job = std::string("/api/v1/runners/jobs/") + kWebUuid;
  EXPECT_EQ(ClassifyRunnerRequest("POST", "/api/v1/runners/jobs/request").call,
            RunnerCall::kJobsRequest);
  EXPECT_EQ(ClassifyRunnerRequest("POST", "/api/v1/runners/register").call, RunnerCall::kRegister);
  const std::pair<const char*, RunnerCall> calls[] = {
      {"/accept", RunnerCall::kAccept},
      {"/update", RunnerCall::kUpdate},
      {"/success", RunnerCall::kSuccess},
      {"/error", RunnerCall::kError},
      {"/abort", RunnerCall::kAbort},
      {"/files/videos/d01e3c7d-7086-4ef4-b1c7-a72c8f5da86d/max-quality", RunnerCall::kFileDownload},
      {"/files/videos/d01e3c7d-7086-4ef4-b1c7-a72c8f5da86d/max-quality/audio",
       RunnerCall::kFileDownload},
      {"/files/videos/1/previews/max-quality", RunnerCall::kFileDownload},
  };
  for (const auto& [tail, call] : calls) {
    const ClassifiedRequest classified = ClassifyRunnerRequest("POST", job + tail);
    EXPECT_EQ(classified.call, call) << tail;
    EXPECT_EQ(classified.job_uuid, kWebUuid) << tail;
  }
}

TEST(RunnerPaths, LeavesEverythingElseAsOther) {
  const std::string job = std::string("/api/v1/runners/jobs/") + kWebUuid;
  EXPECT_EQ(ClassifyRunnerRequest("GET", job + "/accept").call, RunnerCall::kOther);
  EXPECT_EQ(ClassifyRunnerRequest("GET", "/api/v1/runners/jobs").call, RunnerCall::kOther);
  EXPECT_EQ(ClassifyRunnerRequest("POST", "/api/v1/runners/jobs/not-a-uuid/accept").call,
            RunnerCall::kOther);
  EXPECT_EQ(ClassifyRunnerRequest("POST", job + "/cancel").call, RunnerCall::kOther);
  EXPECT_EQ(ClassifyRunnerRequest("POST", job + "/files/").call, RunnerCall::kOther);
  EXPECT_EQ(ClassifyRunnerRequest("GET", "/socket.io/").call, RunnerCall::kOther);
}

TEST(ParseAvailableJobs, ReadsTheRecordedJobsClassesAndInputs) {
  Result<std::vector<AvailableJob>> jobs = ParseAvailableJobs(Recorded());
  ASSERT_TRUE(jobs) << jobs.error_message();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].uuid, kWebUuid);
  EXPECT_EQ((*jobs)[0].type, kWebVideoJob);
  EXPECT_EQ((*jobs)[0].resolution, 720);
  EXPECT_EQ((*jobs)[0].fps, 30.0);
  ASSERT_EQ((*jobs)[0].input_urls.size(), 1u);
  EXPECT_EQ((*jobs)[0].input_urls[0],
            std::string("http://127.0.0.1:9001/api/v1/runners/jobs/") + kWebUuid +
                "/files/videos/d01e3c7d-7086-4ef4-b1c7-a72c8f5da86d/max-quality");
  EXPECT_EQ((*jobs)[1].uuid, kHlsUuid);
  EXPECT_EQ((*jobs)[1].type, kHlsJob);
}

TEST(ParseAvailableJobs, ReadsAnEmptyListAndJobsWithoutAnOutputClass) {
  Result<std::vector<AvailableJob>> none = ParseAvailableJobs(R"({"availableJobs":[]})");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  Result<std::vector<AvailableJob>> studio = ParseAvailableJobs(
      R"({"availableJobs":[{"uuid":"87122e69-1443-40d8-9d96-37de866a95a6",
          "type":"video-transcription","payload":{"input":{"videoFileUrl":"http://a/b"}}}]})");
  ASSERT_TRUE(studio) << studio.error_message();
  EXPECT_FALSE((*studio)[0].resolution);
  EXPECT_FALSE((*studio)[0].fps);
}

TEST(ParseAvailableJobs, NamesThePlaceOfWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"{", "not JSON (at byte 2)"},
      {"[]", "(answer): expected an object"},
      {"{}", "availableJobs: missing"},
      {R"({"availableJobs":{}})", "availableJobs: expected an array"},
      {R"({"availableJobs":[{"uuid":"x","type":"t","payload":{}}]})",
       "availableJobs[0].uuid: not a UUID"},
      {R"({"availableJobs":[{"uuid":"87122e69-1443-40d8-9d96-37de866a95a6","type":"t"}]})",
       "availableJobs[0].payload: missing"},
      {R"({"availableJobs":[{"uuid":"87122e69-1443-40d8-9d96-37de866a95a6","type":"t",
          "payload":{"output":{"resolution":"720"}}}]})",
       "availableJobs[0].payload.output.resolution: expected an integer"},
      {R"({"availableJobs":[{"uuid":"87122e69-1443-40d8-9d96-37de866a95a6","type":"t",
          "payload":{"output":{"fps":-1}}}]})",
       "availableJobs[0].payload.output.fps: value is out of range"},
      {R"({"availableJobs":[{"uuid":"87122e69-1443-40d8-9d96-37de866a95a6","type":"t",
          "payload":{"input":{"videoFileUrl":7}}}]})",
       "availableJobs[0].payload.input.videoFileUrl: expected"},
  };
  for (const auto& [text, why] : cases) {
    Result<std::vector<AvailableJob>> jobs = ParseAvailableJobs(text);
    ASSERT_FALSE(jobs) << text;
    EXPECT_TRUE(jobs.error().IsInvalidInput());
    EXPECT_NE(jobs.error_message().find(why), std::string::npos) << jobs.error_message();
  }
}

TEST(FilterAvailableJobs, KeepsTheChosenJobsExactlyAsTheServerSentThem) {
  const std::string recorded = Recorded();
  Result<std::string> filtered = FilterAvailableJobs(
      recorded, [](std::size_t, const AvailableJob& job) { return job.type == kHlsJob; });
  ASSERT_TRUE(filtered) << filtered.error_message();
  const nlohmann::json original = nlohmann::json::parse(recorded);
  const nlohmann::json kept = nlohmann::json::parse(*filtered);
  ASSERT_EQ(kept["availableJobs"].size(), 1u);
  EXPECT_EQ(kept["availableJobs"][0], original["availableJobs"][1]);
  // The members stay in the server's order.
  EXPECT_LT(filtered->find("\"input\""), filtered->find("\"output\""));
}

TEST(FilterAvailableJobs, AnswersNothingWithTheOtherMembersKept) {
  EXPECT_EQ(NoAvailableJobs(R"({"availableJobs":[{"a":1}],"total":1})"),
            R"({"availableJobs":[],"total":1})");
  EXPECT_EQ(NoAvailableJobs("not json"), R"({"availableJobs":[]})");
}

TEST(ParseAcceptedJob, ReadsTheJobAndKeepsItsTokenApartFromEveryOtherField) {
  Result<AcceptedJob> job = ParseAcceptedJob(AcceptedRecorded());
  ASSERT_TRUE(job) << job.error_message();
  EXPECT_EQ(job->uuid, kWebUuid);
  EXPECT_EQ(job->resolution, 720);
  EXPECT_EQ(job->job_token, "ptrjt-11111111-2222-3333-4444-555555555555");
  const std::string everything = job->uuid + job->type + job->input_urls[0];
  EXPECT_EQ(everything.find("ptrjt"), std::string::npos);
}

TEST(AbortJobJson, IsTheBodyTheRunnerSendsWhenItStops) {
  const nlohmann::json body =
      nlohmann::json::parse(AbortJobJson("ptrt-runner", "ptrjt-job \"quoted\"", "Runner stopped"));
  EXPECT_EQ(body, (nlohmann::json{{"runnerToken", "ptrt-runner"},
                                  {"jobToken", "ptrjt-job \"quoted\""},
                                  {"reason", "Runner stopped"}}));
}

TEST(ParseAcceptedJob, NamesAMissingTokenOrJob) {
  Result<AcceptedJob> no_job = ParseAcceptedJob(R"({"availableJobs":[]})");
  ASSERT_FALSE(no_job);
  EXPECT_NE(no_job.error_message().find("job: missing"), std::string::npos)
      << no_job.error_message();
  nlohmann::json tokenless = nlohmann::json::parse(AcceptedRecorded());
  tokenless["job"].erase("jobToken");
  Result<AcceptedJob> no_token = ParseAcceptedJob(tokenless.dump());
  ASSERT_FALSE(no_token);
  EXPECT_NE(no_token.error_message().find("job.jobToken: missing"), std::string::npos);
}

TEST(RewriteInputUrls, PointsTheServersDownloadsAtTheGate) {
  Result<std::string> rewritten =
      RewriteInputUrls(AcceptedRecorded(), {"http://127.0.0.1:9001"}, "http://127.0.0.1:9465");
  ASSERT_TRUE(rewritten) << rewritten.error_message();
  const nlohmann::json job = nlohmann::json::parse(*rewritten)["job"];
  EXPECT_EQ(job["payload"]["input"]["videoFileUrl"],
            std::string("http://127.0.0.1:9465/api/v1/runners/jobs/") + kWebUuid +
                "/files/videos/d01e3c7d-7086-4ef4-b1c7-a72c8f5da86d/max-quality");
  EXPECT_EQ(job["jobToken"], "ptrjt-11111111-2222-3333-4444-555555555555");
  nlohmann::json original = nlohmann::json::parse(AcceptedRecorded())["job"];
  original["payload"]["input"]["videoFileUrl"] = job["payload"]["input"]["videoFileUrl"];
  EXPECT_EQ(job, original) << "nothing else changes";
}

TEST(RewriteInputUrls, RewritesJobFilesOfAnotherOriginAndLeavesOtherUrlsAlone) {
  const std::string accepted =
      nlohmann::json{
          {"job",
           {{"uuid", kHlsUuid},
            {"type", "vod-audio-merge-transcoding"},
            {"jobToken", "ptrjt-x"},
            {"payload",
             {{"input",
               {{"audioFileUrl", std::string("https://tube.example/api/v1/runners/jobs/") +
                                     kHlsUuid + "/files/videos/1/max-quality/audio"},
                {"previewFileUrl", "https://cdn.example/static/preview.jpg"}}},
              {"output", {{"resolution", 480}, {"fps", 25}}}}}}}}
          .dump();
  Result<std::string> rewritten = RewriteInputUrls(accepted, {}, "http://[::1]:9465");
  ASSERT_TRUE(rewritten) << rewritten.error_message();
  const nlohmann::json input = nlohmann::json::parse(*rewritten)["job"]["payload"]["input"];
  EXPECT_EQ(input["audioFileUrl"], std::string("http://[::1]:9465/api/v1/runners/jobs/") +
                                       kHlsUuid + "/files/videos/1/max-quality/audio");
  EXPECT_EQ(input["previewFileUrl"], "https://cdn.example/static/preview.jpg");
}

}  // namespace
}  // namespace mc::peertube
