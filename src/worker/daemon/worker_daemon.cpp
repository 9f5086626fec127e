#include "worker/daemon/worker_daemon.h"

#include <algorithm>
#include <filesystem>
#include <thread>

#include "common/base/json_text.h"
#include "common/base/text.h"
#include "common/http/client.h"
#include "common/http/listen_address.h"
#include "common/http/url.h"
#include "common/peertube/plain_http.h"
#include "common/peertube/runner_jobs.h"
#include "probe/devices/device_json.h"
#include "worker/daemon/local_socket.h"
#include "worker/daemon/runner_config.h"
#include "worker/probe_contract/concurrency.h"
#include "worker/probe_contract/contract_report.h"
#include "worker/probe_contract/utc_time.h"

namespace mc::worker {
namespace {

// JobsTaken counts every job this worker accepted, whatever became of it.
std::int64_t JobsTaken(const JobCountersView& counters) {
  return counters.completed + counters.failed + counters.aborted + counters.active;
}

using Clock = std::chrono::steady_clock;

// An operator's enable takes the last probe if it is this fresh and green.
constexpr std::chrono::seconds kEnableProbeAge{300};

bool AdmitsWrappers(WorkerState state) {
  return state != WorkerState::kGpuUnavailable && state != WorkerState::kOffline &&
         state != WorkerState::kThermalThrottled && state != WorkerState::kDrained;
}

// Tokens are compared in time that does not depend on where they differ.
bool SameToken(std::string_view given, std::string_view expected) {
  if (given.size() != expected.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < given.size(); ++i)
    difference |= static_cast<unsigned char>(given[i] ^ expected[i]);
  return difference == 0;
}

// WithPortAdvice says what to do when a listener's port is taken: `flag` picks another.
Error WithPortAdvice(Error error, const std::string& flag) {
  if (!error.IsConflict()) return error;
  error.message +=
      "; another program holds that port (`ss -ltnp` names it): stop it, or give "
      "this worker a free one with " +
      flag +
      " (GPU N's worker listens on 9464 + 10 N for --listen and 9465 + 10 N for "
      "--gate-listen, so two GPUs' workers never share one)";
  return error;
}

}  // namespace

std::string DefaultListenAddress(int base, std::size_t place) {
  return "127.0.0.1:" + std::to_string(base + kPortsPerGpu * static_cast<int>(place));
}

Result<std::unique_ptr<WorkerDaemon>> WorkerDaemon::Start(DaemonOptions options) {
  std::unique_ptr<WorkerDaemon> daemon(new WorkerDaemon(std::move(options)));
  WorkerDaemon* raw = daemon.get();
  Result<std::unique_ptr<LocalServer>> local = LocalServer::Start(
      LocalSocketPath(raw->options_.state_dir),
      [raw](std::uint64_t connection, const LocalRequest& request) {
        return raw->Handle(connection, request);
      },
      [raw](std::uint64_t connection) { raw->ReleaseSlots(connection); });
  if (!local) {
    Error error = local.error().WithContext("the local socket");
    if (error.IsConflict())
      error.message +=
          ": a worker already runs with this --state-dir: stop it first, or give "
          "this one a state directory of its own";
    return error;
  }
  daemon->local_ = std::move(*local);

  if (Result<void> control = raw->StartControl(); !control) return control.error();
  ServeOptions serve{.gather = raw->options_.gather,
                     .listen = raw->options_.status_listen,
                     .log = raw->options_.log,
                     .log_name = "worker run",
                     .live = [raw] { return raw->CollectLiveFacts(); },
                     .gathered = [raw](const probe::ProbeResult& probe, const StatusInputs& inputs,
                                       bool probed) { raw->OnGathered(probe, inputs, probed); },
                     .amend = [raw](StatusInputs& inputs) { raw->ApplyLiveFacts(inputs); }};
  Result<std::unique_ptr<StatusServer>> status = StatusServer::Start(std::move(serve));
  if (!status) return WithPortAdvice(status.error(), "--listen");
  daemon->status_ = std::move(*status);
  daemon->canary_thread_ = std::thread([raw] { raw->RunCanaries(); });

  if (!raw->options_.server_url.empty()) {
    // What the gate accepts is kept for a restart. `worker run` hands it back first thing.
    raw->book_.KeepHeldJobsIn(HeldJobsPath(raw->options_.state_dir), raw->options_.log);
    Result<http::Url> upstream = http::ParseUrl(raw->options_.server_url);
    if (!upstream) return InvalidInput("--url: " + upstream.error_message());
    Result<std::unique_ptr<AdmissionGate>> gate = AdmissionGate::Start(
        raw->options_.gate_listen, *upstream, [raw] { return raw->CurrentAdmission(); }, raw->book_,
        {.log = raw->options_.log});
    if (!gate) return WithPortAdvice(gate.error().WithContext("--gate-listen"), "--gate-listen");
    daemon->gate_ = std::move(*gate);
  }
  return daemon;
}

Result<void> WorkerDaemon::StartControl() {
  const std::string& address = options_.control_listen;
  if (address.empty()) return Ok();
  if (options_.control_token.empty())
    return InvalidInput("--control-listen " + address +
                        ": the control API needs this worker's token (--control-token-file)");
  if (!options_.control_tls && !peertube::IsLoopback(http::ListenHost(address)))
    return InvalidInput("--control-listen " + address +
                        " is beyond loopback, where the control API is served only over TLS: "
                        "give --control-tls-cert and --control-tls-key");
  std::shared_ptr<const http::ServerTls> tls;
  if (options_.control_tls) {
    Result<std::shared_ptr<const http::ServerTls>> loaded =
        http::ServerTls::Load(*options_.control_tls);
    if (!loaded) return loaded.error().WithContext("the control API's TLS");
    tls = *loaded;
  }
  http::Actions actions;
  for (const char* path : {"/drain", "/enable", "/concurrency", "/eligibility"})
    actions[path] = [this](const http::ActionRequest& request) { return Control(request); };
  Result<std::unique_ptr<http::Server>> server =
      http::Server::Start(address, {}, {}, std::move(actions), std::move(tls));
  if (!server)
    return WithPortAdvice(server.error().WithContext("--control-listen"), "--control-listen");
  control_ = std::move(*server);
  return Ok();
}

WorkerDaemon::~WorkerDaemon() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  canary_wake_.notify_all();
  if (canary_thread_.joinable()) canary_thread_.join();
  // The listeners close first, so nothing asks the parts being taken down.
  control_.reset();
  gate_.reset();
  local_.reset();
  status_.reset();
}

