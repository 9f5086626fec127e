#include "worker/gate/job_book.h"

#include <algorithm>
#include <array>
#include <utility>

#include "worker/gate/held_jobs.h"
#include "worker/probe_contract/utc_time.h"

namespace mc::worker {
namespace {

// The wrapper's names of the job forms and the job types they belong to.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kJobForms{{
    {"web-video", peertube::kWebVideoJob},
    {"hls", peertube::kHlsJob},
    {"audio-merge", peertube::kAudioMergeJob},
}};

constexpr std::string_view kNoRunReported =
    "no ffmpeg run of this job was reported, so nothing shows the GPU did the work";

bool SameShape(const JobRecord& a, const JobRecord& b) {
  return a.type == b.type && a.resolution == b.resolution;
}

// Exchanges what two records learned from their runs, and nothing else.
void SwapRuns(JobRecord& a, JobRecord& b) {
  using std::swap;
  swap(a.runs, b.runs);
  swap(a.sessions_used, b.sessions_used);
  swap(a.realtime_factor, b.realtime_factor);
  swap(a.output_pixel_rate, b.output_pixel_rate);
  swap(a.evidence_ok, b.evidence_ok);
  swap(a.evidence, b.evidence);
  swap(a.source_width, b.source_width);
  swap(a.source_height, b.source_height);
  swap(a.source_codec, b.source_codec);
  swap(a.run_media_seconds, b.run_media_seconds);
  swap(a.run_wall_seconds, b.run_wall_seconds);
  swap(a.output_pixels, b.output_pixels);
}

