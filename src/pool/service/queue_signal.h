// PeerTube's pending runner jobs as the policy's queue signal.
// A job's shape comes from what the job states: its output resolution and fps.
// And from what its video states: the source's height, length and codec.
// Its age counts from when PeerTube created it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/peertube/runner_job_list.h"
#include "common/peertube/video_facts.h"
#include "pool/policy/signals.h"

namespace mc::pool {

// The facts of a job's video, or nothing when they could not be read.
// The job then takes the shape's defaults (a one-minute video).
// PeerTube's job alone cannot correct them.
using VideoLookup = std::function<std::optional<peertube::VideoFacts>(const std::string& uuid)>;

// QueueFromJobs builds the signal of one successful read at `now_s` (seconds since the
// epoch): read_ok, data_age zero, one pending job per job listed.
pool::QueueSignal QueueFromJobs(const std::vector<peertube::PendingJob>& jobs,
                                const VideoLookup& video, double now_s);

}  // namespace mc::pool
