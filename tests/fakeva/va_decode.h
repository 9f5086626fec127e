// A decode context of the fake GPU (VAEntrypointVLD).
// It decodes H.264, HEVC Main and VP9 profile 0.
// For H.264 and HEVC, ffmpeg parses the stream.
// It hands over the picture's parameters and its slices' NAL units.
// The fake rebuilds the parameter sets (h264_parameter_sets.h, hevc_parameter_sets.h).
// A VP9 frame comes whole.
// The engine decodes the access unit with libavcodec.
// The picture is in the target surface before vaEndPicture returns.
// Pictures come in decode order, as VA asks.
#pragma once

#include <va/va.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "engine_wire.h"
#include "va_encode.h"
#include "va_memory.h"

namespace fakenv {
class EngineClient;
}

namespace mc::fakeva {

// IsDecodable says whether the fake decodes `profile` (H.264's 8-bit profiles, HEVC
// Main, VP9 profile 0).
bool IsDecodable(VAProfile profile);

class DecodeSession {
 public:
  DecodeSession(VAProfile profile, std::string state_dir);
  ~DecodeSession();
  DecodeSession(const DecodeSession&) = delete;
  DecodeSession& operator=(const DecodeSession&) = delete;

  VAStatus Decode(Surface& target, const std::vector<RenderedBuffer>& buffers,
                  std::chrono::nanoseconds* busy, std::string* error);

 private:
  // AccessUnit gives what the engine decodes: the rebuilt parameter sets and the slices' NAL
  // units, or VP9's frame.
  bool AccessUnit(const std::vector<RenderedBuffer>& buffers, std::vector<std::uint8_t>& unit,
                  std::string* error);
  bool Open(std::string* error);

  const fakenv::wire::Codec codec_;
  const std::string state_dir_;
  std::unique_ptr<fakenv::EngineClient> engine_;
  std::int64_t pictures_ = 0;
};

}  // namespace mc::fakeva
