// The worker's record of its PeerTube jobs (docs/worker/gate.md, "The job record"). It holds:
// - each job the runner accepted through the gate;
// - what its ffmpeg runs showed, and how it ended;
// - the counters and transfer rates the status document reports.
// The gate writes accepts and outcomes. The ffmpeg wrapper's reports arrive through RecordRun. The
// status server reads JobBookJson. Every method is safe from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/peertube/runner_jobs.h"

namespace mc::worker {

using WallClock = std::chrono::system_clock;

enum class JobOutcome { kRunning, kSuccess, kError, kAbort };

// One ffmpeg run, as the wrapper reports it once it ended.
struct RunReport {
  // The job type it belongs to: "web-video", "hls" or "audio-merge".
  std::string job_form;
  // The output's height (PeerTube's resolution) and frame rate.
  int output_height = 0;
  double output_fps = 0;
  // The encoder sessions the run held at its most.
  int encode_sessions = 0;
  int exit_code = 0;
  // The evidence check's verdict and its words. See docs/worker/status.md, "Proof that the GPU did
  // the work".
  bool evidence_ok = false;
  std::string evidence;
  // The media's duration and the run's wall time, in seconds. 0 where unknown.
  double media_seconds = 0;
  double wall_seconds = 0;
  // The output picture's size; 0 where unknown.
  int width = 0;
  int height = 0;
  // The source's picture and codec, when the wrapper probed them.
  std::optional<int> source_width;
  std::optional<int> source_height;
  std::string source_codec;
};

struct JobRecord {
  std::string uuid;
  std::string type;
  // The job's class: the output's resolution and frame rate, as asked.
  std::optional<int> resolution;
  std::optional<double> fps;
  std::optional<int> source_width;
  std::optional<int> source_height;
  std::string source_codec;
  WallClock::time_point accepted_at;
  std::optional<WallClock::time_point> finished_at;
  JobOutcome outcome = JobOutcome::kRunning;
  // The server's status for the outcome's request (204 for a success it took).
  int server_status = 0;
  std::int64_t runs = 0;
  // The most encoder sessions any one run held.
  std::int64_t sessions_used = 0;
  // Media seconds per wall second, and output pixels per wall second. Both are over the job's runs.
  std::optional<double> realtime_factor;
  std::optional<double> output_pixel_rate;
  // The evidence verdict. True once every run of the job showed hardware work and exited 0.
  std::optional<bool> evidence_ok;
  std::string evidence;
  // Set when a success counted as a failure for want of hardware evidence.
  bool hw_fallback_prevented = false;
  // The job's input bytes seen through the gate.
  std::uint64_t downloaded_bytes = 0;
  // The sums over the job's runs that the rates above come from.
  double run_media_seconds = 0;
  double run_wall_seconds = 0;
  double output_pixels = 0;
  // The job's token from accept, while it runs. It hands the job back should its runner die. A
  // secret: in no log line or document. It is gone once the job ends.
  std::string job_token;

  // WallSeconds is from accepted to finished; nothing while it runs.
  std::optional<double> WallSeconds() const;
};

struct JobCountersView {
  std::int64_t completed = 0;
  std::int64_t failed = 0;
  std::int64_t hw_fallback_prevented = 0;
  std::int64_t aborted = 0;
  std::int64_t active = 0;
  std::int64_t unattributed_runs = 0;
};

struct HwEvidence {
  bool ok = false;
  std::string evidence;
  std::string job_uuid;
  WallClock::time_point at;
};

enum class TransferDirection { kDownload, kUpload };

struct TransferView {
  // The recent rate, in megabits per second. It is a fast EWMA over transfers. Nothing before the
  // first transfer large enough to measure.
  std::optional<double> recent_download_mbps;
  std::optional<double> recent_upload_mbps;
  // The slow EWMAs the recent ones are held against.
  std::optional<double> baseline_download_mbps;
  std::optional<double> baseline_upload_mbps;
  bool network_degraded = false;
};

struct JobBookLimits {
  std::size_t max_active = 256;
  std::size_t max_recent = 64;
  // A smaller transfer says more about latency than bandwidth. It is not counted.
  std::uint64_t min_transfer_bytes = 256 * 1024;
  // The recent EWMA's weight of a new sample, and the baseline's.
  double recent_weight = 0.5;
  double baseline_weight = 0.05;
  // Degraded: the recent rate under this fraction of the baseline ...
  double collapse_fraction = 0.25;
  // ... for this many transfers in a row, once the baseline has seen this many.
  int collapse_samples = 2;
  int baseline_samples = 5;
};

class JobBook {
 public:
  explicit JobBook(JobBookLimits limits = {}) : limits_(limits) {}

