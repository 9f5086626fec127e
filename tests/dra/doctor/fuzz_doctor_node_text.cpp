// What the kernel and the file system tell the doctor is outside input: debugfs's huc_info,
// /proc/driver/nvidia/version, a library's file name and a VA driver's vendor string. Each
// parser must answer anything with a value or an error naming what it missed, and what it
// accepts must hold what its type promises.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "dra/doctor/huc_info.h"
#include "dra/doctor/nvidia_versions.h"
#include "dra/doctor/va_driver_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (mc::Result<mc::dra::HucInfo> huc = mc::dra::ParseHucInfo(text)) {
    if (huc->status.empty()) std::abort();
  } else if (huc.error_message().empty()) {
    std::abort();
  }
  if (mc::Result<mc::dra::NvidiaKernelModule> module = mc::dra::ParseNvidiaKernelVersion(text)) {
    if (module->version.find('.') == std::string::npos) std::abort();
  } else if (module.error_message().empty()) {
    std::abort();
  }
  const std::string version = mc::dra::LibraryFileVersion(text, "libcuda");
  if (!version.empty() && text.find(version) == std::string_view::npos) std::abort();
  const mc::dra::VaDriverIdentity identity = mc::dra::IdentifyVaDriver(text);
  if (!identity.version.empty() &&
      mc::dra::CompareVersions(identity.version, identity.version) != 0)
    std::abort();
  (void)mc::dra::BrokenVersionRule("xe", identity.driver, identity.version);
  return 0;
}
