#include "probe/gpu/gpu_selector.h"

#include "common/base/text.h"
#include "probe/gpu/pci_address.h"

namespace mc::probe {

std::optional<std::size_t> SelectGpu(std::span<const Gpu> gpus, std::string_view named) {
  const std::optional<unsigned> place =
      named.size() < 4 ? ParseInteger<unsigned>(named) : std::nullopt;
  if (place && *place < gpus.size()) return *place;
  const std::optional<std::string> address = NormalisePciAddress(named);
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const Gpu& gpu = gpus[i];
    if (gpu.device_name == named) return i;
    if (!gpu.render_node.empty() && gpu.render_node == named) return i;
    if (address && *address == gpu.pci_address) return i;
  }
  return std::nullopt;
}

}  // namespace mc::probe
