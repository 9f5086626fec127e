// The policy's inputs for one cycle, as plain values: what each worker's status document
// says and what PeerTube's runner-job list says. They hold no behaviour, so the pool
// service can fill them from the real APIs and the simulator from its model alike.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pool/policy/job_class.h"
#include "pool/policy/time.h"

namespace mc::pool {

// The worker's own admission state, as its status document names it.
enum class AdmissionState {
  kAvailable,         // taking jobs
  kBusy,              // taking no more: every slot is held
  kDraining,          // finishing in-flight jobs, taking none
  kDrained,           // service up, taking none
  kGpuUnavailable,    // the probe or a job's evidence failed
  kThermalThrottled,  // hot or power-capped: drain after in-flight work
  kNetworkDegraded,
  kOffline,
};

// The names the worker's status document gives its states (NETWORK_DEGRADED is the pool's
// own reading of a degraded AVAILABLE worker).
std::string_view AdmissionStateName(AdmissionState state);
std::optional<AdmissionState> ParseAdmissionState(std::string_view name);

// What the worker's probe states it can do; absent keys read as "cannot".
struct Capabilities {
  bool h264_enc = true;
  bool hevc_enc = true;
  bool av1_enc = false;
  bool h264_dec = true;
  bool hevc_dec = true;
  bool av1_dec = false;
  int max_height = 2160;
};

// Which resource bounds the worker's concurrency; a missing one does not bind.
struct ConcurrencyLimiters {
  std::optional<int> cpu, ram, disk, bw, gpu_sessions, vram;
};

// The last completed job, as the status document reports it.
struct LastJob {
  JobClass job_class = JobClass::kS;
  double output_pixel_rate_mpx_s = 0;  // during the encode phase only
  double realtime_factor = 0;
};

// WorkerStatus is one worker's status document, read this cycle.
struct WorkerStatus {
  std::string name;               // the runner's name, which is unique per PeerTube instance
  bool readable = true;           // false: the document could not be read this cycle
  std::string vendor = "nvidia";  // "nvidia", "intel" (VA-API) or "none"
  AdmissionState state = AdmissionState::kDrained;
  int active_jobs = 0;
  int concurrency = 1;  // the worker's own concurrency hint
  ConcurrencyLimiters limiters;
  int sessions_active = 0;
  int sessions_cap = 0;  // 0: no driver cap
  std::optional<double> vram_free_mb;
  double enc_util_pct = 0;
  Duration probe_age = Seconds(0);
  bool probe_ok = true;
  std::optional<bool> hw_evidence_ok;  // of the last job; empty before the first
  double realtime_factor_ewma = 0;
  double download_mbps = 0;
  double upload_mbps = 0;
  int jobs_completed = 0;
  int jobs_failed = 0;
  std::optional<LastJob> last_job;
  Capabilities capabilities;
  // From the inventory rather than the document, so they are known of a sleeping box.
  // Whether it can be woken over the LAN, and whether it last ran on battery.
  bool wakeable = false;
  bool on_battery = false;
};

// One pending runner job, as PeerTube lists it.
struct PendingJob {
  std::string type;  // vod-web-video-transcoding, vod-hls-transcoding, ...
  JobShape shape;
  Duration age = Seconds(0);  // since it became pending
  std::string id;             // PeerTube's uuid of the runner job; empty where none is known
  // PeerTube's priority (lower is offered first), for the record; the policy does not read it.
  std::optional<int> priority;
};

// Pending jobs of one type the pool does not serve.
struct OtherPending {
  int count = 0;
  Duration oldest_age = Seconds(0);
};

// QueueSignal is PeerTube's runner-job list as last read.
struct QueueSignal {
  bool read_ok = true;             // false: this cycle's read failed
  Duration data_age = Seconds(0);  // how old the list below is
  std::vector<PendingJob> pending;
  // Pending jobs of types the pool does not serve, by type.
  // Another kind of work, or a type of a later PeerTube. Shown to a person, never demand.
  std::map<std::string, OtherPending> not_served;
  std::map<std::string, double> completed_per_minute;  // EWMA, per job type

  int PendingOfType(const std::string& type) const;
  Duration OldestPendingAge() const;
};

struct Signals {
  QueueSignal queue;
  std::vector<WorkerStatus> workers;
};

}  // namespace mc::pool
