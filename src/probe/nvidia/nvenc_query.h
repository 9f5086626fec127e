// The NVENC side of the NVIDIA query: open an encode session on the GPU's CUDA context,
// read the codec GUIDs, each codec's profile GUIDs and the caps that matter, and close it.
// NVENC is optional: a GPU without an encoder (H200), a machine without
// libnvidia-encode.so.1 or a refused session make the encoder unavailable with the reason,
// and the decode facts stay.
#pragma once

#include "probe/facts/nvidia_facts.h"
#include "probe/nvidia/nvidia_loader.h"

namespace mc::probe {

// The most sessions the session-slot test opens. Professional boards have no driver cap, so
// without a limit of its own the test would open sessions until video memory ran out.
inline constexpr int kMaxMeasuredSessions = 64;

// QueryEncoder asks NVENC about the GPU whose CUDA context is `context`.
NvEncoderFacts QueryEncoder(CUcontext context);

// CountEncodeSessions is the session-slot test (docs/probe/nvidia.md): it opens sessions on the
// context until one is refused or kMaxMeasuredSessions are open, then closes them all. The
// count is of sessions this process could open while others may hold some: the consumer
// cap counts every process on the system.
NvSessionCount CountEncodeSessions(CUcontext context);

}  // namespace mc::probe
