// Which published attribute says that a GPU decodes a stream. Rows go by ffprobe's codec name and
// the stream's bit depth. Each names the NVIDIA decoder (cuvid) that decodes it.
#pragma once

#include <optional>
#include <string_view>

namespace mc::worker {

struct DecodeRow {
  std::string_view codec;      // ffprobe's codec_name
  int bit_depth;               // 8 or 10
  std::string_view attribute;  // the published attribute: decodeH264, decodeVP9Profile2, ...
  std::string_view cuvid;      // ffmpeg's NVIDIA decoder: h264_cuvid, vp9_cuvid, ...
};

// DecodeRowOf gives the row of a stream. None where no GPU attribute covers it:
// - H.264 10-bit;
// - 12-bit streams;
// - still images;
// - codecs without a hardware decoder.
std::optional<DecodeRow> DecodeRowOf(std::string_view codec, int bit_depth);

}  // namespace mc::worker
