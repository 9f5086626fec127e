// The NVENC side of the NVIDIA query. It opens an encode session on the GPU's CUDA context. It
// reads the codec GUIDs, each codec's profile GUIDs and the caps that matter. Then it closes the
// session. NVENC is optional. These make the encoder unavailable, with the reason:
// - a GPU without an encoder (H200);
// - a machine without libnvidia-encode.so.1;
// - a refused session.
//
// The decode facts stay.
#pragma once

#include "probe/facts/nvidia_facts.h"
#include "probe/nvidia/nvidia_loader.h"

namespace mc::probe {

// The most sessions the session-slot test opens. Professional boards have no driver cap. Without
// its own limit, the test would open sessions until video memory ran out.
inline constexpr int kMaxMeasuredSessions = 64;

// QueryEncoder asks NVENC about the GPU with CUDA context `context`.
NvEncoderFacts QueryEncoder(CUcontext context);

// CountEncodeSessions is the session-slot test (docs/probe/nvidia.md). It opens sessions on the
// context until one is refused or kMaxMeasuredSessions are open. Then it closes them all. Other
// processes may hold sessions meanwhile. The count is of sessions this process could open. The
// consumer cap counts every process on the system.
NvSessionCount CountEncodeSessions(CUcontext context);

}  // namespace mc::probe