LiveFacts WorkerDaemon::CollectLiveFacts() {
  const std::lock_guard lock(mutex_);
  LiveFacts live;
  live.registered = options_.registered;
  live.peertube = options_.peertube;
  live.drain_requested = drain_;
  live.drain_timed_out = drain_ && Clock::now() - drain_since_ >= options_.drain_timeout;
  live.enable_requested = enable_;
  live.acknowledged_xid = acknowledged_xid_;
  if (last_) live.state = previous_;
  live.concurrency_hint = concurrency_hint_;
  const JobCountersView counters = book_.Counters();
  live.active_jobs = counters.active;
  live.sessions_held = held_;
  live.canary_ok = evidence_ok_;
  live.canary_detail = evidence_detail_;
  live.canary = canaries_;
  live.jobs = {.completed = counters.completed,
               .failed = counters.failed,
               .hw_fallback_prevented = counters.hw_fallback_prevented,
               .aborted = counters.aborted};
  if (std::optional<JobRecord> last = book_.LastJob()) live.last_job_record = JobRecordJson(*last);
  for (const JobRecord& record : book_.Recent()) live.recent_jobs.push_back(JobRecordJson(record));
  // The status document carries the last sixteen. The book keeps more for its own counts.
  if (live.recent_jobs.size() > 16)
    live.recent_jobs.erase(live.recent_jobs.begin(), live.recent_jobs.end() - 16);
  const TransferView transfer = book_.Transfer();
  live.transfer = {.recent_download_mbps = transfer.recent_download_mbps,
                   .recent_upload_mbps = transfer.recent_upload_mbps,
                   .network_degraded = transfer.network_degraded};
  if (std::optional<HwEvidence> last = book_.HwEvidenceLastJob()) {
    live.last_job =
        LastJobEvidence{.ok = last->ok, .method = last->evidence, .ts = UtcText(last->at)};
  }
  return live;
}

