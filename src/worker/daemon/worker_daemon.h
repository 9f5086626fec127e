// WorkerDaemon is the heart of `worker run`. It is the one place that holds what the worker of one
// GPU knows and decides while it runs. It gathers its status on the status server's schedule.
// Between gatherings, it decides again at once when one of its own facts changes:
// - a job is accepted or ends;
// - a wrapper takes or gives back session slots;
// - an operator or the pool drains, enables, or sets the concurrency or the eligibility.
// Requests come in three ways:
// - the local socket: the wrappers and `worker drain|enable|...`;
// - the control API, on a listener of its own: the pool manager, with this worker's token, over TLS
//   beyond loopback;
// - the admission gate: the runner's job requests.
// /status and /metrics are read-only.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/base/result.h"
#include "common/http/http_server.h"
#include "common/http/server_tls.h"
#include "worker/daemon/local_protocol.h"
#include "worker/daemon/local_server.h"
#include "worker/gate/admission_gate.h"
#include "worker/gate/eligibility.h"
#include "worker/gate/held_jobs.h"
#include "worker/gate/job_book.h"
#include "worker/self_test/self_test.h"
#include "worker/status/status_server.h"

namespace mc::worker {

// The listeners' default ports. One worker runs per GPU, so each GPU's worker has its own:
// - /status and /metrics: 9464 + 10 N;
// - the admission gate: 9465 + 10 N;
// - the control API, which has no default: 9466 + 10 N is the one to give it;
// N is the GPU's place in PCI address order. The GPU 0's worker keeps 9464 and 9465.
inline constexpr int kStatusPortBase = 9464;
inline constexpr int kGatePortBase = 9465;
inline constexpr int kControlPortBase = 9466;
inline constexpr int kPortsPerGpu = 10;

// DefaultListenAddress is loopback, on listener `base`'s port for the GPU at `place`.
std::string DefaultListenAddress(int base, std::size_t place);

struct DaemonOptions {
  GatherOptions gather;
  std::string state_dir;
  // /status and /metrics, read-only.
  std::string status_listen = kDefaultStatusAddress;
  // The control API's own listener (POST /drain, /enable, /concurrency, /eligibility). Empty keeps
  // the API off. Beyond loopback it listens only over TLS.
  std::string control_listen;
  // The control API's bearer token, this worker's own. A control listener needs one.
  std::string control_token;
  // The control listener's certificate and key. None: plain HTTP, on loopback only.
  std::optional<http::ServerTlsFiles> control_tls;
  // The admission gate's address and the PeerTube server behind it. No gate without a server.
  std::string gate_listen = DefaultListenAddress(kGatePortBase, 0);
  std::string server_url;
  std::string ffprobe = "ffprobe";
  std::chrono::seconds drain_timeout{1800};
  // How long the pool manager's job list holds unless it sends another. A manager renews a
  // restricted worker's list every few minutes. A manager that died or lost the worker leaves no
  // list behind for longer than this.
  std::chrono::seconds job_list_lifetime{600};
  bool registered = false;
  // The versions `worker run` read at its start, for the status document.
  std::optional<PeerTubeVersions> peertube;
  std::function<void(const std::string&)> log = [](const std::string&) {};
  // The canary: the worker's known-good check of its GPU. It runs after a job failed or fell short
  // of evidence. It is the self-test's encode and decode of its own stream (RunCanary). Its options
  // are the self-test's. The config, the NVML library and the /proc root are the gathering's. Its
  // scratch folder is under the state directory. At most one starts per interval.
  SelfTestOptions canary;
  std::chrono::seconds canary_interval{60};
};

// HandBackJob sends PeerTube the abort of `job` as its runner would, with a few tries. That puts it
// back in the queue at once. It says what came of it, in words for the log.
std::string HandBackJob(const std::string& server_url, const std::string& runner_token,
                        const HeldJob& job, std::string_view reason);

// HandBackHeldJobs runs before the runner starts. It hands back each job in the held jobs' file of
// `state_dir`. A worker killed mid-job left them. It logs each and empties the file.
void HandBackHeldJobs(const std::string& state_dir, const std::string& server_url,
                      const std::string& runner_token,
                      const std::function<void(const std::string&)>& log);

class WorkerDaemon {
 public:
  static Result<std::unique_ptr<WorkerDaemon>> Start(DaemonOptions options);
  ~WorkerDaemon();
  WorkerDaemon(const WorkerDaemon&) = delete;
  WorkerDaemon& operator=(const WorkerDaemon&) = delete;

  std::string status_address() const { return status_->address(); }
  std::string control_address() const { return control_ ? control_->address() : ""; }
  std::string gate_address() const { return gate_ ? gate_->address() : ""; }
  const std::string& socket_path() const { return local_->path(); }

