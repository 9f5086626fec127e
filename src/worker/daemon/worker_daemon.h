// WorkerDaemon is `worker run`'s heart: the one place that holds what the worker of one GPU
// knows and decides while it runs. It gathers its status on the status server's schedule, and
// between gatherings decides again at once whenever one of its own facts changes: a job is
// accepted or ends, a wrapper takes or gives back session slots, an operator or the pool
// drains, enables, or sets the concurrency or the eligibility. Three doors lead in: the local
// socket (the wrappers and `worker drain|enable|...`), the control API on a listener of its
// own (the pool manager, with this worker's token, over TLS beyond loopback), and the
// admission gate (the runner's job requests). /status and /metrics are read-only.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "common/base/result.h"
#include "common/http/http_server.h"
#include "common/http/server_tls.h"
#include "worker/daemon/local_protocol.h"
#include "worker/daemon/local_server.h"
#include "worker/gate/admission_gate.h"
#include "worker/gate/eligibility.h"
#include "worker/gate/job_book.h"
#include "worker/status/status_server.h"

namespace mc::worker {

struct DaemonOptions {
  GatherOptions gather;
  std::string state_dir;
  // /status and /metrics, read-only.
  std::string status_listen = kDefaultStatusAddress;
  // The control API's own listener (POST /drain, /enable, /concurrency, /eligibility); empty
  // keeps the API off. Beyond loopback it listens only over TLS.
  std::string control_listen;
  // The control API's bearer token, this worker's own; a control listener needs one.
  std::string control_token;
  // The control listener's certificate and key; none: plain HTTP, on loopback only.
  std::optional<http::ServerTlsFiles> control_tls;
  // The admission gate's address and the PeerTube server behind it; no gate without a server.
  std::string gate_listen = "127.0.0.1:9465";
  std::string server_url;
  std::string ffprobe = "ffprobe";
  std::chrono::seconds drain_timeout{1800};
  // How long a job list the pool manager sent holds unless it sends another: a manager renews
  // a restricted worker's list every few minutes, and one that died or lost the worker leaves
  // no list behind for longer than this.
  std::chrono::seconds job_list_lifetime{600};
  bool registered = false;
  // The versions `worker run` read at its start, for the status document.
  std::optional<PeerTubeVersions> peertube;
  std::function<void(const std::string&)> log = [](const std::string&) {};
};

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
  // Closed gives back what the connection held.
  void Closed(std::uint64_t connection);
  // What the gate admits now.
  Admission CurrentAdmission();
  std::int64_t ActiveJobs();
  // WaitGathered waits for the first gathering; false when it did not come in time.
  bool WaitGathered(std::chrono::milliseconds timeout);
  // Drain asks for a drain (as `worker drain` does); WaitIdle waits until no job runs.
  void Drain();
  bool WaitIdle(std::chrono::milliseconds timeout);
  // RunnerEnded closes the records of the jobs the runner had, which died with it, and hands
  // each back to PeerTube's queue at once (an abort with the job's token), as the runner
  // itself does when it stops; a job that cannot be handed back waits for PeerTube's
  // stalled-job watchdog.
  void RunnerEnded();

 private:
  explicit WorkerDaemon(DaemonOptions options) : options_(std::move(options)) {}
  LiveFacts Live();
  // HandBack sends PeerTube the abort of a job whose runner died; it says what came of it.
  std::string HandBack(const JobRecord& job);
  // Amend brings a rendering's inputs up to date with the worker's own facts.
  void Amend(StatusInputs& inputs);
  void Gathered(const probe::ProbeResult& probe, const StatusInputs& inputs, bool probed);
  // Decide is the state now, from the last gathering and the worker's own facts; the caller
  // holds the mutex.
  StateDecision Decide();
  // KickIfOpened makes the runner ask for jobs when the worker has just begun to admit them
  // again (AdmissionGate::KickRunner says why); the caller does not hold the mutex.
  void KickIfOpened();
  LocalAnswer Context();
  LocalAnswer Acquire(std::uint64_t connection, const AcquireRequest& request);
  LocalAnswer Finished(const WrapperRunReport& report);
  LocalAnswer Enable();
  LocalAnswer StateAnswer(bool ok, std::string message);
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
  // The kernel log's Xid line of this GPU at the operator's last enable.
  std::optional<std::string> acknowledged_xid_;
  // Whether the worker admitted jobs when KickIfOpened last looked.
  bool admitting_seen_ = false;
  std::chrono::steady_clock::time_point probed_at_;
  std::optional<std::int64_t> concurrency_hint_;
  Eligibility eligibility_;
  std::chrono::steady_clock::time_point job_list_until_;
  std::optional<bool> evidence_ok_;
  std::string evidence_detail_;
  std::map<std::uint64_t, std::int64_t> slots_;
  std::int64_t held_ = 0;
  JobBook book_;
  std::unique_ptr<StatusServer> status_;
  std::unique_ptr<http::Server> control_;
  std::unique_ptr<LocalServer> local_;
  std::unique_ptr<AdmissionGate> gate_;
};

}  // namespace mc::worker
