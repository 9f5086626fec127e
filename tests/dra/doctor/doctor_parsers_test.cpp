// The doctor's pure parts: the parsers of what the kernel and the API server say, the rules of
// VA driver versions, the check table against its documentation, and the report's forms.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dra/doctor/check_table.h"
#include "dra/doctor/cluster_json.h"
#include "dra/doctor/huc_info.h"
#include "dra/doctor/nvidia_versions.h"
#include "dra/doctor/report_format.h"
#include "dra/doctor/va_driver_rules.h"

namespace mc::dra {
namespace {

TEST(HucInfo, ARunningHucIsReadWithItsFirmwareFile) {
  Result<HucInfo> info = ParseHucInfo(
      "HuC firmware: i915/tgl_huc.bin\n\tstatus: RUNNING\n\tversion: found 7.9.3\n"
      "\tuCode: 589248 bytes\n\tRSA: 256 bytes\nHuC status: 0x00090001\n");
  ASSERT_TRUE(info) << info.error_message();
  EXPECT_EQ(info->firmware, "i915/tgl_huc.bin");
  EXPECT_EQ(info->status, "RUNNING");
  EXPECT_TRUE(HucRunning(*info));
}

TEST(HucInfo, AStatusOtherThanRunningIsNotRunning) {
  Result<HucInfo> info = ParseHucInfo("HuC firmware: i915/adlp_huc.bin\n\tstatus: MISSING\n");
  ASSERT_TRUE(info) << info.error_message();
  EXPECT_FALSE(HucRunning(*info));
}

TEST(HucInfo, TextWithoutTheFirmwareLineIsRefusedWithWhatIsMissing) {
  Result<HucInfo> info = ParseHucInfo("status: RUNNING\n");
  ASSERT_FALSE(info);
  EXPECT_NE(info.error_message().find("HuC firmware:"), std::string::npos) << info.error_message();
  EXPECT_FALSE(ParseHucInfo("HuC firmware: x.bin\n"));
}

TEST(NvidiaVersions, TheProprietaryModulesLineGivesItsVersion) {
  Result<NvidiaKernelModule> module = ParseNvidiaKernelVersion(
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Jun  5 2025\n"
      "GCC version:  gcc version 12.2.0\n");
  ASSERT_TRUE(module) << module.error_message();
  EXPECT_EQ(module->version, "580.159.04");
  EXPECT_FALSE(module->open);
}

TEST(NvidiaVersions, TheOpenModulesLineGivesItsVersionPastItsArchitecture) {
  Result<NvidiaKernelModule> module = ParseNvidiaKernelVersion(
      "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build  "
      "(dvs-builder@U16-I3-B03-4-3)  Thu Jan 23 2025\n");
  ASSERT_TRUE(module) << module.error_message();
  EXPECT_EQ(module->version, "570.86.15");
  EXPECT_TRUE(module->open);
}

TEST(NvidiaVersions, TextWithoutAnNvrmLineIsRefused) {
  EXPECT_FALSE(ParseNvidiaKernelVersion("GCC version: 12\n"));
  EXPECT_FALSE(ParseNvidiaKernelVersion("NVRM version: NVIDIA UNIX Kernel Module\n"));
}

TEST(NvidiaVersions, ALibrarysFileNameGivesItsVersionAndItsSonameNone) {
  EXPECT_EQ(LibraryFileVersion("libcuda.so.580.159.04", "libcuda"), "580.159.04");
  EXPECT_EQ(LibraryFileVersion("libcuda.so.1", "libcuda"), "");
  EXPECT_EQ(LibraryFileVersion("libnvcuvid.so.580.159.04", "libcuda"), "");
  EXPECT_EQ(LibraryFileVersion("libcuda.so.580..04", "libcuda"), "");
}

TEST(VaDriverRules, LibvaTriesIhdBeforeI965OnI915AndOnlyIhdOnXe) {
  auto i915 = VaDriversFor("i915");
  ASSERT_EQ(i915.size(), 2u);
  EXPECT_EQ(i915[0], "iHD");
  EXPECT_EQ(i915[1], "i965");
  ASSERT_EQ(VaDriversFor("xe").size(), 1u);
  EXPECT_TRUE(VaDriversFor("vfio-pci").empty());
}

TEST(VaDriverRules, AVendorStringNamesItsDriverAndVersion) {
  VaDriverIdentity ihd = IdentifyVaDriver("Intel iHD driver for Intel(R) Gen Graphics - 24.1.5 ()");
  EXPECT_EQ(ihd.driver, "iHD");
  EXPECT_EQ(ihd.version, "24.1.5");
  VaDriverIdentity mesa = IdentifyVaDriver(
      "Mesa Gallium driver 23.3.5 for AMD Radeon RX 6700 XT (navi22, LLVM 15.0.6, DRM 3.54)");
  EXPECT_EQ(mesa.driver, "Mesa");
  EXPECT_EQ(mesa.version, "23.3.5");
  EXPECT_EQ(IdentifyVaDriver("Fake driver").version, "");
}

TEST(VaDriverRules, AnIhdOlderThan24Point2BreaksTheXeRuleAndANewerOneDoesNot) {
  EXPECT_TRUE(BrokenVersionRule("xe", "iHD", "24.1.5"));
  EXPECT_FALSE(BrokenVersionRule("xe", "iHD", "24.2.0"));
  EXPECT_FALSE(BrokenVersionRule("xe", "iHD", "25.1"));
  EXPECT_TRUE(BrokenVersionRule("xe", "i965", "2.4.1"));
  EXPECT_FALSE(BrokenVersionRule("i915", "iHD", "20.1"));
}

TEST(ClusterJson, SlicesSayWhichRenderNodesCarryAPciBusId) {
  Result<std::vector<SliceSummary>> slices = ParseSlices(R"({"items": [{
      "metadata": {"name": "n-liken.sh"},
      "spec": {"devices": [
        {"name": "a", "attributes": {"renderNode": {"bool": true},
                                     "resource.kubernetes.io/pciBusID": {"string": "0000:01:00.0"}}},
        {"name": "b", "attributes": {"renderNode": {"bool": true}}},
        {"name": "c", "attributes": {"renderNode": {"string": "yes"}}}]}}]})");
  ASSERT_TRUE(slices) << slices.error_message();
  ASSERT_EQ(slices->size(), 1u);
  const auto& devices = slices->front().devices;
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_TRUE(devices[0].render_node && devices[0].pci_bus_id);
  EXPECT_TRUE(devices[1].render_node && !devices[1].pci_bus_id);
  EXPECT_FALSE(devices[2].render_node);
  EXPECT_FALSE(ParseSlices(R"({"items": 3})"));
  EXPECT_FALSE(ParseSlices("not json"));
}