  // Handle answers one request of the local socket or the control API.
  LocalAnswer Handle(std::uint64_t connection, const LocalRequest& request);
  // ReleaseSlots gives back the session slots a connection held. It runs when the connection
  // closes.
  void ReleaseSlots(std::uint64_t connection);
  // What the gate admits now.
  Admission CurrentAdmission();
  std::int64_t ActiveJobs();
  // WaitGathered waits for the first gathering. False when it did not come in time.
  bool WaitGathered(std::chrono::milliseconds timeout);
  // Drain asks for a drain, as `worker drain` does. WaitIdle waits until no job runs.
  void Drain();
  bool WaitIdle(std::chrono::milliseconds timeout);
  // RunnerEnded closes the records of the runner's jobs, which died with it. It hands each back to
  // PeerTube's queue at once: an abort with the job's token. The runner itself does so when it
  // stops. A job that cannot be handed back waits for PeerTube's stalled-job watchdog.
  void RunnerEnded();

 private:
  // The caller of a function whose name ends in Locked holds mutex_. The others take it
  // themselves, or need none.
  explicit WorkerDaemon(DaemonOptions options) : options_(std::move(options)) {}
  // CollectLiveFacts copies the worker's own facts for the status document.
  LiveFacts CollectLiveFacts();
  // HandBack sends PeerTube the abort of a job whose runner died. It says what came of it.
  std::string HandBack(const JobRecord& job);
  // ApplyLiveFacts brings a rendering's inputs up to date with the worker's own facts.
  void ApplyLiveFacts(StatusInputs& inputs);
  // OnGathered keeps a gathering's probe and inputs, then decides again.
  void OnGathered(const probe::ProbeResult& probe, const StatusInputs& inputs, bool probed);
  // DecideLocked is the state now, from the last gathering and the worker's own facts.
  StateDecision DecideLocked();
  // KickIfOpened makes the runner ask for jobs when the worker has just begun to admit again.
  // AdmissionGate::KickRunner says why. The caller does not hold the mutex.
  void KickIfOpened();
  LocalAnswer Context();
  LocalAnswer Acquire(std::uint64_t connection, const AcquireRequest& request);
  // RecordWrapperRun books a wrapper's finished ffmpeg run. A failed run asks for a canary.
  LocalAnswer RecordWrapperRun(const WrapperRunReport& report);
  LocalAnswer Enable();
  LocalAnswer StateAnswerLocked(bool ok, std::string message);
  // ScheduleCanaryLocked asks for a canary after a job failed for `cause`.
  // CanaryHoldsLocked says whether the gate is closed for one: while it runs, or waits for a slot.
  // A canary held back by the one-a-minute bound leaves the gate open. So uploads that fail on
  // their own merits never keep the worker from its queue.
  void ScheduleCanaryLocked(const std::string& cause);
  bool CanaryHoldsLocked() const;
  // RunCanaries is the canary's thread. It starts each asked-for canary once the interval since the
  // last has passed and a session slot is free. It records what it found.
  void RunCanaries();
  // CanaryMayStartLocked says whether the canary may start now. Else `wake` is when to look again.
  bool CanaryMayStartLocked(std::chrono::steady_clock::time_point& wake) const;
  void RecordCanaryLocked(const SelfTestReport& report, double seconds, double unix_seconds);
  SelfTestOptions CanaryOptions() const;
  // StartControl opens the control API's listener where one is asked for.
  Result<void> StartControl();
  http::Response Control(const http::ActionRequest& request);

  DaemonOptions options_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<probe::ProbeResult> probe_;
  std::optional<StatusInputs> last_;
  WorkerState previous_ = WorkerState::kGpuUnavailable;
  bool drain_ = false;
  std::chrono::steady_clock::time_point drain_since_;
  bool enable_ = false;
  bool enable_after_probe_ = false;
  // The sequence number of the Xid record the operator's enable acknowledged.
  std::optional<std::uint64_t> acknowledged_xid_;
  // Whether the worker admitted jobs when KickIfOpened last looked.
  bool admitting_seen_ = false;
  // JobsTaken when the last job list came, to see whether the runner took any of it.
  std::int64_t taken_at_last_list_ = -1;
  std::chrono::steady_clock::time_point probed_at_;
  std::optional<std::int64_t> concurrency_hint_;
  Eligibility eligibility_;
  std::chrono::steady_clock::time_point job_list_until_;
  // The last canary's verdict and, where it failed, why. An operator's enable clears them.
  std::optional<bool> evidence_ok_;
  std::string evidence_detail_;
  Canaries canaries_;
  std::string canary_cause_;
  std::optional<std::chrono::steady_clock::time_point> canary_started_;
  bool stopping_ = false;
  std::condition_variable canary_wake_;
  std::thread canary_thread_;
  std::map<std::uint64_t, std::int64_t> slots_;
  std::int64_t held_ = 0;
  JobBook book_;
  std::unique_ptr<StatusServer> status_;
  std::unique_ptr<http::Server> control_;
  std::unique_ptr<LocalServer> local_;
  std::unique_ptr<AdmissionGate> gate_;
};

}  // namespace mc::worker
