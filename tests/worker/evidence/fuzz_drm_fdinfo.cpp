// Fuzz target: any text as a DRM fdinfo file must give a value or an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "worker/evidence/drm_fdinfo.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::worker::DrmFdinfo> fdinfo = mc::worker::ParseDrmFdinfo(text);
  if (fdinfo) (void)mc::worker::MediaEngineTimeOf(*fdinfo);
  return 0;
}
