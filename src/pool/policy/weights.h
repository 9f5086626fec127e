// Learned worker weights, per job class.
// A weight is an EWMA of the worker's output pixel rate over the class baseline.
// It is shrunk toward the class prior while few jobs back it.
// So a new box starts at the prior rather than at a guess.
#pragma once

#include "pool/policy/config.h"
#include "pool/policy/job_class.h"
#include "pool/policy/pool_state.h"

namespace mc::pool {

// Observe folds one completed job into the class weight: w = λ·x + (1 − λ)·w, with the first
// job taken as it is.
void ObserveJob(ClassWeight& weight, double output_pixel_rate_mpx_s, JobClass job_class,
                const WeightConfig& config);

// ShrunkWeight is ŵ = (n·w + k·w_prior) / (n + k).
double ShrunkWeight(const ClassWeight& weight, JobClass job_class, const WeightConfig& config);

}  // namespace mc::pool
