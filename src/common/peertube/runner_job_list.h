// PeerTube's admin list of runner jobs: `GET /api/v1/runners/jobs`, `{"total", "data": [...]}`.
// Each job is as RunnerJobModel's toFormattedAdminJSON writes it. It is read into what the pool
// manager decides by:
// - the job's type and class;
// - how long it has waited;
// - which video it transcodes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "common/peertube/runner_job_types.h"

namespace mc::peertube {

// Of the job states (runner_job_types.h), only a pending job is work a runner may still take. A
// completing one is done and being stored.

// PendingJob is one job of the admin list. The parser reads jobs of every state. The session's
// PendingRunnerJobs keeps only the pending ones.
struct PendingJob {
  std::string uuid;
  std::string type;
  int state = 0;
  // createdAt, in seconds since the epoch, milliseconds kept.
  double created_at_s = 0;
  // Since when it has waited in its state. That is updatedAt, PeerTube's time of the job's last
  // change, where later than createdAt. For a pending job, that change made it pending:
  // - its creation;
  // - its parent's completion;
  // - its return after a failed run.
  //
  // A video's later jobs are made at the upload, waiting for their parent. So createdAt would count
  // the parent's run as a wait for a worker.
  double waiting_since_s = 0;
  // PeerTube's priority. Among pending jobs, a runner is offered the lowest first, then the oldest.
  // PeerTube counts the user's uploads of the past week into it. So a burst's later videos wait
  // behind the earlier ones' later jobs. Empty where the list does not state it.
  std::optional<int> priority;
  // payload.output.resolution and payload.output.fps, where the job states them. Every VOD type
  // does; studio and transcription jobs do not.
  std::optional<int> resolution;
  std::optional<double> fps;
  // The video's UUID, from privatePayload.videoUUID, which the admin list includes. Failing that,
  // from payload.input.videoFileUrl (".../files/videos/{uuid}/max-quality"). That input file URL
  // names the video too. Empty when the job states neither.
  std::string video_uuid;
};

struct RunnerJobPage {
  // How many jobs match the query in all, over every page.
  std::int64_t total = 0;
  std::vector<PendingJob> jobs;
};

// ParseRunnerJobList reads one page of the list. A wrong shape is invalid input naming its place.
// Example: "data[3].createdAt: expected an ISO-8601 time".
Result<RunnerJobPage> ParseRunnerJobList(std::string_view json);

// PendingJobsTarget is the request target of one page of pending jobs of `types`, oldest first:
// "/api/v1/runners/jobs?stateOneOf=1&typeOneOf=T1&typeOneOf=T2&start=S&count=C&sort=createdAt".
// PeerTube 7.2.1 ignores typeOneOf. Its list filters by state and search only; the parameter came
// later. So the session filters by type itself. It pages by the total of every pending job. A
// server that honours typeOneOf pages by the types asked.
std::string PendingJobsTarget(const std::vector<std::string>& types, std::int64_t start, int count);

}  // namespace mc::peertube
