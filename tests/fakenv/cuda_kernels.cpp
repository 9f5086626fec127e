// The CUDA fake's kernels: the one family a transcoding pipeline launches.
// They are ffmpeg's scale_cuda resize kernels.
// Their names are "Subsample_<algorithm>_<in>_<out>" and its "_uv" twin.
// They take NV12 and YUV420P in and out alike.
// They run on the CPU of the process that launches them.
// A module's code is never read: each kernel is known by its name.
// Any other name is not found, as a module without it answers.
// Every algorithm resizes bilinearly.
// The pictures differ from a GPU's bicubic or Lanczos ones in their last bits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bilinear.h"
#include "cuda_driver.h"
#include "fake_results.h"

namespace fakenv {
namespace {

constexpr int kCudaErrorNotFound = 500;
constexpr int kCudaErrorInvalidHandle = 400;

struct Kernel {
  bool interleaved_chroma = false;  // NV12 rather than YUV420P
  bool chroma = false;              // the "_uv" kernel
};

// A texture is a plane the kernels read (bilinear.h).
using Texture = Plane;

// The kernels' and textures' registry, part of the driver's state in this process.
struct KernelRegistry {
  std::mutex mutex;
  std::map<const Kernel*, std::unique_ptr<Kernel>> kernels;
  std::map<CUtexObject, Texture> textures;
  CUtexObject next_texture = 1;
};

KernelRegistry& Registry() {
  static KernelRegistry registry;
  return registry;
}

char module_token;

}  // namespace
}  // namespace fakenv

using fakenv::Registry;
using fakenv::Result;

FAKENV_EXPORT CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  if (!module || !image) return Result(fakenv::kCudaErrorInvalidValue);
  *module = reinterpret_cast<CUmodule>(&fakenv::module_token);
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }

FAKENV_EXPORT CUresult cuModuleGetFunction(CUfunction* function, CUmodule, const char* name) {
  if (!function || !name) return Result(fakenv::kCudaErrorInvalidValue);
  std::string text(name);
  auto kernel = std::make_unique<fakenv::Kernel>();
  if (text.ends_with("_uv")) {
    kernel->chroma = true;
    text.resize(text.size() - 3);
  }
  bool known = false;
  for (const char* algorithm : {"Nearest", "Bilinear", "Bicubic", "Lanczos"}) {
    for (const char* format : {"nv12", "yuv420p"}) {
      if (text == std::string("Subsample_") + algorithm + "_" + format + "_" + format) {
        known = true;
        kernel->interleaved_chroma = std::strcmp(format, "nv12") == 0;
      }
    }
  }
  if (!known) return Result(fakenv::kCudaErrorNotFound);
  std::lock_guard<std::mutex> lock(Registry().mutex);
  *function = reinterpret_cast<CUfunction>(kernel.get());
  Registry().kernels.emplace(kernel.get(), std::move(kernel));
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuTexObjectCreate(CUtexObject* texture, const CUDA_RESOURCE_DESC* resource,
                                         const CUDA_TEXTURE_DESC*, const CUDA_RESOURCE_VIEW_DESC*) {
  if (!texture || !resource || resource->resType != CU_RESOURCE_TYPE_PITCH2D ||
      resource->res.pitch2D.format != CU_AD_FORMAT_UNSIGNED_INT8 ||
      resource->res.pitch2D.numChannels < 1 || resource->res.pitch2D.numChannels > 2 ||
      resource->res.pitch2D.width == 0 || resource->res.pitch2D.height == 0) {
    return Result(fakenv::kCudaErrorNotSupported);
  }
  std::lock_guard<std::mutex> lock(Registry().mutex);
  *texture = Registry().next_texture++;
  Registry().textures[*texture] = {
      reinterpret_cast<const std::uint8_t*>(resource->res.pitch2D.devPtr),
      resource->res.pitch2D.width, resource->res.pitch2D.height, resource->res.pitch2D.pitchInBytes,
      resource->res.pitch2D.numChannels};
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuTexObjectDestroy(CUtexObject texture) {
  std::lock_guard<std::mutex> lock(Registry().mutex);
  return Registry().textures.erase(texture) ? CUDA_SUCCESS
                                            : Result(fakenv::kCudaErrorInvalidHandle);
}

// cuLaunchKernel runs a resize kernel with the arguments scale_cuda passes:
//  - four source textures;
//  - four destination planes;
//  - the destination's width, height and pitch;
//  - the source's width and height;
//  - the algorithm's parameter.
FAKENV_EXPORT CUresult cuLaunchKernel(CUfunction function, unsigned int, unsigned int, unsigned int,
                                      unsigned int, unsigned int, unsigned int, unsigned int,
                                      CUstream, void** parameters, void**) {
  std::lock_guard<std::mutex> lock(Registry().mutex);
  auto found = Registry().kernels.find(reinterpret_cast<const fakenv::Kernel*>(function));
  if (found == Registry().kernels.end() || !parameters)
    return Result(fakenv::kCudaErrorInvalidHandle);
  const fakenv::Kernel& kernel = *found->second;
  auto texture = [&](int index) -> const fakenv::Texture* {
    auto entry = Registry().textures.find(*static_cast<CUtexObject*>(parameters[index]));
    return entry == Registry().textures.end() ? nullptr : &entry->second;
  };
  auto plane = [&](int index) {
    return reinterpret_cast<std::uint8_t*>(*static_cast<CUdeviceptr*>(parameters[4 + index]));
  };
  const int width = *static_cast<int*>(parameters[8]);
  const int height = *static_cast<int*>(parameters[9]);
  const int pitch = *static_cast<int*>(parameters[10]);
  if (width <= 0 || height <= 0 || pitch < width) return Result(fakenv::kCudaErrorInvalidValue);
  if (!kernel.chroma) {
    const fakenv::Texture* luma = texture(0);
    if (!luma || !plane(0)) return Result(fakenv::kCudaErrorInvalidValue);
    fakenv::ResizeBilinear(*luma, plane(0), width, height, pitch, 1, 0);
  } else if (kernel.interleaved_chroma) {
    const fakenv::Texture* chroma = texture(1);
    if (!chroma || chroma->channels != 2 || !plane(1) || pitch < 2 * width)
      return Result(fakenv::kCudaErrorInvalidValue);
    fakenv::ResizeBilinear(*chroma, plane(1), width, height, pitch, 2, 0);
  } else {
    const fakenv::Texture* u = texture(1);
    const fakenv::Texture* v = texture(2);
    if (!u || !v || !plane(1) || !plane(2)) return Result(fakenv::kCudaErrorInvalidValue);
    fakenv::ResizeBilinear(*u, plane(1), width, height, pitch, 1, 0);
    fakenv::ResizeBilinear(*v, plane(2), width, height, pitch, 1, 0);
  }
  return CUDA_SUCCESS;
}
