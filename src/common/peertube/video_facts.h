// What the pool needs to know of a video to class its jobs: how long it is and how large and
// fast its best file is, read from `GET /api/v1/videos/{uuid}` (the video's web video files
// in `files[]` and its HLS playlists' files in `streamingPlaylists[].files[]`), and its video
// codec, which the video object does not state: the file's ffprobe metadata does
// (`GET /api/v1/videos/{uuid}/metadata/{fileId}`, `streams[].codec_name`).
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
  // The highest file's resolution id, PeerTube's name for the smaller side of the frame
  // (720 for 1280x720 and for 720x1280 alike), the same number a job's
  // payload.output.resolution states. 0 when the video has no file with a picture yet.
  int height = 0;
  // That file's frame rate; 0 when it states none.
  double fps = 0;
  // The codec of that file's video stream as ffprobe names it ("h264", "hevc", "av1"); empty
  // when it was not read.
  std::string codec;
};

struct VideoAnswer {
  VideoFacts facts;
  // The id of the file `facts` describes, for its metadata; nullopt without one.
  std::optional<std::int64_t> highest_file_id;
};

// ParseVideo reads the video object. Among its files the highest resolution wins, a web
// video file before an HLS one of the same resolution; audio-only files (resolution 0) give
// no height. A wrong shape is invalid input naming its place
// ("streamingPlaylists[0].files[1].resolution.id: expected an integer").
Result<VideoAnswer> ParseVideo(std::string_view json);

// ParseVideoFileCodec reads the codec_name of the first video stream of a file's metadata;
// "" when the file has no video stream.
Result<std::string> ParseVideoFileCodec(std::string_view json);

}  // namespace mc::peertube
