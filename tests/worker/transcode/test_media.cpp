#include "test_media.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc::worker::testing {
namespace {

std::vector<std::string> BuildEnvironment() {
  return {std::string("MEDIA_CAP_BUILD=") + MEDIA_CAP_BUILD_DIR};
}

// How each input is made: a few seconds of ffmpeg's test pictures and tone, in the codecs a
// PeerTube upload comes in.
struct Recipe {
  const char* name;
  const char* file;
  std::vector<std::string> arguments;
};

std::vector<Recipe> Recipes() {
  const std::vector<std::string> picture = {
      "-f", "lavfi", "-i",       "testsrc2=size=1280x720:rate=30",
      "-f", "lavfi", "-i",       "sine=frequency=440:sample_rate=48000",
      "-t", "2",     "-shortest"};
  const std::vector<std::string> small = {
      "-f", "lavfi", "-i",       "testsrc2=size=640x360:rate=25",
      "-f", "lavfi", "-i",       "sine=frequency=440:sample_rate=48000",
      "-t", "2",     "-shortest"};
  auto with = [](std::vector<std::string> base, std::vector<std::string> more) {
    base.insert(base.end(), more.begin(), more.end());
    return base;
  };
  return {
      {"h264", "h264.mp4",
       with(picture,
            {"-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"})},
      {"hevc10", "hevc10.mp4",
       with(small, {"-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error",
                    "-pix_fmt", "yuv420p10le", "-c:a", "aac"})},
      {"vp9", "vp9.webm",
       with(small, {"-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "500k",
                    "-c:a", "libopus"})},
      {"vp9-profile2", "vp9-profile2.webm",
       with(small, {"-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "500k",
                    "-pix_fmt", "yuv420p10le", "-profile:v", "2", "-c:a", "libopus"})},
      {"png",
       "still.png",
       {"-f", "lavfi", "-i", "testsrc2=size=640x360", "-vf", "scale=641:361", "-frames:v", "1"}},
      {"aac",
       "audio.m4a",
       {"-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-t", "3", "-c:a", "aac"}},
  };
}

std::vector<TestInput> MakeInputs() {
  std::vector<TestInput> inputs;
  for (const Recipe& recipe : Recipes()) {
    TestInput input;
    input.name = recipe.name;
    input.file = ScratchDir() / recipe.file;
    std::vector<std::string> argv = {"ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-y"};
    argv.insert(argv.end(), recipe.arguments.begin(), recipe.arguments.end());
    argv.push_back(input.file.string());
    const probe::ChildOutcome made = mc::testing::RunCommand(argv);
    if (made.kind != probe::ChildOutcome::Kind::kExited || made.code != 0) {
      ADD_FAILURE() << "ffmpeg could not make " << recipe.file << ": " << made.err;
      return {};
    }
    input.ffprobe_json = Ffprobe(input.file);
    Result<InputFacts> facts = ParseInputFacts(input.ffprobe_json);
    if (!facts) {
      ADD_FAILURE() << recipe.file << ": " << facts.error_message();
      return {};
    }
    input.facts = *facts;
    inputs.push_back(std::move(input));
  }
  return inputs;
}

std::optional<FixtureDevice> ProbeFixture(const std::filesystem::path& file, bool nvidia) {
  FixtureDevice device;
  device.fixture = file.stem().string();
  device.nvidia = nvidia;
  device.source = file;
  const probe::ChildOutcome probed =
      mc::testing::RunCommand({nvidia ? FAKENV_RUN_ON : FAKEVA_RUN_ON, file.string(), "--",
                               MEDIA_CAP_BINARY, "probe", "--output", "json"},
                              BuildEnvironment());
  if (probed.kind != probe::ChildOutcome::Kind::kExited || probed.code != 0) {
    ADD_FAILURE() << file << ": probe failed: " << probed.err;
    return std::nullopt;
  }
  device.json = probed.out;
  Result<PlanDevice> parsed = ParsePlanDevice(probed.out);
  if (!parsed) {
    ADD_FAILURE() << file << ": " << parsed.error_message();
    return std::nullopt;
  }
  device.device = *parsed;
  return device;
}

// FixtureFiles lists the records (NVIDIA) and the dumps (VA-API), in name order.
std::vector<std::pair<std::filesystem::path, bool>> FixtureFiles() {
  std::vector<std::pair<std::filesystem::path, bool>> files;
  for (const auto& [dir, extension, nvidia] :
       {std::tuple{std::filesystem::path(FAKENV_RECORDS_DIR), ".json", true},
        std::tuple{std::filesystem::path(FAKEVA_DUMPS_DIR), ".txt", false}}) {
    std::vector<std::filesystem::path> found;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() == extension) found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
    for (const auto& file : found) files.emplace_back(file, nvidia);
  }
  return files;
}

}  // namespace

const std::filesystem::path& ScratchDir() {
  static const mc::testing::TempDir dir;
  return dir.path();
}

std::string Ffprobe(const std::filesystem::path& file) {
  const probe::ChildOutcome probed =
      mc::testing::RunCommand({"ffprobe", "-v", "error", "-print_format", "json", "-show_streams",
                               "-show_format", file.string()});
  EXPECT_EQ(probed.code, 0) << file << ": " << probed.err;
  return probed.out;
}

const std::vector<TestInput>& TestInputs() {
  static const std::vector<TestInput> inputs = MakeInputs();
  return inputs;
}

const TestInput& TestInputNamed(const std::string& name) {
  static const TestInput none;
  for (const TestInput& input : TestInputs()) {
    if (input.name == name) return input;
  }
  ADD_FAILURE() << "no test input " << name;
  return none;
}

const std::vector<FixtureDevice>& FixtureDevices() {
  static const std::vector<FixtureDevice> devices = [] {
    std::vector<FixtureDevice> all;
    for (const auto& [file, nvidia] : FixtureFiles()) {
      if (std::optional<FixtureDevice> device = ProbeFixture(file, nvidia)) {
        all.push_back(std::move(*device));
      }
    }
    return all;
  }();
  return devices;
}

const FixtureDevice& FixtureNamed(const std::string& fixture) {
  static std::map<std::string, FixtureDevice> probed;
  if (auto it = probed.find(fixture); it != probed.end()) return it->second;
  for (const auto& [file, nvidia] : FixtureFiles()) {
    if (file.stem().string() != fixture) continue;
    return probed[fixture] = ProbeFixture(file, nvidia).value_or(FixtureDevice{});
  }
  ADD_FAILURE() << "no fixture GPU " << fixture;
  return probed[fixture];
}

const PlanDevice& FixtureDeviceNamed(const std::string& fixture) {
  return FixtureNamed(fixture).device;
}

}  // namespace mc::worker::testing
