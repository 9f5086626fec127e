// Which of PeerTube's jobs this worker takes. It filters by type, by the output's resolution and by
// its frame rate. Where the pool manager names jobs, it filters by the runner job itself. The pool
// manager sets it per worker. A small GPU takes 1080p at most. A box with a slow uplink takes no
// HLS. A GPU without AV1 decode takes no AV1 source. The admission gate filters the server's offers
// by it.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "common/peertube/runner_jobs.h"

namespace mc::worker {

struct Eligibility {
  // The job types taken. Empty takes the VOD transcoding types (peertube::IsVodTranscoding). Other
  // kinds are taken only where named: a storyboard, a transcription, a studio edit.
  std::set<std::string> job_types;
  // The largest output resolution taken (PeerTube's "resolution": 1080 for 1920x1080).
  std::optional<int> max_resolution;
  std::optional<double> max_fps;
  // The transcodes taken, by runner job UUID. These are the pending jobs the pool manager's classes
  // and hard gates let this worker take. A bound on the output cannot say them (a source's codec, a
  // video's length). Absent, it holds no job back. An empty list takes no transcode.
  std::optional<std::set<std::string>> jobs;
};

// The most jobs one list names. It lists the jobs a worker may take next, not the whole queue.
inline constexpr std::size_t kLargestJobList = 1000;

// ParseEligibility reads this text:
//   types=vod-web-video-transcoding,vod-hls-transcoding;
//   max-resolution=1080;max-fps=60;jobs=UUID,UUID
// Every part is optional; "" takes everything, and "jobs=" lists none. It is invalid input naming
// the part:
// - an unknown key;
// - a type PeerTube does not define;
// - a bad number;
// - a job that is not a UUID.
Result<Eligibility> ParseEligibility(std::string_view text);

// ParseEligibilityJson reads
//   {"types": [...], "max_resolution": 1080, "max_fps": 60, "jobs": [...]}.
// Each member is optional. The checks are the same.
Result<Eligibility> ParseEligibilityJson(std::string_view json);

// EligibilityText writes what ParseEligibility reads.
std::string EligibilityText(const Eligibility& eligibility);

// EligibilityWords is EligibilityText for a log line. A job list is given by its length.
std::string EligibilityWords(const Eligibility& eligibility);

// MayAdmitMore is whether `after` may take a job that `before` did not. If so, the runner is asked
// for jobs again. It is false only where the types and limits are the same, and `after` lists no
// job `before` did not. An example is a pool manager's list that lost the jobs taken meanwhile.
bool MayAdmitMore(const Eligibility& before, const Eligibility& after);

// Eligible is whether the worker takes `job`. A limit may be set on the resolution or frame rate.
// Then a transcode with that value unknown is not taken: the gate fails closed. The limits and the
// job list do not apply to the other kinds. The pool manager does not place those.
bool Eligible(const peertube::AvailableJob& job, const Eligibility& eligibility);

}  // namespace mc::worker
