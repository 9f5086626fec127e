#include "cli/probe_table.h"

#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "probe/capabilities/capability_table.h"
#include "probe/capabilities/encode_session_cap.h"

namespace mc {
namespace {

probe::DeviceReport ReportHolding(const std::set<std::string>& held,
                                  const std::string& api = "vaapi") {
  probe::DeviceReport report;
  report.gpu.render_node = "/dev/dri/renderD128";
  report.gpu.pci_address = "0000:00:02.0";
  report.device.name = "pci-0000-00-02-0";
  report.driver = "Intel iHD driver 24.1.5";
  for (const probe::Capability& capability : probe::kCapabilities) {
    report.device.attributes.emplace_back(std::string(capability.name),
                                          held.contains(std::string(capability.name)));
  }
  report.device.attributes.emplace_back("api", api);
  report.device.attributes.emplace_back("name", std::string("DG1 [Iris Xe Graphics]"));
  return report;
}

std::set<std::string> Every() {
  std::set<std::string> every;
  for (const probe::Capability& capability : probe::kCapabilities) every.emplace(capability.name);
  return every;
}

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

// The lists are read from the table's listings, so a listing that disagreed with its
// attribute's name would show people a capability the device does not state.
TEST(CapabilityListing, EachListingSaysWhatItsAttributesNameSays) {
  using Work = probe::Listing::Work;
  for (const probe::Capability& capability : probe::kCapabilities) {
    SCOPED_TRACE(capability.name);
    const std::string name(capability.name);
    const probe::Listing& listing = capability.listing;
    const Work work = name.starts_with("decode")   ? Work::kDecode
                      : name.ends_with("LowPower") ? Work::kEncodeLowPower
                      : name.starts_with("encode") ? Work::kEncode
                                                   : Work::kScale;
    EXPECT_EQ(listing.work, work);
    if (work == Work::kScale) {
      EXPECT_TRUE(listing.codec.empty());
      EXPECT_NE(name.find(std::to_string(listing.bit_depth) + "bit"), std::string::npos);
    } else {
      EXPECT_NE(Lower(name).find(listing.codec), std::string::npos);
      const bool ten = name.find("10") != std::string::npos || name.ends_with("Profile2");
      EXPECT_EQ(listing.bit_depth, ten ? 10 : 8);
    }
  }
}

TEST(ProbeTable, AGpuThatHoldsEverythingListsEachCodecOnceAndItsTenBitOnesApart) {
  EXPECT_EQ(ProbeTable({ReportHolding(Every())}),
            "pci-0000-00-02-0  DG1 [Iris Xe Graphics]\n"
            "  api            VA-API on /dev/dri/renderD128\n"
            "  driver         Intel iHD driver 24.1.5\n"
            "  decodes        h264 hevc av1 vp9 vp8 vc1 mpeg2; 10-bit: hevc av1 vp9\n"
            "  encodes        h264 hevc av1; 10-bit: hevc av1\n"
            "                 LP: h264 hevc; 10-bit: hevc\n"
            "  scales         8-bit 10-bit\n");
}

TEST(ProbeTable, FullPowerAndLowPowerEncodersAreToldApart) {
  const std::string table = ProbeTable({ReportHolding(
      {"decodeH264", "decodeHEVCMain10", "encodeH264", "encodeHEVCMainLowPower", "scale8bit"})});
  EXPECT_NE(table.find("  decodes        h264; 10-bit: hevc\n"), std::string::npos) << table;
  EXPECT_NE(table.find("  encodes        h264\n"
                       "                 LP: hevc\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("  scales         8-bit\n"), std::string::npos) << table;
}

TEST(ProbeTable, AGpuWithOnlyALowPowerEncoderShowsOnlyItsLpLine) {
  const std::string table = ProbeTable({ReportHolding({"encodeH264LowPower"})});
  EXPECT_NE(table.find("  encodes        LP: h264\n  scales"), std::string::npos) << table;
}

TEST(ProbeTable, AGpuThatStatesNothingSaysNoneInEachList) {
  const std::string table = ProbeTable({ReportHolding({})});
  EXPECT_NE(table.find("  decodes        none\n"
                       "  encodes        none\n"
                       "  scales         none\n"),
            std::string::npos)
      << table;
}

TEST(ProbeTable, AFailedQueryShowsItsReasonInsteadOfTheLists) {
  probe::DeviceReport report = ReportHolding({});
  report.failure = "the query was killed by signal 11 (Segmentation fault)";
  EXPECT_EQ(ProbeTable({report}),
            "pci-0000-00-02-0  DG1 [Iris Xe Graphics]\n"
            "  api            VA-API on /dev/dri/renderD128\n"
            "  query failed   the query was killed by signal 11 (Segmentation fault)\n");
}

TEST(ProbeTable, AnNvidiaGpuIsShownAtItsPciAddressWithItsEncodeSessions) {
  probe::DeviceReport report = ReportHolding({"decodeH264", "encodeH264", "scale8bit"}, "nvidia");
  report.gpu.render_node.clear();
  report.device.capacity.emplace_back(probe::kEncodeSessionsCapacity, probe::Capacity{8, 0});
  const std::string table = ProbeTable({report});
  EXPECT_NE(table.find("  api            NVIDIA at 0000:00:02.0\n"), std::string::npos) << table;
  EXPECT_NE(table.find("  encodes        h264\n  scales         8-bit\n  sessions       8\n"),
            std::string::npos)
      << table;
}

TEST(ProbeTable, GpusAreBlocksWithABlankLineBetweenThem) {
  const std::string one = ProbeTable({ReportHolding({"decodeH264"})});
  EXPECT_EQ(ProbeTable({ReportHolding({"decodeH264"}), ReportHolding({"decodeH264"})}),
            one + "\n" + one);
}

TEST(ProbeTable, LongDriverStringsModelNamesAndReasonsWrapWithinEightyColumns) {
  probe::DeviceReport report = ReportHolding(Every());
  report.driver =
      "Mesa Gallium driver 23.1.2 for AMD Radeon RX 6750 XT (navi22, LLVM 15.0.7, DRM 3.52, "
      "6.3.8-arch1-1)";
  report.device.attributes.back() = {
      "name", std::string("Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT] and then "
                          "some more words to pass eighty columns")};
  probe::DeviceReport failed = report;
  failed.failure = std::string(40, 'x') + " " + std::string(100, 'y') + " and more words";
  const std::string table = ProbeTable({report, failed});
  std::size_t start = 0;
  while (start < table.size()) {
    const std::string line = table.substr(start, table.find('\n', start) - start);
    // A single word wider than the room is kept whole, on a line of its own.
    if (line.find(std::string(100, 'y')) == std::string::npos) {
      EXPECT_LE(line.size(), 80u) << line;
    }
    EXPECT_FALSE(line.ends_with(' ')) << line;
    start += line.size() + 1;
  }
  EXPECT_NE(table.find("  driver         Mesa Gallium driver 23.1.2 for AMD Radeon RX 6750 XT "
                       "(navi22,\n"
                       "                 LLVM 15.0.7, DRM 3.52, 6.3.8-arch1-1)\n"),
            std::string::npos)
      << table;
}

// --output wide is the column-per-capability table the default was before: the widest cell
// of each column, three spaces apart, the last column unpadded.
TEST(ProbeWideTable, IsTheTableOfOneColumnPerCapability) {
  probe::DeviceReport failed = ReportHolding({}, "nvidia");
  failed.device.name = "pci-0000-01-00-0";
  failed.gpu.render_node.clear();
  failed.failure = "cuInit failed";
  EXPECT_EQ(
      ProbeWideTable({ReportHolding({"decodeH264", "encodeHEVCMainLowPower"}), failed}),
      "NAME               API      RENDER NODE           DRIVER                    decodeH264   "
      "decodeHEVCMain   decodeHEVCMain10   decodeAV1Main   decodeAV1Main10   decodeVP9   "
      "decodeVP9Profile2   decodeVP8   decodeVC1   decodeMPEG2   encodeH264   encodeHEVCMain   "
      "encodeHEVCMain10   encodeH264LowPower   encodeHEVCMainLowPower   encodeHEVCMain10LowPower "
      "  scale8bit   scale10bit   encodeAV1Main   encodeAV1Main10\n"
      "pci-0000-00-02-0   vaapi    /dev/dri/renderD128   Intel iHD driver 24.1.5   true         "
      "false            false              false           false             false       false   "
      "            false       false       false         false        false            false     "
      "         false                true                     false                      false  "
      "     false        false           false\n"
      "pci-0000-01-00-0   nvidia   <none>                <query failed>            false        "
      "false            false              false           false             false       false   "
      "            false       false       false         false        false            false     "
      "         false                false                    false                      false  "
      "     false        false           false\n");
}

}  // namespace
}  // namespace mc
