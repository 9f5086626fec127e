// The status document and the Prometheus text as pure functions, checked by a real JSON Schema
// validator and a real Prometheus parser, in every state.
#include "worker/status/status_document.h"

#include <gtest/gtest.h>

#include "status_checks.h"

namespace mc::worker {
namespace {

StatusInputs NvidiaWorker(WorkerState state, const std::string& reason) {
  StatusInputs inputs;
  inputs.generated_at = "2026-12-02T20:00:00Z";
  inputs.hostname = "w2";
  inputs.runner_name = "w2:gpu0";
  inputs.probe.ok = true;
  inputs.probe.probe_module = "nvidia-nvenc";
  inputs.probe.capabilities = {true, true, false, true, true, true, true};
  inputs.probe.max_sessions = 8;
  inputs.probe.max_width = 8192;
  inputs.probe.max_height = 8192;
  inputs.probe.devices.push_back({.name = "pci-0000-01-00-0",
                                  .pci_address = "0000:01:00.0",
                                  .vendor = "nvidia",
                                  .model = "GA102 [GeForce RTX 3090]",
                                  .driver_version = "595.58.03",
                                  .kernel_driver = "nvidia"});
  inputs.probe.evidence = "pci-0000-01-00-0 states encodeH264";
  inputs.generation = "Ampere";
  inputs.kernel_module = "open";
  inputs.sessions = {.active = 2, .cap = 8, .cap_source = "probe"};
  inputs.devices.push_back({.index = 0,
                            .uuid = "GPU-2095a1b2",
                            .vram_total_mb = 24576,
                            .vram_free_mb = 22000,
                            .enc_util_pct = 71,
                            .dec_util_pct = 40,
                            .temp_c = 66,
                            .throttle_reasons = {}});
  SelfTestReport self_test{
      .ts = "2026-12-02T19:00:00Z", .ok = true, .evidence = "enc_util_delta=+68%"};
  self_test.steps.push_back(
      {.name = "gate", .ok = true, .seconds = 0.2, .evidence = "driver 595.58.03"});
  self_test.sessions_cap = 8;
  self_test.pipeline_vram_mb = 310;
  inputs.self_test = self_test;
  inputs.concurrency = {.value = 3,
                        .limiters = {{"gpu", std::nullopt},
                                     {"gpu_sessions", 5},
                                     {"vram", 3},
                                     {"cpu", 4},
                                     {"ram", 4},
                                     {"disk", 8},
                                     {"bw", std::nullopt},
                                     {"config", std::nullopt}},
                        .bound_by = "vram"};
  inputs.state = {state, reason};
  inputs.active_jobs = 1;
  inputs.jobs = {214, 3, 1};
  inputs.last_job = LastJobEvidence{true, "nvml_encoder_sessions", "2026-12-02T19:59:00Z"};
  inputs.platform = {.wsl2 = false, .evidence = "no /dev/dxg", .kernel = "6.1.0-28-amd64"};
  inputs.host = {.cpu_model = "Xeon E5-2690 v4",
                 .cpu_cores = 56,
                 .load_1m = 22.4,
                 .ram_available_mb = 100000,
                 .disk_free_gb = 180};
  return inputs;
}

StatusInputs NoGpu() {
  StatusInputs inputs;
  inputs.generated_at = "2026-12-02T20:00:00Z";
  inputs.probe.ok = false;
  inputs.probe.reason = "no GPU \"pci-0000-00-02-0\" on this machine";
  inputs.concurrency = {.value = 0, .limiters = {{"gpu", 0}, {"cpu", 2}}, .bound_by = "gpu"};
  inputs.state = {WorkerState::kGpuUnavailable, "the probe refused the GPU"};
  inputs.platform = {
      .wsl2 = true, .evidence = "/dev/dxg exists", .kernel = "5.15.167.4-microsoft-standard-WSL2"};
  inputs.problems = {"cannot read MemAvailable"};
  return inputs;
}

TEST(StatusDocument, EveryStatesDocumentIsValidAgainstTheSchema) {
  mc::testing::TempDir dir;
  std::vector<std::string> documents;
  for (WorkerState state :
       {WorkerState::kAvailable, WorkerState::kBusy, WorkerState::kDraining, WorkerState::kDrained,
        WorkerState::kGpuUnavailable, WorkerState::kThermalThrottled, WorkerState::kOffline}) {
    documents.push_back(StatusDocument(NvidiaWorker(state, "a reason in words")).dump());
  }
  StatusInputs no_self_test =
      NvidiaWorker(WorkerState::kGpuUnavailable, "the self-test has not run");
  no_self_test.self_test.reset();
  no_self_test.last_job.reset();
  documents.push_back(StatusDocument(no_self_test).dump());
  documents.push_back(StatusDocument(NoGpu()).dump());
  StatusInputs running = NvidiaWorker(WorkerState::kAvailable, "a reason in words");
  running.peertube = PeerTubeVersions{.server = "8.2.3",
                                      .runner = "",
                                      .support = "unknown",
                                      .advice = "the runner's version could not be read"};
  documents.push_back(StatusDocument(running).dump());
  const probe::ChildOutcome run = testing::ValidateAgainstSchema(dir, documents);
  EXPECT_EQ(run.code, 0) << run.out << run.err;
}

TEST(StatusDocument, ARunningWorkerStatesThePeerTubeBesideItAndWhatIsKnownOfThePair) {
  StatusInputs inputs = NvidiaWorker(WorkerState::kAvailable, "a reason in words");
  EXPECT_FALSE(StatusDocument(inputs).contains("peertube"));
  inputs.peertube = PeerTubeVersions{.server = "7.2.1",
                                     .runner = "0.1.3",
                                     .support = "tested",
                                     .advice = "tested end to end (make test-peertube)"};
  const nlohmann::ordered_json document = StatusDocument(inputs);
  EXPECT_EQ(document["peertube"]["server_version"], "7.2.1");
  EXPECT_EQ(document["peertube"]["support"], "tested");
  EXPECT_NE(StatusTable(inputs).find(
                "peertube:     server 7.2.1, runner 0.1.3: tested (tested end to end"),
            std::string::npos)
      << StatusTable(inputs);
}

TEST(StatusDocument, TheSchemaRefusesADocumentThatBreaksIt) {
  mc::testing::TempDir dir;
  nlohmann::ordered_json missing_state = StatusDocument(NoGpu());
  missing_state.erase("state");
  nlohmann::ordered_json available_without_probe = StatusDocument(NoGpu());
  available_without_probe["state"] = "AVAILABLE";
  nlohmann::ordered_json bad_capability = StatusDocument(NoGpu());
  bad_capability["gpu"]["capabilities"]["h264_enc"] = 2;
  nlohmann::ordered_json bad_support = StatusDocument(NoGpu());
  bad_support["peertube"] = {{"server_version", "7.2.1"},
                             {"runner_version", "0.1.3"},
                             {"support", "probably"},
                             {"advice", ""}};
  // A box on a kernel without Landlock is a contradiction.
  nlohmann::ordered_json boxed_without_landlock = StatusDocument(NoGpu());
  boxed_without_landlock["sandbox"] = {
      {"landlock_abi", 0}, {"ffmpeg_boxed", true}, {"required", false}};
  for (const nlohmann::ordered_json& document :
       {missing_state, available_without_probe, bad_capability, bad_support,
        boxed_without_landlock}) {
    const probe::ChildOutcome run = testing::ValidateAgainstSchema(dir, {document.dump()});
    EXPECT_EQ(run.code, 1) << document.dump();
  }
}

TEST(StatusDocument, HoldsTheVendorGenericGpuBlock) {
  const nlohmann::ordered_json document =
      StatusDocument(NvidiaWorker(WorkerState::kAvailable, "room"));
  EXPECT_EQ(document["schema_version"], 2);
  EXPECT_EQ(document["gpu"]["vendor"], "nvidia");
  EXPECT_EQ(document["gpu"]["driver"], "595.58.03");
  EXPECT_EQ(document["gpu"]["sessions"]["cap_source"], "probe");
  EXPECT_EQ(document["gpu"]["devices"][0]["vram_free_mb"], 22000);
  EXPECT_EQ(document["concurrency_limiters"]["vram"], 3);
  EXPECT_TRUE(document["concurrency_limiters"]["bw"].is_null());
  EXPECT_EQ(document["concurrency_bound_by"], "vram");
  EXPECT_EQ(document["cpu"]["util_pct"], 40);
}

TEST(StatusDocument, SaysWhetherEachJobsFfmpegRunsInItsSandbox) {
  mc::testing::TempDir dir;
  StatusInputs inputs = NvidiaWorker(WorkerState::kAvailable, "room");
  std::vector<std::string> documents;
  const auto says = [&](const FfmpegSandbox& sandbox, const std::string& line) {
    inputs.sandbox = sandbox;
    const nlohmann::ordered_json document = StatusDocument(inputs);
    EXPECT_EQ(document["sandbox"]["landlock_abi"], sandbox.landlock_abi);
    EXPECT_EQ(document["sandbox"]["ffmpeg_boxed"], sandbox.ffmpeg_boxed);
    EXPECT_EQ(document["sandbox"]["required"], sandbox.required);
    EXPECT_NE(StatusTable(inputs).find(line), std::string::npos) << StatusTable(inputs);
    documents.push_back(document.dump());
  };
  says(FfmpegSandboxOf(7, false),
       "sandbox:      boxed: every ffmpeg and ffprobe that reads an upload runs boxed with no "
       "new privileges and no capabilities, reaching only its job's files, the libraries and the "
       "GPU's device nodes; landlock ABI 7: filesystem, network, signal and abstract-socket "
       "scopes; the socket rule (seccomp) refuses every Unix and IP socket");
  EXPECT_EQ(StatusDocument(inputs)["sandbox"]["enforced"],
            nlohmann::json(
                {"filesystem", "network", "signal_scope", "abstract_socket_scope", "socket_rule"}));
  says(FfmpegSandboxOf(3, false),
       "landlock ABI 3: filesystem only; no network rule (Linux 6.7) nor signal scope (Linux "
       "6.12)");
  EXPECT_EQ(StatusDocument(inputs)["sandbox"]["enforced"],
            nlohmann::json({"filesystem", "socket_rule"}));
  says(FfmpegSandboxOf(0, false),
       "sandbox:      unboxed: the kernel has no Landlock (or has it turned off): each job's "
       "ffmpeg decodes uploads unboxed, beside the worker's secrets");
  says(FfmpegSandboxOf(0, true),
       "sandbox:      missing: the kernel has no Landlock (or has it turned off) and "
       "PT_WORKER_REQUIRE_SANDBOX=1 requires ffmpeg's sandbox: worker run refuses to start");
  const probe::ChildOutcome run = testing::ValidateAgainstSchema(dir, documents);
  EXPECT_EQ(run.code, 0) << run.out << run.err;
}

TEST(PrometheusText, AnUnboxedFfmpegIsAnAlertableZero) {
  mc::testing::TempDir dir;
  StatusInputs inputs = NvidiaWorker(WorkerState::kAvailable, "room");
  for (const int abi : {7, 0}) {
    SCOPED_TRACE("Landlock ABI " + std::to_string(abi));
    inputs.sandbox = FfmpegSandboxOf(abi, false);
    std::string error;
    const nlohmann::json families = testing::ParseMetrics(dir, PrometheusText(inputs), error);
    ASSERT_FALSE(families.is_discarded()) << error;
    EXPECT_EQ(families["pt_worker_ffmpeg_boxed"]["samples"][0][2], abi > 0 ? 1.0 : 0.0);
    EXPECT_EQ(families["pt_worker_landlock_abi"]["samples"][0][2], static_cast<double>(abi));
  }
}

TEST(PrometheusText, ARealParserReadsTheSeriesTheDesignNames) {
  mc::testing::TempDir dir;
  std::string error;
  const nlohmann::json families = testing::ParseMetrics(
      dir, PrometheusText(NvidiaWorker(WorkerState::kBusy, "at capacity")), error);
  ASSERT_FALSE(families.is_discarded()) << error;
  EXPECT_EQ(families["pt_worker_up"]["samples"][0][2], 1.0);
  const nlohmann::json& sessions = families["pt_worker_gpu_sessions"]["samples"][0];
  EXPECT_EQ(sessions[1], (nlohmann::json{{"vendor", "nvidia"}, {"cap_source", "probe"}}));
  EXPECT_EQ(sessions[2], 2.0);
  EXPECT_EQ(families["pt_worker_hw_evidence_ok"]["samples"][0][2], 1.0);
  EXPECT_EQ(families["pt_worker_jobs"]["type"], "counter");
  bool busy = false;
  for (const nlohmann::json& sample : families["pt_worker_state"]["samples"]) {
    if (sample[1]["state"] == "BUSY") busy = sample[2] == 1.0;
  }
  EXPECT_TRUE(busy);
  EXPECT_EQ(families["pt_worker_gpu_temperature_celsius"]["samples"][0][1]["uuid"], "GPU-2095a1b2");
}

TEST(PrometheusText, AJobWithoutHardwareEvidenceIsAnAlertableZero) {
  mc::testing::TempDir dir;
  StatusInputs inputs = NvidiaWorker(WorkerState::kGpuUnavailable, "the last job had no evidence");
  inputs.last_job = LastJobEvidence{false, "none", "2026-12-02T19:59:00Z"};
  std::string error;
  const nlohmann::json families = testing::ParseMetrics(dir, PrometheusText(inputs), error);
  ASSERT_FALSE(families.is_discarded()) << error;
  EXPECT_EQ(families["pt_worker_hw_evidence_ok"]["samples"][0][2], 0.0);
}

TEST(PrometheusText, ALabelValueWithQuotesAndNewlinesIsEscaped) {
  mc::testing::TempDir dir;
  StatusInputs inputs = NoGpu();
  inputs.probe.probe_module = "odd \"module\"\nname\\";
  std::string error;
  const nlohmann::json families = testing::ParseMetrics(dir, PrometheusText(inputs), error);
  ASSERT_FALSE(families.is_discarded()) << error;
  EXPECT_EQ(families["pt_worker_probe_ok"]["samples"][0][1]["probe_module"],
            "odd \"module\"\nname\\");
}

}  // namespace
}  // namespace mc::worker
