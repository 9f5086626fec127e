#include "cli/capability_lists.h"

#include <gtest/gtest.h>

#include <set>

namespace mc {
namespace {

using Work = probe::Listing::Work;

probe::Device Holding(const std::set<std::string>& held) {
  probe::Device device;
  for (const probe::Capability& capability : probe::kCapabilities) {
    device.attributes.emplace_back(std::string(capability.name),
                                   held.contains(std::string(capability.name)));
  }
  return device;
}

TEST(CapabilityList, NamesTheEightBitCodecsFirstInTheTablesOrder) {
  EXPECT_EQ(CapabilityList(Holding({"decodeMPEG2", "decodeH264", "decodeVP9"}), Work::kDecode),
            "h264 vp9 mpeg2");
}

TEST(CapabilityList, NamesTheTenBitCodecsAfterTheirBitDepth) {
  EXPECT_EQ(CapabilityList(Holding({"decodeH264", "decodeHEVCMain10", "decodeVP9Profile2"}),
                           Work::kDecode),
            "h264; 10-bit: hevc vp9");
}

TEST(CapabilityList, ACodecOnlyAtTenBitsIsListedUnderItsBitDepthAlone) {
  EXPECT_EQ(CapabilityList(Holding({"encodeAV1Main10"}), Work::kEncode), "10-bit: av1");
}

TEST(CapabilityList, KeepsTheWorksApart) {
  const probe::Device device = Holding({"encodeH264", "encodeHEVCMainLowPower", "decodeVP8"});
  EXPECT_EQ(CapabilityList(device, Work::kEncode), "h264");
  EXPECT_EQ(CapabilityList(device, Work::kEncodeLowPower), "hevc");
  EXPECT_EQ(CapabilityList(device, Work::kDecode), "vp8");
  EXPECT_EQ(CapabilityList(device, Work::kScale), "");
}

TEST(CapabilityList, ScalingIsListedByBitDepth) {
  EXPECT_EQ(CapabilityList(Holding({"scale8bit", "scale10bit"}), Work::kScale), "8-bit 10-bit");
}

TEST(CapabilityList, AMissingOrNonBooleanAttributeIsNotHeld) {
  probe::Device device;
  device.attributes.emplace_back("decodeH264", std::string("true"));
  EXPECT_EQ(CapabilityList(device, Work::kDecode), "");
}

}  // namespace
}  // namespace mc
