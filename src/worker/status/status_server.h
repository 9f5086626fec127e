// StatusServer is `worker serve`: GET /status (the status document as JSON) and GET /metrics
// (the same facts as Prometheus text) over the project's small HTTP server. A thread of its
// own gathers on the schedule of gather_schedule.h and swaps in what it rendered; the server's
// thread answers from the last rendering, so no request waits for a probe, and a request
// before the first gathering has finished is answered 503.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "common/base/result.h"
#include "common/http/http_server.h"
#include "worker/status/status_gather.h"

namespace mc::worker {

inline constexpr const char* kDefaultStatusAddress = "127.0.0.1:9464";

struct ServeOptions {
  GatherOptions gather;
  // HOST:PORT; loopback unless the operator says otherwise, since the status names the host,
  // its GPU and its load.
  std::string listen = kDefaultStatusAddress;
  // Where the gatherer says what it did ("worker serve: probed ..."), under this name.
  std::function<void(const std::string&)> log = [](const std::string&) {};
  std::string log_name = "worker serve";
  // A running worker's own facts, read before each gathering; absent for `worker serve`.
  std::function<LiveFacts()> live;
  // Told of each gathering, with the probe it used and whether that probe is new.
  std::function<void(const probe::ProbeResult&, const StatusInputs&, bool probed)> gathered;
  // Brings a gathering's inputs up to date with the worker's own facts (its jobs, its state)
  // when a request is answered, so that /status and /metrics never lag behind a job that
  // just ended; it must answer at once. Absent for `worker serve`.
  std::function<void(StatusInputs&)> amend;
};

class StatusServer {
 public:
  // Start listens (failing at once when it cannot) and starts gathering; it serves until it
  // is destroyed.
  static Result<std::unique_ptr<StatusServer>> Start(ServeOptions options);
  ~StatusServer();
  StatusServer(const StatusServer&) = delete;
  StatusServer& operator=(const StatusServer&) = delete;

  // The address it listens on, as bound: "127.0.0.1:9464".
  std::string address() const { return server_->address(); }

  // Refresh gathers again now: the counters, or a full probe when `probe` is true, so that
  // the document shows a change of the worker's own facts (a drain) at once.
  void Refresh(bool probe = false);

 private:
  // A rendering of one gathering, shared with the server's thread while a newer one is made.
  struct Rendering {
    std::string status_json;
    std::string metrics_text;
    StatusInputs inputs;
  };

  explicit StatusServer(ServeOptions options) : options_(std::move(options)) {}
  void GatherLoop();
  std::shared_ptr<const Rendering> Current() const;

  ServeOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable stop_requested_;
  bool stopping_ = false;
  bool refresh_ = false;
  bool refresh_probe_ = false;
  std::shared_ptr<const Rendering> current_;
  std::unique_ptr<http::Server> server_;
  std::thread gatherer_;
};

}  // namespace mc::worker
