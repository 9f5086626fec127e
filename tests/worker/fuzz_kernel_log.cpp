// Fuzz target: any text as a kernel log gives an Xid line or none, never a crash; a line found
// names an Xid, none is found in a log that names none, and a log with an Xid of one GPU has
// one where the GPU is not known.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "worker/evidence/kernel_log.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view log(reinterpret_cast<const char*>(data), size);
  const auto mine = mc::worker::FindXid(log, "0000:01:00.0");
  const auto any = mc::worker::FindXid(log, std::nullopt);
  const bool named = log.find("NVRM: Xid") != std::string_view::npos;
  if ((mine && !any) || (any && (!named || any->find("NVRM: Xid") == std::string::npos)))
    std::abort();
  return 0;
}
