// The table test: every recorded runner command line and every form written out from the
// runner's source, planned for every fixture GPU (each record of tests/fakenv, each dump of
// tests/fakeva, probed by the real binary on its fake machine), with the facts Debian's
// ffprobe gives of real inputs.
#include <gtest/gtest.h>

#include <map>

#include "plan_checks.h"
#include "runner_forms.h"
#include "test_media.h"
#include "worker/transcode/plan.h"

namespace mc::worker {
namespace {

using testing::FixtureDevice;
using testing::Holds;
using testing::HoldsPair;
using testing::RunnerForm;

// What each fixture GPU is expected to do with a video encode, written from what its record
// or dump states: refuse (it encodes no H.264), or run with this encoder, with the low-power
// entry point where that is the only H.264 one it states.
struct Expected {
  bool runs = false;
  std::string encoder;
  bool low_power = false;
};

// clang-format off
const std::map<std::string, Expected> kExpected = {
    {"ada-geforce-rtx4090",                   {true,  "h264_nvenc"}},
    {"ampere-rtx-a4000",                      {true,  "h264_nvenc"}},
    {"cuinit-crashes",                        {false}},
    {"cuinit-fails",                          {false}},
    {"cuinit-hangs",                          {false}},
    {"h200",                                  {false}},
    {"no-libnvidia-encode",                   {false}},
    {"amd-radeonsi-navi22-rx6700xt-no-codecs", {false}},
    {"amd-radeonsi-navi22-rx6750xt-vainfo-a", {true,  "h264_vaapi"}},
    {"amd-radeonsi-navi22-rx6750xt",          {true,  "h264_vaapi"}},
    {"amd-radeonsi-polaris12-rx550x",         {true,  "h264_vaapi"}},
    {"amd-radeonsi-rdna3-rx7900xtx",          {true,  "h264_vaapi"}},
    {"failed-crash-ihd-dg1-stock-driver",     {false}},
    {"failed-init-i965-cometlake",            {false}},
    {"failed-init-i965-haswell-wayland",      {false}},
    {"failed-init-nvidia",                    {false}},
    {"intel-i965-haswell-desktop-hybrid-vp9", {true,  "h264_vaapi"}},
    {"intel-i965-haswell-desktop",            {true,  "h264_vaapi"}},
    {"intel-ihd-arc-likely-24.1",             {true,  "h264_vaapi", true}},
    {"intel-ihd-cometlake-uhd630-free-21.1",  {true,  "h264_vaapi", true}},
    {"intel-ihd-dg1-gen12-24.1",              {true,  "h264_vaapi"}},
    {"intel-ihd-gen9.5-class-free-20.2",      {true,  "h264_vaapi", true}},
    {"intel-ihd-gen9.5-class-nonfree-20.2",   {true,  "h264_vaapi"}},
    {"intel-ihd-icelake-videoproc-only",      {false}},
};
// clang-format on

std::vector<RunnerForm> AllForms() {
  std::vector<RunnerForm> forms = testing::RecordedForms(TRANSCODE_RECORDED_DIR);
  const std::vector<RunnerForm> source =
      testing::SourceForms(TRANSCODE_SOURCE_FORMS, {{"VIDEO", "/w/video"},
                                                    {"AUDIO", "/w/audio"},
                                                    {"IMAGE", "/w/still"},
                                                    {"OUT", "/w/out"},
                                                    {"SEGMENT", "/w/out-fragmented.mp4"}});
  forms.insert(forms.end(), source.begin(), source.end());
  return forms;
}

bool LoopsAnInput(const RunnerCommand& command) {
  for (const CommandInput& input : command.inputs) {
    for (const CommandOption& option : input.options) {
      if (option.name == "-loop") return true;
    }
  }
  return false;
}

// The inputs a form is planned with: the still image for an audio merge, else every video.
std::vector<std::string> InputsFor(const RunnerCommand& command) {
  if (LoopsAnInput(command)) return {"png"};
  return {"h264", "hevc10", "vp9", "vp9-profile2"};
}

void CheckVideoPlan(const FixtureDevice& gpu, const Expected& expected, const RunnerForm& form,
                    const RunnerCommand& command, const std::string& input, const Plan& plan) {
  SCOPED_TRACE(gpu.fixture + " × " + form.name + " × " + input);
  if (!expected.runs) {
    ASSERT_EQ(plan.kind, PlanKind::kRefuse);
    EXPECT_NE(plan.refusal.find(gpu.device.name), std::string::npos) << plan.refusal;
    EXPECT_NE(plan.refusal.find("encodeH264"), std::string::npos) << plan.refusal;
    EXPECT_TRUE(plan.argv.empty());
    return;
  }
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  EXPECT_EQ(plan.encoder, expected.encoder);
  EXPECT_TRUE(HoldsPair(plan.argv, "-c:v", expected.encoder));
  EXPECT_EQ(testing::SoftwareEncoderIn(plan.argv), "");
  EXPECT_EQ(testing::KeptOptionsInOrder(command, plan.argv), "");
  EXPECT_EQ(plan.encode_sessions, 1);
  if (gpu.nvidia) {
    EXPECT_TRUE(HoldsPair(plan.argv, "-gpu", "0"));
    EXPECT_EQ(plan.environment, std::vector<std::string>{"CUDA_DEVICE_ORDER=PCI_BUS_ID"});
  } else {
    EXPECT_TRUE(HoldsPair(plan.argv, "-vaapi_device", "/dev/dri/renderD128"));
  }
  EXPECT_EQ(Holds(plan.argv, "-low_power"), expected.low_power);
  // The frames stay on the GPU: no -pix_fmt would make ffmpeg download them.
  EXPECT_FALSE(Holds(plan.argv, "-pix_fmt"));
  EXPECT_FALSE(Holds(plan.argv, "-b_strategy"));
  EXPECT_EQ(plan.hardware_decode, Holds(plan.argv, "-hwaccel"));
  // An upload never happens silently.
  bool uploads = false;
  for (const std::string& word : plan.argv) uploads |= word.find("hwupload") != std::string::npos;
  EXPECT_EQ(uploads, !plan.hardware_decode);
  bool noted = false;
  for (const std::string& note : plan.notes)
    noted |= note.find("uploaded with hwupload") != std::string::npos;
  EXPECT_EQ(noted, uploads);
  if (LoopsAnInput(command)) {
    EXPECT_EQ(plan.job_form, "audio-merge");
  }
}

TEST(PlanTable, PlansEveryRunnerFormForEveryFixtureGpu) {
  const std::vector<RunnerForm> forms = AllForms();
  // The two logs hold 36 ffmpeg lines; the source forms are 18.
  ASSERT_GE(forms.size(), 36u + 18u);
  const std::vector<FixtureDevice>& gpus = testing::FixtureDevices();
  ASSERT_EQ(gpus.size(), kExpected.size());
  ASSERT_FALSE(testing::TestInputs().empty());
  PlanOptions options;
  options.render_node = "/dev/dri/renderD128";
  int video_plans = 0, pass_plans = 0;
  for (const FixtureDevice& gpu : gpus) {
    const auto expected = kExpected.find(gpu.fixture);
    ASSERT_NE(expected, kExpected.end()) << "no expectation for " << gpu.fixture;
    for (const RunnerForm& form : forms) {
      Result<RunnerCommand> command = ParseRunnerCommand(form.args);
      ASSERT_TRUE(command) << form.name << ": " << command.error_message();
      if (KindOf(*command) != CommandKind::kVideoEncode) {
        const Plan plan = PlanCommand(*command, gpu.device, std::nullopt, options);
        EXPECT_EQ(plan.kind, PlanKind::kPassThrough) << gpu.fixture << " × " << form.name;
        EXPECT_EQ(plan.argv, form.args) << gpu.fixture << " × " << form.name;
        ++pass_plans;
        continue;
      }
      for (const std::string& input : InputsFor(*command)) {
        const Plan plan =
            PlanCommand(*command, gpu.device, testing::TestInputNamed(input).facts, options);
        CheckVideoPlan(gpu, expected->second, form, *command, input, plan);
        ++video_plans;
      }
    }
  }
  RecordProperty("video_plans", video_plans);
  RecordProperty("pass_plans", pass_plans);
  EXPECT_GT(video_plans, 1000);
}

}  // namespace
}  // namespace mc::worker