void WorkerDaemon::OnGathered(const probe::ProbeResult& probe, const StatusInputs& inputs,
                              bool probed) {
  {
    const std::lock_guard lock(mutex_);
    probe_ = probe;
    last_ = inputs;
    previous_ = inputs.state.state;
    if (probed) probed_at_ = Clock::now();
    if (enable_after_probe_ && inputs.probe.ok) {
      enable_after_probe_ = false;
      enable_ = true;
      if (inputs.signals.xid_sequence) acknowledged_xid_ = inputs.signals.xid_sequence;
      drain_ = false;
      evidence_ok_.reset();
      evidence_detail_.clear();
    }
  }
  changed_.notify_all();
  KickIfOpened();
}

void WorkerDaemon::ApplyLiveFacts(StatusInputs& inputs) {
  const LiveFacts live = CollectLiveFacts();
  const std::lock_guard lock(mutex_);
  ApplyLiveJobs(live, inputs);
  inputs.sessions.active = std::max(inputs.sessions.active, live.sessions_held);
  if (last_) inputs.state = DecideLocked();
}

StateDecision WorkerDaemon::DecideLocked() {
  if (!last_) return {WorkerState::kGpuUnavailable, "the worker has not probed its GPU yet"};
  StateSignals signals = WithoutAcknowledgedXid(last_->signals, acknowledged_xid_);
  signals.drain_requested = drain_;
  signals.drain_timed_out = drain_ && Clock::now() - drain_since_ >= options_.drain_timeout;
  signals.enable_requested = enable_;
  signals.active_jobs = book_.Counters().active;
  signals.sessions_active = std::max(signals.sessions_active.value_or(0), held_);
  signals.concurrency = concurrency_hint_ ? std::min(last_->concurrency.value, *concurrency_hint_)
                                          : last_->concurrency.value;
  signals.canary_ok = evidence_ok_;
  signals.canary_detail = evidence_detail_;
  const WorkerConfig& config = options_.gather.config;
  StateDecision decision = NextState(previous_, signals,
                                     {.driver_min = config.driver_min,
                                      .vram_floor_mb = config.vram_floor_mb,
                                      .sessions_reserve = config.sessions_reserve});
  if (enable_ && decision.state != WorkerState::kOffline) enable_ = false;
  previous_ = decision.state;
  return decision;
}

void WorkerDaemon::KickIfOpened() {
  bool opened = false;
  {
    const std::lock_guard lock(mutex_);
    const bool admitting = DecideLocked().state == WorkerState::kAvailable && !CanaryHoldsLocked();
    opened = admitting && !admitting_seen_;
    admitting_seen_ = admitting;
  }
  if (opened && gate_) {
    options_.log("worker: admitting jobs again; the runner is asked to look for them");
    gate_->KickRunner();
  }
}

