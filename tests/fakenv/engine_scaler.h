// The engine's scaler: a VA fake's video processing (scale_vaapi) done in the engine
// process, as a GPU's video-enhance engine does it apart from the CPU. It resizes bilinearly
// (bilinear.h), as the CUDA fake's scale_cuda does.
#pragma once

#include <cstddef>
#include <vector>

#include "engine_wire.h"

namespace fakenv {

// ScaleNv12 makes the NV12 picture `scale` asks for of the rectangle of the source `pixels`
// (laid out as the wire's NV12), into `out` at scale.pitch.
void ScaleNv12(const wire::ScaleHeader& scale, const std::byte* pixels,
               std::vector<std::byte>& out);

}  // namespace fakenv
