// The probe contract as a pure function of what the capability pipeline found: the mapping
// table, device selection, module checks, and every way it fails closed.
#include "worker/probe_contract/probe_contract.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "probe/capabilities/capability_table.h"
#include "probe/facts/nvidia_facts.h"
#include "worker/probe_contract/contract_report.h"
#include "worker/probe_contract/probe_contract_json.h"

namespace mc::worker {
namespace {

// ReportWith is a GPU at `address` whose device publishes the named capabilities true and
// every other row of the capability table false.
probe::DeviceReport ReportWith(const std::string& address, const std::string& api,
                               const std::string& pci_vendor,
                               const std::vector<std::string>& true_attributes) {
  probe::DeviceReport report;
  report.gpu.pci_address = address;
  report.gpu.vendor_id = pci_vendor;
  report.gpu.kernel_driver = api == "nvidia" ? "nvidia" : "i915";
  report.gpu.device_name = "pci-" + address.substr(0, 4) + "-" + address.substr(5, 2) + "-" +
                           address.substr(8, 2) + "-0";
  report.device.name = report.gpu.device_name;
  for (const probe::Capability& capability : probe::kCapabilities) {
    const std::string name(capability.name);
    const bool holds =
        std::find(true_attributes.begin(), true_attributes.end(), name) != true_attributes.end();
    report.device.attributes.emplace_back(name, holds);
  }
  report.device.attributes.emplace_back("api", api);
  report.device.attributes.emplace_back("vendor", pci_vendor);
  report.driver = api == "nvidia" ? "NVIDIA Test GPU, driver 570.1" : "Intel iHD driver";
  return report;
}

probe::ProbeResult Machine(std::vector<probe::DeviceReport> reports) {
  probe::ProbeResult probe;
  probe.reports = std::move(reports);
  probe.searched = "/sys/class/drm and /sys/bus/pci/devices";
  return probe;
}

bool Key(const ProbeContract& contract, std::string_view key) {
  for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
    if (kCapabilityKeys[i].key == key) return contract.capabilities[i];
  }
  ADD_FAILURE() << "no key " << key;
  return false;
}

TEST(CapabilityKeys, EveryAttributeTheTableNamesIsPublishedByTheCapabilityTable) {
  for (const CapabilityKey& key : kCapabilityKeys) {
    ASSERT_GT(key.attribute_count, 0u) << key.key;
    for (std::size_t j = 0; j < key.attribute_count; ++j) {
      bool published = false;
      for (const probe::Capability& capability : probe::kCapabilities)
        published |= capability.name == key.attributes[j];
      EXPECT_TRUE(published) << key.key << " names " << key.attributes[j];
    }
  }
}

TEST(ProbeContract, ALowPowerEncoderAloneCountsAsAnEncoder) {
  const ProbeContract contract = ContractFor(
      Machine({ReportWith("0000:00:02.0", "vaapi", "8086", {"encodeH264LowPower", "decodeH264"})}),
      {"pci-0000-00-02-0", ""});
  EXPECT_TRUE(contract.ok) << contract.reason.value_or("");
  EXPECT_TRUE(Key(contract, "h264_enc"));
  EXPECT_FALSE(Key(contract, "hevc_enc"));
  EXPECT_TRUE(Key(contract, "h264_dec"));
  EXPECT_EQ(contract.probe_module, "vaapi");
}

TEST(ProbeContract, TenBitComesFromATenBitEncoderNotFromATenBitDecoder) {
  const ProbeContract decodes =
      ContractFor(Machine({ReportWith("0000:00:02.0", "vaapi", "8086",
                                      {"encodeH264", "decodeHEVCMain10", "decodeAV1Main10"})}),
                  {"pci-0000-00-02-0", ""});
  EXPECT_FALSE(Key(decodes, "max10bit"));
  const ProbeContract encodes = ContractFor(
      Machine({ReportWith("0000:00:02.0", "vaapi", "8086", {"encodeH264", "encodeAV1Main10"})}),
      {"pci-0000-00-02-0", ""});
  EXPECT_TRUE(Key(encodes, "max10bit"));
}

TEST(ProbeContract, AGpuThatEncodesNothingFailsClosed) {
  const ProbeContract contract = ContractFor(
      Machine({ReportWith("0000:00:06.0", "nvidia", "10de", {"decodeH264", "decodeHEVCMain"})}),
      {"pci-0000-00-06-0", ""});
  EXPECT_FALSE(contract.ok);
  ASSERT_TRUE(contract.reason);
  EXPECT_NE(contract.reason->find("encodes nothing"), std::string::npos) << *contract.reason;
  // What the GPU does state is still reported, so that the pool can see why.
  EXPECT_TRUE(Key(contract, "h264_dec"));
}

TEST(ProbeContract, AFailedQueryFailsClosedWithTheQuerysOwnWords) {
  probe::DeviceReport report = ReportWith("0000:01:00.0", "nvidia", "10de", {});
  report.failure = "the query ran past its deadline of 20 s and was killed";
  const ProbeContract contract = ContractFor(Machine({report}), {"0000:01:00.0", ""});
  EXPECT_FALSE(contract.ok);
  ASSERT_TRUE(contract.reason);
  EXPECT_NE(contract.reason->find("deadline of 20 s"), std::string::npos) << *contract.reason;
}

TEST(ProbeContract, AnUnknownGpuFailsClosedNamingTheGpusThatAreThere) {
  const ProbeContract contract =
      ContractFor(Machine({ReportWith("0000:01:00.0", "nvidia", "10de", {"encodeH264"})}),
                  {"pci-0000-02-00-0", ""});
  EXPECT_FALSE(contract.ok);
  ASSERT_TRUE(contract.reason);
  EXPECT_NE(contract.reason->find("pci-0000-02-00-0"), std::string::npos);
  EXPECT_NE(contract.reason->find("pci-0000-01-00-0 (0000:01:00.0)"), std::string::npos)
      << *contract.reason;
}

TEST(ProbeContract, AMachineWithNoGpuFailsClosedSayingWhereItLooked) {
  probe::ProbeResult probe = Machine({});
  probe.discovery_errors.push_back("cannot list /sys/class/drm: No such file or directory");
  const ProbeContract contract = ContractFor(probe, {"pci-0000-00-02-0", ""});
  EXPECT_FALSE(contract.ok);
  EXPECT_NE(contract.reason->find("cannot list /sys/class/drm"), std::string::npos)
      << *contract.reason;
}

TEST(ProbeContract, APciAddressInNvmlsSpellingNamesTheGpu) {
  const ProbeContract contract =
      ContractFor(Machine({ReportWith("0000:0a:00.0", "nvidia", "10de", {"encodeH264"})}),
                  {"00000000:0A:00.0", ""});
  EXPECT_TRUE(contract.ok) << contract.reason.value_or("");
  ASSERT_EQ(contract.devices.size(), 1u);
  EXPECT_EQ(contract.devices[0].name, "pci-0000-0a-00-0");
  EXPECT_EQ(contract.devices[0].vendor, "nvidia");
}

TEST(ProbeContract, ABareNumberIsTheGpusPlaceInPciAddressOrder) {
  const probe::ProbeResult probe =
      Machine({ReportWith("0000:01:00.0", "nvidia", "10de", {"encodeH264"}),
               ReportWith("0000:02:00.0", "nvidia", "10de", {"encodeHEVCMain"})});
  const ProbeContract second = ContractFor(probe, {"1", ""});
  ASSERT_EQ(second.devices.size(), 1u);
  EXPECT_EQ(second.devices[0].pci_address, "0000:02:00.0");
  const ProbeContract third = ContractFor(probe, {"2", ""});
  EXPECT_FALSE(third.ok);
  EXPECT_NE(third.reason->find("no GPU \"2\""), std::string::npos) << *third.reason;
}

// Failed is an NVIDIA GPU whose query failed with `why`.
probe::DeviceReport Failed(const std::string& address, const std::string& why) {
  probe::DeviceReport report = ReportWith(address, "nvidia", "10de", {});
  report.failure = why;
  return report;
}

TEST(CudaIndexOf, CountsASiblingWhoseQueryFailedAfterCudaFoundItButNotOneCudaDoesNotSee) {
  probe::DeviceReport ok = ReportWith("0000:04:00.0", "nvidia", "10de", {"encodeH264"});
  ok.nvidia_facts = probe::NvidiaFacts{};
  const probe::ProbeResult probe = Machine(
      {ReportWith("0000:00:02.0", "vaapi", "8086", {"encodeH264"}),
       // No room for a context: CUDA still counts it as its device 0.
       Failed("0000:01:00.0", "cuCtxCreate failed: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"),
       // Hidden from this process: CUDA does not count it.
       Failed("0000:02:00.0", std::string(probe::kNoCudaDeviceAt) +
                                  "0000:02:00.0 (CUDA sees 0000:01:00.0, 0000:04:00.0)"),
       ok});
  EXPECT_EQ(CudaIndexOf(probe, "0000:01:00.0"), 0);
  EXPECT_EQ(CudaIndexOf(probe, "0000:04:00.0"), 1);
}

TEST(ProbeContract, IntelQsvIsVaapiOnIntelAndIsReportedUnderTheNameAskedFor) {
  const ProbeContract contract =
      ContractFor(Machine({ReportWith("0000:00:02.0", "vaapi", "8086", {"encodeH264"})}),
                  {"0000:00:02.0", "intel-qsv"});
  EXPECT_TRUE(contract.ok) << contract.reason.value_or("");
  EXPECT_EQ(contract.probe_module, "intel-qsv");
}

TEST(ProbeContract, IntelQsvOnAnAmdGpuFailsClosed) {
  const ProbeContract contract =
      ContractFor(Machine({ReportWith("0000:03:00.0", "vaapi", "1002", {"encodeH264"})}),
                  {"0000:03:00.0", "intel-qsv"});
  EXPECT_FALSE(contract.ok);
  EXPECT_NE(contract.reason->find("vendor 1002"), std::string::npos) << *contract.reason;
}

TEST(ProbeContract, AModuleOfAnotherApiFailsClosed) {
  const ProbeContract contract =
      ContractFor(Machine({ReportWith("0000:03:00.0", "vaapi", "1002", {"encodeH264"})}),
                  {"0000:03:00.0", "nvidia-nvenc"});
  EXPECT_FALSE(contract.ok);
  EXPECT_NE(contract.reason->find("nvidia-nvenc"), std::string::npos) << *contract.reason;
}

TEST(ProbeContract, AnUnknownModuleFailsClosedListingTheModules) {
  const ProbeContract contract =
      ContractFor(Machine({ReportWith("0000:03:00.0", "vaapi", "1002", {"encodeH264"})}),
                  {"0000:03:00.0", "cpu"});
  EXPECT_FALSE(contract.ok);
  EXPECT_NE(contract.reason->find("nvidia-nvenc, vaapi, intel-qsv"), std::string::npos)
      << *contract.reason;
}

TEST(ProbeContract, TheLargestEncodeSizeIsTheLargestOfTheEncodersItClaims) {
  probe::DeviceReport report = ReportWith("0000:01:00.0", "nvidia", "10de", {"encodeH264"});
  probe::NvidiaFacts facts;
  facts.encoder.available = true;
  facts.encoder.codecs = {{"H264", {"High"}, false, 4096, 4096},
                          {"HEVC", {"Main"}, false, 8192, 8192}};
  report.nvidia_facts = facts;
  report.device.capacity.emplace_back("encodeSessions", probe::Capacity{8, 0});
  const ProbeContract contract = ContractFor(Machine({report}), {"0000:01:00.0", ""});
  ASSERT_TRUE(contract.ok);
  // HEVC is listed by NVENC but not published as a capability, so its size does not count.
  EXPECT_EQ(contract.max_width, 4096);
  EXPECT_EQ(contract.max_height, 4096);
  EXPECT_EQ(contract.max_sessions, 8);
}

TEST(ProbeContract, OnVaapiTheLargestSizeIsTheDriversForTheEncodeEntryPointsItClaims) {
  probe::DeviceReport report =
      ReportWith("0000:00:02.0", "vaapi", "8086", {"encodeH264LowPower", "decodeHEVCMain"});
  probe::VaFacts facts;
  facts.configs = {
      {VAProfileH264High, VAEntrypointEncSliceLP, VA_RT_FORMAT_YUV420, 4096, 2304},
      // A decoder's size says nothing of the encoders, and an unclaimed encoder's neither.
      {VAProfileHEVCMain, VAEntrypointVLD, VA_RT_FORMAT_YUV420, 16384, 16384},
      {VAProfileHEVCMain, VAEntrypointEncSlice, VA_RT_FORMAT_YUV420, 8192, 8192},
  };
  report.va_facts = facts;
  const ProbeContract contract = ContractFor(Machine({report}), {"0000:00:02.0", ""});
  ASSERT_TRUE(contract.ok) << contract.reason.value_or("");
  EXPECT_EQ(contract.max_width, 4096);
  EXPECT_EQ(contract.max_height, 2304);
}

TEST(ProbeContractJson, HoldsTheContractsKeysWithNullsForWhatIsNotStated) {
  const ProbeContract contract = ContractFor(
      Machine({ReportWith("0000:00:02.0", "vaapi", "8086", {"encodeH264"})}), {"0000:00:02.0", ""});
  const nlohmann::ordered_json json = ContractJson(contract);
  for (const char* key : {"ok", "capabilities", "max_sessions", "max_width", "max_height",
                          "devices", "evidence", "reason", "probe_module"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  EXPECT_TRUE(json["max_sessions"].is_null());
  EXPECT_TRUE(json["reason"].is_null());
  EXPECT_EQ(json["capabilities"]["h264_enc"], 1);
  EXPECT_EQ(json["capabilities"].size(), 7u);
}

}  // namespace
}  // namespace mc::worker
