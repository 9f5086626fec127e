// One worker per GPU on a machine of two fake GPUs (tests/fakenv/machines/two-rtx4090.json:
// two RTX 4090s at 0000:01:00.0 and 0000:02:00.0), through the real binary and Debian's real
// ffmpeg: each worker probes, self-tests and reports its own GPU, the work its ffmpeg does shows
// in that GPU's NVML alone, and one GPU made unusable leaves its sibling's worker as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "serve_process.h"
#include "status_checks.h"
#include "support/fake_sysfs.h"
#include "support/run_command.h"
#include "tiny_streams.h"

namespace mc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kAddresses[] = {"0000:01:00.0", "0000:02:00.0"};
const std::string kNames[] = {"pci-0000-01-00-0", "pci-0000-02-00-0"};

// A staged machine of two GPUs, with one worker's files (state, work directory, the PIDs of the
// ffmpegs it ran) for each GPU.
class TwoGpuMachine {
 public:
  explicit TwoGpuMachine(const std::string& name = "two-rtx4090.json")
      : file_(std::string(FAKENV_MACHINES_DIR) + "/" + name) {
    const probe::ChildOutcome staged =
        testing::RunCommand({FAKENV_STAGE, file_, Machine().string()});
    EXPECT_EQ(staged.code, 0) << staged.err;
    for (int gpu = 0; gpu < 2; ++gpu) {
      // The worker's ffmpeg: Debian's, started through a script that notes its PID, which exec
      // keeps, so the test knows which of NVML's processes were this worker's.
      const fs::path script =
          dir_.Write("ffmpeg-" + std::to_string(gpu),
                     "#!/bin/sh\necho $$ >> " + PidFile(gpu).string() + "\nexec ffmpeg \"$@\"\n");
      fs::permissions(script, fs::perms::owner_all);
    }
  }

  fs::path Machine() const { return dir_.path() / "machine"; }
  fs::path PidFile(int gpu) const { return dir_.path() / ("pids-" + std::to_string(gpu)); }

  std::vector<std::string> Environment(std::vector<std::string> more = {}) const {
    // The self-tests' ffmpeg runs boxed: the fake's machine, its engine, its machine file,
    // the records it names and this test's folder (the scripts record their pids there) are
    // the admin's folders.
    std::vector<std::string> env = {
        "LD_LIBRARY_PATH=" + (Machine() / "lib").string(), "FAKENV_RECORD=" + file_,
        "FAKENV_STATE_DIR=" + (Machine() / "state").string(),
        "PT_WORKER_SANDBOX_PATHS=" + Machine().string() + ":" + dir_.path().string() + ":" +
            MEDIA_CAP_BUILD_DIR + "/tests/fakenv:" + fs::path(file_).parent_path().string() + ":" +
            FAKENV_RECORDS_DIR};
    env.insert(env.end(), more.begin(), more.end());
    return env;
  }

  // WorkerFlags are the flags of GPU `gpu`'s worker, which names its GPU by its index.
  std::vector<std::string> WorkerFlags(int gpu) const {
    const std::string n = std::to_string(gpu);
    return testing::CommandLine({{"--gpu", n},
                                 testing::FakeNvidiaMachineFlags(Machine()),
                                 {"--state-dir", (dir_.path() / ("state-" + n)).string(),
                                  "--work-dir", (dir_.path() / ("work-" + n)).string()}});
  }

  probe::ChildOutcome Run(std::vector<std::string> argv, std::vector<std::string> env = {},
                          std::chrono::seconds timeout = std::chrono::seconds(60)) const {
    return testing::RunCommand(argv, Environment(std::move(env)), timeout);
  }

