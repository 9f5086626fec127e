#include "gpu/pci_names.h"

extern "C" {
#include <pci/pci.h>
}

#include <cstring>

namespace mc {
namespace {

// libpci reports a missing or unreadable database through its warning hook; an unknown
// name is already an empty answer, so the warning has nothing to add.
void IgnoreLibpciMessage(char*, ...) {}

}  // namespace

void PciNames::AccessDeleter::operator()(pci_access* access) const { pci_cleanup(access); }

PciNames::PciNames() : access_(pci_alloc()) {
  // Only the ID database is used, never the bus, so no pci_init: name look-ups need no
  // access to the hardware. PCI_LOOKUP_NO_NUMBERS makes an unknown id an empty answer
  // rather than a number dressed up as a name, and network and cache look-ups stay off.
  access_->numeric_ids = 0;
  access_->warning = IgnoreLibpciMessage;
  access_->debug = IgnoreLibpciMessage;
}

PciNames::~PciNames() = default;

std::string PciNames::DeviceName(unsigned vendor_id, unsigned device_id) {
  char buffer[256];
  const char* name =
      pci_lookup_name(access_.get(), buffer, sizeof buffer,
                      PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS, vendor_id, device_id);
  return name ? std::string(name) : std::string();
}

}  // namespace mc
