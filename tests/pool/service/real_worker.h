// The real worker's control API, in this process: worker::WorkerDaemon, as `worker run`
// starts it, on this machine with no GPU (an empty sysfs), with its status server and control
// API on a loopback port and no admission gate. Its probe is red, so an enable is refused
// with the worker's own 409; drain, concurrency and eligibility take effect.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pool/policy/decision.h"
#include "pool/service/worker_endpoint.h"
#include "support/temp_dir.h"
#include "worker/daemon/worker_daemon.h"

namespace mc::pool::testing {

inline constexpr const char* kWorkerToken = "ctl-4f1d9a7e0b2c";

// ActionOn is an action of `kind` on the worker the tests name "gpu-box-1:gpu0".
inline pool::Action ActionOn(pool::ActionKind kind, int concurrency = 0,
                             pool::ClassMask classes = pool::kEveryClass) {
  return {.kind = kind, .worker = "gpu-box-1:gpu0", .concurrency = concurrency, .classes = classes};
}

inline bool Has(const std::string& text, const std::string& words) {
  return text.find(words) != std::string::npos;
}

class RealWorker {
 public:
  // `listen` is where its status listens; `control_listen` where its control API does, with
  // `token` and, given `tls`, over TLS; empty: the API is off.
  // A job list it is sent holds for `job_list_lifetime`.
  explicit RealWorker(std::string token = kWorkerToken, std::string listen = "127.0.0.1:0",
                      std::string control_listen = "127.0.0.1:0",
                      std::optional<http::ServerTlsFiles> tls = std::nullopt,
                      std::chrono::seconds job_list_lifetime = std::chrono::seconds(600));

  // The endpoint of this worker, its token file holding `token_in_file`.
  WorkerEndpoint Endpoint(const std::string& token_in_file = kWorkerToken) const;
  // Why the worker did not start; empty when it did.
  const std::string& start_error() const { return start_error_; }
  // Log is what the worker has logged so far.
  std::vector<std::string> Log() const;
  bool Logged(const std::string& words) const;
  bool started() const { return daemon_ != nullptr; }
  // What its admission gate would admit now.
  worker::Admission Admission() const { return daemon_->CurrentAdmission(); }
  const mc::testing::TempDir& dir() const { return dir_; }

 private:
  mc::testing::TempDir dir_;
  mutable std::mutex mutex_;
  std::vector<std::string> log_;
  std::unique_ptr<worker::WorkerDaemon> daemon_;
  std::string start_error_;
};

}  // namespace mc::pool::testing
