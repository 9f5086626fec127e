#include "pool/service/eligibility_text.h"

#include <algorithm>
#include <optional>

namespace mc::pool {
namespace {

using pool::Bit;
using pool::ClassMask;
using pool::JobClass;

// The worker's parser takes resolutions from 1 to this; a bound outside it is a
// configuration the worker would refuse.
constexpr int kLargestResolution = 100000;

// LargestOutput is the largest output height a job of `job_class` can have.
// L and XL have none: their outputs reach any height.
// A job's class goes by the larger of its output and source heights.
// So the output is at most the class's height bound.
// M also holds the long videos at S's heights, hence the larger of the two bounds.
std::optional<int> LargestOutput(JobClass job_class, const pool::ClassBounds& bounds) {
  switch (job_class) {
    case JobClass::kS:
      return bounds.small_max_height;
    case JobClass::kM:
      return std::max(bounds.small_max_height, bounds.medium_max_height);
    case JobClass::kL:
    case JobClass::kXL:
      return std::nullopt;
  }
  return std::nullopt;
}

// Fits is whether every output of a class with largest output `largest` passes a gate of
// bound `bound` (none: no bound).
bool Fits(std::optional<int> largest, std::optional<int> bound) {
  if (!bound) return true;
  return largest && *largest <= *bound;
}

}  // namespace

std::string ClassMaskText(ClassMask mask) {
  std::string text;
  for (JobClass job_class : pool::kAllJobClasses) {
    if ((mask & Bit(job_class)) == 0) continue;
    if (!text.empty()) text += '+';
    text += pool::JobClassName(job_class);
  }
  return text.empty() ? "none" : text;
}

// Why the table has no other rows.
// A bound holds back only the closed classes' outputs above it. It does not hold back:
//  - M's long videos at S or below;
//  - an L or XL job transcoding a 4K source to the bound or below.
// With L or XL open, no height bound can be set: their outputs reach every height.
// So closing S or M, or only one of L and XL, would hold back nothing.
// With M open and S closed, every S job's output fits under M's bound.
// A frame-rate bound would refuse jobs of every open class (an S job may be 1080p60).
// XL is held apart from L by the video's length, which the gate cannot see.
// No bound refuses every job: a worker that should take nothing is drained instead.
// No job type is named.
// So the pool's classes replace any type restriction an operator set on the worker.
Result<std::string> EligibilityText(ClassMask open, const pool::ClassBounds& bounds) {
  for (const int height : {bounds.small_max_height, bounds.medium_max_height}) {
    if (height < 1 || height > kLargestResolution)
      return InvalidInput("a class bound of " + std::to_string(height) +
                          " lines, which the worker's gate does not take (1 to " +
                          std::to_string(kLargestResolution) + ")");
  }
  open &= pool::kEveryClass;
  if (open == 0)
    return Unsupported(
        "no job class open: the worker's gate has no bound that refuses every job; drain the "
        "worker instead");

  // The tightest bound on the output height that every open class's jobs pass.
  std::optional<int> bound;
  bool bounded = true;
  for (JobClass job_class : pool::kAllJobClasses) {
    if ((open & Bit(job_class)) == 0) continue;
    const std::optional<int> largest = LargestOutput(job_class, bounds);
    if (!largest) {
      bounded = false;
      break;
    }
    bound = std::max(bound.value_or(*largest), *largest);
  }
  if (!bounded) bound.reset();

  // A closed class whose every output passes that bound would not be held back at all.
  ClassMask left_open = 0;
  for (JobClass job_class : pool::kAllJobClasses) {
    if ((open & Bit(job_class)) != 0) continue;
    if (Fits(LargestOutput(job_class, bounds), bound)) left_open |= Bit(job_class);
  }
  if (left_open != 0)
    return Unsupported(
        "the worker's gate cannot open " + ClassMaskText(open) + " and close " +
        ClassMaskText(left_open) + ": it bounds only the output resolution and frame rate, " +
        (bound ? "and every output of " + ClassMaskText(left_open) + " fits under " +
                     std::to_string(*bound) + " lines"
               : std::string("and with L or XL open no bound can be set (their outputs reach "
                             "every height, and a video's length is not in the job)")));

  if (!bound) return std::string();
  return "max-resolution=" + std::to_string(*bound);
}

}  // namespace mc::pool
