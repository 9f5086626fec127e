// Fuzz target: any text as a page of the registered runners gives runners or an error, never
// a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/peertube/registered_runners.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)mc::peertube::ParseRunnerList(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