  // SelfTest runs `worker self-test -o json` on GPU `gpu` and gives its report.
  json SelfTest(int gpu, std::vector<std::string> extra = {}) const {
    std::vector<std::string> argv = {MEDIA_CAP_BINARY,
                                     "worker",
                                     "self-test",
                                     "-o",
                                     "json",
                                     "--ffmpeg",
                                     (dir_.path() / ("ffmpeg-" + std::to_string(gpu))).string(),
                                     "--step-deadline",
                                     "120",
                                     "--streams",
                                     testing::TinyStreams().string()};
    const std::vector<std::string> flags = WorkerFlags(gpu);
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), extra.begin(), extra.end());
    const probe::ChildOutcome run = Run(argv, {}, std::chrono::seconds(300));
    json report = json::parse(run.out, nullptr, false);
    EXPECT_FALSE(report.is_discarded()) << run.out << run.err;
    return report;
  }

  // Status runs `worker status -o json` on GPU `gpu` and gives the document, checked against
  // its schema.
  json Status(int gpu, std::vector<std::string> env = {}) const {
    std::vector<std::string> argv = {MEDIA_CAP_BINARY,
                                     "worker",
                                     "status",
                                     "--output",
                                     "json",
                                     "--kernel-log",
                                     dir_.Write("empty-kmsg", "").string()};
    const std::vector<std::string> flags = WorkerFlags(gpu);
    argv.insert(argv.end(), flags.begin(), flags.end());
    const probe::ChildOutcome run = Run(argv, std::move(env));
    json document = json::parse(run.out, nullptr, false);
    EXPECT_FALSE(document.is_discarded()) << run.out << run.err;
    const probe::ChildOutcome valid = worker::testing::ValidateAgainstSchema(dir_, {run.out});
    EXPECT_EQ(valid.code, 0) << valid.out << valid.err;
    return document;
  }

  // Smi is what NVML reports of GPU `gpu` now, as tests/fakenv's fakenv_smi prints it.
  json Smi(int gpu) const {
    const probe::ChildOutcome smi = Run({FAKENV_SMI, std::to_string(gpu)});
    EXPECT_EQ(smi.code, 0) << smi.out << smi.err;
    return json::parse(smi.out, nullptr, false);
  }

  // Pids are the processes with work in NVML's samples of GPU `gpu`.
  std::set<int> SampledPids(int gpu) const {
    std::set<int> pids;
    const json smi = Smi(gpu);
    for (const json& sample : smi["processSamples"]) pids.insert(sample["pid"].get<int>());
    return pids;
  }

  // ClientsEverOn counts every client (context, decoder, encode session) that any process
  // opened on GPU `gpu` since the machine was staged: the fake driver keeps one byte for
  // each in the ids file of that GPU's state directory.
  std::uintmax_t ClientsEverOn(int gpu) const {
    const fs::path state = Machine() / "state";
    const fs::path ids = (gpu == 0 ? state : state / ("gpu" + std::to_string(gpu))) / "ids";
    std::error_code none;
    const std::uintmax_t size = fs::file_size(ids, none);
    return none ? 0 : size;
  }

  // FfmpegPids are the PIDs of every ffmpeg GPU `gpu`'s worker started.
  std::set<int> FfmpegPids(int gpu) const {
    std::set<int> pids;
    std::ifstream in(PidFile(gpu));
    for (int pid = 0; in >> pid;) pids.insert(pid);
    return pids;
  }

 private:
  std::string file_;
  mc::testing::TempDir dir_;
};

// ReportStep is the step of that name in a self-test report.
const json& ReportStep(const json& report, const std::string& name) {
  for (const json& step : report["steps"]) {
    if (step["name"] == name) return step;
  }
  static const json none;
  return none;
}

// Contains tells whether every PID of `part` is in `all`.
bool Contains(const std::set<int>& all, const std::set<int>& part) {
  return std::includes(all.begin(), all.end(), part.begin(), part.end());
}

// ExpectPassedWithEvidence checks a self-test report: every step passed, with NVML's evidence
// of encoder and decoder work (the worker reads NVML of its own GPU only).
void ExpectPassedWithEvidence(const json& report) {
  EXPECT_EQ(report["ok"], true) << report.dump(2);
  for (const json& step : report["steps"]) EXPECT_EQ(step["ok"], true) << step.dump(2);
  EXPECT_NE(ReportStep(report, "encode")["evidence"].get<std::string>().find("h264_nvenc"),
            std::string::npos)
      << report.dump(2);
  EXPECT_NE(
      ReportStep(report, "decode_matrix")["evidence"].get<std::string>().find("decUtil up to"),
      std::string::npos)
      << report.dump(2);
}

// HoldMemory starts another tenant that holds `mib` MiB of GPU `gpu`'s memory and waits until
// it says it holds them; the tenant ends with the returned process.
std::unique_ptr<worker::testing::ServeProcess> HoldMemory(const TwoGpuMachine& machine, int gpu,
                                                          int mib) {
  auto hold = std::make_unique<worker::testing::ServeProcess>(
      std::vector<std::string>{FAKENV_HOLD, std::to_string(gpu), std::to_string(mib)},
      machine.Environment(), (machine.Machine() / ("hold-" + std::to_string(gpu))).string());
  std::string said;
  for (int tries = 0; tries < 100 && said.find("holding") == std::string::npos; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    said = hold->Log();
  }
  EXPECT_NE(said.find("fakenv_hold: holding"), std::string::npos) << said;
  return hold;
}

