#include "worker/transcode/decode_table.h"

#include <iterator>

namespace mc::worker {
namespace {

// The decode attributes of docs/reference/attributes.md, as ffprobe names the codecs. A VP9 stream
// of 10 bits is profile 2. An HEVC or AV1 one is Main 10. No GPU of the table decodes H.264 above 8
// bits. So H.264 has no 10-bit row, and decodes on the CPU.
// clang-format off
constexpr DecodeRow kDecodeRows[] = {
    {"h264",       8,  "decodeH264",        "h264_cuvid"},
    {"hevc",       8,  "decodeHEVCMain",    "hevc_cuvid"},
    {"hevc",       10, "decodeHEVCMain10",  "hevc_cuvid"},
    {"vp9",        8,  "decodeVP9",         "vp9_cuvid"},
    {"vp9",        10, "decodeVP9Profile2", "vp9_cuvid"},
    {"av1",        8,  "decodeAV1Main",     "av1_cuvid"},
    {"av1",        10, "decodeAV1Main10",   "av1_cuvid"},
    {"vp8",        8,  "decodeVP8",         "vp8_cuvid"},
    {"mpeg2video", 8,  "decodeMPEG2",       "mpeg2_cuvid"},
    {"vc1",        8,  "decodeVC1",         "vc1_cuvid"},
};
// clang-format on

}  // namespace

std::optional<DecodeRow> DecodeRowOf(std::string_view codec, int bit_depth) {
  for (const DecodeRow& row : kDecodeRows) {
    if (row.codec == codec && row.bit_depth == bit_depth) return row;
  }
  return std::nullopt;
}

}  // namespace mc::worker
