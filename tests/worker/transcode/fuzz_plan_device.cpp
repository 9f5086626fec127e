// Fuzz target: any bytes as a device must give a device or an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "worker/transcode/plan_device.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::worker::PlanDevice> device = mc::worker::ParsePlanDevice(text);
  if (device) (void)device->Flag("encodeH264");
  return 0;
}
