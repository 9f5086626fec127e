// The stand-in for libnvidia-ml.so.1: the four NVML entry points the query uses, answering
// the driver version from the record.
#include <cstdio>

#include "fake_record.h"
#include "fake_results.h"

#define FAKENV_EXPORT extern "C" __attribute__((visibility("default")))

FAKENV_EXPORT int nvmlInit_v2() {
  const fakenv::Record& record = fakenv::CurrentRecord();
  return record.replay.nvml_init_result.value_or(fakenv::kNvmlSuccess);
}

FAKENV_EXPORT int nvmlShutdown() { return fakenv::kNvmlSuccess; }

FAKENV_EXPORT int nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  const fakenv::Record& record = fakenv::CurrentRecord();
  // A report without a driver version is one whose NVML could not say; the stand-in
  // cannot know why, and says so in NVML's most general words.
  if (!record.report || record.report->driver_version.empty()) return fakenv::kNvmlErrorUnknown;
  std::snprintf(version, length, "%s", record.report->driver_version.c_str());
  return fakenv::kNvmlSuccess;
}

FAKENV_EXPORT const char* nvmlErrorString(int result) { return fakenv::NvmlErrorText(result); }
