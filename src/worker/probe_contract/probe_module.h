// The probe modules a worker may be told to use (PT_WORKER_GPU_PROBE), as data. Each says which
// API's devices it accepts. A vendor's own name also says which vendor. The names are the ones the
// pool's configuration already uses. So "intel-qsv" stays a valid name for VA-API on Intel.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace mc::worker {

struct ProbeModule {
  std::string_view name;
  // The published `api` attribute of the devices it accepts: "nvidia" or "vaapi".
  std::string_view api;
  // The PCI vendor it is limited to, four lowercase hex digits. Empty for any vendor.
  std::string_view pci_vendor;
};

inline constexpr std::array<ProbeModule, 3> kProbeModules{{
    {"nvidia-nvenc", "nvidia", ""},
    {"vaapi", "vaapi", ""},
    {"intel-qsv", "vaapi", "8086"},
}};

// FindProbeModule gives the module of that name, or nullopt.
std::optional<ProbeModule> FindProbeModule(std::string_view name);

// DefaultModuleFor gives the canonical module of a device's api ("nvidia-nvenc", "vaapi"). nullopt
// for an api no module reads.
std::optional<ProbeModule> DefaultModuleFor(std::string_view api);

// VendorWord names a PCI vendor for people and for the status document. It is "nvidia", "intel",
// "amd", or "unknown".
std::string_view VendorWord(std::string_view pci_vendor);

}  // namespace mc::worker
