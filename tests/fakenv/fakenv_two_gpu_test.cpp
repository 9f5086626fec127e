// A fake machine of two GPUs (machines/two-rtx4090.json) under Debian's real ffmpeg: each
// GPU has its own identity in CUDA and NVML, and the work ffmpeg is told to do on one GPU
// (-gpu N, -hwaccel_device N, CUDA_VISIBLE_DEVICES) shows in that GPU's NVML alone.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "support/eventually.h"
#include "support/temp_dir.h"
#include "test_process.h"

namespace fakenv {
namespace {

namespace fs = std::filesystem;
using mc::testing::Eventually;
using nlohmann::json;
using testing::Finished;
using testing::Process;

// A wait for what the engine records: each look runs fakenv_smi.
constexpr mc::testing::Polling kEngineWait{.timeout = std::chrono::seconds(30),
                                           .every = std::chrono::milliseconds(100)};

std::string MachineFile(const std::string& name) {
  return std::string(FAKENV_MACHINES_DIR) + "/" + name;
}

// TwoGpus lays out machines/two-rtx4090.json (two RTX 4090s, at 0000:01:00.0 and
// 0000:02:00.0) and runs real programs on it with the environment run-on gives them.
class TwoGpus : public ::testing::Test {
 protected:
  void SetUp() override {
    machine_ = dir_.path() / "machine";
    const Finished staged = testing::Run(
        {FAKENV_STAGE, MachineFile("two-rtx4090.json"), machine_.string()}, {}, dir_.path());
    ASSERT_EQ(staged.exit_code, 0) << staged.err;
  }

  std::vector<std::string> Environment(std::vector<std::string> more = {}) const {
    std::vector<std::string> env = {"LD_LIBRARY_PATH=" + (machine_ / "lib").string(),
                                    "FAKENV_RECORD=" + MachineFile("two-rtx4090.json"),
                                    "FAKENV_STATE_DIR=" + (machine_ / "state").string()};
    env.insert(env.end(), more.begin(), more.end());
    return env;
  }

  std::vector<std::string> Ffmpeg(std::vector<std::string> arguments) const {
    std::vector<std::string> argv = {"ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-y"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return argv;
  }

  // Smi is what NVML reports of one GPU (an index or a PCI bus id), as fakenv_smi prints it.
  json Smi(const std::string& gpu) const {
    const Finished smi = testing::Run({FAKENV_SMI, gpu}, Environment(), dir_.path());
    EXPECT_EQ(smi.exit_code, 0) << smi.out << smi.err;
    return json::parse(smi.out, nullptr, false);
  }

  // Pids are the processes NVML's samples of a GPU name with work of `engine`.
  static std::set<int> Pids(const json& smi, const char* engine) {
    std::set<int> pids;
    for (const json& sample : smi["processSamples"]) {
      if (sample[engine].get<int>() > 0) pids.insert(sample["pid"].get<int>());
    }
    return pids;
  }

  // A one-second H.264 stream made on the CPU, 320x240.
  std::string CpuStream() const {
    const std::string file = (dir_.path() / "cpu.mp4").string();
    const Finished made = testing::Run(
        Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "1", "-c:v", "libx264",
                "-preset", "ultrafast", "-pix_fmt", "yuv420p", file}),
        {}, dir_.path());
    EXPECT_EQ(made.exit_code, 0) << made.err;
    return file;
  }