TEST(TwoGpuProbe, ListsBothGpusEachAtItsOwnPciAddressUnderItsOwnName) {
  const TwoGpuMachine machine;
  const probe::ChildOutcome run =
      machine.Run(testing::CommandLine({{MEDIA_CAP_BINARY, "probe"},
                                        testing::FakeMachineFlags(machine.Machine()),
                                        {"--output", "json"}}));
  ASSERT_EQ(run.code, 0) << run.err;
  const json devices = json::parse(run.out, nullptr, false);
  ASSERT_TRUE(devices.is_array()) << run.out;
  ASSERT_EQ(devices.size(), 2u) << run.out;
  for (int gpu = 0; gpu < 2; ++gpu) {
    const json& attributes = devices[gpu]["attributes"];
    EXPECT_EQ(devices[gpu]["name"], kNames[gpu]);
    EXPECT_EQ(attributes["address"]["string"], kAddresses[gpu]);
    EXPECT_EQ(attributes["resource.kubernetes.io/pciBusID"]["string"], kAddresses[gpu]);
    EXPECT_EQ(attributes["name"]["string"], "AD102 [GeForce RTX 4090]");
    EXPECT_EQ(attributes["encodeH264"]["bool"], true);
  }
}

TEST(TwoGpuWorkerProbe, EachWorkerFindsItsOwnGpuByIndexAddressOrName) {
  const TwoGpuMachine machine;
  for (int gpu = 0; gpu < 2; ++gpu) {
    for (const std::string& named : {std::to_string(gpu), kAddresses[gpu], kNames[gpu]}) {
      SCOPED_TRACE(named);
      const probe::ChildOutcome run =
          machine.Run(testing::CommandLine({{MEDIA_CAP_BINARY, "worker", "probe", "--gpu", named},
                                            testing::FakeMachineFlags(machine.Machine()),
                                            {"--output", "json"}}));
      EXPECT_EQ(run.code, 0) << run.err;
      const json contract = json::parse(run.out, nullptr, false);
      ASSERT_EQ(contract["devices"].size(), 1u) << run.out;
      EXPECT_EQ(contract["devices"][0]["name"], kNames[gpu]);
      EXPECT_EQ(contract["devices"][0]["pci_address"], kAddresses[gpu]);
      EXPECT_EQ(contract["ok"], true);
    }
  }
}

// What a watch of one GPU's NVML saw: the processes with an encode session there, and those
// with work in its samples (an encode or a decode). A probe opens a session and encodes
// nothing, so only an ffmpeg's work shows in the samples.
struct NvmlSeen {
  std::set<int> sessions;
  std::set<int> working;
  bool empty() const { return sessions.empty() && working.empty(); }
};

// NvmlWatcher runs fakenv_smi on one GPU every 100 ms until stopped.
class NvmlWatcher {
 public:
  NvmlWatcher(const TwoGpuMachine& machine, int gpu)
      : thread_([this, &machine, gpu] {
          while (!stop_) {
            const json smi = machine.Smi(gpu);
            for (const json& session : smi["sessions"])
              seen_.sessions.insert(session["pid"].get<int>());
            for (const json& sample : smi["processSamples"])
              seen_.working.insert(sample["pid"].get<int>());
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
          }
        }) {}
  // Stop ends the watch and gives what it saw.
  NvmlSeen Stop() {
    stop_ = true;
    thread_.join();
    return seen_;
  }

 private:
  std::atomic<bool> stop_ = false;
  NvmlSeen seen_;
  std::thread thread_;
};

// Each GPU's worker alone: its self-test passes with evidence from its own GPU, and NVML of the
// other GPU, watched while it runs, never shows one of its ffmpegs.
class OneWorkerAlone : public ::testing::TestWithParam<int> {};

