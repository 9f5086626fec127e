// The plan as one JSON object. `ffmpeg-plan` prints it, and the wrapper reads it. Its forms:
//   {"run": [...argv], "notes": [...], "env": [...], "encoder": "...", ...}
//   {"refuse": "one line", "job_form": "..."}
//   {"pass": [...argv], "job_form": "..."}
#pragma once

#include <string>

#include "worker/transcode/plan.h"

namespace mc::worker {

std::string PlanJson(const Plan& plan);

}  // namespace mc::worker
