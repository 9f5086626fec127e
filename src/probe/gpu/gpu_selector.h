// How one GPU is named on a command line or in a worker's settings: by its device name
// ("pci-0000-01-00-0"), its render node, its PCI address in any spelling, or, as a bare
// number (PT_WORKER_GPU_DEVICES=0 has it so), its place in PCI address order, which is the
// order of device names and the default order of nvidia-smi.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "probe/gpu/gpu.h"

namespace mc::probe {

// SelectGpu gives the place in `gpus`, sorted by device name, of the GPU `named` names, or
// nullopt when none is.
std::optional<std::size_t> SelectGpu(std::span<const Gpu> gpus, std::string_view named);

}  // namespace mc::probe
