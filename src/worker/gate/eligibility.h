// Which of PeerTube's jobs this worker takes: by type, by the output's resolution and by its
// frame rate. The pool manager sets it per worker (a small GPU takes 1080p at most, a box
// with a slow uplink no HLS), and the admission gate filters the server's offers by it.
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
};

// ParseEligibility reads "types=vod-web-video-transcoding,vod-hls-transcoding;
// max-resolution=1080;max-fps=60" (every part optional, "" takes everything). An unknown
// key, a type PeerTube does not define, or a bad number is invalid input naming the part.
Result<Eligibility> ParseEligibility(std::string_view text);

// ParseEligibilityJson reads {"types": [...], "max_resolution": 1080, "max_fps": 60}, each
// member optional, with the same checks.
Result<Eligibility> ParseEligibilityJson(std::string_view json);

// EligibilityText writes what ParseEligibility reads.
std::string EligibilityText(const Eligibility& eligibility);

// Eligible is whether the worker takes `job`. A transcode whose resolution or frame rate is
// unknown is not taken where a limit on it is set: the gate fails closed. The limits do not
// apply to the other kinds, which have no output resolution.
bool Eligible(const peertube::AvailableJob& job, const Eligibility& eligibility);

}  // namespace mc::worker
