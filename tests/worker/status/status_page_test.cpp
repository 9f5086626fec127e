// The worker's page, drawn from its status document: the state and its reason, the GPU, the
// recent jobs and the self-test, with every string from outside shown as text.
#include "worker/status/status_page.h"

#include <gtest/gtest.h>

#include "support/markup_balance.h"
#include "worker/status/status_document.h"

namespace mc::worker {
namespace {

constexpr const char* kHostile = "<script>alert(1)</script><img src=x onerror=alert(2)>";

StatusInputs Worker() {
  StatusInputs inputs;
  inputs.generated_at = "2026-12-02T20:00:00Z";
  inputs.hostname = "w2";
  inputs.runner_name = "w2:gpu0";
  inputs.probe.ok = true;
  inputs.probe.probe_module = "nvidia-nvenc";
  inputs.probe.capabilities = {true, true, false, true, true, true, true};
  inputs.probe.devices.push_back({.name = "pci-0000-01-00-0",
                                  .pci_address = "0000:01:00.0",
                                  .vendor = "nvidia",
                                  .model = "GA102 [GeForce RTX 3090]",
                                  .driver_version = "595.58.03"});
  inputs.sessions = {.active = 2, .cap = 8, .cap_source = "probe"};
  inputs.devices.push_back({.index = 0, .vram_total_mb = 24576, .vram_free_mb = 22000});
  SelfTestReport self_test{.ts = "2026-12-02T19:00:00Z", .ok = true, .evidence = "enc +68%"};
  self_test.steps.push_back({.name = "gate", .ok = true, .seconds = 0.2, .evidence = "driver"});
  self_test.steps.push_back(
      {.name = "decode_matrix", .ok = false, .seconds = 3, .detail = "AV1 did not decode"});
  inputs.self_test = self_test;
  inputs.state = {WorkerState::kAvailable, "the probe is green and the self-test passed"};
  inputs.last_job = LastJobEvidence{.ok = true, .method = "nvml", .ts = "2026-12-02T19:59:00Z"};
  inputs.recent_jobs.push_back({{"uuid", "job-1"},
                                {"type", "vod-web-video-transcoding"},
                                {"accepted_at", "2026-12-02T19:58:00Z"},
                                {"outcome", "success"},
                                {"wall_seconds", 41.5},
                                {"evidence", {{"ok", true}, {"words", "nvenc at 71%"}}}});
  inputs.recent_jobs.push_back({{"uuid", "job-2"},
                                {"type", "vod-hls-transcoding"},
                                {"outcome", "error"},
                                {"evidence", {{"ok", false}, {"words", "no encoder use"}}}});
  return inputs;
}

std::string Page(const StatusInputs& inputs) { return StatusPageHtml(StatusDocument(inputs), 10); }

TEST(StatusPage, ShowsTheStateAndItsReason) {
  const std::string page = Page(Worker());
  EXPECT_NE(page.find("data-state=\"AVAILABLE\""), std::string::npos);
  EXPECT_NE(page.find("the probe is green and the self-test passed"), std::string::npos);
  EXPECT_NE(page.find("<meta http-equiv=\"refresh\" content=\"10\">"), std::string::npos);
}

TEST(StatusPage, ShowsTheGpuAndWhatItStates) {
  const std::string page = Page(Worker());
  EXPECT_NE(page.find("GA102 [GeForce RTX 3090]"), std::string::npos);
  EXPECT_NE(page.find("2 of 8"), std::string::npos);
  EXPECT_NE(page.find("22000 of 24576 MB"), std::string::npos);
}

TEST(StatusPage, ShowsTheRecentJobsNewestFirstWithTheirVerdicts) {
  const std::string page = Page(Worker());
  const std::size_t second = page.find("data-job=\"job-2\"");
  const std::size_t first = page.find("data-job=\"job-1\"");
  ASSERT_NE(second, std::string::npos);
  ASSERT_NE(first, std::string::npos);
  EXPECT_LT(second, first);
  EXPECT_NE(page.find("no encoder use"), std::string::npos);
  EXPECT_NE(page.find("nvenc at 71%"), std::string::npos);
}

TEST(StatusPage, ShowsTheSelfTestStepByStep) {
  const std::string page = Page(Worker());
  EXPECT_NE(page.find("decode_matrix"), std::string::npos);
  EXPECT_NE(page.find("AV1 did not decode"), std::string::npos);
}

TEST(StatusPage, ShowsHostileNamesAsText) {
  StatusInputs inputs = Worker();
  inputs.runner_name = kHostile;
  inputs.hostname = kHostile;
  inputs.state.reason = kHostile;
  inputs.recent_jobs[0]["type"] = kHostile;
  inputs.recent_jobs[0]["uuid"] = "\" onmouseover=\"alert(1)";
  inputs.problems.push_back(kHostile);
  const std::string page = Page(inputs);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("onmouseover=\"alert"), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(page), std::nullopt);
}

TEST(StatusPage, AWorkerThatHasRunNothingDraws) {
  StatusInputs inputs;
  inputs.state = {WorkerState::kGpuUnavailable, "no GPU was found"};
  const std::string page = Page(inputs);
  EXPECT_NE(page.find("No job has run yet."), std::string::npos);
  EXPECT_NE(page.find("Not run yet."), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(page), std::nullopt);
}

}  // namespace
}  // namespace mc::worker
