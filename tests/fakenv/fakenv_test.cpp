// The NVIDIA backend end to end on recorded GPUs:
//  - sysfs laid out by fakenv_stage;
//  - the real product binary as the query child;
//  - nv-codec-headers' real loader;
//  - the fake NVIDIA libraries replaying each record.
// The expectations are written here from what each record's driver states.
// They are never computed from the record by the code under test.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "probe/capabilities/capability_table.h"
#include "probe/capabilities/encode_session_cap.h"
#include "probe/capabilities/nvidia_generations.h"
#include "probe/capabilities/nvidia_rules.h"
#include "probe/devices/device_builder.h"
#include "probe/facts/nvidia_facts_json.h"
#include "probe/gpu/nvidia_discovery.h"
#include "probe/pipeline/probe_pipeline.h"
#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string Record(const std::string& name) { return std::string(FAKENV_RECORDS_DIR) + "/" + name; }

std::string ReadText(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// RecordedReport is the report a record holds, read with the product's parser.
probe::NvidiaFacts RecordedReport(const std::string& path) {
  const json record = json::parse(ReadText(path));
  Result<probe::NvidiaFacts> facts = probe::ParseNvidiaFacts(record.at("report").dump());
  EXPECT_TRUE(facts) << facts.error_message();
  return facts ? *facts : probe::NvidiaFacts{};
}

struct Outcome {
  std::vector<probe::Gpu> gpus;
  std::vector<Result<probe::NvidiaFacts>> facts;
  std::vector<probe::Device> devices;
};

// What a probe of a recorded machine is asked to do beyond the query.
struct Options {
  bool measure_sessions = false;
};

// RecordedNvidiaGpu lays out one record's machine and runs the probe pipeline on it.
// The real binary is the query batch.
class RecordedNvidiaGpu : public ::testing::Test {
 protected:
  // Write puts a record of the test's own into the test's directory.
  std::string Write(const std::string& name, const std::string& text) {
    return dir_.Write(name, text).string();
  }

  Outcome Probe(const std::string& record, Options options = {},
                std::chrono::milliseconds deadline = std::chrono::seconds(20)) {
    const fs::path machine = dir_.path() / ("machine-" + std::to_string(++machines_));
    const probe::ChildOutcome staged =
        testing::RunCommand({FAKENV_STAGE, record, machine.string()});
    EXPECT_EQ(staged.code, 0) << staged.err;
    setenv("LD_LIBRARY_PATH", (machine / "lib").c_str(), 1);
    setenv("FAKENV_RECORD", record.c_str(), 1);
    Outcome outcome;
    const probe::ProbeResult probed =
        probe::ProbeGpus({.roots = {(machine / "sys").string(), (machine / "dev").string()},
                          .query = {MEDIA_CAP_BINARY, deadline},
                          .measure_sessions = options.measure_sessions});
    EXPECT_TRUE(probed.discovery_errors.empty()) << probed.discovery_errors.front();
    for (const probe::DeviceReport& report : probed.reports) {
      outcome.gpus.push_back(report.gpu);
      outcome.facts.push_back(report.nvidia_facts ? Result<probe::NvidiaFacts>(*report.nvidia_facts)
                                                  : Result<probe::NvidiaFacts>(Error{
                                                        report.failure.value_or("no facts")}));
      outcome.devices.push_back(report.device);
    }
    return outcome;
  }

  // One probes a record of one GPU and hands back its facts and device.
  std::pair<Result<probe::NvidiaFacts>, probe::Device> One(
      const std::string& record, Options options = {},
      std::chrono::milliseconds deadline = std::chrono::seconds(20)) {
    Outcome outcome = Probe(record, options, deadline);
    EXPECT_EQ(outcome.devices.size(), 1u);
    if (outcome.devices.size() != 1) return {Error{"no device"}, probe::Device{}};
    return {outcome.facts[0], outcome.devices[0]};
  }

  static bool Holds(const probe::Device& device, const char* name) {
    const probe::AttributeValue* value = device.Attribute(name);
    EXPECT_NE(value, nullptr) << name;
    return value && std::get<bool>(*value);
  }

  static std::set<std::string> TrueCapabilities(const probe::Device& device) {
    std::set<std::string> names;
    for (const probe::Capability& capability : probe::kCapabilities) {
      if (Holds(device, std::string(capability.name).c_str()))
        names.insert(std::string(capability.name));
    }
    return names;
  }

  static std::string Text(const probe::Device& device, const char* name) {
    const probe::AttributeValue* value = device.Attribute(name);
    return value ? std::get<std::string>(*value) : std::string("<absent>");
  }

  static std::optional<std::int64_t> Capacity(const probe::Device& device, const char* name) {
    for (const auto& [key, value] : device.capacity) {
      if (key == name) return value.value;
    }
    return std::nullopt;
  }

  // AdaWith is the Ada GeForce record with one change made to its JSON.
  std::string AdaWith(const std::function<void(json&)>& change) {
    json record = json::parse(ReadText(Record("ada-geforce-rtx4090.json")));
    change(record);
    return Write("ada-changed-" + std::to_string(++machines_) + ".json", record.dump(2));
  }

  testing::TempDir dir_;
  int machines_ = 0;
};

const std::vector<std::string> kRecords = {"h200.json",
                                           "ada-geforce-rtx4090.json",
                                           "ampere-rtx-a4000.json",
                                           "no-libnvidia-encode.json",
                                           "cuinit-fails.json",
                                           "cuinit-hangs.json",
                                           "cuinit-crashes.json"};

TEST_F(RecordedNvidiaGpu, EveryRecordNamesItsSourceAndItsReportParses) {
  for (const std::string& name : kRecords) {
    const json record = json::parse(ReadText(Record(name)), nullptr, false);
    ASSERT_TRUE(record.is_object()) << name;
    EXPECT_FALSE(record.value("source", std::string()).empty()) << name;
    if (record.contains("report")) {
      Result<probe::NvidiaFacts> facts = probe::ParseNvidiaFacts(record["report"].dump());
      EXPECT_TRUE(facts) << name << ": " << facts.error_message();
    }
  }
}

TEST_F(RecordedNvidiaGpu, ReplayingARecordedReportGivesTheSameReportBack) {
  for (const char* name : {"h200.json", "ada-geforce-rtx4090.json", "ampere-rtx-a4000.json",
                           "no-libnvidia-encode.json"}) {
    auto [facts, device] = One(Record(name));
    ASSERT_TRUE(facts) << name << ": " << facts.error_message();
    // The query states the ordinal CUDA gave the GPU.
    // The records lack it: they were made before the query stated it.
    EXPECT_EQ(facts->cuda_ordinal, 0) << name;
    facts->cuda_ordinal.reset();
    EXPECT_EQ(probe::NvidiaFactsToJson(*facts),
              probe::NvidiaFactsToJson(RecordedReport(Record(name))))
        << name;
  }
}

TEST_F(RecordedNvidiaGpu, TheH200DecodesWhatItsDriverStatedAndEncodesNothing) {
  auto [facts, device] = One(Record("h200.json"));
  ASSERT_TRUE(facts) << facts.error_message();
  // The H200's driver (580.159.04) states these decoders and no AV1.
  // NVENC refuses a session.
  EXPECT_EQ(TrueCapabilities(device),
            (std::set<std::string>{"decodeH264", "decodeHEVCMain", "decodeHEVCMain10", "decodeVP9",
                                   "decodeVP9Profile2", "decodeVP8", "decodeVC1", "decodeMPEG2",
                                   "scale8bit", "scale10bit"}));
  EXPECT_EQ(Text(device, "api"), "nvidia");
  EXPECT_EQ(Text(device, "driverVersion"), "580.159.04");
  EXPECT_EQ(Text(device, probe::kPciBusIdAttribute), "0000:00:06.0");
  EXPECT_EQ(device.name, "pci-0000-00-06-0");
  EXPECT_EQ(Text(device, "vendor"), "10de");
  EXPECT_EQ(Text(device, "product"), "2335");
  EXPECT_EQ(Capacity(device, probe::kEncodeSessionsCapacity), std::nullopt);
  EXPECT_EQ(facts->encoder.unavailable_reason,
            "NvEncOpenEncodeSessionEx failed: NV_ENC_ERR_UNSUPPORTED_DEVICE (2)");
}

TEST_F(RecordedNvidiaGpu, TheH200AgreesWithNvidiasGenerationTable) {
  auto [facts, device] = One(Record("h200.json"));
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_EQ(probe::NvidiaGeneration(facts->compute_capability),
            "Hopper (compute-class, H100/H200)");
  EXPECT_TRUE(probe::GenerationTableWarnings(*facts, probe::EvaluateNvidiaFacts(*facts)).empty());
}

TEST_F(RecordedNvidiaGpu, TheAdaGeForceEncodesAv1AndGetsTheConsumerSessionCap) {
  auto [facts, device] = One(Record("ada-geforce-rtx4090.json"));
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_TRUE(Holds(device, "encodeH264"));
  EXPECT_TRUE(Holds(device, "encodeHEVCMain10"));
  EXPECT_TRUE(Holds(device, "encodeAV1Main"));
  EXPECT_TRUE(Holds(device, "encodeAV1Main10"));
  EXPECT_TRUE(Holds(device, "decodeAV1Main10"));
  EXPECT_FALSE(Holds(device, "encodeH264LowPower"));
  // Driver 570 is in the 550-589 branches, whose consumer cap is 8.
  EXPECT_EQ(Capacity(device, probe::kEncodeSessionsCapacity), 8);
  EXPECT_TRUE(probe::GenerationTableWarnings(*facts, probe::EvaluateNvidiaFacts(*facts)).empty());
}

TEST_F(RecordedNvidiaGpu, TheAmpereProfessionalBoardDecodesAv1ButEncodesItNotAndHasNoSessionCap) {
  auto [facts, device] = One(Record("ampere-rtx-a4000.json"));
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_TRUE(Holds(device, "decodeAV1Main"));
  EXPECT_TRUE(Holds(device, "encodeHEVCMain10"));
  EXPECT_FALSE(Holds(device, "encodeAV1Main"));
  EXPECT_EQ(Capacity(device, probe::kEncodeSessionsCapacity), std::nullopt);
  EXPECT_EQ(Text(device, "driverVersion"), "550.144.03");
}

TEST_F(RecordedNvidiaGpu, AMachineWithoutLibnvidiaEncodeKeepsItsDecodersAndEncodesNothing) {
  auto [facts, device] = One(Record("no-libnvidia-encode.json"));
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_TRUE(Holds(device, "decodeHEVCMain10"));
  for (const probe::Capability& capability : probe::kCapabilities) {
    if (std::string(capability.name).starts_with("encode")) {
      EXPECT_FALSE(Holds(device, std::string(capability.name).c_str())) << capability.name;
    }
  }
  EXPECT_EQ(Capacity(device, probe::kEncodeSessionsCapacity), std::nullopt);
  EXPECT_NE(facts->encoder.unavailable_reason.find("libnvidia-encode.so.1"), std::string::npos);
}

TEST_F(RecordedNvidiaGpu, ACuInitFailurePublishesEveryCapabilityFalseAndNamesTheCall) {
  auto [facts, device] = One(Record("cuinit-fails.json"));
  ASSERT_FALSE(facts);
  EXPECT_EQ(facts.error_message(),
            "cuInit failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected");
  EXPECT_TRUE(TrueCapabilities(device).empty());
  EXPECT_EQ(device.Attribute("driverVersion"), nullptr);
  EXPECT_EQ(Text(device, "api"), "nvidia");
  EXPECT_EQ(Text(device, probe::kPciBusIdAttribute), "0000:01:00.0");
}

TEST_F(RecordedNvidiaGpu, AHangingDriverIsKilledAtTheDeadline) {
  auto [facts, device] = One(Record("cuinit-hangs.json"), {}, std::chrono::milliseconds(1500));
  ASSERT_FALSE(facts);
  EXPECT_EQ(facts.error_message(), "the query ran past its deadline of 1.5 s and was killed");
  EXPECT_TRUE(TrueCapabilities(device).empty());
}

TEST_F(RecordedNvidiaGpu, ACrashingDriverIsReportedWithItsSignal) {
  auto [facts, device] = One(Record("cuinit-crashes.json"));
  ASSERT_FALSE(facts);
  EXPECT_EQ(
      facts.error_message(),
      "the query was killed by signal 6 (Aborted): fakenv: cuInit crashes, as the record asks");
  EXPECT_TRUE(TrueCapabilities(device).empty());
}

TEST_F(RecordedNvidiaGpu, TheSessionSlotTestCountsSessionsUpToTheConsumerCap) {
  auto [facts, device] = One(Record("ada-geforce-rtx4090.json"), {.measure_sessions = true});
  ASSERT_TRUE(facts) << facts.error_message();
  ASSERT_TRUE(facts->sessions);
  EXPECT_EQ(facts->sessions->opened, 8);
  EXPECT_EQ(facts->sessions->stopped_by,
            "NvEncOpenEncodeSessionEx failed: NV_ENC_ERR_OUT_OF_MEMORY (10)");
}

TEST_F(RecordedNvidiaGpu, TheSessionSlotTestOnTheH200OpensNoSession) {
  auto [facts, device] = One(Record("h200.json"), {.measure_sessions = true});
  ASSERT_TRUE(facts) << facts.error_message();
  ASSERT_TRUE(facts->sessions);
  EXPECT_EQ(facts->sessions->opened, 0);
  EXPECT_EQ(facts->sessions->stopped_by,
            "NvEncOpenEncodeSessionEx failed: NV_ENC_ERR_UNSUPPORTED_DEVICE (2)");
}

TEST_F(RecordedNvidiaGpu, TheSessionSlotTestStopsAtItsOwnLimitOnABoardWithoutACap) {
  auto [facts, device] = One(Record("ampere-rtx-a4000.json"), {.measure_sessions = true});
  ASSERT_TRUE(facts) << facts.error_message();
  ASSERT_TRUE(facts->sessions);
  EXPECT_EQ(facts->sessions->opened, 64);
  EXPECT_EQ(facts->sessions->stopped_by, "the test's own limit of 64 sessions");
}

TEST_F(RecordedNvidiaGpu, WithoutTheSessionSlotTestTheReportHasNoSessionCount) {
  auto [facts, device] = One(Record("ada-geforce-rtx4090.json"));
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_FALSE(facts->sessions);
}

TEST_F(RecordedNvidiaGpu, AContextThatCannotBeCreatedFailsTheWholeQuery) {
  auto [facts, device] = One(AdaWith([](json& r) { r["report"]["cudaContext"] = false; }));
  ASSERT_FALSE(facts);
  EXPECT_EQ(facts.error_message(),
            "cuCtxCreate failed: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory");
  EXPECT_TRUE(TrueCapabilities(device).empty());
  EXPECT_EQ(Capacity(device, probe::kEncodeSessionsCapacity), std::nullopt);
}

TEST_F(RecordedNvidiaGpu, AFailingDecoderCapsCallFailsTheWholeQuery) {
  auto [facts, device] = One(AdaWith([](json& r) { r["replay"]["cuvidGetDecoderCaps"] = 801; }));
  ASSERT_FALSE(facts);
  EXPECT_EQ(facts.error_message(),
            "cuvidGetDecoderCaps(H264 4:2:0 8-bit) failed: CUDA_ERROR_NOT_SUPPORTED (801): "
            "operation not supported");
  EXPECT_TRUE(TrueCapabilities(device).empty());
}

TEST_F(RecordedNvidiaGpu, AGpuThatCudaDoesNotSeeAtItsAddressFailsTheQuery) {
  auto [facts, device] = One(AdaWith([](json& r) { r["report"]["pciAddress"] = "0000:02:00.0"; }));
  ASSERT_FALSE(facts);
  EXPECT_EQ(facts.error_message(),
            "no CUDA device is at PCI address 0000:01:00.0 (CUDA sees 0000:02:00.0)");
}

TEST_F(RecordedNvidiaGpu,
       WithoutNvmlTheDriverVersionIsMissingAndTheSmallestConsumerCapIsPublished) {
  auto [facts, device] =
      One(AdaWith([](json& r) { r["replay"]["absentLibraries"] = {"libnvidia-ml.so.1"}; }));
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_EQ(device.Attribute("driverVersion"), nullptr);
  EXPECT_EQ(Capacity(device, probe::kEncodeSessionsCapacity), 3);
  ASSERT_EQ(facts->warnings.size(), 1u);
  EXPECT_TRUE(facts->warnings[0].starts_with("the driver version is unknown: Cannot load") ||
              facts->warnings[0].starts_with("the driver version is unknown: cannot load"))
      << facts->warnings[0];
}

TEST_F(RecordedNvidiaGpu, AFailingNvmlIsAWarningNotAFailure) {
  auto [facts, device] = One(AdaWith([](json& r) { r["replay"]["nvmlInit"] = 9; }));
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_EQ(facts->warnings,
            std::vector<std::string>{
                "the driver version is unknown: nvmlInit_v2 failed: Driver Not Loaded (9)"});
  EXPECT_TRUE(Holds(device, "encodeH264"));
}

TEST_F(RecordedNvidiaGpu, ADriverOlderThanNvencApi11Point1HasNoEncoder) {
  auto [facts, device] =
      One(AdaWith([](json& r) { r["report"]["encoder"]["maxApiVersion"] = "10.0"; }));
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_EQ(facts->encoder.unavailable_reason,
            "the driver's NVENC API 10.0 is older than 11.1, the oldest this program speaks");
  EXPECT_FALSE(Holds(device, "encodeH264"));
  EXPECT_EQ(Capacity(device, probe::kEncodeSessionsCapacity), std::nullopt);
}

TEST_F(RecordedNvidiaGpu, ADriverThatDisagreesWithTheGenerationTableRaisesAWarning) {
  auto [facts, device] = One(AdaWith([](json& r) {
    auto& codecs = r["report"]["encoder"]["codecs"];
    codecs.erase(2);  // the AV1 encoder
  }));
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_FALSE(Holds(device, "encodeAV1Main"));
  const std::vector<std::string> warnings =
      probe::GenerationTableWarnings(*facts, probe::EvaluateNvidiaFacts(*facts));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(
      warnings[0],
      "NVIDIA's generation table (the NVENC/NVDEC support matrix, docs/probe/nvidia.md) expects "
      "encodeAV1Main=true on Ada (compute capability 8.9), but "
      "the driver's statement gives false, which is what is published");
}

TEST_F(RecordedNvidiaGpu, EveryRecordedDeviceStaysWithinTheApisLimits) {
  for (const char* name : {"h200.json", "ada-geforce-rtx4090.json", "ampere-rtx-a4000.json",
                           "no-libnvidia-encode.json", "cuinit-fails.json"}) {
    auto [facts, device] = One(Record(name));
    EXPECT_LE(device.attributes.size() + device.capacity.size(), probe::kMaxAttributesAndCapacities)
        << name;
    for (const auto& [key, value] : device.attributes) {
      if (const auto* text = std::get_if<std::string>(&value)) {
        EXPECT_LE(text->size(), probe::kMaxAttributeStringBytes) << key;
      }
    }
  }
}

TEST_F(RecordedNvidiaGpu, DiscoveryFindsTheRecordedGpuAsSysfsDescribesIt) {
  Outcome outcome = Probe(Record("h200.json"));
  ASSERT_EQ(outcome.gpus.size(), 1u);
  const probe::Gpu& gpu = outcome.gpus[0];
  EXPECT_EQ(gpu.pci_address, "0000:00:06.0");
  EXPECT_EQ(gpu.kernel_driver, "nvidia");
  EXPECT_EQ(gpu.vendor_id, "10de");
  EXPECT_EQ(gpu.product_id, "2335");
  EXPECT_EQ(gpu.render_node, "");
  EXPECT_TRUE(gpu.problems.empty());
}

TEST_F(RecordedNvidiaGpu, ProbeRecordPrintsTheQueryReportOfARecord) {
  const probe::ChildOutcome run =
      testing::RunCommand({FAKENV_PROBE_RECORD, Record("h200.json"), "--query"},
                          {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
  ASSERT_EQ(run.code, 0) << run.err;
  Result<probe::NvidiaFacts> facts = probe::ParseNvidiaFacts(run.out);
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_EQ(facts->cuda_ordinal, 0);
  facts->cuda_ordinal.reset();
  EXPECT_EQ(*facts, RecordedReport(Record("h200.json")));
}

TEST_F(RecordedNvidiaGpu, TheProbePublishesTheH200AsItsDriverStatedIt) {
  const probe::ChildOutcome run = testing::RunCommand({FAKENV_PROBE_RECORD, Record("h200.json")},
                                                      {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
  ASSERT_EQ(run.code, 0) << run.err;
  const json devices = json::parse(run.out, nullptr, false);
  ASSERT_TRUE(devices.is_array()) << run.out;
  ASSERT_EQ(devices.size(), 1u) << run.out;
  const json& attributes = devices[0]["attributes"];
  EXPECT_EQ(devices[0]["name"], "pci-0000-00-06-0");
  EXPECT_EQ(attributes["api"]["string"], "nvidia");
  EXPECT_EQ(attributes["driverVersion"]["string"], "580.159.04");
  EXPECT_EQ(attributes["resource.kubernetes.io/pciBusID"]["string"], "0000:00:06.0");
  EXPECT_TRUE(attributes["decodeHEVCMain10"]["bool"].get<bool>());
  EXPECT_FALSE(attributes["decodeAV1Main"]["bool"].get<bool>());
  EXPECT_FALSE(attributes["encodeH264"]["bool"].get<bool>());
  EXPECT_FALSE(devices[0].contains("capacity"));
  EXPECT_NE(run.err.find("capabilities: pci-0000-00-06-0 (0000:00:06.0, NVIDIA H200, driver "
                         "580.159.04): decodeH264=true"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("warning: the encoder is unavailable: NvEncOpenEncodeSessionEx failed: "
                         "NV_ENC_ERR_UNSUPPORTED_DEVICE (2)"),
            std::string::npos)
      << run.err;
}

TEST_F(RecordedNvidiaGpu, TheProbePublishesTheConsumerSessionCapAsACapacity) {
  const probe::ChildOutcome run =
      testing::RunCommand({FAKENV_PROBE_RECORD, Record("ada-geforce-rtx4090.json")},
                          {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
  ASSERT_EQ(run.code, 0) << run.err;
  const json devices = json::parse(run.out, nullptr, false);
  ASSERT_EQ(devices.size(), 1u) << run.out;
  EXPECT_EQ(devices[0]["capacity"]["encodeSessions"]["value"], "8");
  EXPECT_EQ(devices[0]["capacity"]["encodeSessions"]["requestPolicy"]["default"], "0");
  EXPECT_TRUE(devices[0]["attributes"]["encodeAV1Main10"]["bool"].get<bool>());
}

TEST_F(RecordedNvidiaGpu, AGpuWithARenderNodeAndTheNvidiaLibrariesIsOneDeviceAnsweredByNvidia) {
  json record = json::parse(testing::ReadFile(Record("ampere-rtx-a4000.json")));
  record["identity"]["renderNode"] = "renderD128";
  testing::TempDir dir;
  const auto file = dir.Write("with-render-node.json", record.dump());
  const probe::ChildOutcome run = testing::RunCommand({FAKENV_PROBE_RECORD, file.string()},
                                                      {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
  ASSERT_EQ(run.code, 0) << run.err;
  const json devices = json::parse(run.out, nullptr, false);
  ASSERT_EQ(devices.size(), 1u) << run.out;
  EXPECT_EQ(devices[0]["attributes"]["api"]["string"], "nvidia");
  EXPECT_TRUE(devices[0]["attributes"]["decodeAV1Main"]["bool"].get<bool>());
  EXPECT_EQ(run.err.find("query-va"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("/dev/dri/renderD128, NVIDIA RTX A4000"), std::string::npos) << run.err;
}

TEST_F(RecordedNvidiaGpu, ProbeMeasureSessionsLogsTheCount) {
  const probe::ChildOutcome run = testing::RunCommand(
      {FAKENV_PROBE_RECORD, Record("h200.json"), "--", "--output", "json", "--measure-sessions"},
      {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.err.find("warning: the session-slot test opened 0 encode sessions at once; then: "
                         "NvEncOpenEncodeSessionEx failed: NV_ENC_ERR_UNSUPPORTED_DEVICE (2)"),
            std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace mc