Admission WorkerDaemon::CurrentAdmission() {
  const std::lock_guard lock(mutex_);
  const StateDecision decision = DecideLocked();
  Admission admission;
  admission.state = std::string(StateName(decision.state));
  admission.reason = decision.reason;
  admission.admitting = decision.state == WorkerState::kAvailable && !CanaryHoldsLocked();
  if (admission.admitting != (decision.state == WorkerState::kAvailable))
    admission.reason = "the worker tests its GPU with its canary after a job failed (" +
                       canary_cause_ + "); it admits no job until the canary has run";
  const std::int64_t concurrency =
      last_ ? (concurrency_hint_ ? std::min(last_->concurrency.value, *concurrency_hint_)
                                 : last_->concurrency.value)
            : 0;
  admission.free_jobs = std::max<std::int64_t>(0, concurrency - book_.Counters().active);
  if (eligibility_.jobs && std::chrono::steady_clock::now() >= job_list_until_) {
    eligibility_.jobs.reset();
    options_.log("worker: the pool manager's job list lapsed, not renewed within " +
                 std::to_string(options_.job_list_lifetime.count()) + " s; eligibility " +
                 EligibilityWords(eligibility_));
  }
  admission.eligibility = eligibility_;
  return admission;
}

std::int64_t WorkerDaemon::ActiveJobs() { return book_.Counters().active; }

bool WorkerDaemon::WaitGathered(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [this] { return last_.has_value(); });
}

void WorkerDaemon::Drain() {
  {
    const std::lock_guard lock(mutex_);
    if (!drain_) drain_since_ = Clock::now();
    drain_ = true;
  }
  status_->Refresh();
}

bool WorkerDaemon::WaitIdle(std::chrono::milliseconds timeout) {
  const auto until = Clock::now() + timeout;
  while (Clock::now() < until) {
    if (book_.Counters().active == 0) {
      const std::lock_guard lock(mutex_);
      if (held_ == 0) return true;
    }
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::milliseconds(500));
  }
  return false;
}

void WorkerDaemon::RunnerEnded() {
  const std::vector<JobRecord> orphaned = book_.Active();
  for (const JobRecord& job : orphaned) {
    book_.RecordOutcome(job.uuid, JobOutcome::kAbort, 0, WallClock::now());
    options_.log("worker: job " + job.uuid + " ended with the runner; " + HandBack(job));
  }
  changed_.notify_all();
  KickIfOpened();
}

namespace {
constexpr std::string_view kWatchdog = "PeerTube's stalled-job watchdog gives it out again";
}  // namespace

std::string WorkerDaemon::HandBack(const JobRecord& job) {
  if (job.job_token.empty() || options_.server_url.empty()) return std::string(kWatchdog);
  const Result<Registration> registration = LoadRegistration(RegistrationPath(options_.state_dir));
  if (!registration)
    return "it cannot be handed back (" + registration.error_message() +
           "): " + std::string(kWatchdog);
  return HandBackJob(options_.server_url, registration->runner_token, {job.uuid, job.job_token},
                     "its runner died; the worker hands it back");
}

void HandBackHeldJobs(const std::string& state_dir, const std::string& server_url,
                      const std::string& runner_token,
                      const std::function<void(const std::string&)>& log) {
  const std::string path = HeldJobsPath(state_dir);
  Result<std::vector<HeldJob>> held = ReadHeldJobs(path);
  if (!held) log("worker run: the jobs held before are unknown (" + held.error_message() + ")");
  for (const HeldJob& job : held ? *held : std::vector<HeldJob>{}) {
    log("worker run: job " + job.uuid + " was held when the worker last stopped; " +
        HandBackJob(server_url, runner_token, job,
                    "the worker stopped with it and started again; it hands it back"));
  }
  if (Result<void> cleared = WriteHeldJobs(path, {}); !cleared)
    log("worker run: " + cleared.error_message());
}