  // KeepHeldJobsIn makes the book write its active jobs' UUIDs and tokens to `path` (held_jobs.h).
  // It writes whenever a job is accepted or ends. A worker killed mid-job then hands them back when
  // it starts again. `log` hears of a failed write.
  void KeepHeldJobsIn(std::string path, std::function<void(const std::string&)> log);

  // RecordAccepted opens a job's record: the runner accepted it and the server agreed. A job
  // accepted again (after an abort) starts a new record.
  void RecordAccepted(const peertube::AcceptedJob& job, WallClock::time_point at);

  // RecordOutcome closes a job's record with its outcome and the server's status. A success with no
  // run that showed hardware evidence counts as failed (hw_fallback_prevented). A status of 400 or
  // above means the server refused the report, or the gate could not reach it. Then:
  // - a refused success leaves the job running, since the runner reports an error next;
  // - a refused error or abort closes it as aborted, since the runner lets the job go.
  // A job that ends with no run takes the run of an active job of its shape. RecordRun cannot tell
  // such jobs apart.
  void RecordOutcome(const std::string& uuid, JobOutcome outcome, int server_status,
                     WallClock::time_point at);

  // RecordRun gives one ffmpeg run to an active job of the same type and output resolution. The
  // earliest accepted job without a run comes first. It returns the job's UUID, or nothing when no
  // active job matches.
  std::optional<std::string> RecordRun(const RunReport& run);

  // RecordDownload adds a job's input bytes to its record.
  void RecordDownload(const std::string& uuid, std::uint64_t bytes);

  // RecordTransfer feeds the transfer rates with one download or upload.
  void RecordTransfer(TransferDirection direction, std::uint64_t bytes,
                      std::chrono::microseconds duration);

  JobCountersView Counters() const;
  std::vector<JobRecord> Active() const;
  // The most recent finished jobs, newest last.
  std::vector<JobRecord> Recent() const;
  std::optional<JobRecord> LastJob() const;
  std::optional<HwEvidence> HwEvidenceLastJob() const;
  TransferView Transfer() const;

 private:
  struct Rate {
    std::optional<double> recent;
    std::optional<double> baseline;
    int samples = 0;
    int collapsed_in_a_row = 0;
  };

  void Feed(Rate& rate, double mbps) const;
  // SaveHeldJobs writes the active jobs to the held jobs' file. The mutex is held.
  void SaveHeldJobs() const;
  bool Collapsed(const Rate& rate) const;

  JobBookLimits limits_;
  mutable std::mutex mutex_;
  std::deque<JobRecord> active_;
  std::deque<JobRecord> recent_;
  JobCountersView counters_;
  std::optional<HwEvidence> hw_evidence_;
  Rate download_;
  Rate upload_;
  std::string held_jobs_path_;
  std::function<void(const std::string&)> held_jobs_log_;
};

std::string_view JobOutcomeName(JobOutcome outcome);

// JobFormType is the job type of a RunReport's job_form ("hls" → vod-hls-transcoding). Empty for an
// unknown form.
std::string_view JobFormType(std::string_view job_form);

nlohmann::json JobRecordJson(const JobRecord& record);

// JobBookJson is the status document's part of the book:
// - jobs {completed, failed, hw_fallback_prevented, aborted, active};
// - last_job;
// - hw_evidence_last_job {ok, evidence, job_uuid, method, ts}, null before the first;
// - transfer {recent_download_mbps, recent_upload_mbps, network_degraded}.
nlohmann::json JobBookJson(const JobBook& book);

}  // namespace mc::worker
