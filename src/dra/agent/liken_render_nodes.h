// The render nodes liken publishes for this node.
// liken's ResourceSlices (driver liken.sh) are outside input.
// This reads them defensively.
// It says what it could not use, rather than dropping it in silence.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mc::dra {

struct LikenRenderNode {
  // The liken device's name, such as "pci-0000-00-02-0".
  // The media device is published under the same name.
  // So a claim can pair the two by name.
  std::string device_name;
  // The GPU's canonical PCI address, from the device's `address` attribute.
  // Else from its resource.kubernetes.io/pciBusID; empty when it has neither.
  std::string pci_address;

  bool operator==(const LikenRenderNode&) const = default;
};

struct LikenRenderNodes {
  // Sorted by device name, each name once.
  std::vector<LikenRenderNode> nodes;
  // What could not be read, naming the slice and the device.
  std::vector<std::string> problems;
};

// RenderNodesOfLikenSlices reads every device whose bool attribute `renderNode` is true.
// It reads only the slices of each pool's newest generation.
// An older generation is a pool liken is rewriting.
// Its devices may already be gone.
LikenRenderNodes RenderNodesOfLikenSlices(const std::vector<nlohmann::json>& slices);

}  // namespace mc::dra