std::string HandBackJob(const std::string& server_url, const std::string& runner_token,
                        const HeldJob& job, std::string_view reason) {
  const Result<http::Url> url =
      http::ParseUrl(http::UnderBase(server_url, "/api/v1/runners/jobs/" + job.uuid + "/abort"));
  if (!url)
    return "it cannot be handed back (" + url.error_message() + "): " + std::string(kWatchdog);
  http::ClientRequest request =
      http::JsonRequest("POST", peertube::AbortJobJson(runner_token, job.job_token, reason));
  request.timeout = std::chrono::seconds(5);
  // A few tries: a second apart, then two. The next runner waits for them. A server that stays away
  // has its watchdog for the job.
  std::string failure;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    if (attempt > 1) std::this_thread::sleep_for(std::chrono::seconds(attempt - 1));
    const Result<http::ClientResponse> answer = http::Request(*url, request);
    if (answer && answer->status >= 200 && answer->status < 300)
      return "handed back to PeerTube's queue (the abort was answered " +
             std::to_string(answer->status) + ")";
    failure = answer ? "HTTP " + std::to_string(answer->status) : answer.error_message();
    // A refusal other than a throttle is for good. The job is no longer this runner's.
    if (answer && answer->status < 500 && answer->status != 429) break;
  }
  return "handing it back failed (" + failure + "): " + std::string(kWatchdog);
}

LocalAnswer WorkerDaemon::StateAnswerLocked(bool ok, std::string message) {
  const StateDecision decision = DecideLocked();
  return {.ok = ok,
          .message = message.empty() ? decision.reason : std::move(message),
          .state = std::string(StateName(decision.state))};
}

LocalAnswer WorkerDaemon::Handle(std::uint64_t connection, const LocalRequest& request) {
  if (const auto* acquire = std::get_if<AcquireRequest>(&request))
    return Acquire(connection, *acquire);
  if (const auto* finished = std::get_if<FinishedRequest>(&request))
    return RecordWrapperRun(finished->report);
  if (std::holds_alternative<ContextRequest>(request)) return Context();
  if (std::holds_alternative<EnableRequest>(request)) {
    LocalAnswer answer = Enable();
    KickIfOpened();
    return answer;
  }
  if (const auto* refused = std::get_if<RefusedRequest>(&request)) {
    options_.log("worker: a job's ffmpeg was refused: " + refused->reason);
    const std::lock_guard lock(mutex_);
    return StateAnswerLocked(true, "noted");
  }
  if (std::holds_alternative<DrainRequest>(request)) {
    Drain();
    options_.log("worker: drain asked");
    const std::lock_guard lock(mutex_);
    return StateAnswerLocked(true, "");
  }
  if (const auto* concurrency = std::get_if<ConcurrencyRequest>(&request)) {
    {
      const std::lock_guard lock(mutex_);
      concurrency_hint_ = concurrency->value;
    }
    options_.log("worker: concurrency hint " +
                 (concurrency->value ? std::to_string(*concurrency->value) : std::string("auto")));
    status_->Refresh();
    KickIfOpened();
    const std::lock_guard lock(mutex_);
    return StateAnswerLocked(true, "");
  }
  if (const auto* eligibility = std::get_if<EligibilityRequest>(&request)) {
    Result<Eligibility> parsed = ParseEligibility(eligibility->text);
    LocalAnswer answer;
    {
      const std::lock_guard lock(mutex_);
      if (!parsed) return StateAnswerLocked(false, "eligibility: " + parsed.error_message());
      // An eligibility that may let in jobs the runner was refused has it ask again. A job list
      // that only lost the jobs taken meanwhile does not, unless this worker took none of them:
      // its runner lost the accept race to another and asks PeerTube nothing until its next ping.
      const std::int64_t taken = JobsTaken(book_.Counters());
      const bool none_taken =
          taken == taken_at_last_list_ && parsed->jobs && !parsed->jobs->empty();
      if (MayAdmitMore(eligibility_, *parsed) || none_taken) admitting_seen_ = false;
      taken_at_last_list_ = taken;
      eligibility_ = *parsed;
      job_list_until_ = std::chrono::steady_clock::now() + options_.job_list_lifetime;
      options_.log("worker: eligibility " + EligibilityWords(eligibility_));
      answer = StateAnswerLocked(true, "eligibility " + EligibilityWords(eligibility_));
    }
    KickIfOpened();
    return answer;
  }
  const std::lock_guard lock(mutex_);
  return StateAnswerLocked(true, "");
}

