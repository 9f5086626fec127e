#include "va_contexts.h"

#include "va_decode.h"
#include "va_names.h"
#include "va_process.h"

namespace mc::fakeva {

VaContexts::VaContexts() = default;
VaContexts::~VaContexts() = default;

VAStatus VaContexts::Create(const CreatedConfig& config, int width, int height,
                            const std::string& state_dir, VAContextID* id, std::string* error) {
  if (!id) return VA_STATUS_ERROR_INVALID_PARAMETER;
  if (width <= 0 || height <= 0 || width > static_cast<int>(kLargestSide) ||
      height > static_cast<int>(kLargestSide)) {
    *error = "a context of " + std::to_string(width) + "x" + std::to_string(height) +
             " pictures: each side must be 1 to " + std::to_string(kLargestSide);
    return VA_STATUS_ERROR_RESOLUTION_NOT_SUPPORTED;
  }
  Context context;
  context.config = config;
  context.width = static_cast<std::uint32_t>(width);
  context.height = static_cast<std::uint32_t>(height);
  if (IsEncode(config.entrypoint)) {
    if (config.entrypoint == VAEntrypointEncPicture) {
      *error = "the fake encodes slices (EncSlice, EncSliceLP), not whole pictures (JPEG)";
      return VA_STATUS_ERROR_UNSUPPORTED_ENTRYPOINT;
    }
    if (config.profile != VAProfileH264ConstrainedBaseline && config.profile != VAProfileH264Main &&
        config.profile != VAProfileH264High && config.profile != VAProfileHEVCMain &&
        config.profile != VAProfileHEVCMain10) {
      *error = "the fake's engine encodes H.264 (8-bit) and HEVC Main and Main10 only";
      return VA_STATUS_ERROR_UNSUPPORTED_PROFILE;
    }
    context.encode =
        std::make_unique<EncodeSession>(config.profile, config.rate_control, state_dir);
  } else if (config.entrypoint == VAEntrypointVideoProc) {
    context.process = std::make_unique<ProcessSession>(state_dir);
  } else if (IsDecodable(config.profile)) {
    context.decode = std::make_unique<DecodeSession>(config.profile, state_dir);
  } else {
    *error = "the fake decodes H.264, HEVC Main and VP9 profile 0 only, not " +
             std::string(ProfileName(config.profile)) + ": a client decodes on the CPU instead";
    return VA_STATUS_ERROR_UNIMPLEMENTED;
  }
  *id = next_++;
  contexts_.emplace(*id, std::move(context));
  return VA_STATUS_SUCCESS;
}

VAStatus VaContexts::Destroy(VAContextID id) {
  return contexts_.erase(id) ? VA_STATUS_SUCCESS : VA_STATUS_ERROR_INVALID_CONTEXT;
}

VAStatus VaContexts::Begin(VAContextID id, VASurfaceID target, VaMemory& memory) {
  auto found = contexts_.find(id);
  if (found == contexts_.end()) return VA_STATUS_ERROR_INVALID_CONTEXT;
  if (!memory.FindSurface(target)) return VA_STATUS_ERROR_INVALID_SURFACE;
  found->second.target = target;
  found->second.buffers.clear();
  return VA_STATUS_SUCCESS;
}

VAStatus VaContexts::Render(VAContextID id, std::span<const VABufferID> buffers, VaMemory& memory) {
  auto found = contexts_.find(id);
  if (found == contexts_.end()) return VA_STATUS_ERROR_INVALID_CONTEXT;
  if (found->second.target == VA_INVALID_ID) return VA_STATUS_ERROR_OPERATION_FAILED;
  for (const VABufferID buffer_id : buffers) {
    const Buffer* buffer = memory.FindBuffer(buffer_id);
    if (!buffer) return VA_STATUS_ERROR_INVALID_BUFFER;
    // The client may destroy a buffer once it is rendered: the picture keeps a copy.
    const std::size_t size = std::size_t{buffer->element_size} * buffer->elements;
    found->second.buffers.push_back(
        {buffer->type, std::vector<std::uint8_t>(
                           buffer->data.begin(),
                           buffer->data.begin() +
                               static_cast<std::ptrdiff_t>(std::min(size, buffer->data.size())))});
  }
  return VA_STATUS_SUCCESS;
}

VAStatus VaContexts::End(VAContextID id, VaMemory& memory, EngineWork* work, std::string* error) {
  auto found = contexts_.find(id);
  if (found == contexts_.end()) return VA_STATUS_ERROR_INVALID_CONTEXT;
  Context& context = found->second;
  Surface* target = memory.FindSurface(context.target);
  context.target = VA_INVALID_ID;
  if (!target) return VA_STATUS_ERROR_INVALID_SURFACE;
  const std::vector<RenderedBuffer> buffers = std::move(context.buffers);
  context.buffers.clear();
  if (context.encode) {
    work->engine = EngineClass::kEncode;
    return context.encode->Encode(*target, buffers, memory, &work->busy, error);
  }
  if (context.decode) {
    work->engine = EngineClass::kDecode;
    return context.decode->Decode(*target, buffers, &work->busy, error);
  }
  work->engine = EngineClass::kEnhance;
  return context.process->Process(*target, buffers, memory, &work->busy, error);
}

}  // namespace mc::fakeva