  mc::testing::TempDir dir_;
  fs::path machine_;
};

TEST_F(TwoGpus, NvmlCountsTwoGpusEachWithItsOwnPciAddressAndUuidByIndexOrByBusId) {
  const json first = Smi("0");
  const json second = Smi("1");
  EXPECT_EQ(first["count"], 2);
  EXPECT_EQ(first["pciBusId"], "00000000:01:00.0");
  EXPECT_EQ(second["pciBusId"], "00000000:02:00.0");
  EXPECT_EQ(first["name"], "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(second["name"], first["name"]);
  EXPECT_NE(first["uuid"], second["uuid"]);
  EXPECT_EQ(Smi("0000:02:00.0")["uuid"], second["uuid"]);
  EXPECT_EQ(second["memory"]["total"], 24564ull << 20);
  const Finished none = testing::Run({FAKENV_SMI, "2"}, Environment(), dir_.path());
  EXPECT_NE(none.exit_code, 0) << none.out;
}

TEST_F(TwoGpus, AnEncodeOnGpuOneShowsItsSessionSamplesAndMemoryOnGpuOneAndNothingOnGpuZero) {
  Process ffmpeg(Ffmpeg({"-re", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2",
                         "-c:v", "h264_nvenc", "-gpu", "1", "-f", "null", "-"}),
                 Environment(), dir_.path());
  json second, first;
  ASSERT_TRUE(Eventually(
      [&] {
        second = Smi("1");
        first = Smi("0");
        return !second["sessions"].empty();
      },
      kEngineWait))
      << second.dump();
  EXPECT_EQ(second["sessions"][0]["pid"], ffmpeg.pid());
  EXPECT_LT(second["memory"]["free"], second["memory"]["total"]);
  EXPECT_TRUE(first["sessions"].empty()) << first.dump();
  EXPECT_EQ(first["memory"]["free"], first["memory"]["total"]) << first.dump();
  const Finished done = ffmpeg.Wait();
  ASSERT_EQ(done.exit_code, 0) << done.err;
  EXPECT_EQ(Pids(Smi("1"), "encUtil"), std::set<int>{ffmpeg.pid()});
  EXPECT_TRUE(Smi("0")["processSamples"].empty());
}

TEST_F(TwoGpus, ACuvidDecodeOnGpuOneShowsDecoderWorkOnGpuOneOnly) {
  const std::string input = CpuStream();
  Process ffmpeg(Ffmpeg({"-c:v", "h264_cuvid", "-gpu", "1", "-i", input, "-f", "null", "-"}),
                 Environment(), dir_.path());
  const Finished done = ffmpeg.Wait();
  ASSERT_EQ(done.exit_code, 0) << done.err;
  EXPECT_EQ(Pids(Smi("1"), "decUtil"), std::set<int>{ffmpeg.pid()});
  EXPECT_TRUE(Smi("0")["processSamples"].empty());
}

TEST_F(TwoGpus, AWholeGpuPipelineOnHwaccelDeviceOneDecodesAndEncodesOnGpuOneOnly) {
  const std::string input = CpuStream();
  Process ffmpeg(Ffmpeg({"-hwaccel", "cuda", "-hwaccel_device", "1", "-hwaccel_output_format",
                         "cuda", "-c:v", "h264_cuvid", "-i", input, "-vf", "scale_cuda=160:120",
                         "-c:v", "h264_nvenc", "-bf", "0", "-f", "null", "-"}),
                 Environment(), dir_.path());
  const Finished done = ffmpeg.Wait();
  ASSERT_EQ(done.exit_code, 0) << done.err;
  const json second = Smi("1");
  EXPECT_EQ(Pids(second, "decUtil"), std::set<int>{ffmpeg.pid()}) << second.dump();
  EXPECT_EQ(Pids(second, "encUtil"), std::set<int>{ffmpeg.pid()}) << second.dump();
  EXPECT_TRUE(Smi("0")["processSamples"].empty());
}

TEST_F(TwoGpus, CudaVisibleDevicesRenumbersSoThatOrdinalZeroIsTheGpuItNames) {
  Process ffmpeg(Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "1", "-c:v",
                         "h264_nvenc", "-gpu", "0", "-f", "null", "-"}),
                 Environment({"CUDA_VISIBLE_DEVICES=1"}), dir_.path());
  const Finished done = ffmpeg.Wait();
  ASSERT_EQ(done.exit_code, 0) << done.err;
  EXPECT_EQ(Pids(Smi("1"), "encUtil"), std::set<int>{ffmpeg.pid()});
  EXPECT_TRUE(Smi("0")["processSamples"].empty());
  // A GPU CUDA_VISIBLE_DEVICES leaves out is not there for CUDA at all.
  const Finished hidden =
      testing::Run(Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=320x240", "-t", "1", "-c:v",
                           "h264_nvenc", "-gpu", "1", "-f", "null", "-"}),
                   Environment({"CUDA_VISIBLE_DEVICES=1"}), dir_.path());
  EXPECT_NE(hidden.exit_code, 0);
}

