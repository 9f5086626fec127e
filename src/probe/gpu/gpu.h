// Gpu is what discovery knows of one render node's GPU before any driver is asked. It says where
// its node is and who the GPU is. Unreadable fields are empty, and `problems` says why. So a
// half-readable node is still reported, not dropped.
#pragma once

#include <string>
#include <vector>

namespace mc::probe {

struct Gpu {
  // The render node to open, such as "/dev/dri/renderD128".
  std::string render_node;
  // The GPU's bus, from sysfs: "pci", "platform", .... Empty when unknown.
  std::string bus;
  // The canonical PCI address ("0000:00:02.0"). Empty for a GPU not on PCI.
  std::string pci_address;
  // The kernel driver bound to the GPU: "i915", "xe", "amdgpu", ....
  std::string kernel_driver;
  // Four lowercase hex digits each, such as "8086", "46a6".
  std::string vendor_id;
  std::string product_id;
  // The board maker's PCI subsystem vendor and device, "1043:889d". Empty when sysfs has no
  // subsystem_vendor and subsystem_device files. Two boards of one model differ here.
  std::string subsystem_ids;
  // The PCI ID database's name of the product.
  std::string product_name;
  // The GPU's published device name, such as "pci-0000-00-02-0".
  std::string device_name;
  std::vector<std::string> problems;

  bool operator==(const Gpu&) const = default;
};

}  // namespace mc::probe
