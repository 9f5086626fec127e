// Product names from the PCI ID database, through libpci, so that `kubectl get
// resourceslice` shows which GPU a device is about in the words lspci uses.
#pragma once

#include <memory>
#include <string>

struct pci_access;

namespace mc {

class PciNames {
 public:
  PciNames();
  ~PciNames();
  PciNames(const PciNames&) = delete;
  PciNames& operator=(const PciNames&) = delete;

  // DeviceName gives the database's name of the device, such as "Alder Lake-P GT2 [Iris Xe
  // Graphics]", or an empty string when the database does not know it.
  std::string DeviceName(unsigned vendor_id, unsigned device_id);

 private:
  struct AccessDeleter {
    void operator()(pci_access* access) const;
  };
  std::unique_ptr<pci_access, AccessDeleter> access_;
};

}  // namespace mc
