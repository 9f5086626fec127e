// StatusServer is `worker serve`, over the project's small HTTP server:
// - GET /: the same document as a page for people (status_page.h);
// - GET /status: the status document as JSON;
// - GET /metrics: the same facts as Prometheus text.
// A thread of its own gathers on the schedule of gather_schedule.h. It swaps in what it rendered.
// The server's thread answers from the last rendering. So no request waits for a probe. A request
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
  // HOST:PORT. Loopback unless the operator says otherwise, since the status names the host, its
  // GPU and its load.
  std::string listen = kDefaultStatusAddress;
  // Where the gatherer says what it did ("worker serve: probed ..."), under this name.
  std::function<void(const std::string&)> log = [](const std::string&) {};
  std::string log_name = "worker serve";
  // A running worker's own facts, read before each gathering. Absent for `worker serve`.
  std::function<LiveFacts()> live;
  // Told of each gathering, with the probe it used, and whether that probe is new.
  std::function<void(const probe::ProbeResult&, const StatusInputs&, bool probed)> gathered;
  // Brings a gathering's inputs up to date with the worker's own facts (its jobs, its state). It
  // runs when a request is answered. So /status and /metrics never lag behind a job that just
  // ended. It must answer at once. Absent for `worker serve`.
  std::function<void(StatusInputs&)> amend;
};

class StatusServer {
 public:
  // Start listens, and fails at once when it cannot. Then it starts gathering. It serves until it
  // is destroyed.
  static Result<std::unique_ptr<StatusServer>> Start(ServeOptions options);
  ~StatusServer();
  StatusServer(const StatusServer&) = delete;
  StatusServer& operator=(const StatusServer&) = delete;

  // The address it listens on, as bound: "127.0.0.1:9464".
  std::string address() const { return server_->address(); }

  // Refresh gathers again now: the counters, or a full probe when `probe` is true. The document
  // then shows a change of the worker's own facts at once, such as a drain.
  void Refresh(bool probe = false);

 private:
  // A rendering of one gathering. It is shared with the server's thread while a newer one is made.
  struct Rendering {
    std::string status_json;
    std::string metrics_text;
    nlohmann::ordered_json status;  // the document, for the page
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
