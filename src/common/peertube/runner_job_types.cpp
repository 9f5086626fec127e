#include "common/peertube/runner_job_types.h"

namespace mc::peertube {

std::optional<RunnerJobType> FindRunnerJobType(std::string_view name) {
  for (const RunnerJobType& type : kRunnerJobTypes) {
    if (type.name == name) return type;
  }
  return std::nullopt;
}

bool IsVodTranscoding(std::string_view name) {
  const std::optional<RunnerJobType> type = FindRunnerJobType(name);
  return type && type->kind == JobKind::kVodTranscoding;
}

}  // namespace mc::peertube
