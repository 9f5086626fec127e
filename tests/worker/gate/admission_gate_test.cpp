// The admission gate between a client speaking the runner's calls and a real HTTP upstream
// (tests/common/http/upstream_peer.py) that answers jobs/request with a list of jobs: what the
// runner is offered in each state, what the book records, and that no token leaks.
#include "worker/gate/admission_gate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/http/client.h"
#include "support/temp_dir.h"
#include "test_peer.h"
#include "worker/daemon/worker_daemon.h"
#include "worker/gate/held_jobs.h"

namespace mc::worker {
namespace {

using http::testing::PeerProcess;

constexpr char kRunnerToken[] = "ptrt-aaaaaaaa-runner-secret";
// The peer's job token (tests/common/http/upstream_peer.py).
constexpr char kJobToken[] = "ptrjt-00000000-secret-job-token";

struct OfferedJob {
  std::string uuid;
  std::string type;
  int resolution;
  double fps;
};

const std::vector<OfferedJob> kOffers = {
    {"00000000-0000-4000-8000-000000000001", "vod-web-video-transcoding", 1080, 30},
    {"00000000-0000-4000-8000-000000000002", "vod-hls-transcoding", 720, 60},
    {"00000000-0000-4000-8000-000000000003", "vod-web-video-transcoding", 2160, 30},
    {"00000000-0000-4000-8000-000000000004", "vod-hls-transcoding", 480, 30},
    {"00000000-0000-4000-8000-000000000005", "video-transcription", 0, 0},
};

// Upstream is the test's PeerTube fake: the peer with a list of jobs whose input URLs
// point at the peer itself, as a server's point at its own origin.
class Upstream {
 public:
  explicit Upstream(std::size_t file_bytes = 0) {
    nlohmann::json jobs = nlohmann::json::array();
    for (const OfferedJob& offer : kOffers) {
      nlohmann::json payload = {{"input",
                                 {{"videoFileUrl", "http://127.0.0.1:PORT/api/v1/runners/jobs/" +
                                                       offer.uuid + "/files/videos/v/max-quality"},
                                  {"separatedAudioFileUrl", nlohmann::json::array()}}}};
      if (offer.resolution)
        payload["output"] = {{"resolution", offer.resolution}, {"fps", offer.fps}};
      jobs.push_back({{"uuid", offer.uuid}, {"type", offer.type}, {"payload", payload}});
    }
    // The port is known once the peer runs: the peer writes it in place of "PORT".
    std::ofstream(directory_.path() / "jobs.json")
        << nlohmann::json{{"availableJobs", jobs}}.dump();
    peer_ = std::make_unique<PeerProcess>(
        std::vector<std::string>{"--jobs", (directory_.path() / "jobs.json").string(),
                                 "--file-bytes", std::to_string(file_bytes)});
  }
  int port() const { return peer_->port(); }
  http::Url url() const { return *http::ParseUrl(peer_->Origin()); }
  nlohmann::json Seen() const {
    Result<http::ClientResponse> seen =
        http::Request(*http::ParseUrl(peer_->Origin() + "/_seen"), {});
    return seen ? nlohmann::json::parse(seen->body) : nlohmann::json::array();
  }

