// Discovery of NVIDIA GPUs from sysfs. They are the PCI devices under <sysfs>/bus/pci/devices with:
// - NVIDIA's vendor id (0x10de);
// - a display class (0x03xxxx: VGA, 3D or other display controller).
//
// Many NVIDIA machines have no render node at all: no /dev/dri, only /dev/nvidiaN. So the PCI bus,
// not DRM, is where they are found. CUDA later matches each one by the same PCI address.
#pragma once

#include <string>
#include <vector>

#include "common/base/result.h"
#include "probe/gpu/gpu.h"
#include "probe/gpu/pci_names.h"
#include "probe/gpu/render_node_discovery.h"

namespace mc::probe {

inline constexpr char kNvidiaVendorId[] = "10de";

// DiscoverNvidiaGpus gives one Gpu per NVIDIA display-class PCI device, in address order. It names
// them as the VA-API path does: device name "pci-<address>", canonical pciBusID. render_node is the
// GPU's render node, if nvidia-drm made one; else empty. A machine without a PCI bus in sysfs has
// no NVIDIA GPU. The call fails only when the bus's directory exists and cannot be read.
Result<std::vector<Gpu>> DiscoverNvidiaGpus(const DiscoveryRoots& roots, PciNames& names);

}  // namespace mc::probe
