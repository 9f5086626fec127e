// The fake's VA contexts and their picture cycle:
//  - vaBeginPicture names the target surface;
//  - vaRenderPicture hands over parameter buffers;
//  - vaEndPicture does the work, at once.
// An encode context codes its target through the engine (va_encode.h).
// A video-processing context scales and converts into its target (va_process.h).
// The work is done when vaEndPicture returns.
// So vaSyncSurface has nothing to wait for.
#pragma once

#include <va/va.h>

#include <chrono>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "drm_client_view.h"
#include "fake_driver_state.h"
#include "va_encode.h"
#include "va_memory.h"

namespace mc::fakeva {

class ProcessSession;
class DecodeSession;

struct Context {
  CreatedConfig config;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  VASurfaceID target = VA_INVALID_ID;
  std::vector<RenderedBuffer> buffers;
  std::unique_ptr<EncodeSession> encode;
  std::unique_ptr<ProcessSession> process;
  std::unique_ptr<DecodeSession> decode;
};

// The work one vaEndPicture did, for the kernel's view.
struct EngineWork {
  EngineClass engine = EngineClass::kEncode;
  std::chrono::nanoseconds busy{0};
};

class VaContexts {
 public:
  VaContexts();
  ~VaContexts();
  // Create makes a context of `config` for pictures of width x height.
  // A decode (VLD) config is taken for H.264 and VP9 profile 0 (va_decode.h).
  // Any other is refused with VA_STATUS_ERROR_UNIMPLEMENTED and the reason in `*error`.
  // So a client falls back to decoding on the CPU.
  VAStatus Create(const CreatedConfig& config, int width, int height, const std::string& state_dir,
                  VAContextID* id, std::string* error);
  VAStatus Destroy(VAContextID id);
  VAStatus Begin(VAContextID id, VASurfaceID target, VaMemory& memory);
  VAStatus Render(VAContextID id, std::span<const VABufferID> buffers, VaMemory& memory);
  VAStatus End(VAContextID id, VaMemory& memory, EngineWork* work, std::string* error);

 private:
  std::map<VAContextID, Context> contexts_;
  VAContextID next_ = 0x02000000;
};

}  // namespace mc::fakeva
