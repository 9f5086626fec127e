// The process tree, its CPU time and its DRM files, read from a /proc laid out by FakeProc,
// and the sampler over it.
#include "worker/evidence/process_tree.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "fake_proc.h"
#include "worker/evidence/evidence_sampler.h"

namespace mc::worker {
namespace {

std::string ProcFixture(const std::string& name) {
  return mc::testing::ReadFile(std::string(WORKER_FDINFO_DIR) + "/" + name);
}

TEST(ProcStat, ACommandNameWithSpacesAndParenthesesIsReadWhole) {
  Result<ProcStat> stat =
      ParseProcStat("4242 (ffmpeg (x) 2) S 4200 4242 4242 0 -1 0 1 0 0 0 70 30 5 5 20 0 1 0");
  ASSERT_TRUE(stat) << stat.error_message();
  EXPECT_EQ(stat->pid, 4242);
  EXPECT_EQ(stat->ppid, 4200);
  EXPECT_EQ(stat->cpu_ticks, 110u);
}

TEST(ProcStat, AShortLineIsRefused) {
  Result<ProcStat> stat = ParseProcStat("4242 (ffmpeg) S 1 2 3");
  ASSERT_FALSE(stat);
  EXPECT_EQ(stat.error_message(), "stat: fewer than 17 fields");
}

TEST(ProcessTree, TheTreeHoldsEveryDescendantAndNoOtherProcess) {
  testing::FakeProc proc;
  proc.AddProcess(100, 1, 10);
  proc.AddProcess(101, 100, 20);
  proc.AddProcess(102, 101, 30);
  proc.AddProcess(200, 1, 1000, "bystander");
  Result<std::vector<int>> tree = TreePids(proc.root(), 100);
  ASSERT_TRUE(tree) << tree.error_message();
  std::vector<int> pids = *tree;
  std::sort(pids.begin(), pids.end());
  EXPECT_EQ(pids, (std::vector<int>{100, 101, 102}));
  EXPECT_DOUBLE_EQ(TreeCpuSeconds(proc.root(), pids),
                   60.0 / static_cast<double>(sysconf(_SC_CLK_TCK)));
}

TEST(ProcessTree, AProcessThatIsGoneIsNotFound) {
  testing::FakeProc proc;
  proc.AddProcess(100, 1, 10);
  Result<std::vector<int>> tree = TreePids(proc.root(), 999);
  ASSERT_FALSE(tree);
  EXPECT_TRUE(tree.error().IsNotFound());
}

TEST(ProcessTree, OnlyDrmFilesWithADrmFdinfoAreClients) {
  testing::FakeProc proc;
  proc.AddProcess(100, 1, 10);
  proc.AddDrmFile(100, 5, ProcFixture("i915-busy.txt"));
  proc.AddPlainFile(100, 6, "/tmp/input.mp4");
  // A render node that is not the kernel's (a fake one, a plain file) has no DRM fdinfo.
  proc.AddDrmFile(100, 7, "pos:\t0\nflags:\t0100002\n");
  const std::vector<DrmClient> clients = DrmClients(proc.root(), {100});
  ASSERT_EQ(clients.size(), 1u);
  EXPECT_EQ(clients[0].fd, 5);
  EXPECT_EQ(clients[0].fdinfo.driver, "i915");
}

TEST(EvidenceSamplerOnAFakeProc, AnI915VideoEngineThatWorkedIsEncoderEvidence) {
  testing::FakeProc proc;
  proc.AddProcess(100, 1, 10);
  proc.AddProcess(101, 100, 5);
  proc.AddDrmFile(101, 4, ProcFixture("i915-idle.txt"));
  EvidenceSampler sampler({.proc_root = proc.root()});
  sampler.Sample(100);
  proc.AddDrmFile(101, 5, ProcFixture("i915-busy.txt"));
  sampler.Sample(100);
  const EvidenceRecord record = sampler.Record();
  EXPECT_EQ(record.samples, 2);
  ASSERT_TRUE(record.drm);
  EXPECT_EQ(record.drm->clients, 2);
  EXPECT_EQ(record.drm->time.codec_ns, 3482019001u);
  const EvidenceVerdict verdict = JudgeEvidence(record, {.encode = true});
  EXPECT_TRUE(verdict.ok) << verdict.evidence;
  EXPECT_EQ(verdict.method, "drm_fdinfo");
}

TEST(EvidenceSamplerOnAFakeProc, ARenderNodeHeldOpenWithAnIdleEngineIsNoEvidence) {
  testing::FakeProc proc;
  proc.AddProcess(100, 1, 10);
  proc.AddDrmFile(100, 4, ProcFixture("i915-idle.txt"));
  EvidenceSampler sampler({.proc_root = proc.root()});
  sampler.Sample(100);
  sampler.Sample(100);
  const EvidenceVerdict verdict = JudgeEvidence(sampler.Record(), {.encode = true});
  EXPECT_FALSE(verdict.ok);
  EXPECT_NE(verdict.evidence.find("no hardware evidence (no encoder work seen)"), std::string::npos)
      << verdict.evidence;
}

TEST(EvidenceSamplerOnAFakeProc, ASharedFileIsCountedOnceByItsClientId) {
  testing::FakeProc proc;
  proc.AddProcess(100, 1, 10);
  proc.AddProcess(101, 100, 10);
  proc.AddDrmFile(100, 4, ProcFixture("amdgpu-busy.txt"));
  proc.AddDrmFile(101, 4, ProcFixture("amdgpu-busy.txt"));
  EvidenceSampler sampler({.proc_root = proc.root()});
  sampler.Sample(100);
  const EvidenceRecord record = sampler.Record();
  ASSERT_TRUE(record.drm);
  EXPECT_EQ(record.drm->clients, 1);
  EXPECT_EQ(record.drm->time.decode_ns, 812337620u);
}

TEST(EvidenceSamplerOnAFakeProc, AMissingNvmlIsNamedAndGivesNoNvidiaEvidence) {
  testing::FakeProc proc;
  proc.AddProcess(100, 1, 10);
  EvidenceSampler sampler({.proc_root = proc.root(),
                           .nvidia_pci_address = "0000:01:00.0",
                           .nvml_library = "libnvidia-ml-absent.so.1"});
  sampler.Sample(100);
  const EvidenceRecord record = sampler.Record();
  EXPECT_FALSE(record.nvml);
  ASSERT_FALSE(record.problems.empty());
  EXPECT_NE(record.problems[0].find("cannot load libnvidia-ml-absent.so.1"), std::string::npos)
      << record.problems[0];
  EXPECT_FALSE(JudgeEvidence(record, {.encode = true}).ok);
}

// A command that counts its own SIGINT as exit 7, and otherwise ends by itself after
// about `seconds`.
std::vector<std::string> CountsItsInterrupt(int seconds) {
  return {"sh", "-c",
          "trap 'exit 7' INT; i=0; while [ $i -lt " + std::to_string(seconds * 20) +
              " ]; do sleep 0.05; i=$((i+1)); done"};
}

TEST(RunSampled, InterruptsTheCommandOnceTheEvidenceIsEnough) {
  const auto began = std::chrono::steady_clock::now();
  const SampledRun run =
      RunSampled(CountsItsInterrupt(30), {.interval = std::chrono::milliseconds(100)},
                 std::chrono::seconds(60), "",
                 [](const EvidenceRecord& record) { return record.samples >= 3; });
  EXPECT_TRUE(run.stopped);
  EXPECT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 7) << run.failure;
  EXPECT_GE(run.record.samples, 3);
  EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(20));
}

TEST(RunSampled, LetsTheCommandEndWhenTheEvidenceIsNeverEnough) {
  const SampledRun run =
      RunSampled(CountsItsInterrupt(1), {.interval = std::chrono::milliseconds(100)},
                 std::chrono::seconds(60), "", [](const EvidenceRecord&) { return false; });
  EXPECT_FALSE(run.stopped);
  EXPECT_EQ(run.exit_code, 0) << run.failure;
}

}  // namespace
}  // namespace mc::worker
