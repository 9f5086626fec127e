// Which of PeerTube's jobs this worker takes: by type, by the output's resolution and by its
// frame rate, and, where the pool manager names them, by the runner job itself. The pool
// manager sets it per worker (a small GPU takes 1080p at most, a box with a slow uplink no
// HLS, a GPU without AV1 decode no AV1 source), and the admission gate filters the server's
// offers by it.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "common/peertube/runner_jobs.h"

namespace mc::worker {

struct Eligibility {
  // The job types taken; empty takes the VOD transcoding types (peertube::IsVodTranscoding).
  // Another kind (a storyboard, a transcription, a studio edit) is taken only where named.
  std::set<std::string> job_types;
  // The largest output resolution taken (PeerTube's "resolution": 1080 for 1920x1080).
  std::optional<int> max_resolution;
  std::optional<double> max_fps;
  // The transcodes taken, by runner job UUID: the pending jobs the pool manager's classes and
  // hard gates let this worker take, which a bound on the output cannot say (a source's codec,
  // a video's length). Absent, no job is held back by it; an empty list takes no transcode.
  std::optional<std::set<std::string>> jobs;
};

// The most jobs one list names: the jobs a worker may take next, not the whole queue.
inline constexpr std::size_t kLargestJobList = 1000;

// ParseEligibility reads "types=vod-web-video-transcoding,vod-hls-transcoding;
// max-resolution=1080;max-fps=60;jobs=UUID,UUID" (every part optional, "" takes everything;
// "jobs=" lists none). An unknown key, a type PeerTube does not define, a bad number, or a
// job that is not a UUID is invalid input naming the part.
Result<Eligibility> ParseEligibility(std::string_view text);

// ParseEligibilityJson reads {"types": [...], "max_resolution": 1080, "max_fps": 60,
// "jobs": [...]}, each member optional, with the same checks.
Result<Eligibility> ParseEligibilityJson(std::string_view json);

// EligibilityText writes what ParseEligibility reads.
std::string EligibilityText(const Eligibility& eligibility);

// EligibilityWords is EligibilityText for a log line: a job list is given by its length.
std::string EligibilityWords(const Eligibility& eligibility);

// MayAdmitMore is whether `after` may take a job that `before` did not, so that the runner is
// asked for jobs again: false only where the types and limits are the same and `after` lists
// no job `before` did not (a pool manager's list that lost the jobs taken meanwhile).
bool MayAdmitMore(const Eligibility& before, const Eligibility& after);

// Eligible is whether the worker takes `job`. A transcode whose resolution or frame rate is
// unknown is not taken where a limit on it is set: the gate fails closed. The limits and the
// job list do not apply to the other kinds, which the pool manager does not place.
bool Eligible(const peertube::AvailableJob& job, const Eligibility& eligibility);

}  // namespace mc::worker