TEST(ClusterJson, OnlyUnallocatedClaimsForTheDriversClassesArePending) {
  const std::string claims = R"({"items": [
    {"metadata": {"namespace": "a", "name": "media",
                  "ownerReferences": [{"kind": "Pod", "name": "p"}]},
     "spec": {"devices": {"requests": [{"name": "g", "exactly": {"deviceClassName": "media-encode"}}]}}},
    {"metadata": {"namespace": "a", "name": "allocated"},
     "spec": {"devices": {"requests": [{"name": "g", "exactly": {"deviceClassName": "media-encode"}}]}},
     "status": {"allocation": {"devices": {}}}},
    {"metadata": {"namespace": "a", "name": "other"},
     "spec": {"devices": {"requests": [{"name": "g", "exactly": {"deviceClassName": "gpu.example.com"}}]}}},
    {"metadata": {"namespace": "b", "name": "by-selector"},
     "spec": {"devices": {"requests": [{"name": "g", "firstAvailable": [{"name": "x",
       "deviceClassName": "any", "selectors": [{"cel": {"expression": "device.driver == 'media.liken.sh'"}}]}]}]}}}]})";
  Result<std::vector<PendingClaim>> pending =
      ParsePendingClaims(claims, {"media-encode"}, "media.liken.sh");
  ASSERT_TRUE(pending) << pending.error_message();
  ASSERT_EQ(pending->size(), 2u);
  EXPECT_EQ((*pending)[0].name, "media");
  EXPECT_EQ((*pending)[0].owner_pod, "p");
  EXPECT_EQ((*pending)[1].ns, "b");
}

