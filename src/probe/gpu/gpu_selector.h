// How one GPU is named on a command line or in a worker's settings:
// - by its device name ("pci-0000-01-00-0");
// - by its render node;
// - by its PCI address, in any spelling;
// - by a bare number, as in PT_WORKER_GPU_DEVICES=0.
//
// A number is the place in PCI address order. That is the order of device names, and nvidia-smi's
// default order.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "probe/gpu/gpu.h"

namespace mc::probe {

// SelectGpu gives the place of the GPU `named` names in `gpus`, sorted by device name. nullopt when
// none is.
std::optional<std::size_t> SelectGpu(std::span<const Gpu> gpus, std::string_view named);

}  // namespace mc::probe
