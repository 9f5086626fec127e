// The calls of PeerTube's runner API (server/core/controllers/api/runners/ of PeerTube 7),
// told apart by method and path, so that the gate knows which of a runner's requests it
// answers, which it watches and which it only passes on.
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
  // The job's UUID for the calls about one job, else empty.
  std::string job_uuid;
};

// ClassifyRunnerRequest reads a request's method and path (without its query).
ClassifiedRequest ClassifyRunnerRequest(std::string_view method, std::string_view path);

// RunnerCallName is the call's name for logs: "jobs-request", "accept", "file-download".
std::string_view RunnerCallName(RunnerCall call);

// IsUuid is whether `text` is a UUID in its 8-4-4-4-12 hexadecimal form.
bool IsUuid(std::string_view text);

}  // namespace mc::peertube
