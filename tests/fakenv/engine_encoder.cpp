#include "engine_encoder.h"

namespace fakenv {

Planes FindPlanes(const wire::FrameHeader& frame, const std::byte* pixels) {
  const auto* base = reinterpret_cast<const std::uint8_t*>(pixels);
  const std::size_t luma = static_cast<std::size_t>(frame.pitch) * frame.height;
  const std::size_t chroma_rows = (frame.height + 1) / 2;
  Planes planes;
  planes.y = base;
  planes.luma_pitch = static_cast<int>(frame.pitch);
  if (frame.format == wire::PixelFormat::kNv12 || frame.format == wire::PixelFormat::kP010) {
    planes.u = base + luma;
    planes.chroma_pitch = static_cast<int>(frame.pitch);
    return planes;
  }
  // YV12 stores V before U, IYUV U before V; both at half the pitch.
  const std::uint8_t* first = base + luma;
  const std::uint8_t* second = first + static_cast<std::size_t>(frame.pitch / 2) * chroma_rows;
  const bool v_first = frame.format == wire::PixelFormat::kYv12;
  planes.u = v_first ? second : first;
  planes.v = v_first ? first : second;
  planes.chroma_pitch = static_cast<int>(frame.pitch / 2);
  return planes;
}

}  // namespace fakenv
