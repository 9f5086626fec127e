#include "probe/gpu/pci_address.h"

#include <gtest/gtest.h>

namespace mc::probe {
namespace {

TEST(PciAddress, TheSysfsFormIsAlreadyCanonical) {
  EXPECT_EQ(NormalisePciAddress("0000:00:02.0"), "0000:00:02.0");
}

TEST(PciAddress, UppercaseAndNvmlsEightDigitDomainsBecomeTheCanonicalForm) {
  EXPECT_EQ(NormalisePciAddress("00000000:65:00.0"), "0000:65:00.0");
  EXPECT_EQ(NormalisePciAddress("0000:C1:00.0"), "0000:c1:00.0");
  EXPECT_EQ(NormalisePciAddress("1:03:1f.7"), "0001:03:1f.7");
}

TEST(PciAddress, MalformedAddressesAreRejected) {
  for (const char* text : {"", "0000:00:02", "0000:0:02.0", "0000:00:20.0", "0000:00:02.8",
                           "gggg:00:02.0", "100000000:00:02.0", "10000:00:02.0", "0000-00-02-0"}) {
    EXPECT_EQ(NormalisePciAddress(text), std::nullopt) << text;
  }
}

TEST(PciAddress, NumbersFromCudaFormatCanonically) {
  EXPECT_EQ(FormatPciAddress(0, 0x65, 0, 0), "0000:65:00.0");
}

TEST(PciAddress, TheDeviceNameReplacesColonsAndDotsWithDashes) {
  EXPECT_EQ(DeviceNameForPciAddress("0000:00:02.0"), "pci-0000-00-02-0");
}

}  // namespace
}  // namespace mc::probe
