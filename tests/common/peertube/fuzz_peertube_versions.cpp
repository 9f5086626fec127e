// Fuzz target: any text as PeerTube's config or as the runner's --version gives a version or
// an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/peertube/peertube_versions.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)mc::peertube::ParseServerVersion(text);
  (void)mc::peertube::ParseRunnerVersion(text);
  return 0;
}