TEST_P(OneWorkerAlone, PassesItsSelfTestWithEvidenceFromItsOwnGpuAndNoneOfItsWorkOnTheOther) {
  const int gpu = GetParam();
  const int other = 1 - gpu;
  const TwoGpuMachine machine;
  NvmlWatcher own(machine, gpu);
  NvmlWatcher sibling(machine, other);
  const json report = machine.SelfTest(gpu);
  const NvmlSeen seen_on_own = own.Stop();
  const NvmlSeen seen_on_sibling = sibling.Stop();
  ExpectPassedWithEvidence(report);
  const std::set<int> ffmpegs = machine.FfmpegPids(gpu);
  // The watch sees the worker's ffmpegs work where they run, so it would see them on the
  // sibling; on its own GPU the worker's probe may show a session too, and nothing else.
  EXPECT_FALSE(seen_on_own.working.empty());
  EXPECT_TRUE(Contains(ffmpegs, seen_on_own.working));
  EXPECT_TRUE(seen_on_sibling.empty())
      << seen_on_sibling.sessions.size() << " processes with a session and "
      << seen_on_sibling.working.size() << " with work on GPU " << other;
  EXPECT_TRUE(machine.SampledPids(other).empty());
  // Nor did the worker's probe open a context or an encode session there, however briefly:
  // on consumer boards that session would count against the cap the two GPUs share.
  EXPECT_GT(machine.ClientsEverOn(gpu), 0u);
  EXPECT_EQ(machine.ClientsEverOn(other), 0u);

  const json status = machine.Status(gpu);
  EXPECT_NE(status["state"], "GPU_UNAVAILABLE") << status["state_reason"];
  EXPECT_EQ(status["probe"]["pci_address"], kAddresses[gpu]);
  // The two GeForce boards share the driver's cap of 8 sessions, the sibling counted from its
  // PCI name, since the worker never asks its driver.
  EXPECT_NE(status["probe"]["evidence"].get<std::string>().find("; encodeSessions 4"),
            std::string::npos)
      << status["probe"].dump();
  ASSERT_EQ(status["gpu"]["devices"].size(), 1u) << status["gpu"].dump();
  EXPECT_EQ(status["gpu"]["devices"][0]["uuid"], machine.Smi(gpu)["uuid"]);
  EXPECT_EQ(status["gpu"]["devices"][0]["index"], gpu);
  EXPECT_EQ(status["gpu"]["self_test"]["ok"], true);
}

INSTANTIATE_TEST_SUITE_P(OnEachGpu, OneWorkerAlone, ::testing::Values(0, 1),
                         [](const auto& info) { return "Gpu" + std::to_string(info.param); });

// Both workers self-tested at the same time, once for the suite: what each saw, and the
// machine they leave behind for the tests of one GPU made unusable.
class TwoWorkersAtOnce : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    machine_ = new TwoGpuMachine;
    reports_ = new json[2];
    std::thread second([] { reports_[1] = machine_->SelfTest(1); });
    reports_[0] = machine_->SelfTest(0);
    second.join();
  }
  static void TearDownTestSuite() {
    delete[] reports_;
    delete machine_;
  }

  static TwoGpuMachine* machine_;
  static json* reports_;
};
TwoGpuMachine* TwoWorkersAtOnce::machine_ = nullptr;
json* TwoWorkersAtOnce::reports_ = nullptr;

TEST_F(TwoWorkersAtOnce, EachPassesItsSelfTestWithOnlyItsOwnFfmpegsWorkOnItsGpu) {
  for (int gpu = 0; gpu < 2; ++gpu) {
    SCOPED_TRACE("GPU " + std::to_string(gpu));
    ExpectPassedWithEvidence(reports_[gpu]);
    const std::set<int> sampled = machine_->SampledPids(gpu);
    EXPECT_FALSE(sampled.empty());
    EXPECT_TRUE(Contains(machine_->FfmpegPids(gpu), sampled))
        << "GPU " << gpu << "'s NVML shows work of a process its worker did not start";
  }
}

TEST_F(TwoWorkersAtOnce, MemoryHeldPastTheFloorOnGpuOneMakesItsWorkerUnavailableNotGpuZeros) {
  const json before[] = {machine_->Status(0), machine_->Status(1)};
  // Both workers passed their self-tests: neither is unavailable (this box's CPUs may leave
  // them BUSY rather than IDLE).
  for (const json& status : before)
    EXPECT_NE(status["state"], "GPU_UNAVAILABLE") << status["state_reason"];
  // Another process takes all but 512 MiB of GPU 1's 24564 MiB (its context 256 MiB of it);
  // the worker's floor is 1024 MiB.
  const std::array<json, 2> held = [&] {
    const auto hold = HoldMemory(*machine_, 1, 24564 - 512 - 256);
    return std::array<json, 2>{machine_->Status(0), machine_->Status(1)};
  }();

  EXPECT_EQ(held[1]["state"], "GPU_UNAVAILABLE");
  EXPECT_EQ(held[1]["state_reason"],
            "512 MB of VRAM free is under the floor of 1024 MB (PT_WORKER_VRAM_FLOOR_MB)");
  EXPECT_EQ(held[1]["gpu"]["devices"][0]["vram_free_mb"], 512);
  EXPECT_EQ(held[0]["state"], before[0]["state"]) << held[0]["state_reason"];
  EXPECT_EQ(held[0]["state_reason"], before[0]["state_reason"]);
  EXPECT_EQ(held[0]["gpu"]["devices"][0]["vram_free_mb"],
            before[0]["gpu"]["devices"][0]["vram_free_mb"]);
  // The memory given back, GPU 1's worker is as it was.
  EXPECT_EQ(machine_->Status(1)["state"], before[1]["state"]);
}

