// How much encoding a job is, from what PeerTube lists of it while it is pending.
// The unit is reference encode-seconds.
// That is what a worker of realtime factor 1 at 1080p30 would spend encoding it.
// The work-aware sizing adds these up against the workers' rates.
// The simulator runs a job this long over its worker's speed.
// So the two agree on what a job costs.
#pragma once

#include <array>
#include <string_view>

#include "pool/policy/job_class.h"

namespace mc::pool {

// The renditions PeerTube makes of an upload below its own resolution, by default: each a
// web-video job and an HLS job.
inline constexpr std::array<int, 5> kRenditionLadder = {1080, 720, 480, 360, 240};

// The video's length × its output pixel rate over that of 1080p30.
double ReferenceEncodeSeconds(const JobShape& shape);

// The jobs a pending job releases when it completes, and their work:
//  - a web-video job releases the HLS job at its resolution;
//  - the upload's first one also releases a web-video and an HLS job per lower rung.
// The first one is at the source's resolution.
// PeerTube makes these at the upload but lists them only once released.
// So the pending list alone underrates a burst.
struct WorkToCome {
  int jobs = 0;
  double seconds = 0;
};
WorkToCome ChildrenOf(std::string_view type, const JobShape& shape);

}  // namespace mc::pool
