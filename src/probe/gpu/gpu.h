// Gpu is what discovery knows of one render node's GPU before any driver is asked: where
// its node is and who the GPU is. Fields that could not be read are empty, and `problems`
// says why, so a half-readable node is still reported rather than dropped.
#pragma once

#include <string>
#include <vector>

namespace mc::probe {

struct Gpu {
  // The render node to open, such as "/dev/dri/renderD128".
  std::string render_node;
  // The bus the GPU sits on, from sysfs ("pci", "platform", ...); empty when unknown.
  std::string bus;
  // The canonical PCI address ("0000:00:02.0"); empty for a GPU that is not on PCI.
  std::string pci_address;
  // The kernel driver bound to the GPU, such as "i915", "xe" or "amdgpu".
  std::string kernel_driver;
  // Four lowercase hex digits each, such as "8086" and "46a6".
  std::string vendor_id;
  std::string product_id;
  // The PCI ID database's name of the product.
  std::string product_name;
  // The device name under which the GPU is published, such as "pci-0000-00-02-0".
  std::string device_name;
  std::vector<std::string> problems;

  bool operator==(const Gpu&) const = default;
};

}  // namespace mc::probe
