#include "engine_scaler.h"

#include "bilinear.h"

namespace fakenv {

void ScaleNv12(const wire::ScaleHeader& scale, const std::byte* pixels,
               std::vector<std::byte>& out) {
  const wire::FrameHeader& source = scale.source;
  // NV12's chroma is subsampled by two: the rectangle starts on even coordinates.
  const std::size_t x = scale.crop_x & ~1u;
  const std::size_t y = scale.crop_y & ~1u;
  const auto* base = reinterpret_cast<const std::uint8_t*>(pixels);
  const std::size_t chroma = std::size_t{source.pitch} * source.height;
  const Plane luma{base + y * source.pitch + x, scale.crop_width, scale.crop_height, source.pitch,
                   1};
  const Plane uv{base + chroma + (y / 2) * source.pitch + x, (scale.crop_width + 1) / 2,
                 (scale.crop_height + 1) / 2, source.pitch, 2};
  out.assign(wire::PictureBytes(wire::PixelFormat::kNv12, scale.pitch, scale.height), std::byte{0});
  auto* target = reinterpret_cast<std::uint8_t*>(out.data());
  const int pitch = static_cast<int>(scale.pitch);
  ResizeBilinear(luma, target, static_cast<int>(scale.width), static_cast<int>(scale.height), pitch,
                 1, 0);
  ResizeBilinear(uv, target + std::size_t{scale.pitch} * scale.height,
                 static_cast<int>((scale.width + 1) / 2), static_cast<int>((scale.height + 1) / 2),
                 pitch, 2, 0);
}

}  // namespace fakenv