 private:
  mc::testing::TempDir directory_;
  std::unique_ptr<PeerProcess> peer_;
};

class Gate {
 public:
  Gate(const Upstream& upstream, std::function<Admission()> admission)
      : Gate(upstream.url(), std::move(admission)) {}
  Gate(http::Url upstream, std::function<Admission()> admission) {
    GateOptions options{.log = [this](const std::string& line) {
      std::lock_guard lock(mutex_);
      lines_.push_back(line);
    }};
    Result<std::unique_ptr<AdmissionGate>> gate = AdmissionGate::Start(
        "127.0.0.1:0", std::move(upstream), std::move(admission), book, options);
    EXPECT_TRUE(gate) << gate.error_message();
    if (gate) gate_ = std::move(*gate);
  }
  Result<http::ClientResponse> Post(const std::string& path, const nlohmann::json& body) {
    return http::Request(*http::ParseUrl(gate_->origin() + path),
                         http::JsonRequest("POST", body.dump()));
  }
  std::vector<std::string> RequestJobs() {
    Result<http::ClientResponse> answer =
        Post("/api/v1/runners/jobs/request", {{"runnerToken", kRunnerToken}});
    EXPECT_TRUE(answer) << answer.error_message();
    std::vector<std::string> uuids;
    if (!answer) return uuids;
    EXPECT_EQ(answer->status, 200) << answer->body;
    EXPECT_EQ(answer->Header("Content-Length"), std::to_string(answer->body.size()));
    const nlohmann::json document = nlohmann::json::parse(answer->body);
    for (const auto& job : document["availableJobs"]) uuids.push_back(job["uuid"]);
    return uuids;
  }
  std::vector<std::string> Lines() {
    std::lock_guard lock(mutex_);
    return lines_;
  }
  AdmissionGate& operator*() { return *gate_; }

  JobBook book;

 private:
  std::mutex mutex_;
  std::vector<std::string> lines_;
  std::unique_ptr<AdmissionGate> gate_;
};

Admission Admitting(std::int64_t free_jobs, Eligibility eligibility = {}) {
  return {.admitting = true,
          .state = "AVAILABLE",
          .reason = "",
          .free_jobs = free_jobs,
          .eligibility = std::move(eligibility)};
}

int CountCalls(const nlohmann::json& seen, const std::string& path) {
  int count = 0;
  for (const auto& call : seen) count += call["path"] == path;
  return count;
}

TEST(AdmissionGate, OffersNothingWhileNotAdmittingAndStillAsksTheServer) {
  Upstream upstream;
  ASSERT_GT(upstream.port(), 0);
  Gate gate(upstream, [] {
    return Admission{.admitting = false, .state = "DRAINING", .reason = "asked to drain"};
  });
  EXPECT_TRUE(gate.RequestJobs().empty());
  const nlohmann::json seen = upstream.Seen();
  ASSERT_EQ(CountCalls(seen, "/api/v1/runners/jobs/request"), 1);
  EXPECT_EQ(nlohmann::json::parse(std::string(seen[0]["body"]))["runnerToken"], kRunnerToken)
      << "the server keeps seeing the runner";
  const std::vector<std::string> lines = gate.Lines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "gate: jobs-request: DRAINING (asked to drain): the server offered 5, answered 0");
}

TEST(AdmissionGate, PassesTheBodyOfALaterRunnerToTheServerByteForByte) {
  Upstream upstream;
  ASSERT_GT(upstream.port(), 0);
  Gate gate(upstream, [] { return Admitting(1); });
  // Runner 0.2 and later send their version; a later one may send more.
  const std::string body = R"({"runnerToken":")" + std::string(kRunnerToken) +
                           R"(","jobTypes":["vod-hls-transcoding"],"version":"0.6.0",)"
                           R"("aMemberOfALaterRunner":{"x":[1,2]}})";
  Result<http::ClientResponse> answer =
      http::Request(*http::ParseUrl((*gate).origin() + "/api/v1/runners/jobs/request"),
                    http::JsonRequest("POST", body));
  ASSERT_TRUE(answer) << answer.error_message();
  EXPECT_EQ(answer->status, 200) << answer->body;
  const nlohmann::json seen = upstream.Seen();
  ASSERT_EQ(CountCalls(seen, "/api/v1/runners/jobs/request"), 1);
  EXPECT_EQ(std::string(seen[0]["body"]), body);
}

TEST(AdmissionGate, CutsTheOffersToTheFreeJobsInTheServersOrder) {
  Upstream upstream;
  ASSERT_GT(upstream.port(), 0);
  std::atomic<int> free_jobs{2};
  Gate gate(upstream, [&] { return Admitting(free_jobs); });
  EXPECT_EQ(gate.RequestJobs(), (std::vector<std::string>{kOffers[0].uuid, kOffers[1].uuid}));
  // The admission is read at every request: a change takes effect on the next one.
  free_jobs = 0;
  EXPECT_TRUE(gate.RequestJobs().empty());
  free_jobs = 10;
  EXPECT_EQ(gate.RequestJobs().size(), 4u) << "every VOD job, not the transcription";
}