LocalAnswer WorkerDaemon::Context() {
  const std::lock_guard lock(mutex_);
  if (!probe_ || !last_) return StateAnswerLocked(false, "the worker has not probed its GPU yet");
  const probe::DeviceReport* report = ReportOf(*probe_, last_->probe);
  if (!report || !last_->probe.ok)
    return StateAnswerLocked(
        false, "the worker's GPU is not usable: " + last_->probe.reason.value_or("no device"));
  const WorkerConfig& config = options_.gather.config;
  WrapperContext context{
      .device = nlohmann::json::parse(JsonText(probe::DevicesJsonValue({report->device})[0])),
      .render_node = report->gpu.render_node,
      .cuda_ordinal = CudaIndexOf(*probe_, report->gpu.pci_address),
      .ffmpeg = config.ffmpeg,
      .ffprobe = options_.ffprobe,
      .nvenc_preset = config.nvenc_preset,
      .probe_module = config.probe_module,
      .nvml_library = options_.gather.nvml_library,
      .proc_root = options_.gather.proc_root,
      .plausible_cpu_fraction = static_cast<double>(config.plausible_cpu_pct) / 100.0};
  if (last_->self_test && last_->self_test->cpu_baseline) {
    context.baseline_cpu_seconds_per_media_second =
        last_->self_test->cpu_baseline->cpu_seconds_per_media_second;
    context.baseline_pixels_per_frame = last_->self_test->cpu_baseline->pixels_per_frame;
  }
  LocalAnswer answer = StateAnswerLocked(true, "");
  answer.context = std::move(context);
  return answer;
}

LocalAnswer WorkerDaemon::Acquire(std::uint64_t connection, const AcquireRequest& request) {
  const std::lock_guard lock(mutex_);
  const StateDecision decision = DecideLocked();
  if (!AdmitsWrappers(decision.state)) {
    return StateAnswerLocked(
        false, "the worker is " + std::string(StateName(decision.state)) + ": " + decision.reason);
  }
  // One ffmpeg opens an encoder per output. No command line of the runner's has more.
  constexpr std::int64_t kMostSlotsPerWrapper = 16;
  if (slots_[connection] + request.sessions > kMostSlotsPerWrapper) {
    return StateAnswerLocked(false, "a wrapper holds at most " +
                                        std::to_string(kMostSlotsPerWrapper) +
                                        " session slots; this one asked for " +
                                        std::to_string(slots_[connection] + request.sessions));
  }
  const WorkerConfig& config = options_.gather.config;
  if (last_ && last_->sessions.cap) {
    const std::int64_t usable = *last_->sessions.cap - config.sessions_reserve;
    if (held_ + request.sessions > usable) {
      return StateAnswerLocked(false, "no encode session is free: " + std::to_string(held_) +
                                          " of " + std::to_string(usable) + " in use (cap " +
                                          std::to_string(*last_->sessions.cap) + ", reserve " +
                                          std::to_string(config.sessions_reserve) + ")");
    }
  }
  held_ += request.sessions;
  slots_[connection] += request.sessions;
  return StateAnswerLocked(true, "granted " + std::to_string(request.sessions) + " session slots");
}

void WorkerDaemon::ReleaseSlots(std::uint64_t connection) {
  {
    const std::lock_guard lock(mutex_);
    const auto found = slots_.find(connection);
    if (found == slots_.end()) return;
    held_ -= found->second;
    slots_.erase(found);
  }
  changed_.notify_all();
  KickIfOpened();
}

