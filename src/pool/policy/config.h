// PoolConfig holds every number of the policy, at the defaults docs/pool/design.md explains. One
// YAML file overrides any of them (config_yaml.h); nothing else does.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pool/policy/job_class.h"
#include "pool/policy/time.h"

namespace mc::pool {

// Which rules size the pool. Both share the faults, the gates, the lost-signal hold, min_active,
// the wake tier and the suspend; they differ in how they promote and demote (design.md).
enum class PolicyProfile {
  kWorkAware,  // from the queued work against the eligible workers' rates; cheap moves at once
  kDesign,     // from the pressure index P, through the design's windows and stagger
};

std::string_view PolicyProfileName(PolicyProfile profile);
std::optional<PolicyProfile> ParsePolicyProfile(std::string_view name);

struct PressureConfig {
  double depth_waves = 2;            // P = 1 when the queue is this many full waves deep
  Duration age_full = Seconds(900);  // or when the oldest pending job is this old
};

struct HysteresisConfig {
  double up_threshold = 0.6;
  Duration up_window = Seconds(45);
  int up_windows = 2;  // consecutive windows at or above the threshold before a promotion
  double down_threshold = 0.15;
  Duration down_sustain = Minutes(20);
  Duration idle_before_demote = Minutes(15);
  int min_active = 1;
  Duration promotion_spacing = Seconds(30);
  Duration probe_max_age = Minutes(5);
};

struct FailureConfig {
  int failures_to_cooldown = 3;  // faults inside the window that send a worker to COOLDOWN
  Duration failure_window = Hours(1);
  Duration cooldown = Minutes(30);
};

struct WeightConfig {
  double lambda = 0.3;  // EWMA weight of the newest job
  double shrink_k = 3;  // prior strength, in jobs
  std::array<double, kJobClassCount> prior = {1.0, 1.0, 1.0, 1.0};
  // Output pixel rate (Mpx/s) of the reference worker per class: 1080p30 at four times
  // real time is 249 Mpx/s.
  std::array<double, kJobClassCount> baseline_mpx_s = {250, 250, 250, 250};
};

struct GateConfig {
  ClassBounds bounds;
  double medium_min_enc_headroom_pct = 30;
  double large_min_realtime_factor = 3;
  double large_min_download_mbps = 50;
  double large_min_vram_free_mb = 4096;  // NVIDIA only; VA-API has no VRAM of its own
  double xl_min_weight = 1.0;
};

struct VendorConfig {
  std::vector<std::string> disabled;  // a vendor named here is drained fleet-wide at once
  int nvenc_session_reserve = 1;      // sessions kept free before S/M shift to VA-API
};

struct WakeConfig {
  double pressure = 0.8;
  Duration sustain = Minutes(5);
  int max_concurrent = 2;
  Duration spacing = Minutes(3);
  int max_per_day = 6;  // per box
  Duration boot_timeout = Minutes(10);
  Duration sleep_after = Seconds(0);  // a SPARE wakeable box idle this long sleeps; 0: never
};

// The work-aware profile's numbers.
// The pool holds enough encode rate to finish the queued work within `target_drain`.
// It lets an idle worker go once the others would.
struct SizingConfig {
  Duration target_drain = Seconds(60);
  Duration enable_after = Seconds(0);         // a job waits this long for a slot that frees first
  Duration idle_before_release = Seconds(0);  // an idle ACTIVE worker is kept this long
  double default_speed = 1;  // a worker's realtime factor before its status states one
  // A box is woken only for work that would keep every worker that is up busy this long.
  Duration wake_after_work = Minutes(2);
};

struct QueueConfig {
  Duration stale_after = Minutes(2);  // an older job list is treated as lost
};

struct PoolConfig {
  PolicyProfile profile = PolicyProfile::kWorkAware;
  Duration cycle = Seconds(15);
  // The wait the admin accepts from a job's creation to its start, at p95. The work-aware
  // profile lets jobs wait for a slot that frees within it before it adds a worker. 0: none.
  Duration target_wait = Minutes(2);
  PressureConfig pressure;
  HysteresisConfig hysteresis;
  SizingConfig sizing;
  FailureConfig failure;
  WeightConfig weights;
  GateConfig gates;
  VendorConfig vendors;
  WakeConfig wake;
  QueueConfig queue;
};

}  // namespace mc::pool
