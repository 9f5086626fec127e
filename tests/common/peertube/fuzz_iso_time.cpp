// Fuzz target: any text as one of PeerTube's times gives seconds or nothing, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/base/iso_time.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)mc::ParseIsoTime(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