LocalAnswer WorkerDaemon::RecordWrapperRun(const WrapperRunReport& report) {
  RunReport run{.job_form = report.job_form,
                .output_height = static_cast<int>(report.output_height),
                .output_fps = report.output_fps,
                .encode_sessions = static_cast<int>(report.encode_sessions),
                .exit_code = report.exit_code,
                .evidence_ok = report.evidence_ok && report.gpu_failure.empty(),
                .evidence = report.evidence,
                .media_seconds = report.media_seconds,
                .wall_seconds = report.wall_seconds,
                .width = static_cast<int>(report.width),
                .height = static_cast<int>(report.height),
                .source_codec = report.source_codec};
  if (report.source_width > 0) run.source_width = static_cast<int>(report.source_width);
  if (report.source_height > 0) run.source_height = static_cast<int>(report.source_height);
  const std::optional<std::string> job = book_.RecordRun(run);
  // A job that failed or fell short of evidence fails alone. The GPU is judged by its canary. A run
  // that the runner's death ended says nothing of the GPU.
  if (!report.runner_died &&
      (report.exit_code != 0 || !report.evidence_ok || !report.gpu_failure.empty())) {
    std::string cause = "a job finished without hardware evidence: " + report.evidence;
    if (report.exit_code != 0) cause = "a job's ffmpeg exited " + std::to_string(report.exit_code);
    if (!report.gpu_failure.empty())
      cause = "a job's ffmpeg failed on the GPU: " + report.gpu_failure;
    const std::lock_guard lock(mutex_);
    ScheduleCanaryLocked(cause);
  }
  canary_wake_.notify_all();
  options_.log("worker: ffmpeg of " + report.job_form + " " + std::to_string(report.output_height) +
               "p" + (job ? " (job " + *job + ")" : "") + " exited " +
               std::to_string(report.exit_code) + "; evidence " +
               (report.evidence_ok ? "ok" : "missing") + ": " + report.evidence);
  status_->Refresh();
  const std::lock_guard lock(mutex_);
  return StateAnswerLocked(true, "recorded");
}

void WorkerDaemon::ScheduleCanaryLocked(const std::string& cause) {
  if (canaries_.pending) return;
  canaries_.pending = true;
  canary_cause_ = cause;
  options_.log("worker: a canary is asked for, as " + cause + "; no job is admitted while it runs");
}

bool WorkerDaemon::CanaryHoldsLocked() const {
  if (canaries_.running) return true;
  const bool held_back =
      canary_started_ && Clock::now() < *canary_started_ + options_.canary_interval;
  return canaries_.pending && !held_back;
}

SelfTestOptions WorkerDaemon::CanaryOptions() const {
  SelfTestOptions test = options_.canary;
  test.config = options_.gather.config;
  test.nvml_library = options_.gather.nvml_library;
  test.proc_root = options_.gather.proc_root;
  test.scratch_dir = (std::filesystem::path(options_.state_dir) / "canary").string();
  return test;
}

bool WorkerDaemon::CanaryMayStartLocked(Clock::time_point& wake) const {
  const Clock::time_point now = Clock::now();
  if (canary_started_ && now < *canary_started_ + options_.canary_interval) {
    wake = *canary_started_ + options_.canary_interval;
    return false;
  }
  // The canary takes a session slot as a job does. It waits for a slot to come free. So a busy GPU
  // is never taken for a broken one.
  wake = now + std::chrono::milliseconds(500);
  if (!probe_ || !last_) return false;
  if (last_->sessions.cap) {
    const std::int64_t usable = *last_->sessions.cap - options_.gather.config.sessions_reserve;
    if (held_ + 1 > std::max<std::int64_t>(1, usable)) return false;
  }
  return true;
}

void WorkerDaemon::RunCanaries() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    Clock::time_point wake = Clock::now() + std::chrono::hours(1);
    if (!canaries_.pending || !CanaryMayStartLocked(wake)) {
      canary_wake_.wait_until(lock, wake);
      continue;
    }
    canaries_.pending = false;
    canaries_.running = true;
    canary_started_ = Clock::now();
    held_ += 1;
    const probe::ProbeResult probe = *probe_;
    const ProbeContract contract = last_->probe;
    const SelfTestOptions test = CanaryOptions();
    options_.log("worker: the canary runs on the GPU (" + canary_cause_ + ")");
    lock.unlock();
    const double unix_seconds =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    std::error_code ignored;
    std::filesystem::remove_all(test.scratch_dir, ignored);
    std::filesystem::create_directories(test.scratch_dir, ignored);
    const SelfTestReport report = RunCanary(probe, contract, test);
    const double seconds = std::chrono::duration<double>(Clock::now() - *canary_started_).count();
    lock.lock();
    held_ -= 1;
    canaries_.running = false;
    RecordCanaryLocked(report, seconds, unix_seconds);
    lock.unlock();
    changed_.notify_all();
    status_->Refresh();
    KickIfOpened();
    lock.lock();
  }
}