TEST(TwoGpuWorkers, AGpuWithNoRoomForAContextLeavesItsSiblingsWorkerOnItsOwnGpu) {
  const TwoGpuMachine machine;
  // All of GPU 0's memory is another process's: no CUDA context fits, so the probe's query of
  // GPU 0 fails, though CUDA still counts GPU 0 as its device 0.
  const auto hold = HoldMemory(machine, 0, 24564 - 256);
  const json status = machine.Status(0);
  EXPECT_EQ(status["state"], "GPU_UNAVAILABLE");
  EXPECT_NE(status["state_reason"].get<std::string>().find("CUDA_ERROR_OUT_OF_MEMORY"),
            std::string::npos)
      << status["state_reason"];
  // GPU 1's worker still names GPU 1 to ffmpeg, and passes on it.
  const fs::path commands = machine.Machine() / "commands-1";
  const json report = machine.SelfTest(1, {"--command-log", commands.string()});
  ExpectPassedWithEvidence(report);
  std::ifstream log(commands);
  int with_gpu = 0;
  for (std::string line; std::getline(log, line);) {
    if (line.find("_nvenc") == std::string::npos && line.find("_cuvid") == std::string::npos)
      continue;
    ++with_gpu;
    // The log separates the arguments with the unit separator.
    const bool on_gpu_one = line.find(
                                "-gpu\x1f"
                                "1\x1f") != std::string::npos ||
                            line.find(
                                "-hwaccel_device\x1f"
                                "1\x1f") != std::string::npos;
    EXPECT_TRUE(on_gpu_one) << line;
  }
  EXPECT_GT(with_gpu, 0);
  EXPECT_TRUE(machine.SampledPids(0).empty());
}

TEST(TwoGpuWorkers, OnTwoH200sGpuOnesSelfTestFailsAtEncodeInNvencsWordsAndDecodesOnGpuOneAlone) {
  const TwoGpuMachine machine("two-h200.json");
  NvmlWatcher sibling(machine, 0);
  const json report = machine.SelfTest(1);
  const NvmlSeen seen_on_sibling = sibling.Stop();
  EXPECT_EQ(report["ok"], false);
  EXPECT_NE(ReportStep(report, "encode")["detail"].get<std::string>().find(
                "OpenEncodeSessionEx failed: unsupported device (2)"),
            std::string::npos)
      << report.dump(2);
  EXPECT_EQ(ReportStep(report, "decode_matrix")["ok"], true) << report.dump(2);
  const std::set<int> sampled = machine.SampledPids(1);
  EXPECT_FALSE(sampled.empty());
  EXPECT_TRUE(Contains(machine.FfmpegPids(1), sampled));
  EXPECT_TRUE(seen_on_sibling.empty()) << seen_on_sibling.sessions.size() << " sessions and "
                                       << seen_on_sibling.working.size() << " at work on GPU 0";
  EXPECT_EQ(machine.Status(1)["state"], "GPU_UNAVAILABLE");
}

TEST_F(TwoWorkersAtOnce, AGpuHiddenFromItsWorkerMakesItUnavailableWithTheReasonNotItsSibling) {
  const json before = machine_->Status(0);
  // GPU 1's worker runs where CUDA shows GPU 0 alone.
  const json hidden = machine_->Status(1, {"CUDA_VISIBLE_DEVICES=0"});
  EXPECT_EQ(hidden["state"], "GPU_UNAVAILABLE");
  EXPECT_NE(hidden["state_reason"].get<std::string>().find(
                "no CUDA device is at PCI address 0000:02:00.0"),
            std::string::npos)
      << hidden["state_reason"];
  const json after = machine_->Status(0);
  EXPECT_EQ(after["state"], before["state"]);
  EXPECT_EQ(after["state_reason"], before["state_reason"]);
}

}  // namespace
}  // namespace mc
