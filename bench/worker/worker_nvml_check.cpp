// worker_nvml_check PCI-ADDRESS: every NVML call the worker's sampler and status make, once,
// on a real NVIDIA GPU, with what each returned; for a machine with an NVIDIA GPU, where no test
// runs.
#include <cstdio>

#include "worker/evidence/nvml_library.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s PCI-ADDRESS\n", argv[0]);
    return 2;
  }
  mc::Result<std::unique_ptr<mc::worker::NvmlLibrary>> nvml = mc::worker::NvmlLibrary::Load();
  if (!nvml) {
    std::printf("load: %s\n", nvml.error_message().c_str());
    return 1;
  }
  mc::Result<std::string> version = (*nvml)->DriverVersion();
  std::printf("driver: %s\n", version ? version->c_str() : version.error_message().c_str());
  mc::Result<void*> device = (*nvml)->Device(argv[1]);
  if (!device) {
    std::printf("device: %s\n", device.error_message().c_str());
    return 1;
  }
  mc::Result<std::vector<mc::worker::NvmlProcessSample>> samples =
      (*nvml)->ProcessSamples(*device, 0);
  if (samples) {
    std::printf("process samples: %zu\n", samples->size());
    for (const auto& s : *samples) {
      std::printf("  pid %u ts %llu sm %u mem %u enc %u dec %u\n", s.pid,
                  static_cast<unsigned long long>(s.timestamp_us), s.sm_util, s.mem_util,
                  s.enc_util, s.dec_util);
    }
  } else {
    std::printf("process samples: %s\n", samples.error_message().c_str());
  }
  mc::Result<std::vector<mc::worker::NvmlEncoderSession>> sessions =
      (*nvml)->EncoderSessions(*device);
  std::printf("encoder sessions: %s\n", sessions ? std::to_string(sessions->size()).c_str()
                                                 : sessions.error_message().c_str());
  const mc::worker::NvmlTelemetry telemetry = (*nvml)->Telemetry(*device);
  std::printf("uuid: %s\n", telemetry.uuid.value_or("?").c_str());
  std::printf("memory: total %llu free %llu bytes\n",
              static_cast<unsigned long long>(telemetry.memory_total_bytes.value_or(0)),
              static_cast<unsigned long long>(telemetry.memory_free_bytes.value_or(0)));
  std::printf("enc util %u dec util %u temperature %u C\n", telemetry.enc_util_pct.value_or(0),
              telemetry.dec_util_pct.value_or(0), telemetry.temperature_c.value_or(0));
  std::printf("throttle reasons: 0x%llx",
              static_cast<unsigned long long>(telemetry.throttle_reasons.value_or(0)));
  for (const std::string& name :
       mc::worker::ThrottleReasonNames(telemetry.throttle_reasons.value_or(0))) {
    std::printf(" %s", name.c_str());
  }
  std::printf("\n");
  for (const std::string& problem : telemetry.problems)
    std::printf("problem: %s\n", problem.c_str());
  return 0;
}
