#include "probe/gpu/pci_names.h"

#include <gtest/gtest.h>

extern "C" {
#include <pci/pci.h>
}

#include "support/temp_dir.h"

namespace mc::probe {
namespace {

// libpci calls its message hooks while it loads the database; pci_init would set them, but
// it also opens the PCI bus, which the look-up does not need.
void IgnoreLibpciMessage(char*, ...) {}

constexpr char kDatabase[] =
    "# comment\n"
    "0001  First vendor\n"
    "\t0002  Its first device\n"
    "8086  Intel Corporation\n"
    "\t0001  Not this one\n"
    "# a comment inside the block\n"
    "\t46a6  Alder Lake-P Integrated Graphics Controller\n"
    "\t\t1028 0b14  A subsystem, not a device\n"
    "\t56a0  DG2 [Arc A770]\r\n"
    "8087  Intel Corporation\n"
    "\t46a7  Belongs to the next vendor\n"
    "C 03  Display controller\n";

TEST(PciNames, ADeviceIsFoundUnderItsVendor) {
  EXPECT_EQ(FindPciDeviceName(kDatabase, 0x8086, 0x46a6),
            "Alder Lake-P Integrated Graphics Controller");
  EXPECT_EQ(FindPciDeviceName(kDatabase, 0x0001, 0x0002), "Its first device");
  EXPECT_EQ(FindPciDeviceName(kDatabase, 0x8086, 0x56a0), "DG2 [Arc A770]");
}

TEST(PciNames, ADeviceOfAnotherVendorOrASubsystemIsNotAnAnswer) {
  EXPECT_EQ(FindPciDeviceName(kDatabase, 0x8086, 0x46a7), "");
  EXPECT_EQ(FindPciDeviceName(kDatabase, 0x8086, 0x1028), "");
  EXPECT_EQ(FindPciDeviceName(kDatabase, 0x10de, 0x2335), "");
  EXPECT_EQ(FindPciDeviceName("", 0x8086, 0x46a6), "");
}

TEST(PciNames, NoReadableDatabaseGivesNoNames) {
  PciNames names({"/nonexistent/pci.ids"});
  EXPECT_EQ(names.DeviceName(0x8086, 0x46a6), "");
}

TEST(PciNames, TheFirstReadableDatabaseIsUsed) {
  testing::TempDir dir;
  const auto file = dir.Write("pci.ids", kDatabase);
  PciNames names({"/nonexistent/pci.ids", file.string()});
  EXPECT_EQ(names.DeviceName(0x8086, 0x56a0), "DG2 [Arc A770]");
}

// libpci reads the same database; for GPUs of every vendor in it, the two must agree. Its
// udev hardware-database path is off, as ours has none.
TEST(PciNames, EveryAnswerIsLibpcisAnswer) {
  pci_access* access = pci_alloc();
  access->numeric_ids = 0;
  access->warning = IgnoreLibpciMessage;
  access->debug = IgnoreLibpciMessage;
  PciNames names;
  const std::pair<unsigned, unsigned> ids[] = {
      {0x8086, 0x46a6}, {0x8086, 0x5690}, {0x8086, 0x7d55}, {0x8086, 0x0412}, {0x8086, 0x9bc8},
      {0x8086, 0x4905}, {0x1002, 0x73bf}, {0x1002, 0x744c}, {0x1002, 0x699f}, {0x1002, 0x15bf},
      {0x10de, 0x2335}, {0x10de, 0x2684}, {0x10de, 0x2204}, {0x10de, 0x1eb8}, {0x1af4, 0x1050},
      {0x8086, 0xffff}, {0xfffe, 0x0001}};
  for (auto [vendor, device] : ids) {
    char buffer[256];
    const char* theirs = pci_lookup_name(
        access, buffer, sizeof buffer,
        PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB, vendor, device);
    EXPECT_EQ(names.DeviceName(vendor, device), theirs ? theirs : "")
        << std::hex << vendor << ":" << device;
  }
  pci_cleanup(access);
}

}  // namespace
}  // namespace mc::probe
