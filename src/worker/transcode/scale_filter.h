// The runner's video filter, read into the size it asks for. Also the size it gives for an input of
// known size. The filter is one of:
// - `scale=w=-2:h=720`;
// - `w=720:h=-2`, for a portrait input;
// - `trunc(iw/2)*2:trunc(ih/2)*2`, for an audio merge.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::worker {

struct ScaleRequest {
  std::string width = "iw";   // ffmpeg's expression for the width, as written
  std::string height = "ih";  // and for the height
};

// ParseScaleFilter reads a -vf value that holds one `scale` filter. Anything else is an error
// naming it: another filter, a chain, an option other than w and h.
Result<ScaleRequest> ParseScaleFilter(std::string_view filter);

struct PictureSize {
  int width = 0, height = 0;  // 0 where the expression cannot be worked out here
};

// OutputSizeOf works the scale out as ffmpeg does, for the expressions the runner writes. Those are
// numbers, iw, ih, trunc(iw/2)*2, and -n (keep the aspect ratio, divisible by n). `input` of 0x0
// (unknown) gives only what the numbers say.
PictureSize OutputSizeOf(const ScaleRequest& scale, PictureSize input);

}  // namespace mc::worker
