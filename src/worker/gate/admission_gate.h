// The worker's admission gate (docs/worker/gate.md). It is an HTTP reverse proxy between the
// official PeerTube runner and the PeerTube server. The runner knows it as the server's URL. Every
// request passes through unchanged, the runner's socket.io WebSocket included. The one exception is
// the runner's request for jobs. The gate forwards it, then answers by the worker's own state:
// - nothing while the worker admits nothing;
// - else the server's offers this worker is eligible for, cut to the jobs it has room for.
// On the way, the job book records the runner's accepts, outcomes and downloads.
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

// What the worker admits now. It is read afresh at every request for jobs. So a change of state or
// of concurrency counts at the runner's next request.
struct Admission {
  // False in every state that admits nothing: DRAINING, DRAINED, BUSY, GPU_UNAVAILABLE,
  // THERMAL_THROTTLED, OFFLINE.
  bool admitting = false;
  // The state's name and its reason, for the gate's log line.
  std::string state;
  std::string reason;
  // How many more jobs the worker takes now. That is the concurrency less the jobs it runs.
  std::int64_t free_jobs = 0;
  Eligibility eligibility;
};

struct GateOptions {
  // One line per decision and per failed exchange. Several threads may call it at once; the gate
  // serializes them. No line holds a token.
  std::function<void(const std::string&)> log;
  // Further origins of the server's own URLs in jobs' payloads. An example is its public URL, where
  // it differs from the upstream's. The upstream's origin is always one.
  std::vector<std::string> server_origins;
  // The origin the runner reaches the gate at, for the rewritten input URLs. Empty takes "http://"
  // and the gate's listening address. A wildcard address becomes loopback.
  std::string advertised_origin;
  http::ProxyLimits limits;
};

class AdmissionGate {
 public:
  // Start listens on `listen_address` ("127.0.0.1:9465"; port 0 picks one). It forwards to
  // `upstream`. The gate's threads call `admission`, which must be safe there. `book` must outlive
  // the gate.
  static Result<std::unique_ptr<AdmissionGate>> Start(const std::string& listen_address,
                                                      http::Url upstream,
                                                      std::function<Admission()> admission,
                                                      JobBook& book, GateOptions options = {});
  ~AdmissionGate() = default;
  AdmissionGate(const AdmissionGate&) = delete;
  AdmissionGate& operator=(const AdmissionGate&) = delete;

  std::string address() const { return proxy_->address(); }
  int port() const { return proxy_->port(); }
  // The origin the runner's downloads are rewritten to, such as "http://127.0.0.1:9465".
  const std::string& origin() const { return origin_; }

  // KickRunner makes the runner ask for jobs now. The runner asks only:
  // - when its socket.io connection to the server opens;
  // - when the server pings it with `available-jobs`;
  // - when a job of its own ends.
  // A worker that admits again would otherwise wait for the server's next new job. Examples are an
  // enable after a drain, or a higher concurrency. Closing the runner's socket through the gate
  // makes it connect again and ask.
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
  // Last, so destroyed first. No connection's thread then runs a hook on a gate half gone.
  std::unique_ptr<http::ReverseProxy> proxy_;
};

}  // namespace mc::worker
