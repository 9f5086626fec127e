// Job classes S, M, L and XL sort pending work by how hard it is on a worker.
// They use what PeerTube knows of a pending job: resolution, frame rate, video length.
// Each class has gates a worker must pass to count as capacity for it:
//  - soft gates are the manager's accounting (PeerTube still hands a job to whoever asks);
//  - hard gates also reach the worker's gate, as a list of the jobs it may take.
// See pool/service/job_list.h and docs/pool/design.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "pool/policy/time.h"

namespace mc::pool {

enum class JobClass : std::uint8_t { kS, kM, kL, kXL };
inline constexpr std::size_t kJobClassCount = 4;
inline constexpr std::array<JobClass, kJobClassCount> kAllJobClasses = {
    JobClass::kS, JobClass::kM, JobClass::kL, JobClass::kXL};

std::string_view JobClassName(JobClass job_class);
std::optional<JobClass> ParseJobClass(std::string_view name);
inline std::size_t Index(JobClass job_class) { return static_cast<std::size_t>(job_class); }

// A set of classes, one bit each: the classes a worker is open to.
using ClassMask = std::uint8_t;
inline constexpr ClassMask kEveryClass = 0x0f;
inline constexpr ClassMask Bit(JobClass job_class) {
  return static_cast<ClassMask>(1u << static_cast<unsigned>(job_class));
}

// What PeerTube states of a job before anyone runs it.
struct JobShape {
  int resolution = 1080;      // output height
  int source_resolution = 0;  // input height, 0 when unknown
  int fps = 30;
  Duration duration = Seconds(60);  // the video's length
  bool av1_source = false;
  bool av1_output = false;
};

// Where the class boundaries lie (docs/pool/design.md, "Job classes and their gates").
struct ClassBounds {
  int small_max_height = 1080;
  Duration small_max_duration = Minutes(10);
  int medium_max_height = 1440;
  int long_form_min_fps = 50;  // XL is 4K at this frame rate or more, and long
};

JobClass ClassifyJob(const JobShape& job, const ClassBounds& bounds);

}  // namespace mc::pool
