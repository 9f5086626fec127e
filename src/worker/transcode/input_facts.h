// What ffprobe says of one input, as the plan needs it. It is the answer of:
//    ffprobe -v error -print_format json -show_streams -show_format INPUT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::worker {

// The largest width or height taken from ffprobe (2^20). It is past any encoder's; NVENC's and
// VA-API's reach 8192 or 16384. It is small enough that two sides multiply in 64 bits with room to
// spare. So do a side and a scaled height.
constexpr int kMaxPictureSide = 1 << 20;

struct InputFacts {
  bool has_video = false;
  std::string video_codec;    // ffprobe's codec_name: "h264", "hevc", "vp9", "av1", "png", ...
  std::string video_profile;  // ffprobe's profile: "High", "Main 10", "Profile 2", ...
  std::string pix_fmt;        // "yuv420p", "yuv420p10le", ...
  int bit_depth = 8;          // from pix_fmt (or bits_per_raw_sample)
  int width = 0, height = 0;  // each at most kMaxPictureSide
  double fps = 0;             // avg_frame_rate, else r_frame_rate
  bool has_audio = false;
  std::string audio_codec;
  bool still_image = false;      // a single-picture input (a png or jpeg image, one frame)
  std::int64_t frame_count = 0;  // the video stream's nb_frames, 0 where it states none
};

// ParseInputFacts reads ffprobe's JSON. Every error names its place, such as "streams[0].width:
// expected an integer".
Result<InputFacts> ParseInputFacts(std::string_view ffprobe_json);

// BitDepthOfPixelFormat gives the bits per component of an ffmpeg pixel format name. "yuv420p10le"
// gives 10, "p010le" 10, "nv12" 8. It gives 0 where the name does not say.
int BitDepthOfPixelFormat(std::string_view pix_fmt);

// IsChroma420 says whether a pixel format is 4:2:0. That is the only chroma every GPU's video
// decoder takes.
bool IsChroma420(std::string_view pix_fmt);

}  // namespace mc::worker
