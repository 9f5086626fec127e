#include "pool/policy/job_class.h"

#include <algorithm>

namespace mc::pool {

namespace {
constexpr std::array<std::string_view, kJobClassCount> kNames = {"S", "M", "L", "XL"};
}  // namespace

std::string_view JobClassName(JobClass job_class) { return kNames[Index(job_class)]; }

std::optional<JobClass> ParseJobClass(std::string_view name) {
  for (JobClass job_class : kAllJobClasses) {
    if (JobClassName(job_class) == name) return job_class;
  }
  return std::nullopt;
}

JobClass ClassifyJob(const JobShape& job, const ClassBounds& bounds) {
  // A 4K source costs a 4K decode even when the output is 1080p, so the larger of the two
  // heights decides.
  const int height = std::max(job.resolution, job.source_resolution);
  const bool long_form = job.duration > bounds.small_max_duration;
  if (height > bounds.medium_max_height) {
    return long_form && job.fps >= bounds.long_form_min_fps ? JobClass::kXL : JobClass::kL;
  }
  if (height > bounds.small_max_height || long_form) return JobClass::kM;
  return JobClass::kS;
}

}  // namespace mc::pool
