#include "cli/probe_table.h"

#include <gtest/gtest.h>

#include <set>

#include "capabilities/capability_table.h"

namespace mc {
namespace {

DeviceReport ReportHolding(const std::set<std::string>& held) {
  DeviceReport report;
  report.gpu.render_node = "/dev/dri/renderD128";
  report.device.name = "pci-0000-00-02-0";
  report.driver = "Intel iHD driver 24.1.5";
  for (const Capability& capability : kCapabilities) {
    report.device.attributes.emplace_back(std::string(capability.name),
                                          held.contains(std::string(capability.name)));
  }
  report.device.attributes.emplace_back("api", std::string("vaapi"));
  report.device.attributes.emplace_back("name", std::string("Alder Lake-P"));
  return report;
}

TEST(ProbeTable, EveryCapabilityHasExactlyOneLabel) {
  std::multiset<std::string> labelled;
  for (const CapabilityLabel& label : kCapabilityLabels)
    labelled.insert(std::string(label.capability));
  EXPECT_EQ(labelled.size(), kCapabilities.size());
  for (const Capability& capability : kCapabilities) {
    EXPECT_EQ(labelled.count(std::string(capability.name)), 1u) << capability.name;
  }
}

TEST(ProbeTable, AGpuIsListedByWhatItDecodesEncodesAtFullAndLowPowerAndScales) {
  const std::string table = ProbeTable({ReportHolding(
      {"decodeH264", "decodeHEVCMain10", "encodeH264", "encodeHEVCMainLowPower", "scale8bit"})});
  EXPECT_EQ(table,
            "pci-0000-00-02-0  Alder Lake-P\n"
            "  api            vaapi on /dev/dri/renderD128\n"
            "  driver         Intel iHD driver 24.1.5\n"
            "  decodes        H.264, HEVC 10-bit\n"
            "  encodes        H.264\n"
            "  low-power      HEVC\n"
            "  scales         8-bit\n");
}

TEST(ProbeTable, AFailedQueryShowsItsReasonInsteadOfTheLists) {
  DeviceReport report = ReportHolding({});
  report.failure = "the query was killed by signal 11 (Segmentation fault)";
  const std::string table = ProbeTable({report});
  EXPECT_NE(table.find("  query failed   the query was killed by signal 11 (Segmentation fault)\n"),
            std::string::npos);
  EXPECT_EQ(table.find("decodes"), std::string::npos);
}

TEST(ProbeTable, EveryLineOfTheTableFitsATerminalForACommonGpu) {
  const std::string table = ProbeTable({ReportHolding(
      {"decodeH264", "decodeHEVCMain", "decodeHEVCMain10", "decodeAV1Main", "decodeAV1Main10",
       "decodeVP9", "decodeVP9Profile2", "decodeVP8", "decodeVC1", "decodeMPEG2"})});
  std::size_t start = 0;
  while (start < table.size()) {
    const std::size_t end = table.find('\n', start);
    EXPECT_LE(end - start, 100u) << table.substr(start, end - start);
    start = end + 1;
  }
}

TEST(ProbeWideTable, HasOneColumnPerCapability) {
  const std::string table = ProbeWideTable({ReportHolding({"decodeH264"})});
  const std::string header = table.substr(0, table.find('\n'));
  for (const Capability& capability : kCapabilities) {
    EXPECT_NE(header.find(std::string(capability.name)), std::string::npos) << capability.name;
  }
}

}  // namespace
}  // namespace mc
