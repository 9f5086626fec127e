// The worker's eligibility text for the job classes the policy opens to it.
// It is the tightest bound on the output height that lets in every job of every open class.
// The worker's gate bounds a job's output resolution and frame rate from above.
// It cannot see a video's length or its source's height.
// So only some sets of classes can be said to it.
// See docs/pool/operating.md, "Control channels", and docs/worker/gate.md, "Eligibility".
#pragma once

#include <string>

#include "common/base/result.h"
#include "pool/policy/job_class.h"

namespace mc::pool {

// EligibilityText is what POST /eligibility takes for the classes `open` opens.
// S and M stand for the bounds' small_max_height and medium_max_height.
//  - S: max-resolution=S
//  - S, M: max-resolution=max(S, M)
//  - S, M, L, XL: "" (every job)
// The text names no job type and no max-fps. Any other mask is Unsupported.
// The error names the classes it would leave open that it meant to close, and why.
Result<std::string> EligibilityText(pool::ClassMask open, const pool::ClassBounds& bounds);

// ClassMaskText writes a mask as "S+M" ("none" when empty), for messages and logs.
std::string ClassMaskText(pool::ClassMask mask);

}  // namespace mc::pool
