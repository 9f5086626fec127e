// The worker's status document, as the real worker wrote it on the fake RTX 4090
// (data/README.md), read into the policy's WorkerStatus; and what a wrong one gives.
#include "pool/service/worker_status_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "recorded_data.h"

namespace mc::pool {
namespace {

using pool::AdmissionState;

nlohmann::json RecordedStatus(const std::string& name) {
  return nlohmann::json::parse(testing::Recorded(name));
}

Result<pool::WorkerStatus> Read(const nlohmann::json& document) {
  return ParseWorkerStatus(document.dump(), "gpu-box-1:gpu0");
}

TEST(WorkerStatusReader, AWorkerThatPassedItsSelfTestIsAvailableWithItsProbedSessions) {
  Result<pool::WorkerStatus> status = Read(RecordedStatus("status-ada-after-self-test.json"));
  ASSERT_TRUE(status) << status.error_message();
  EXPECT_EQ(status->name, "gpu-box-1:gpu0");
  EXPECT_TRUE(status->readable);
  EXPECT_EQ(status->state, AdmissionState::kAvailable);
  EXPECT_EQ(status->vendor, "nvidia");
  EXPECT_EQ(status->sessions_cap, 8);
  EXPECT_EQ(status->sessions_active, 0);
  EXPECT_TRUE(status->probe_ok);
  EXPECT_TRUE(status->capabilities.h264_enc);
  EXPECT_TRUE(status->capabilities.av1_enc);
  ASSERT_TRUE(status->vram_free_mb.has_value());
  EXPECT_GT(*status->vram_free_mb, 0);
  EXPECT_EQ(status->limiters.gpu_sessions, 7);
  EXPECT_FALSE(status->last_job.has_value());
}

TEST(WorkerStatusReader, AWorkerWithNoSelfTestIsGpuUnavailable) {
  Result<pool::WorkerStatus> status = Read(RecordedStatus("status-ada-no-self-test.json"));
  ASSERT_TRUE(status) << status.error_message();
  EXPECT_EQ(status->state, AdmissionState::kGpuUnavailable);
}

TEST(WorkerStatusReader, TheLastJobGivesTheRateInMegapixelsAndTheCountersAreKept) {
  nlohmann::json document = RecordedStatus("status-ada-after-self-test.json");
  document["jobs"]["completed"] = 12;
  document["jobs"]["failed"] = 1;
  document["last_job"] = {{"class", {{"resolution", 720}, {"fps", 30}}},
                          {"output_pixel_rate", 2.5e8},
                          {"realtime_factor", 4.0}};
  document["hw_evidence_last_job"] = {{"ok", true}, {"method", "nvml"}, {"ts", "x"}};
  Result<pool::WorkerStatus> status = Read(document);
  ASSERT_TRUE(status) << status.error_message();
  EXPECT_EQ(status->jobs_completed, 12);
  EXPECT_EQ(status->jobs_failed, 1);
  ASSERT_TRUE(status->last_job.has_value());
  EXPECT_DOUBLE_EQ(status->last_job->output_pixel_rate_mpx_s, 250);
  EXPECT_EQ(status->last_job->job_class, pool::JobClass::kS);
  EXPECT_EQ(status->hw_evidence_ok, true);
}

TEST(WorkerStatusReader, ACollapsedNetworkMakesAnAvailableWorkerNetworkDegraded) {
  nlohmann::json document = RecordedStatus("status-ada-after-self-test.json");
  document["transfer"]["network_degraded"] = true;
  Result<pool::WorkerStatus> status = Read(document);
  ASSERT_TRUE(status) << status.error_message();
  EXPECT_EQ(status->state, AdmissionState::kNetworkDegraded);
}

TEST(WorkerStatusReader, AnAmdOrIntelGpuIsTheVaApiVendor) {
  nlohmann::json document = RecordedStatus("status-ada-after-self-test.json");
  document["gpu"]["vendor"] = "amd";
  EXPECT_EQ(Read(document)->vendor, "intel");
}

struct Broken {
  const char* what;
  std::function<void(nlohmann::json&)> edit;
  const char* error;
};

TEST(WorkerStatusReader, AWrongDocumentIsAnErrorNamingTheWorkerAndThePlace) {
  const std::vector<Broken> cases = {
      {"another version", [](auto& d) { d["schema_version"] = 3; },
       "gpu-box-1:gpu0: status: schema_version 3 is not the version 2 this manager reads"},
      {"a cap as text", [](auto& d) { d["gpu"]["sessions"]["cap"] = "8"; },
       "gpu-box-1:gpu0: status.gpu.sessions.cap: expected an integer"},
      {"an unknown state", [](auto& d) { d["state"] = "NETWORK_DEGRADED"; },
       "gpu-box-1:gpu0: status.state: unknown state \"NETWORK_DEGRADED\""},
      {"no probe", [](auto& d) { d.erase("probe"); }, "gpu-box-1:gpu0: status.probe: missing"},
      {"a negative job count", [](auto& d) { d["active_jobs"] = -1; },
       "gpu-box-1:gpu0: status.active_jobs: value -1 is out of range"},
      {"a device list as a map", [](auto& d) { d["gpu"]["devices"] = nlohmann::json::object(); },
       "gpu-box-1:gpu0: status.gpu.devices: expected an array"},
  };
  for (const Broken& broken : cases) {
    nlohmann::json document = RecordedStatus("status-ada-after-self-test.json");
    broken.edit(document);
    Result<pool::WorkerStatus> status = Read(document);
    ASSERT_FALSE(status) << broken.what;
    EXPECT_EQ(status.error_message(), broken.error) << broken.what;
    EXPECT_EQ(status.error().code, ErrorCode::kInvalidInput) << broken.what;
  }
}

TEST(WorkerStatusReader, AnAnswerThatIsNotJsonIsAnError) {
  Result<pool::WorkerStatus> status = ParseWorkerStatus("<html>502 Bad Gateway</html>", "w");
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error_message(), "w: status: not JSON");
}

TEST(WorkerStatusReader, AnUnreadableWorkerCountsAsNoCapacity) {
  const pool::WorkerStatus status = UnreadableWorker("w");
  EXPECT_FALSE(status.readable);
  EXPECT_EQ(status.state, AdmissionState::kOffline);
}

}  // namespace
}  // namespace mc::pool
