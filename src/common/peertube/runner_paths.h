// The calls of PeerTube's runner API, told apart by method and path. The source is
// server/core/controllers/api/runners/ of PeerTube 7. The gate learns which of a runner's requests
// it answers, watches or only passes on.
#pragma once

#include <string>
#include <string_view>

namespace mc::peertube {

enum class RunnerCall {
  kJobsRequest,   // POST /api/v1/runners/jobs/request
  kAccept,        // POST /api/v1/runners/jobs/{uuid}/accept
  kUpdate,        // POST /api/v1/runners/jobs/{uuid}/update
  kSuccess,       // POST /api/v1/runners/jobs/{uuid}/success
  kError,         // POST /api/v1/runners/jobs/{uuid}/error
  kAbort,         // POST /api/v1/runners/jobs/{uuid}/abort
  kFileDownload,  // POST /api/v1/runners/jobs/{uuid}/files/... (the job's input files)
  kRegister,      // POST /api/v1/runners/register
  kOther,
};

struct ClassifiedRequest {
  RunnerCall call = RunnerCall::kOther;
  // For the calls about one job, the job's UUID. Else empty.
  std::string job_uuid;
};

// ClassifyRunnerRequest reads a request's method and path, without query.
ClassifiedRequest ClassifyRunnerRequest(std::string_view method, std::string_view path);

// RunnerCallName: the call's name for logs, such as "jobs-request", "accept".
std::string_view RunnerCallName(RunnerCall call);

// IsUuid: whether `text` is a UUID in 8-4-4-4-12 hexadecimal form.
bool IsUuid(std::string_view text);

}  // namespace mc::peertube
