// PeerTube's runner jobs as the runner API hands them out: the list of
// `POST /api/v1/runners/jobs/request` ({"availableJobs": [{uuid, type, payload}]}) and the job
// of `POST /api/v1/runners/jobs/{uuid}/accept` ({"job": {..., jobToken, payload}}). The values
// keep what the gate decides and records by, and never a token: the job's token stays in the
// answer passed on to the runner and in no value of ours, so none can reach a log.
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
  // payload.output.resolution and payload.output.fps, where the job states them (every VOD
  // type does; studio and transcription jobs do not).
  std::optional<int> resolution;
  std::optional<double> fps;
  // Every URL of payload.input (videoFileUrl, separatedAudioFileUrl[], audioFileUrl,
  // previewFileUrl): the files the runner will download.
  std::vector<std::string> input_urls;
  // accept's answer only: the job's token, with which a job whose runner died is handed back
  // (AbortJobJson). A secret: it goes into no log line, document or command line.
  std::string job_token;
};

using AvailableJob = RunnerJob;
using AcceptedJob = RunnerJob;

// ParseAvailableJobs reads the answer of jobs/request; a wrong shape is invalid input naming
// its place ("availableJobs[1].payload.output.resolution: expected an integer").
Result<std::vector<AvailableJob>> ParseAvailableJobs(std::string_view json);

// FilterAvailableJobs writes the answer of jobs/request again with only the jobs `keep`
// accepts (by their index and parsed value), in the server's order, each job object and
// every other member exactly as the server sent them.
Result<std::string> FilterAvailableJobs(
    std::string_view json, const std::function<bool(std::size_t, const AvailableJob&)>& keep);

// NoAvailableJobs is the answer that offers nothing: `json` with availableJobs empty, or
// {"availableJobs":[]} when `json` is not an object.
std::string NoAvailableJobs(std::string_view json);

// ParseAcceptedJob reads the answer of accept, the job's token with it.
Result<AcceptedJob> ParseAcceptedJob(std::string_view json);

// AbortJobJson is the body of POST /api/v1/runners/jobs/{uuid}/abort, which gives a job back to
// PeerTube's queue at once (its failures not counted), as the runner sends it when it stops.
std::string AbortJobJson(std::string_view runner_token, std::string_view job_token,
                         std::string_view reason);

// RewriteInputUrls writes the answer of accept again with each input URL of the job's
// payload that points at the server (its origin is one of `server_origins`, or its path is
// one of the runner API's job files) pointing at `gate_origin` instead, path and query kept,
// so that the runner's downloads pass through the gate. Everything else is kept as sent.
Result<std::string> RewriteInputUrls(std::string_view json,
                                     const std::vector<std::string>& server_origins,
                                     std::string_view gate_origin);

}  // namespace mc::peertube
