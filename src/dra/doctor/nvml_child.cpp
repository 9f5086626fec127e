#include "dra/doctor/nvml_child.h"

#include <cstdio>
#include <vector>

#include "common/base/text.h"
#include "probe/nvidia/nvml_driver_version.h"
#include "probe/query/child_failure.h"
#include "probe/query/child_process.h"

namespace mc::dra {

Result<std::string> AskNvml(std::chrono::milliseconds deadline) {
  const std::vector<probe::ChildOutcome> outcomes = probe::RunChildren(
      {probe::ChildSpec{.run =
                            [] {
                              const Result<std::string> version = probe::NvmlDriverVersion();
                              // The child ends with _exit, which flushes nothing itself.
                              if (!version) {
                                std::fputs(version.error_message().c_str(), stderr);
                                std::fflush(stderr);
                                return 1;
                              }
                              std::fputs(version->c_str(), stdout);
                              std::fflush(stdout);
                              return 0;
                            }}},
      deadline, 4096);
  const probe::ChildOutcome& outcome = outcomes.front();
  if (outcome.kind == probe::ChildOutcome::Kind::kExited && outcome.code == 1)
    return Unavailable(JoinLines(outcome.err));
  if (std::optional<std::string> failure = probe::DescribeChildFailure(outcome, deadline))
    return Unavailable(*failure);
  return PrintableLine(outcome.out);
}

}  // namespace mc::dra
