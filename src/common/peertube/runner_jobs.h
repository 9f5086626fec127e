// PeerTube's runner jobs as the runner API hands them out:
// - the list of `POST /api/v1/runners/jobs/request`: {"availableJobs": [{uuid, type, payload}]};
// - the job of `POST /api/v1/runners/jobs/{uuid}/accept`: {"job": {..., jobToken, payload}}.
//
// The values keep what the gate decides and records by. They never keep a token. The job's token
// stays in the answer passed on to the runner. No value of ours holds it, so none can reach a log.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "common/peertube/runner_job_types.h"

namespace mc::peertube {

struct RunnerJob {
  std::string uuid;
  std::string type;
  // payload.output.resolution and payload.output.fps, where the job states them. Every VOD type
  // does; studio and transcription jobs do not.
  std::optional<int> resolution;
  std::optional<double> fps;
  // Every URL of payload.input: the files the runner will download. These are videoFileUrl,
  // separatedAudioFileUrl[], audioFileUrl and previewFileUrl.
  std::vector<std::string> input_urls;
  // accept's answer only: the job's token. It hands back a job whose runner died (AbortJobJson). A
  // secret: it goes into no log line, document or command line.
  std::string job_token;
};

using AvailableJob = RunnerJob;
using AcceptedJob = RunnerJob;

// ParseAvailableJobs reads the answer of jobs/request. A wrong shape is invalid input naming its
// place. Example: "availableJobs[1].payload.output.resolution: expected an integer".
Result<std::vector<AvailableJob>> ParseAvailableJobs(std::string_view json);

// FilterAvailableJobs writes the answer of jobs/request again. It keeps only the jobs `keep`
// accepts, by index and parsed value. They stay in the server's order. Each job object and every
// other member stays exactly as sent.
Result<std::string> FilterAvailableJobs(
    std::string_view json, const std::function<bool(std::size_t, const AvailableJob&)>& keep);

// NoAvailableJobs is the answer that offers nothing. It is `json` with availableJobs empty. When
// `json` is not an object, it is {"availableJobs":[]}.
std::string NoAvailableJobs(std::string_view json);

// ParseAcceptedJob reads the answer of accept, with the job's token.
Result<AcceptedJob> ParseAcceptedJob(std::string_view json);

// AbortJobJson is the body of POST /api/v1/runners/jobs/{uuid}/abort. It gives a job back to
// PeerTube's queue at once, its failures not counted. The runner sends it so when it stops.
std::string AbortJobJson(std::string_view runner_token, std::string_view job_token,
                         std::string_view reason);

// RewriteInputUrls writes the answer of accept again. Some input URLs of the job's payload point at
// the server. Those now point at `gate_origin`, path and query kept. A URL points at the server
// when:
// - its origin is one of `server_origins`; or
// - its path is one of the runner API's job files.
//
// So the runner's downloads pass through the gate. Everything else is kept as sent.
Result<std::string> RewriteInputUrls(std::string_view json,
                                     const std::vector<std::string>& server_origins,
                                     std::string_view gate_origin);

}  // namespace mc::peertube
