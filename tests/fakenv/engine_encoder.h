// The engine's encoders: libx264 for H.264 and libx265 for HEVC, set up from the settings
// the NVENC fake derived from the client's NVENC configuration. Both run with zero
// latency (no B-pictures, no lookahead), so every picture in gives one bitstream out, as an
// NVENC session without B-pictures does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine_wire.h"

namespace fakenv {

struct CodedUnit {
  std::vector<std::byte> bytes;
  std::int64_t pts = 0;
  wire::PictureType picture_type = wire::PictureType::kP;
  std::uint32_t average_qp = 0;
};

// Planes is a picture as the wire frame lays it out, with its planes found.
struct Planes {
  const std::uint8_t* y = nullptr;
  const std::uint8_t* u = nullptr;
  const std::uint8_t* v = nullptr;
  // For NV12 and P010, `u` points at the interleaved chroma and `v` is null.
  int luma_pitch = 0;
  int chroma_pitch = 0;
};
Planes FindPlanes(const wire::FrameHeader& frame, const std::byte* pixels);

class Encoder {
 public:
  virtual ~Encoder() = default;
  // Encode codes one picture; `out` gets the units the codec finished, in decode order.
  virtual bool Encode(const wire::FrameHeader& frame, const std::byte* pixels,
                      std::vector<CodedUnit>& out) = 0;
  // Flush gives every unit still inside the codec.
  virtual bool Flush(std::vector<CodedUnit>& out) = 0;
  // ParameterSets are the stream's SPS and PPS (and VPS for HEVC), with start codes.
  virtual std::vector<std::byte> ParameterSets() = 0;
};

std::unique_ptr<Encoder> OpenX264(const wire::EncoderSettings& settings, std::string* error);
std::unique_ptr<Encoder> OpenX265(const wire::EncoderSettings& settings, std::string* error);

}  // namespace fakenv