TEST(ClusterJson, APodsFalsePodScheduledConditionIsTheSchedulersReason) {
  Result<std::vector<PodSummary>> pods = ParsePods(R"({"items": [{"metadata": {"name": "p"},
      "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimName": "media"}]},
      "status": {"conditions": [{"type": "PodScheduled", "status": "False",
                                 "message": "0/1 nodes are available: 1 cannot allocate all claims."}]}}]})");
  ASSERT_TRUE(pods) << pods.error_message();
  ASSERT_EQ(pods->size(), 1u);
  EXPECT_EQ(pods->front().claims, std::vector<std::string>{"media"});
  EXPECT_EQ(pods->front().unschedulable, "0/1 nodes are available: 1 cannot allocate all claims.");
}

TEST(ClusterJson, AStoredSliceSaysWhetherTheGatedFieldsSurvived) {
  Result<StoredCapacity> kept = ParseStoredCapacity(
      R"({"spec": {"devices": [{"name": "d", "allowMultipleAllocations": true,
          "capacity": {"encodeSessions": {"value": "8", "requestPolicy": {"default": "1"}}}}]}})",
      "encodeSessions");
  ASSERT_TRUE(kept) << kept.error_message();
  EXPECT_TRUE(kept->allow_multiple_allocations);
  EXPECT_TRUE(kept->request_policy);
  Result<StoredCapacity> dropped = ParseStoredCapacity(
      R"({"spec": {"devices": [{"name": "d", "capacity": {"encodeSessions": {"value": "8"}}}]}})",
      "encodeSessions");
  ASSERT_TRUE(dropped) << dropped.error_message();
  EXPECT_FALSE(dropped->allow_multiple_allocations);
  EXPECT_FALSE(dropped->request_policy);
}

TEST(CheckTable, DocsDoctorMdListsEveryCheckOfTheTable) {
  std::ifstream in(MEDIA_CAP_DOCTOR_DOC);
  ASSERT_TRUE(in) << MEDIA_CAP_DOCTOR_DOC;
  std::stringstream text;
  text << in.rdbuf();
  for (const CheckSpec& check : Checks()) {
    EXPECT_NE(text.str().find("| `" + std::string(check.id) + "` |"), std::string::npos)
        << check.id << " is not in docs/dra/doctor.md";
  }
}

TEST(Report, JsonHoldsEachResultsIdStatusFindingAndRemedy) {
  const CheckResults results = {Ok("render-nodes", "/dev/dri/renderD128"),
                                Fail("va-driver", "no iHD_drv_video.so", "install it")};
  const nlohmann::json report = nlohmann::json::parse(ReportJson(results));
  ASSERT_EQ(report["checks"].size(), 2u);
  EXPECT_EQ(report["checks"][1]["id"], "va-driver");
  EXPECT_EQ(report["checks"][1]["status"], "fail");
  EXPECT_EQ(report["checks"][1]["finding"], "no iHD_drv_video.so");
  EXPECT_EQ(report["checks"][1]["remedy"], "install it");
  EXPECT_EQ(report["summary"]["fail"], 1);
}

TEST(Report, TextSaysWhatToDoUnderAResultThatIsNotOk) {
  const std::string text =
      ReportText({Ok("render-nodes", "fine"), Fail("va-driver", "bad", "fix it")});
  EXPECT_NE(text.find("ok   render-nodes  fine\n"), std::string::npos) << text;
  EXPECT_NE(text.find("fail va-driver     bad\n"), std::string::npos) << text;
  EXPECT_NE(text.find("what to do: fix it\n"), std::string::npos) << text;
  EXPECT_NE(text.find("doctor: 1 ok, 0 warn, 1 fail"), std::string::npos) << text;
}

}  // namespace
}  // namespace mc::dra
