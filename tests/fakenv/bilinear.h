// Bilinear resizing in fixed point, of one plane of one or more interleaved channels.
// The CUDA fake's scale_cuda kernels run it (cuda_kernels.cpp).
// The engine scales a VA fake's pictures with it (engine_scaler.cpp).
// It is kept cheap: a GPU's resize would cost its client nothing.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fakenv {

struct Plane {
  const std::uint8_t* pixels = nullptr;
  std::size_t width = 0;
  std::size_t height = 0;
  std::size_t pitch = 0;
  // Interleaved channels per texel: 1 for a luma plane, 2 for NV12's chroma.
  unsigned channels = 1;
};

// ResizeBilinear writes a `width` x `height` plane of `channels` of the input's interleaved
// channels, from `first_channel` on, at `out` with `pitch` bytes a row.
void ResizeBilinear(const Plane& in, std::uint8_t* out, int width, int height, int pitch,
                    unsigned channels, unsigned first_channel);

}  // namespace fakenv
