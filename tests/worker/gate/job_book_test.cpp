// The job book: which job a run belongs to, how a job's end is counted, the transfer rates
// and their collapse, and the status document's part.
#include "worker/gate/job_book.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/temp_dir.h"
#include "worker/gate/held_jobs.h"

namespace mc::worker {
namespace {

using std::chrono::seconds;

const WallClock::time_point kStart = WallClock::from_time_t(1800000000);

peertube::AcceptedJob Accepted(const std::string& uuid, std::string_view type, int resolution) {
  return {.uuid = uuid, .type = std::string(type), .resolution = resolution, .fps = 30};
}

RunReport Report(std::string form, int height, bool evidence_ok = true) {
  return {.job_form = std::move(form),
          .output_height = height,
          .output_fps = 30,
          .encode_sessions = 1,
          .exit_code = 0,
          .evidence_ok = evidence_ok,
          .evidence = evidence_ok ? "nvml encUtil 41% for pid 7" : "no encoder work seen",
          .media_seconds = 10,
          .wall_seconds = 2,
          .width = 1280,
          .height = 720};
}

constexpr char kA[] = "00000000-0000-4000-8000-00000000000a";
constexpr char kB[] = "00000000-0000-4000-8000-00000000000b";
constexpr char kC[] = "00000000-0000-4000-8000-00000000000c";

TEST(JobBook, GivesARunToTheEarliestMatchingJobWithoutARun) {
  JobBook book;
  book.RecordAccepted(Accepted(kA, peertube::kWebVideoJob, 720), kStart);
  book.RecordAccepted(Accepted(kB, peertube::kHlsJob, 720), kStart + seconds(1));
  book.RecordAccepted(Accepted(kC, peertube::kHlsJob, 720), kStart + seconds(2));
  EXPECT_EQ(book.RecordRun(Report("hls", 720)), kB);
  EXPECT_EQ(book.RecordRun(Report("hls", 720)), kC);
  EXPECT_EQ(book.RecordRun(Report("web-video", 720)), kA);
  EXPECT_EQ(book.RecordRun(Report("web-video", 480)), std::nullopt);
  EXPECT_EQ(book.RecordRun(Report("audio-merge", 720)), std::nullopt);
  EXPECT_EQ(book.Counters().unattributed_runs, 2);
}

TEST(JobBook, CountsASuccessWithHardwareEvidenceAsCompleted) {
  JobBook book;
  book.RecordAccepted(Accepted(kA, peertube::kWebVideoJob, 720), kStart);
  ASSERT_TRUE(book.RecordRun(Report("web-video", 720)));
  book.RecordOutcome(kA, JobOutcome::kSuccess, 204, kStart + seconds(4));
  const JobCountersView counters = book.Counters();
  EXPECT_EQ(counters.completed, 1);
  EXPECT_EQ(counters.failed, 0);
  EXPECT_EQ(counters.active, 0);
  const std::optional<JobRecord> last = book.LastJob();
  ASSERT_TRUE(last);
  EXPECT_EQ(last->outcome, JobOutcome::kSuccess);
  EXPECT_EQ(last->server_status, 204);
  EXPECT_EQ(last->WallSeconds(), 4.0);
  EXPECT_EQ(last->realtime_factor, 5.0);
  EXPECT_EQ(last->output_pixel_rate, 1280.0 * 720 * 30 * 10 / 2);
  EXPECT_EQ(last->evidence_ok, true);
  ASSERT_TRUE(book.HwEvidenceLastJob());
  EXPECT_TRUE(book.HwEvidenceLastJob()->ok);
}

TEST(JobBook, CountsASuccessWithoutHardwareEvidenceAsFailed) {
  JobBook book;
  book.RecordAccepted(Accepted(kA, peertube::kWebVideoJob, 720), kStart);
  book.RecordAccepted(Accepted(kB, peertube::kHlsJob, 480), kStart);
  ASSERT_TRUE(book.RecordRun(Report("web-video", 720, /*evidence_ok=*/false)));
  book.RecordOutcome(kA, JobOutcome::kSuccess, 204, kStart + seconds(3));
  // A job whose success arrives with no run reported at all is no better.
  book.RecordOutcome(kB, JobOutcome::kSuccess, 204, kStart + seconds(5));
  const JobCountersView counters = book.Counters();
  EXPECT_EQ(counters.completed, 0);
  EXPECT_EQ(counters.failed, 2);
  EXPECT_EQ(counters.hw_fallback_prevented, 2);
  const std::optional<HwEvidence> evidence = book.HwEvidenceLastJob();
  ASSERT_TRUE(evidence);
  EXPECT_FALSE(evidence->ok);
  EXPECT_EQ(evidence->job_uuid, kB);
  EXPECT_NE(evidence->evidence.find("no ffmpeg run"), std::string::npos);
}

TEST(JobBook, OfTwoJobsOfOneShapeTheOneThatEndsFirstTakesTheRunThatEndedFirst) {
  JobBook book;
  book.RecordAccepted(Accepted(kA, peertube::kWebVideoJob, 720), kStart);
  book.RecordAccepted(Accepted(kB, peertube::kWebVideoJob, 720), kStart + seconds(1));
  // B's ffmpeg ends first; nothing in its report tells it from A's, so A holds it until B ends.
  ASSERT_EQ(book.RecordRun(Report("web-video", 720)), kA);
  book.RecordOutcome(kB, JobOutcome::kSuccess, 204, kStart + seconds(6));
  ASSERT_EQ(book.RecordRun(Report("web-video", 720)), kA);
  book.RecordOutcome(kA, JobOutcome::kSuccess, 204, kStart + seconds(9));
  const JobCountersView counters = book.Counters();
  EXPECT_EQ(counters.completed, 2);
  EXPECT_EQ(counters.failed, 0);
  EXPECT_EQ(counters.hw_fallback_prevented, 0);
  for (const JobRecord& job : book.Recent()) {
    EXPECT_EQ(job.runs, 1) << job.uuid;
    EXPECT_EQ(job.evidence_ok, true) << job.uuid;
  }
}

TEST(JobBook, AnErrorBesideATwinWhoseRunFailedTakesThatRunAndLeavesTheTwinClean) {
  JobBook book;
  book.RecordAccepted(Accepted(kA, peertube::kHlsJob, 480), kStart);
  book.RecordAccepted(Accepted(kB, peertube::kHlsJob, 480), kStart);
  RunReport failed = Report("hls", 480, /*evidence_ok=*/false);
  failed.exit_code = 1;
  ASSERT_EQ(book.RecordRun(failed), kA);
  book.RecordOutcome(kB, JobOutcome::kError, 204, kStart + seconds(2));
  ASSERT_EQ(book.RecordRun(Report("hls", 480)), kA);
  book.RecordOutcome(kA, JobOutcome::kSuccess, 204, kStart + seconds(5));
  const JobCountersView counters = book.Counters();
  EXPECT_EQ(counters.failed, 1);
  EXPECT_EQ(counters.completed, 1);
  EXPECT_EQ(counters.hw_fallback_prevented, 0);
}

TEST(JobBook, AnErrorBeforeAnyRunLeavesItsTwinsGoodRunWithTheTwin) {
  JobBook book;
  book.RecordAccepted(Accepted(kA, peertube::kHlsJob, 480), kStart);
  book.RecordAccepted(Accepted(kB, peertube::kHlsJob, 480), kStart);
  ASSERT_EQ(book.RecordRun(Report("hls", 480)), kA);
  book.RecordOutcome(kB, JobOutcome::kError, 204, kStart + seconds(2));  // its download failed
  book.RecordOutcome(kA, JobOutcome::kSuccess, 204, kStart + seconds(5));
  const JobCountersView counters = book.Counters();
  EXPECT_EQ(counters.completed, 1);
  EXPECT_EQ(counters.failed, 1);
  EXPECT_EQ(counters.hw_fallback_prevented, 0);
}

TEST(JobBook, CountsErrorsAsFailedAndAbortsApartAndIgnoresRefusedReports) {
  JobBook book;
  book.RecordAccepted(Accepted(kA, peertube::kWebVideoJob, 720), kStart);
  book.RecordAccepted(Accepted(kB, peertube::kHlsJob, 720), kStart);
  book.RecordOutcome(kA, JobOutcome::kSuccess, 404, kStart);
  EXPECT_EQ(book.Counters().active, 2) << "the server refused the report";
  book.RecordOutcome(kA, JobOutcome::kError, 204, kStart + seconds(1));
  book.RecordOutcome(kB, JobOutcome::kAbort, 204, kStart + seconds(1));
  const JobCountersView counters = book.Counters();
  EXPECT_EQ(counters.failed, 1);
  EXPECT_EQ(counters.aborted, 1);
  EXPECT_EQ(counters.active, 0);
  // An error before any run says nothing of the GPU.
  EXPECT_FALSE(book.HwEvidenceLastJob());
}

TEST(JobBook, AJobWhoseReportsTheServerNeverTookEndsAsAbortedAndFreesItsSlot) {
  // The server down for a restart while a job ends: the gate answers the runner's success
  // with a 502, then its error with a 502, and the runner gives the job up.
  JobBook book;
  book.RecordAccepted(Accepted(kA, peertube::kWebVideoJob, 720), kStart);
  book.RecordOutcome(kA, JobOutcome::kSuccess, 502, kStart + seconds(5));
  EXPECT_EQ(book.Counters().active, 1) << "the runner reports an error next";
  book.RecordOutcome(kA, JobOutcome::kError, 502, kStart + seconds(5));
  const JobCountersView counters = book.Counters();
  EXPECT_EQ(counters.active, 0);
  EXPECT_EQ(counters.aborted, 1);
  EXPECT_EQ(counters.failed, 0) << "nothing says the GPU failed it";
}

TEST(JobBook, SaysTheNetworkDegradedWhenTransfersCollapseAndNotBefore) {
  JobBook book;
  const std::uint64_t bytes = 100 * 1000 * 1000 / 8;  // 100 Mbit
  for (int i = 0; i < 6; ++i)
    book.RecordTransfer(TransferDirection::kDownload, bytes, std::chrono::seconds(1));
  EXPECT_NEAR(*book.Transfer().recent_download_mbps, 100, 0.01);
  EXPECT_FALSE(book.Transfer().network_degraded);
  // Small transfers measure latency, not bandwidth.
  book.RecordTransfer(TransferDirection::kDownload, 1000, std::chrono::seconds(10));
  EXPECT_NEAR(*book.Transfer().recent_download_mbps, 100, 0.01);
  int collapsed_after = 0;
  for (int i = 1; i <= 10 && !book.Transfer().network_degraded; ++i) {
    book.RecordTransfer(TransferDirection::kDownload, bytes, std::chrono::seconds(100));
    collapsed_after = i;
  }
  EXPECT_TRUE(book.Transfer().network_degraded);
  EXPECT_EQ(collapsed_after, 4);
  for (int i = 0; i < 3; ++i)
    book.RecordTransfer(TransferDirection::kDownload, bytes, std::chrono::seconds(1));
  EXPECT_FALSE(book.Transfer().network_degraded);
  EXPECT_FALSE(book.Transfer().recent_upload_mbps);
}

TEST(JobBookJson, HoldsTheStatusDocumentsKeysWithNullsBeforeTheFirstJob) {
  JobBook book;
  const nlohmann::json empty = JobBookJson(book);
  EXPECT_EQ(empty["jobs"],
            nlohmann::json::parse(
                R"({"completed":0,"failed":0,"hw_fallback_prevented":0,"aborted":0,"active":0})"));
  EXPECT_TRUE(empty["last_job"].is_null());
  EXPECT_TRUE(empty["hw_evidence_last_job"].is_null());
  EXPECT_TRUE(empty["transfer"]["recent_download_mbps"].is_null());
  EXPECT_EQ(empty["transfer"]["network_degraded"], false);

  book.RecordAccepted(Accepted(kA, peertube::kHlsJob, 720), kStart);
  RunReport run = Report("hls", 720);
  run.source_width = 1920;
  run.source_height = 1080;
  run.source_codec = "h264";
  ASSERT_TRUE(book.RecordRun(run));
  book.RecordOutcome(kA, JobOutcome::kSuccess, 204, kStart + seconds(8));
  const nlohmann::json document = JobBookJson(book);
  const nlohmann::json& last = document["last_job"];
  EXPECT_EQ(last["uuid"], kA);
  EXPECT_EQ(last["class"], nlohmann::json::parse(R"({"resolution":720,"fps":30.0})"));
  EXPECT_EQ(last["source"],
            nlohmann::json::parse(R"({"width":1920,"height":1080,"codec":"h264"})"));
  EXPECT_EQ(last["outcome"], "success");
  EXPECT_EQ(last["wall_seconds"], 8.0);
  EXPECT_EQ(last["accepted_at"], "2027-01-15T08:00:00Z");
  EXPECT_EQ(last["sessions_used"], 1);
  EXPECT_EQ(document["hw_evidence_last_job"]["job_uuid"], kA);
  EXPECT_EQ(document["hw_evidence_last_job"]["ok"], true);
  EXPECT_EQ(document["hw_evidence_last_job"]["evidence"], "nvml encUtil 41% for pid 7");
}

TEST(JobBook, KeepsEachHeldJobsTokenInAPrivateFileUntilTheJobEnds) {
  mc::testing::TempDir dir;
  const std::string path = HeldJobsPath(dir.path().string());
  JobBook book;
  std::vector<std::string> failures;
  book.KeepHeldJobsIn(path, [&](const std::string& line) { failures.push_back(line); });
  peertube::AcceptedJob first =
      Accepted("00000000-0000-4000-8000-00000000000a", peertube::kWebVideoJob, 720);
  first.job_token = "ptrjt-first";
  peertube::AcceptedJob second =
      Accepted("00000000-0000-4000-8000-00000000000b", peertube::kHlsJob, 480);
  second.job_token = "ptrjt-second";
  book.RecordAccepted(first, kStart);
  book.RecordAccepted(second, kStart);
  EXPECT_EQ(std::filesystem::status(path).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  Result<std::vector<HeldJob>> held = ReadHeldJobs(path);
  ASSERT_TRUE(held) << held.error_message();
  EXPECT_EQ(*held,
            (std::vector<HeldJob>{{first.uuid, "ptrjt-first"}, {second.uuid, "ptrjt-second"}}));
  book.RecordOutcome(first.uuid, JobOutcome::kSuccess, 204, kStart + seconds(5));
  held = ReadHeldJobs(path);
  ASSERT_TRUE(held) << held.error_message();
  EXPECT_EQ(*held, (std::vector<HeldJob>{{second.uuid, "ptrjt-second"}}));
  EXPECT_TRUE(failures.empty());
}

TEST(HeldJobs, AFileNotOfThisWorkersShapeIsRefusedNamingThePlace) {
  Result<std::vector<HeldJob>> read =
      ParseHeldJobs(R"({"jobs":[{"uuid":"../../users/me","jobToken":"ptrjt-x"}]})");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error_message().find("jobs[0]"), std::string::npos) << read.error_message();
  read = ParseHeldJobs(R"({"jobs":[{"uuid":"0a-1b"}]})");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error_message().find("jobToken"), std::string::npos) << read.error_message();
  read = ParseHeldJobs(std::string(100, '[') + std::string(100, ']'));
  ASSERT_FALSE(read);
  EXPECT_NE(read.error_message().find("nested deeper than 64 levels"), std::string::npos)
      << read.error_message();
  // What it writes, it reads.
  const std::vector<HeldJob> jobs = {{"0a-1b", "ptrjt-x"}};
  read = ParseHeldJobs(HeldJobsJson(jobs));
  ASSERT_TRUE(read) << read.error_message();
  EXPECT_EQ(*read, jobs);
}

}  // namespace
}  // namespace mc::worker
