// The recorder turns a PeerTube job list into a trace. It reads either:
//  - the JSON of GET /api/v1/runners/jobs ({"total", "data"}, or a bare array of jobs);
//  - JSON Lines of job snapshots taken while polling that list.
// A snapshot is one object per line, with the same members and the parent as its uuid.
// PeerTube lists no video length. So the recorder takes it as an option.
// Or it uses the job's recorded run time.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"
#include "pool/trace/trace.h"

namespace mc::pool {

struct RecordOptions {
  int resolution = 720;   // for a job whose payload states none
  double duration_s = 0;  // the video's length; 0: the job's run time, or 60 s without one
};

Result<Trace> RecordTrace(std::string_view text, const RecordOptions& options,
                          const std::string& file = "jobs");

}  // namespace mc::pool