TEST(AdmissionGate, FiltersTheOffersByEligibility) {
  Upstream upstream;
  ASSERT_GT(upstream.port(), 0);
  Result<Eligibility> eligibility = ParseEligibility("max-resolution=1080;max-fps=30");
  ASSERT_TRUE(eligibility);
  Gate gate(upstream, [&] { return Admitting(10, *eligibility); });
  EXPECT_EQ(gate.RequestJobs(), (std::vector<std::string>{kOffers[0].uuid, kOffers[3].uuid}));
  Result<Eligibility> hls = ParseEligibility("types=vod-hls-transcoding");
  ASSERT_TRUE(hls);
  Gate hls_gate(upstream, [&] { return Admitting(10, *hls); });
  EXPECT_EQ(hls_gate.RequestJobs(), (std::vector<std::string>{kOffers[1].uuid, kOffers[3].uuid}));
  const std::vector<std::string> lines = hls_gate.Lines();
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find("3 not eligible, answered 2 (vod-hls-transcoding 720p60, "
                              "vod-hls-transcoding 480p30)"),
            std::string::npos)
      << lines.back();
}

TEST(AdmissionGate, RecordsAcceptsAndOutcomesInTheBook) {
  Upstream upstream;
  ASSERT_GT(upstream.port(), 0);
  Gate gate(upstream, [] { return Admitting(4); });
  const nlohmann::json runner = {{"runnerToken", kRunnerToken}};
  const std::string jobs = "/api/v1/runners/jobs/";
  for (int i = 0; i < 4; ++i) {
    Result<http::ClientResponse> accepted = gate.Post(jobs + kOffers[i].uuid + "/accept", runner);
    ASSERT_TRUE(accepted) << accepted.error_message();
    EXPECT_EQ(accepted->status, 200);
  }
  EXPECT_EQ(gate.book.Counters().active, 4);

  // The wrapper's reports: 1080p web video with evidence, 480p HLS without.
  RunReport web{.job_form = "web-video",
                .output_height = 1080,
                .output_fps = 30,
                .encode_sessions = 1,
                .evidence_ok = true,
                .evidence = "nvml encUtil 30%"};
  EXPECT_EQ(gate.book.RecordRun(web), kOffers[0].uuid);
  RunReport hls{.job_form = "hls",
                .output_height = 480,
                .output_fps = 30,
                .evidence_ok = false,
                .evidence = "no encoder work seen"};
  EXPECT_EQ(gate.book.RecordRun(hls), kOffers[3].uuid);

  const nlohmann::json with_job = {{"runnerToken", kRunnerToken}, {"jobToken", kJobToken}};
  for (const auto& [index, call] : std::vector<std::pair<int, std::string>>{
           {0, "success"}, {1, "error"}, {2, "abort"}, {3, "success"}}) {
    Result<http::ClientResponse> answer =
        gate.Post(jobs + kOffers[index].uuid + "/" + call, with_job);
    ASSERT_TRUE(answer) << answer.error_message();
    EXPECT_EQ(answer->status, 204);
  }
  // The observer runs once each exchange has ended, just after the client has its answer.
  for (int i = 0; i < 100 && gate.book.Counters().active > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const JobCountersView counters = gate.book.Counters();
  EXPECT_EQ(counters.active, 0);
  EXPECT_EQ(counters.completed, 1);
  EXPECT_EQ(counters.failed, 2) << "the error, and the success without evidence";
  EXPECT_EQ(counters.hw_fallback_prevented, 1);
  EXPECT_EQ(counters.aborted, 1);
  // The book keeps the order in which the observers ran, which a busy machine may shuffle: each
  // record is looked up by its job.
  const std::vector<JobRecord> recent = gate.book.Recent();
  ASSERT_EQ(recent.size(), 4u);
  const auto of = [&](int index) {
    const auto found = std::find_if(recent.begin(), recent.end(), [&](const JobRecord& record) {
      return record.uuid == kOffers[index].uuid;
    });
    return found == recent.end() ? JobRecord{} : *found;
  };
  EXPECT_EQ(of(0).resolution, 1080);
  EXPECT_EQ(of(0).outcome, JobOutcome::kSuccess);
  EXPECT_EQ(of(1).outcome, JobOutcome::kError);
  EXPECT_EQ(of(2).outcome, JobOutcome::kAbort);
  EXPECT_TRUE(of(3).hw_fallback_prevented);
}

TEST(AdmissionGate, PointsDownloadsAtItselfAndMeasuresTheirRate) {
  Upstream upstream(/*file_bytes=*/8 * 1024 * 1024);
  ASSERT_GT(upstream.port(), 0);
  Gate gate(upstream, [] { return Admitting(1); });
  const std::vector<std::string> offered = gate.RequestJobs();
  ASSERT_EQ(offered.size(), 1u);
  Result<http::ClientResponse> accepted =
      gate.Post("/api/v1/runners/jobs/" + offered[0] + "/accept", {{"runnerToken", kRunnerToken}});
  ASSERT_TRUE(accepted) << accepted.error_message();
  const nlohmann::json job = nlohmann::json::parse(accepted->body)["job"];
  EXPECT_EQ(job["jobToken"], kJobToken) << "the runner still gets its token";
  const std::string input = job["payload"]["input"]["videoFileUrl"];
  EXPECT_EQ(input, (*gate).origin() + "/api/v1/runners/jobs/" + offered[0] +
                       "/files/videos/v/max-quality");

  http::ClientRequest download = http::JsonRequest(
      "POST", nlohmann::json{{"runnerToken", kRunnerToken}, {"jobToken", kJobToken}}.dump());
  download.max_body_bytes = 16 * 1024 * 1024;
  Result<http::ClientResponse> file = http::Request(*http::ParseUrl(input), download);
  ASSERT_TRUE(file) << file.error_message();
  EXPECT_EQ(file->body.size(), 8u * 1024 * 1024);
  for (int i = 0; i < 100 && !gate.book.Transfer().recent_download_mbps; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(gate.book.Transfer().recent_download_mbps);
  EXPECT_GT(*gate.book.Transfer().recent_download_mbps, 1.0);
  ASSERT_EQ(gate.book.Active().size(), 1u);
  EXPECT_GE(gate.book.Active()[0].downloaded_bytes, 8u * 1024 * 1024);
}

// A server's answer nested 100,000 deep (200 KB): written again by the gate, it would
// overflow the stack. The gate refuses it while reading, offers nothing and keeps serving.
TEST(AdmissionGate, RefusesAnAnswerNestedTooDeepAndKeepsServing) {
  mc::testing::TempDir directory;
  const std::size_t depth = 100000;
  std::ofstream(directory.path() / "deep.json")
      << R"({"availableJobs":[],"note":)" << std::string(depth, '[') << std::string(depth, ']')
      << "}";
  PeerProcess peer({"--jobs-text", (directory.path() / "deep.json").string()});
  ASSERT_GT(peer.port(), 0);
  Upstream upstream;
  ASSERT_GT(upstream.port(), 0);
  for (const bool admitting : {true, false}) {
    Gate gate(upstream, [] { return Admitting(2); });
    Gate deep_gate(*http::ParseUrl(peer.Origin()), [admitting] {
      return admitting ? Admitting(2) : Admission{.admitting = false, .state = "DRAINING"};
    });
    EXPECT_TRUE(deep_gate.RequestJobs().empty());
    const std::vector<std::string> lines = deep_gate.Lines();
    ASSERT_FALSE(lines.empty());
    if (admitting) {
      EXPECT_NE(lines.back().find("nested deeper than 64 levels"), std::string::npos)
          << lines.back();
    }
    EXPECT_EQ(gate.RequestJobs().size(), 2u) << "the process lives and serves";
  }
}

// A worker killed mid-job (SIGKILL, OOM, a power cut) ran no code at its end: what the book
// wrote when the job was accepted is all there is. On the next start `worker run` aborts
// each such job with its token, so PeerTube hands it out again at once.
TEST(AdmissionGate, AJobHeldWhenTheWorkerDiedIsHandedBackWithItsTokenOnTheNextStart) {
  mc::testing::TempDir state;
  Upstream upstream;
  ASSERT_GT(upstream.port(), 0);
  const std::string held_path = HeldJobsPath(state.path().string());
  {
    Gate gate(upstream, [] { return Admitting(1); });
    gate.book.KeepHeldJobsIn(held_path, {});
    ASSERT_TRUE(gate.Post("/api/v1/runners/jobs/" + kOffers[0].uuid + "/accept",
                          {{"runnerToken", kRunnerToken}}));
    EXPECT_EQ(std::filesystem::status(held_path).permissions() & std::filesystem::perms::all,
              std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    // The gate ends here with the job still running, and nothing of it is cleared.
  }
  Result<std::vector<HeldJob>> held = ReadHeldJobs(held_path);
  ASSERT_TRUE(held) << held.error_message();
  ASSERT_EQ(held->size(), 1u);

  std::vector<std::string> lines;
  const auto start = std::chrono::steady_clock::now();
  HandBackHeldJobs(state.path().string(), upstream.url().Origin(), kRunnerToken,
                   [&](const std::string& line) { lines.push_back(line); });
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  const nlohmann::json seen = upstream.Seen();
  const std::string abort = "/api/v1/runners/jobs/" + kOffers[0].uuid + "/abort";
  ASSERT_EQ(CountCalls(seen, abort), 1) << seen.dump();
  for (const auto& call : seen) {
    if (call["path"] != abort) continue;
    const nlohmann::json body = nlohmann::json::parse(std::string(call["body"]));
    EXPECT_EQ(body["jobToken"], kJobToken);
    EXPECT_EQ(body["runnerToken"], kRunnerToken);
  }
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(kOffers[0].uuid), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("handed back"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].find("ptrjt-"), std::string::npos) << lines[0];
  // Handed back once: the next start finds nothing.
  held = ReadHeldJobs(held_path);
  ASSERT_TRUE(held) << held.error_message();
  EXPECT_TRUE(held->empty());
}

TEST(AdmissionGate, KeepsEveryTokenOutOfTheBookAndTheLog) {
  Upstream upstream(/*file_bytes=*/300 * 1024);
  ASSERT_GT(upstream.port(), 0);
  Gate gate(upstream, [] { return Admitting(2); });
  const nlohmann::json with_job = {{"runnerToken", kRunnerToken}, {"jobToken", kJobToken}};
  for (const std::string& uuid : gate.RequestJobs()) {
    ASSERT_TRUE(gate.Post("/api/v1/runners/jobs/" + uuid + "/accept", with_job));
    ASSERT_TRUE(
        gate.Post("/api/v1/runners/jobs/" + uuid + "/files/videos/v/max-quality", with_job));
    ASSERT_TRUE(gate.Post("/api/v1/runners/jobs/" + uuid + "/update", with_job));
  }
  ASSERT_TRUE(gate.Post("/api/v1/runners/jobs/" + kOffers[0].uuid + "/success", with_job));
  ASSERT_TRUE(gate.Post("/api/v1/runners/jobs/" + kOffers[1].uuid + "/error", with_job));
  ASSERT_TRUE(
      gate.Post("/api/v1/runners/jobs/not-a-job/accept?token=" + std::string(kJobToken), with_job));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::string everything = JobBookJson(gate.book).dump();
  for (const JobRecord& record : gate.book.Recent()) everything += JobRecordJson(record).dump();
  for (const JobRecord& record : gate.book.Active()) everything += JobRecordJson(record).dump();
  for (const std::string& line : gate.Lines()) everything += line + "\n";
  EXPECT_GT(gate.Lines().size(), 3u) << everything;
  EXPECT_EQ(everything.find("ptrt-"), std::string::npos) << everything;
  EXPECT_EQ(everything.find("ptrjt-"), std::string::npos) << everything;
  EXPECT_EQ(everything.find("secret"), std::string::npos) << everything;
}

}  // namespace
}  // namespace mc::worker
