// Fuzz target: ffmpeg's stderr, which quotes the upload, read in pieces of any size must pass
// on the same text and find the same GPU failure as read whole, and never crash. A failure is
// only ever found on a line of one of the plan's components or a hardware context, never on a
// line without a component, whatever the text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "worker/daemon/ffmpeg_log.h"

namespace {

// The components a plan names, chosen by the input's second byte.
const std::vector<std::vector<std::string>> kPlans = {
    {},
    {"h264_cuvid", "scale_cuda", "h264_nvenc"},
    {"h264", "scale_vaapi", "h264_vaapi"},
    {"hwupload_cuda", "scale_cuda", "h264_nvenc"}};

bool NamesAComponent(const std::string& failure, const std::vector<std::string>& plan) {
  if (!failure.starts_with("[")) return false;
  for (const std::string_view context : {"[AVHWDeviceContext @ 0x", "[AVHWFramesContext @ 0x"})
    if (failure.find(context) != std::string::npos) return true;
  for (const std::string& name : plan)
    if (failure.find("[" + name + " @ 0x") != std::string::npos ||
        failure.find("[Parsed_" + name + "_") != std::string::npos)
      return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first byte chooses the size of the pieces, the second the plan.
  const std::size_t piece = 1 + data[0] % 64;
  const std::vector<std::string>& plan = kPlans[data[1] % kPlans.size()];
  const std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);
  mc::worker::FfmpegLog whole(plan);
  std::string at_once = whole.Read(text);
  at_once += whole.Finish();
  mc::worker::FfmpegLog pieces(plan);
  std::string in_pieces;
  for (std::size_t at = 0; at < text.size(); at += piece)
    in_pieces += pieces.Read(text.substr(at, piece));
  in_pieces += pieces.Finish();
  if (in_pieces != at_once || pieces.gpu_failure() != whole.gpu_failure()) std::abort();
  if (const std::optional<std::string> failure = mc::worker::GpuFailureIn(text, plan);
      failure && !NamesAComponent(*failure, plan))
    std::abort();
  return 0;
}
