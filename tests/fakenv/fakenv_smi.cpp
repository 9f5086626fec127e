// fakenv_smi [GPU] prints what NVML says of one GPU, as one JSON object on stdout.
// It reads whatever libnvidia-ml.so.1 the dynamic loader finds.
// run-on puts the fake first.
// It uses the entry points a worker's gate and evidence sampler use.
// GPU is NVML's index (default 0) or a PCI bus id such as 0000:02:00.0.
// It is the tests' nvidia-smi.
// They run it beside ffmpeg to see what the NVML fake reports while a job runs.
// The object:
//   {"driverVersion", "count", "name", "pciBusId", "uuid",
//    "memory": {"total", "free", "used"}, "temperature",
//    "throttleReasons", "encoderUtilization", "decoderUtilization",
//    "sessions": [{"sessionId", "pid", "codec", "width", "height", "averageFps",
//                  "averageLatency"}],
//    "processSamples": [{"pid", "timeStamp", "encUtil", "decUtil"}]}
// A call that fails is reported as {"error": "CALL failed: STATUS"} and exit status 1.
#include <dlfcn.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nvml_types.h"

namespace {

using nlohmann::json;
using namespace fakenv::nvml;

void* library = nullptr;

template <typename Function>
Function* Symbol(const char* name) {
  void* symbol = dlsym(library, name);
  if (!symbol) {
    std::printf("%s\n", json{{"error", std::string("no symbol ") + name}}.dump().c_str());
    std::exit(1);
  }
  return reinterpret_cast<Function*>(symbol);
}

void Check(int status, const char* call) {
  if (status == kSuccess) return;
  std::printf(
      "%s\n",
      json{{"error", std::string(call) + " failed: " + std::to_string(status)}}.dump().c_str());
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string gpu = argc > 1 ? argv[1] : "0";
  library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::printf(
        "%s\n",
        json{{"error", std::string("cannot load libnvidia-ml.so.1: ") + dlerror()}}.dump().c_str());
    return 1;
  }
  Check(Symbol<int()>("nvmlInit_v2")(), "nvmlInit_v2");
  json out;
  char text[96] = {};
  Check(Symbol<int(char*, unsigned)>("nvmlSystemGetDriverVersion")(text, sizeof text),
        "nvmlSystemGetDriverVersion");
  out["driverVersion"] = text;
  unsigned count = 0;
  Check(Symbol<int(unsigned*)>("nvmlDeviceGetCount_v2")(&count), "nvmlDeviceGetCount_v2");
  out["count"] = count;
  void* device = nullptr;
  if (gpu.find(':') != std::string::npos) {
    Check(
        Symbol<int(const char*, void**)>("nvmlDeviceGetHandleByPciBusId_v2")(gpu.c_str(), &device),
        "nvmlDeviceGetHandleByPciBusId_v2");
  } else {
    Check(Symbol<int(unsigned, void**)>("nvmlDeviceGetHandleByIndex_v2")(
              static_cast<unsigned>(std::stoul(gpu)), &device),
          "nvmlDeviceGetHandleByIndex_v2");
  }
  Check(Symbol<int(void*, char*, unsigned)>("nvmlDeviceGetName")(device, text, sizeof text),
        "nvmlDeviceGetName");
  out["name"] = text;
  PciInfo pci{};
  Check(Symbol<int(void*, PciInfo*)>("nvmlDeviceGetPciInfo_v3")(device, &pci),
        "nvmlDeviceGetPciInfo_v3");
  out["pciBusId"] = pci.busId;
  Check(Symbol<int(void*, char*, unsigned)>("nvmlDeviceGetUUID")(device, text, sizeof text),
        "nvmlDeviceGetUUID");
  out["uuid"] = text;
  Memory memory{};
  Check(Symbol<int(void*, Memory*)>("nvmlDeviceGetMemoryInfo")(device, &memory),
        "nvmlDeviceGetMemoryInfo");
  out["memory"] = {{"total", memory.total}, {"free", memory.free}, {"used", memory.used}};
  unsigned temperature = 0;
  Check(Symbol<int(void*, unsigned, unsigned*)>("nvmlDeviceGetTemperature")(device, kTemperatureGpu,
                                                                            &temperature),
        "nvmlDeviceGetTemperature");
  out["temperature"] = temperature;
  unsigned long long reasons = 0;
  Check(Symbol<int(void*, unsigned long long*)>("nvmlDeviceGetCurrentClocksThrottleReasons")(
            device, &reasons),
        "nvmlDeviceGetCurrentClocksThrottleReasons");
  out["throttleReasons"] = reasons;
  unsigned utilization = 0, period = 0;
  Check(Symbol<int(void*, unsigned*, unsigned*)>("nvmlDeviceGetEncoderUtilization")(
            device, &utilization, &period),
        "nvmlDeviceGetEncoderUtilization");
  out["encoderUtilization"] = utilization;
  Check(Symbol<int(void*, unsigned*, unsigned*)>("nvmlDeviceGetDecoderUtilization")(
            device, &utilization, &period),
        "nvmlDeviceGetDecoderUtilization");
  out["decoderUtilization"] = utilization;

  auto* get_sessions =
      Symbol<int(void*, unsigned*, EncoderSessionInfo*)>("nvmlDeviceGetEncoderSessions");
  unsigned sessions = 0;
  Check(get_sessions(device, &sessions, nullptr), "nvmlDeviceGetEncoderSessions");
  // Room for the sessions that open between the two calls, as for the samples below.
  sessions += 8;
  std::vector<EncoderSessionInfo> infos(sessions);
  Check(get_sessions(device, &sessions, infos.data()), "nvmlDeviceGetEncoderSessions");
  out["sessions"] = json::array();
  for (unsigned i = 0; i < sessions; ++i) {
    const EncoderSessionInfo& info = infos[i];
    out["sessions"].push_back({{"sessionId", info.sessionId},
                               {"pid", info.pid},
                               {"codec", info.codecType},
                               {"width", info.hResolution},
                               {"height", info.vResolution},
                               {"averageFps", info.averageFps},
                               {"averageLatency", info.averageLatency}});
  }

  // nvtop's way: a sizing call, then every sample the driver holds.
  auto* get_samples = Symbol<int(void*, ProcessUtilizationSample*, unsigned*, unsigned long long)>(
      "nvmlDeviceGetProcessUtilization");
  unsigned samples = 0;
  int status = get_samples(device, nullptr, &samples, 0);
  if (status != kErrorInsufficientSize) Check(status, "nvmlDeviceGetProcessUtilization");
  // Room for the samples that arrive between the two calls.
  samples += 64;
  std::vector<ProcessUtilizationSample> buffer(samples);
  status = get_samples(device, buffer.data(), &samples, 0);
  if (status != kErrorNotFound) Check(status, "nvmlDeviceGetProcessUtilization");
  out["processSamples"] = json::array();
  for (unsigned i = 0; status == kSuccess && i < samples; ++i) {
    out["processSamples"].push_back({{"pid", buffer[i].pid},
                                     {"timeStamp", buffer[i].timeStamp},
                                     {"encUtil", buffer[i].encUtil},
                                     {"decUtil", buffer[i].decUtil}});
  }
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
