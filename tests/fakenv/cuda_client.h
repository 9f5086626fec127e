// What the fakes of libnvidia-encode.so.1 and libnvcuvid.so.1 ask libcuda.so.1, as
// NVIDIA's libraries ask their own CUDA driver: which GPU a context is on. They ask through
// CUDA's public entry points, so that a client's context, made on the GPU it chose, decides
// where a session's work shows.
#pragma once

#include <ffnvcodec/dynlink_cuda.h>

#include <optional>

namespace fakenv {

// ContextDevice gives the machine's index of the GPU `context` is on.
// That index is a fake CUdevice.
// Gives nullopt when libcuda.so.1 cannot be loaded or does not know the context.
std::optional<int> ContextDevice(CUcontext context);

// CurrentDevice is ContextDevice of the calling thread's current context; nullopt when no
// context is current.
std::optional<int> CurrentDevice();

}  // namespace fakenv
