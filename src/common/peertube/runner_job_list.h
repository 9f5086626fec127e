// PeerTube's admin list of runner jobs (`GET /api/v1/runners/jobs`, `{"total", "data": [...]}`,
// each job as RunnerJobModel's toFormattedAdminJSON writes it), read into what the pool
// manager decides by: the job's type and class, how long it has waited and which video it
// transcodes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "common/peertube/runner_job_types.h"

namespace mc::peertube {

// Of the job states (runner_job_types.h), only a pending job is work a runner may still
// take; a completing one has been done and is being stored.

// PendingJob is one job of the admin list. The parser reads jobs of every state; the
// session's PendingRunnerJobs keeps only the pending ones.
struct PendingJob {
  std::string uuid;
  std::string type;
  int state = 0;
  // createdAt, in seconds since the epoch, milliseconds kept.
  double created_at_s = 0;
  // Since when it has waited in its state: updatedAt, PeerTube's time of the job's last change,
  // which for a pending job is the change that made it pending (its creation, its parent's
  // completion, or its return after a failed run), where that is later than createdAt. A
  // video's later jobs are made at the upload, waiting for their parent, so createdAt would
  // count the parent's run as a wait for a worker.
  double waiting_since_s = 0;
  // PeerTube's priority: among pending jobs, a runner is offered the lowest first, then the
  // oldest. PeerTube counts the user's uploads of the past week into it, so a burst's later
  // videos wait behind the earlier ones' later jobs. Empty where the list does not state it.
  std::optional<int> priority;
  // payload.output.resolution and payload.output.fps, where the job states them (every VOD
  // type does; studio and transcription jobs do not).
  std::optional<int> resolution;
  std::optional<double> fps;
  // The video's UUID: privatePayload.videoUUID, which the admin list includes; failing that,
  // the UUID in payload.input.videoFileUrl (".../files/videos/{uuid}/max-quality"), the job's
  // input file URL, which names the video too. Empty when the job states neither.
  std::string video_uuid;
};

struct RunnerJobPage {
  // How many jobs match the query in all, over every page.
  std::int64_t total = 0;
  std::vector<PendingJob> jobs;
};

// ParseRunnerJobList reads one page of the list. A wrong shape is invalid input naming its
// place ("data[3].createdAt: expected an ISO-8601 time").
Result<RunnerJobPage> ParseRunnerJobList(std::string_view json);

// PendingJobsTarget is the request target of one page of pending jobs of `types`, oldest
// first: "/api/v1/runners/jobs?stateOneOf=1&typeOneOf=T1&typeOneOf=T2&start=S&count=C&
// sort=createdAt". PeerTube 7.2.1 ignores typeOneOf (its list filters by state and search
// only; the parameter came later), so the session filters by type itself and pages by the
// total of every pending job; a server that honours it pages by the types asked.
std::string PendingJobsTarget(const std::vector<std::string>& types, std::int64_t start, int count);

}  // namespace mc::peertube
