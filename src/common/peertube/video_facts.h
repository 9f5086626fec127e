// What the pool must know of a video to class its jobs:
// - how long it is;
// - how large and fast its best file is;
// - its video codec.
//
// The first two come from `GET /api/v1/videos/{uuid}`. Its web video files are in `files[]`. Its
// HLS playlists' files are in `streamingPlaylists[].files[]`. The video object does not state the
// codec. The file's ffprobe metadata does: `GET /api/v1/videos/{uuid}/metadata/{fileId}`,
// `streams[].codec_name`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::peertube {

struct VideoFacts {
  std::string uuid;
  double duration_s = 0;
  // The highest file's resolution id. PeerTube means the smaller side of the frame. It is 720 for
  // 1280x720 and for 720x1280 alike. A job's payload.output.resolution states the same number. 0
  // when the video has no file with a picture yet.
  int height = 0;
  // That file's frame rate; 0 when it states none.
  double fps = 0;
  // The codec of that file's video stream, as ffprobe names it: "h264", "hevc", "av1". Empty when
  // not read.
  std::string codec;
};

struct VideoAnswer {
  VideoFacts facts;
  // The id of the file `facts` describes, for its metadata. nullopt without one.
  std::optional<std::int64_t> highest_file_id;
};

// ParseVideo reads the video object. Among its files the highest resolution wins. A web video file
// wins over an HLS one of the same resolution. Audio-only files (resolution 0) give no height. A
// wrong shape is invalid input naming its place. Example:
// "streamingPlaylists[0].files[1].resolution.id: expected an integer".
Result<VideoAnswer> ParseVideo(std::string_view json);

// ParseVideoFileCodec reads the codec_name of a file's first video stream. "" when the file has no
// video stream.
Result<std::string> ParseVideoFileCodec(std::string_view json);

}  // namespace mc::peertube
