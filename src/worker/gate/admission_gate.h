// The worker's admission gate (docs/worker/gate.md): an HTTP reverse proxy between the
// official PeerTube runner and the PeerTube server, registered with the runner as the
// server's URL. Every request passes through unchanged, the runner's socket.io WebSocket
// included, except the runner's request for jobs, which the gate forwards and then answers
// by the worker's own state: nothing while the worker admits nothing, else the server's
// offers that the worker is eligible for, cut to the jobs it has room for. The runner's
// accepts, outcomes and downloads are written in the job book on the way.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/base/result.h"
#include "common/http/reverse_proxy.h"
#include "common/http/url.h"
#include "worker/gate/eligibility.h"
#include "worker/gate/job_book.h"

namespace mc::worker {

// What the worker admits now, read afresh at every request for jobs, so that a change of
// state or of concurrency takes effect at the runner's next request.
struct Admission {
  // False in every state that admits nothing: DRAINING, DRAINED, BUSY, GPU_UNAVAILABLE,
  // THERMAL_THROTTLED, OFFLINE.
  bool admitting = false;
  // The state's name and its reason, for the gate's log line.
  std::string state;
  std::string reason;
  // How many more jobs the worker takes now: the concurrency less the jobs it runs.
  std::int64_t free_jobs = 0;
  Eligibility eligibility;
};

struct GateOptions {
  // One line per decision and per failed exchange; it may be called from several threads at
  // once, which the gate serializes. No line holds a token.
  std::function<void(const std::string&)> log;
  // Further origins of the server's own URLs in jobs' payloads (its public URL, where it is
  // not the upstream's); the upstream's origin is always one.
  std::vector<std::string> server_origins;
  // The origin the runner reaches the gate at, for the rewritten input URLs; empty takes
  // "http://" and the address the gate listens on (loopback for a wildcard address).
  std::string advertised_origin;
  http::ProxyLimits limits;
};

class AdmissionGate {
 public:
  // Start listens on `listen_address` ("127.0.0.1:9465"; port 0 picks one) and forwards to
  // `upstream`. `admission` is called from the gate's threads and must be safe there; `book`
  // must outlive the gate.
  static Result<std::unique_ptr<AdmissionGate>> Start(const std::string& listen_address,
                                                      http::Url upstream,
                                                      std::function<Admission()> admission,
                                                      JobBook& book, GateOptions options = {});
  ~AdmissionGate() = default;
  AdmissionGate(const AdmissionGate&) = delete;
  AdmissionGate& operator=(const AdmissionGate&) = delete;

  std::string address() const { return proxy_->address(); }
  int port() const { return proxy_->port(); }
  // The gate's origin as the runner's downloads are rewritten to: "http://127.0.0.1:9465".
  const std::string& origin() const { return origin_; }

  // KickRunner makes the runner ask for jobs now. The runner asks only when its socket.io
  // connection to the server opens, when the server pings it with `available-jobs`, and when
  // a job of its own ends; a worker that starts admitting again (an enable after a drain, a
  // higher concurrency) would otherwise wait for the next new job on the server. Closing the
  // runner's socket through the gate makes it connect again and ask.
  void KickRunner() { proxy_->CloseTunnels(); }

 private:
  AdmissionGate(JobBook& book, std::function<Admission()> admission, GateOptions options)
      : book_(book), admission_(std::move(admission)), options_(std::move(options)) {}

  http::Plan PlanFor(const http::RequestHead& head) const;
  void Rewrite(const http::ProxyRequest& request, http::ProxyResponse& response);
  void AnswerJobsRequest(http::ProxyResponse& response);
  void RecordAccept(http::ProxyResponse& response);
  void Observe(const http::ExchangeRecord& exchange);
  void Log(const std::string& line);

  JobBook& book_;
  std::function<Admission()> admission_;
  GateOptions options_;
  std::vector<std::string> server_origins_;
  std::string origin_;
  std::mutex log_mutex_;
  // Last: destroyed first, so that no connection's thread runs a hook on a gate half gone.
  std::unique_ptr<http::ReverseProxy> proxy_;
};

}  // namespace mc::worker
