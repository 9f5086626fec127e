// Fuzz target: ffmpeg's stderr, which quotes the upload, read in pieces of any size must pass
// on the same text and find the same GPU failure as read whole, and never crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "worker/daemon/ffmpeg_log.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte chooses the size of the pieces.
  const std::size_t piece = 1 + data[0] % 64;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  mc::worker::FfmpegLog whole;
  std::string at_once = whole.Read(text);
  at_once += whole.Finish();
  mc::worker::FfmpegLog pieces;
  std::string in_pieces;
  for (std::size_t at = 0; at < text.size(); at += piece)
    in_pieces += pieces.Read(text.substr(at, piece));
  in_pieces += pieces.Finish();
  if (in_pieces != at_once || pieces.gpu_failure() != whole.gpu_failure()) std::abort();
  (void)mc::worker::GpuFailureIn(text);
  return 0;
}
