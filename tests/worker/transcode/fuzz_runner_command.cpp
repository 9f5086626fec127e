// Fuzz target: any bytes, split at NUL into an argv, must parse or give an error, and a
// parsed command line must plan (for a fixed device and fixed facts) without a crash and
// render back to the very words it was read from.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "worker/transcode/plan.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args;
  std::string word;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(word);
      word.clear();
    } else {
      word += static_cast<char>(data[i]);
    }
  }
  if (!word.empty()) args.push_back(word);
  mc::Result<mc::worker::RunnerCommand> command = mc::worker::ParseRunnerCommand(args);
  if (!command) return 0;
  if (mc::worker::RenderCommand(*command) != args) std::abort();
  (void)mc::worker::KindOf(*command);
  (void)mc::worker::InputsToProbe(*command);
  mc::worker::PlanDevice device;
  device.name = "fuzz";
  device.api = size % 2 ? "nvidia" : "vaapi";
  device.flags = {{"encodeH264", true}, {"decodeH264", true}, {"encodeH264LowPower", true}};
  mc::worker::InputFacts facts;
  facts.has_video = true;
  facts.video_codec = "h264";
  facts.pix_fmt = "yuv420p";
  facts.width = 1280;
  facts.height = 720;
  mc::worker::PlanOptions options;
  options.render_node = "/dev/dri/renderD128";
  (void)mc::worker::PlanCommand(*command, device, facts, options);
  return 0;
}
