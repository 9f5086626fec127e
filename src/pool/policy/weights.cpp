#include "pool/policy/weights.h"

namespace mc::pool {

void ObserveJob(ClassWeight& weight, double output_pixel_rate_mpx_s, JobClass job_class,
                const WeightConfig& config) {
  const double ratio = output_pixel_rate_mpx_s / config.baseline_mpx_s[Index(job_class)];
  weight.ewma =
      weight.jobs == 0 ? ratio : config.lambda * ratio + (1 - config.lambda) * weight.ewma;
  ++weight.jobs;
}

double ShrunkWeight(const ClassWeight& weight, JobClass job_class, const WeightConfig& config) {
  const double n = weight.jobs;
  const double k = config.shrink_k;
  const double prior = config.prior[Index(job_class)];
  if (n + k <= 0) return prior;
  return (n * weight.ewma + k * prior) / (n + k);
}

}  // namespace mc::pool
