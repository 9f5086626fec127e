// The plan as one JSON object, as `ffmpeg-plan` prints it and the wrapper reads it:
//   {"run": [...argv], "notes": [...], "env": [...], "encoder": "...", ...}
//   {"refuse": "one line", "job_form": "..."}
//   {"pass": [...argv], "job_form": "..."}
#pragma once

#include <string>

#include "worker/transcode/plan.h"

namespace mc::worker {

std::string PlanJson(const Plan& plan);

}  // namespace mc::worker