TEST_F(TwoGpus, MemoryAnotherProcessHoldsOnGpuOneIsUsedOnGpuOneOnly) {
  Process hold({FAKENV_HOLD, "1", "4096"}, Environment(), dir_.path());
  // The tenant's context (256 MiB) and its allocation, once both are recorded: the two are
  // written one after the other, and a read between them sees one alone.
  constexpr std::uint64_t kHeld = (4096ull + 256) << 20;
  json second;
  EXPECT_TRUE(Eventually(
      [&] {
        second = Smi("1");
        return second["memory"]["used"].get<std::uint64_t>() >= kHeld;
      },
      kEngineWait))
      << second.dump();
  EXPECT_EQ(second["memory"]["used"], kHeld);
  const json first = Smi("0");
  EXPECT_EQ(first["memory"]["free"], first["memory"]["total"]) << first.dump();
  kill(hold.pid(), SIGTERM);
  EXPECT_EQ(hold.Wait().exit_code, -1);
  const json after = Smi("1");
  EXPECT_EQ(after["memory"]["free"], after["memory"]["total"]) << after.dump();
}

TEST_F(TwoGpus, AGpuWhoseMemoryAnotherProcessHoldsHasNoRoomForAContextWhileItsSiblingEncodes) {
  // All of GPU 1's 24564 MiB: the tenant's own context takes 256 MiB of it.
  Process hold({FAKENV_HOLD, "1", std::to_string(24564 - 256)}, Environment(), dir_.path());
  ASSERT_TRUE(Eventually([&] { return Smi("1")["memory"]["free"] == 0; }, kEngineWait));
  const std::vector<std::string> encode = {
      "-f", "lavfi", "-i", "testsrc2=size=320x240", "-t", "1", "-c:v", "h264_nvenc", "-gpu", "1",
      "-f", "null",  "-"};
  const Finished refused = testing::Run(Ffmpeg(encode), Environment(), dir_.path());
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("CUDA_ERROR_OUT_OF_MEMORY"), std::string::npos) << refused.err;
  std::vector<std::string> on_gpu_zero = encode;
  on_gpu_zero[9] = "0";
  const Finished encoded = testing::Run(Ffmpeg(on_gpu_zero), Environment(), dir_.path());
  EXPECT_EQ(encoded.exit_code, 0) << encoded.err;
  kill(hold.pid(), SIGTERM);
  hold.Wait();
}

TEST(TwoGpuMachineFile, GpusOutOfPciAddressOrderOrUnderTwoDriversAreRefused) {
  mc::testing::TempDir dir;
  const std::string records = FAKENV_RECORDS_DIR;
  const std::pair<std::string, std::string> cases[] = {
      {R"({"source": "t", "gpus": [
           {"record": ")" +
           records + R"(/ada-geforce-rtx4090.json", "pciAddress": "0000:02:00.0"},
           {"record": ")" +
           records + R"(/ada-geforce-rtx4090.json", "pciAddress": "0000:01:00.0"}
         ]})",
       "list the GPUs in PCI address order"},
      {R"({"source": "t", "gpus": [
           {"record": ")" +
           records + R"(/ada-geforce-rtx4090.json", "pciAddress": "0000:01:00.0"},
           {"record": ")" +
           records + R"(/h200.json", "pciAddress": "0000:02:00.0"}
         ]})",
       "one machine has one driver"},
      {R"({"source": "t", "gpus": []})", "gpus: expected a list of one GPU or more"},
  };
  for (const auto& [text, reason] : cases) {
    const fs::path file = dir.Write("machine.json", text);
    const Finished staged =
        testing::Run({FAKENV_STAGE, file.string(), (dir.path() / "m").string()}, {}, dir.path());
    EXPECT_EQ(staged.exit_code, 1) << text;
    EXPECT_NE(staged.err.find(reason), std::string::npos) << staged.err;
  }
}

}  // namespace
}  // namespace fakenv
