#include "dra/doctor/nvml_child.h"

#include <cstdio>
#include <vector>

#include "common/base/text.h"
#include "probe/nvidia/nvml_driver_version.h"
#include "probe/query/child_failure.h"
#include "probe/query/child_process.h"

namespace mc::doctor {

Result<std::string> AskNvml(std::chrono::milliseconds deadline) {
  const std::vector<ChildOutcome> outcomes =
      RunChildren({ChildSpec{.run =
                                 [] {
                                   const Result<std::string> version = NvmlDriverVersion();
                                   // The child ends with _exit, which flushes nothing itself.
                                   if (!version) {
                                     std::fputs(version.error().c_str(), stderr);
                                     std::fflush(stderr);
                                     return 1;
                                   }
                                   std::fputs(version->c_str(), stdout);
                                   std::fflush(stdout);
                                   return 0;
                                 }}},
                  deadline, 4096);
  const ChildOutcome& outcome = outcomes.front();
  if (outcome.kind == ChildOutcome::Kind::kExited && outcome.code == 1)
    return Unavailable(JoinLines(outcome.err));
  if (std::optional<std::string> failure = DescribeChildFailure(outcome, deadline))
    return Unavailable(*failure);
  return PrintableLine(outcome.out);
}

}  // namespace mc::doctor