void WorkerDaemon::RecordCanaryLocked(const SelfTestReport& report, double seconds,
                                      double unix_seconds) {
  std::vector<std::string> evidence;
  for (const SelfTestStep& step : report.steps)
    if (!step.evidence.empty()) evidence.push_back(step.name + ": " + step.evidence);
  canaries_.last = CanaryRun{.ok = report.ok,
                             .ts = report.ts,
                             .unix_seconds = unix_seconds,
                             .seconds = seconds,
                             .cause = canary_cause_,
                             .reason = report.ok ? "" : report.detail,
                             .evidence = Joined(evidence, "; ")};
  ++(report.ok ? canaries_.passed : canaries_.failed);
  evidence_ok_ = report.ok;
  evidence_detail_ = report.ok ? "" : report.detail + " (evidence: " + report.evidence + ")";
  options_.log("worker: the canary " + std::string(report.ok ? "passed" : "failed") + " in " +
               std::to_string(static_cast<int>(seconds + 0.5)) + " s" +
               (report.ok ? "" : ": " + report.detail) + "; " + canaries_.last->evidence);
}

LocalAnswer WorkerDaemon::Enable() {
  {
    const std::lock_guard lock(mutex_);
    if (last_ && last_->probe.ok && Clock::now() - probed_at_ < kEnableProbeAge) {
      enable_ = true;
      // An Xid already acknowledged is no longer in the signals. Its acknowledgement stays.
      if (last_->signals.xid_sequence) acknowledged_xid_ = last_->signals.xid_sequence;
      drain_ = false;
      evidence_ok_.reset();
      evidence_detail_.clear();
      options_.log("worker: enabled");
      LocalAnswer answer = StateAnswerLocked(true, "");
      return answer;
    }
    if (last_ && !last_->probe.ok && Clock::now() - probed_at_ < kEnableProbeAge)
      return StateAnswerLocked(false, "not enabled: the last probe failed: " +
                                          last_->probe.reason.value_or("no reason given"));
    enable_after_probe_ = true;
  }
  status_->Refresh(true);
  const std::lock_guard lock(mutex_);
  return StateAnswerLocked(true,
                           "the last probe is older than 5 minutes: probing again, and enabled "
                           "when it is green");
}

http::Response WorkerDaemon::Control(const http::ActionRequest& request) {
  const std::string_view bearer = "Bearer ";
  if (!request.authorization.starts_with(bearer) ||
      !SameToken(std::string_view(request.authorization).substr(bearer.size()),
                 options_.control_token))
    return {.status = 401, .body = "a valid bearer token is needed\n"};
  LocalRequest command = StateRequest{};
  std::string body = request.body;
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r' || body.back() == ' '))
    body.pop_back();
  if (request.path == "/drain") command = DrainRequest{};
  if (request.path == "/enable") command = EnableRequest{};
  if (request.path == "/eligibility") command = EligibilityRequest{.text = body};
  if (request.path == "/concurrency") {
    Result<std::optional<std::int64_t>> hint = ParseConcurrencyHint(body);
    if (!hint) return {.status = 400, .body = "the body must be a whole number or auto\n"};
    command = ConcurrencyRequest{.value = *hint};
  }
  const LocalAnswer answer = Handle(0, command);
  const nlohmann::json json = {
      {"ok", answer.ok}, {"state", answer.state}, {"message", answer.message}};
  return {.status = answer.ok ? 200 : 409,
          .content_type = "application/json",
          .body = JsonText(json) + "\n"};
}

}  // namespace mc::worker
