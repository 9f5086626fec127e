// Fuzz target: any text as a kernel log gives an Xid record or none, never a crash; a record
// found is the driver's own words at the start of its message, one of this GPU is also found
// where the GPU is not known, and once acknowledged it is found no more.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "worker/evidence/kernel_log.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view log(reinterpret_cast<const char*>(data), size);
  const auto mine = mc::worker::FindXid(log, "0000:01:00.0");
  const auto any = mc::worker::FindXid(log, std::nullopt);
  if (mine && !any) std::abort();
  if (any && !any->message.starts_with("NVRM: Xid (PCI:")) std::abort();
  if (any) {
    const auto after = mc::worker::FindXid(log, std::nullopt, any->sequence);
    if (after && after->sequence <= any->sequence) std::abort();
  }
  return 0;
}