template <typename T>
nlohmann::json Optional(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

std::string_view JobOutcomeName(JobOutcome outcome) {
  switch (outcome) {
    case JobOutcome::kRunning:
      return "running";
    case JobOutcome::kSuccess:
      return "success";
    case JobOutcome::kError:
      return "error";
    case JobOutcome::kAbort:
      return "abort";
  }
  return "running";
}

std::string_view JobFormType(std::string_view job_form) {
  for (const auto& [form, type] : kJobForms) {
    if (form == job_form) return type;
  }
  return {};
}

std::optional<double> JobRecord::WallSeconds() const {
  if (!finished_at) return std::nullopt;
  return std::chrono::duration<double>(*finished_at - accepted_at).count();
}

void JobBook::RecordAccepted(const peertube::AcceptedJob& job, WallClock::time_point at) {
  std::lock_guard lock(mutex_);
  std::erase_if(active_, [&](const JobRecord& record) { return record.uuid == job.uuid; });
  active_.push_back(JobRecord{.uuid = job.uuid,
                              .type = job.type,
                              .resolution = job.resolution,
                              .fps = job.fps,
                              .accepted_at = at,
                              .job_token = job.job_token});
  // The gate may never see a job's end (the runner was killed). It must not stay active for ever.
  while (active_.size() > limits_.max_active) active_.pop_front();
  SaveHeldJobs();
}

void JobBook::KeepHeldJobsIn(std::string path, std::function<void(const std::string&)> log) {
  std::lock_guard lock(mutex_);
  held_jobs_path_ = std::move(path);
  held_jobs_log_ = std::move(log);
  SaveHeldJobs();
}

void JobBook::SaveHeldJobs() const {
  if (held_jobs_path_.empty()) return;
  std::vector<HeldJob> held;
  for (const JobRecord& record : active_) {
    if (!record.job_token.empty()) held.push_back({record.uuid, record.job_token});
  }
  if (Result<void> written = WriteHeldJobs(held_jobs_path_, held); !written && held_jobs_log_)
    held_jobs_log_("the jobs held are not kept for a restart: " + written.error_message());
}

void JobBook::RecordOutcome(const std::string& uuid, JobOutcome outcome, int server_status,
                            WallClock::time_point at) {
  if (outcome == JobOutcome::kRunning) return;
  // A refused success leaves the job running: the runner reports an error for it next. A refused
  // error or abort is the runner's last word on the job. The official runner gives it up and takes
  // others. So the record closes as aborted. PeerTube hands the job out again once its stall
  // timeout passes. The slot must not stay taken for ever. That would happen when the server was
  // down for a restart while a job ended.
  if (server_status >= 400 && outcome == JobOutcome::kSuccess) return;
  if (server_status >= 400) outcome = JobOutcome::kAbort;
  std::lock_guard lock(mutex_);
  auto found = std::find_if(active_.begin(), active_.end(),
                            [&](const JobRecord& record) { return record.uuid == uuid; });
  if (found == active_.end()) return;
  // A run names only its job's form and output height. Two jobs of one shape may run at once. Then
  // the first run to end went to the job accepted first, whichever it was. A runner reports a job
  // only once its ffmpeg has exited. So a success with no run, beside a job of its shape with one,
  // ran that one. So does an error beside one whose run failed.
  if (found->runs == 0 && outcome != JobOutcome::kAbort) {
    auto twin = std::find_if(active_.begin(), active_.end(), [&](const JobRecord& other) {
      return other.runs > 0 && SameShape(other, *found) &&
             (outcome == JobOutcome::kSuccess || !other.evidence_ok.value_or(true));
    });
    if (twin != active_.end()) SwapRuns(*twin, *found);
  }
  JobRecord record = std::move(*found);
  active_.erase(found);
  SaveHeldJobs();
  record.job_token.clear();
  record.outcome = outcome;
  record.server_status = server_status;
  record.finished_at = at;
  if (record.runs == 0) {
    record.evidence_ok = false;
    record.evidence = std::string(kNoRunReported);
  }
  switch (outcome) {
    case JobOutcome::kSuccess:
      if (record.evidence_ok.value_or(false)) {
        ++counters_.completed;
      } else {
        // The server took the result, but nothing shows the GPU made it. The worker counts the job
        // as failed. The state machine reads the verdict.
        ++counters_.failed;
        ++counters_.hw_fallback_prevented;
        record.hw_fallback_prevented = true;
      }
      hw_evidence_ = HwEvidence{*record.evidence_ok, record.evidence, record.uuid, at};
      break;
    case JobOutcome::kError:
      ++counters_.failed;
      // An error before any run (a failed download) says nothing of the GPU.
      if (record.runs > 0)
        hw_evidence_ = HwEvidence{*record.evidence_ok, record.evidence, record.uuid, at};
      break;
    case JobOutcome::kAbort:
    case JobOutcome::kRunning:
      ++counters_.aborted;
      break;
  }
  recent_.push_back(std::move(record));
  while (recent_.size() > limits_.max_recent) recent_.pop_front();
}

std::optional<std::string> JobBook::RecordRun(const RunReport& run) {
  const std::string_view type = JobFormType(run.job_form);
  std::lock_guard lock(mutex_);
  auto matches = [&](const JobRecord& record) {
    return !type.empty() && record.type == type && record.resolution == run.output_height;
  };
  auto target = std::find_if(active_.begin(), active_.end(), [&](const JobRecord& record) {
    return matches(record) && record.runs == 0;
  });
  if (target == active_.end()) target = std::find_if(active_.begin(), active_.end(), matches);
  if (target == active_.end()) {
    ++counters_.unattributed_runs;
    return std::nullopt;
  }
  JobRecord& record = *target;
  ++record.runs;
  record.sessions_used = std::max<std::int64_t>(record.sessions_used, run.encode_sessions);
  const bool run_ok = run.evidence_ok && run.exit_code == 0;
  // One run without evidence fails the job for good. Its words are the ones kept.
  if (record.evidence_ok.value_or(true)) {
    record.evidence_ok = run_ok;
    record.evidence = run.exit_code == 0 || !run.evidence_ok
                          ? run.evidence
                          : run.evidence + " (ffmpeg exited " + std::to_string(run.exit_code) + ")";
  }
  if (run.source_width) record.source_width = run.source_width;
  if (run.source_height) record.source_height = run.source_height;
  if (!run.source_codec.empty()) record.source_codec = run.source_codec;
  if (run.media_seconds > 0 && run.wall_seconds > 0) {
    record.run_media_seconds += run.media_seconds;
    record.run_wall_seconds += run.wall_seconds;
    record.realtime_factor = record.run_media_seconds / record.run_wall_seconds;
    if (run.width > 0 && run.height > 0 && run.output_fps > 0) {
      record.output_pixels +=
          static_cast<double>(run.width) * run.height * run.output_fps * run.media_seconds;
      record.output_pixel_rate = record.output_pixels / record.run_wall_seconds;
    }
  }
  return record.uuid;
}

void JobBook::RecordDownload(const std::string& uuid, std::uint64_t bytes) {
  std::lock_guard lock(mutex_);
  for (JobRecord& record : active_) {
    if (record.uuid == uuid) record.downloaded_bytes += bytes;
  }
}

void JobBook::Feed(Rate& rate, double mbps) const {
  auto ewma = [mbps](std::optional<double>& value, double weight) {
    value = value ? *value + weight * (mbps - *value) : mbps;
  };
  ewma(rate.recent, limits_.recent_weight);
  ewma(rate.baseline, limits_.baseline_weight);
  ++rate.samples;
  rate.collapsed_in_a_row = rate.samples >= limits_.baseline_samples &&
                                    *rate.recent < limits_.collapse_fraction * *rate.baseline
                                ? rate.collapsed_in_a_row + 1
                                : 0;
}

bool JobBook::Collapsed(const Rate& rate) const {
  return rate.collapsed_in_a_row >= limits_.collapse_samples;
}

void JobBook::RecordTransfer(TransferDirection direction, std::uint64_t bytes,
                             std::chrono::microseconds duration) {
  if (bytes < limits_.min_transfer_bytes || duration.count() <= 0) return;
  const double mbps = static_cast<double>(bytes) * 8 / static_cast<double>(duration.count());
  std::lock_guard lock(mutex_);
  Feed(direction == TransferDirection::kDownload ? download_ : upload_, mbps);
}

JobCountersView JobBook::Counters() const {
  std::lock_guard lock(mutex_);
  JobCountersView counters = counters_;
  counters.active = static_cast<std::int64_t>(active_.size());
  return counters;
}

std::vector<JobRecord> JobBook::Active() const {
  std::lock_guard lock(mutex_);
  return {active_.begin(), active_.end()};
}

std::vector<JobRecord> JobBook::Recent() const {
  std::lock_guard lock(mutex_);
  return {recent_.begin(), recent_.end()};
}

std::optional<JobRecord> JobBook::LastJob() const {
  std::lock_guard lock(mutex_);
  if (recent_.empty()) return std::nullopt;
  return recent_.back();
}

std::optional<HwEvidence> JobBook::HwEvidenceLastJob() const {
  std::lock_guard lock(mutex_);
  return hw_evidence_;
}

TransferView JobBook::Transfer() const {
  std::lock_guard lock(mutex_);
  return TransferView{.recent_download_mbps = download_.recent,
                      .recent_upload_mbps = upload_.recent,
                      .baseline_download_mbps = download_.baseline,
                      .baseline_upload_mbps = upload_.baseline,
                      .network_degraded = Collapsed(download_) || Collapsed(upload_)};
}

nlohmann::json JobRecordJson(const JobRecord& record) {
  nlohmann::json source = nullptr;
  if (record.source_width || record.source_height || !record.source_codec.empty()) {
    source = {{"width", Optional(record.source_width)},
              {"height", Optional(record.source_height)},
              {"codec", record.source_codec.empty() ? nlohmann::json(nullptr)
                                                    : nlohmann::json(record.source_codec)}};
  }
  return {
      {"uuid", record.uuid},
      {"type", record.type},
      {"class", {{"resolution", Optional(record.resolution)}, {"fps", Optional(record.fps)}}},
      {"source", source},
      {"accepted_at", UtcText(record.accepted_at)},
      {"finished_at",
       record.finished_at ? nlohmann::json(UtcText(*record.finished_at)) : nlohmann::json(nullptr)},
      {"wall_seconds", Optional(record.WallSeconds())},
      {"outcome", JobOutcomeName(record.outcome)},
      {"server_status",
       record.server_status == 0 ? nlohmann::json(nullptr) : nlohmann::json(record.server_status)},
      {"runs", record.runs},
      {"sessions_used", record.sessions_used},
      {"realtime_factor", Optional(record.realtime_factor)},
      {"output_pixel_rate", Optional(record.output_pixel_rate)},
      {"evidence", {{"ok", Optional(record.evidence_ok)}, {"words", record.evidence}}},
      {"hw_fallback_prevented", record.hw_fallback_prevented},
      {"downloaded_bytes", record.downloaded_bytes},
  };
}

nlohmann::json JobBookJson(const JobBook& book) {
  const JobCountersView counters = book.Counters();
  const std::optional<JobRecord> last = book.LastJob();
  const std::optional<HwEvidence> evidence = book.HwEvidenceLastJob();
  const TransferView transfer = book.Transfer();
  nlohmann::json hw = nullptr;
  if (evidence) {
    // The status document's schema already names "method" and "ts".
    hw = {{"ok", evidence->ok},
          {"evidence", evidence->evidence},
          {"job_uuid", evidence->job_uuid},
          {"method", evidence->evidence},
          {"ts", UtcText(evidence->at)}};
  }
  return {
      {"jobs",
       {{"completed", counters.completed},
        {"failed", counters.failed},
        {"hw_fallback_prevented", counters.hw_fallback_prevented},
        {"aborted", counters.aborted},
        {"active", counters.active}}},
      {"last_job", last ? JobRecordJson(*last) : nlohmann::json(nullptr)},
      {"hw_evidence_last_job", hw},
      {"transfer",
       {{"recent_download_mbps", Optional(transfer.recent_download_mbps)},
        {"recent_upload_mbps", Optional(transfer.recent_upload_mbps)},
        {"network_degraded", transfer.network_degraded}}},
  };
}

}  // namespace mc::worker
