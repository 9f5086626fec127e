#include "real_worker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace mc::pool::testing {

RealWorker::RealWorker(std::string token, std::string listen, std::string control_listen,
                       std::optional<http::ServerTlsFiles> tls,
                       std::chrono::seconds job_list_lifetime) {
  std::filesystem::create_directories(dir_.path() / "sys/class/drm");
  std::filesystem::create_directories(dir_.path() / "dev");
  std::filesystem::create_directories(dir_.path() / "state");
  worker::GatherOptions gather;
  gather.config.gpu = "pci-0000-00-02-0";
  // The free space it reports is that of a directory of its own, not the machine's default.
  gather.config.work_dir = (dir_.path() / "work").string();
  gather.probe.roots = {.sysfs = (dir_.path() / "sys").string(),
                        .dev = (dir_.path() / "dev").string()};
  // The daemon has threads: a query would run in a batch, never forked from it.
  gather.probe.query.fork_from_caller = false;
  gather.platform = {.dev = (dir_.path() / "dev").string(), .proc = "/proc"};
  gather.kernel_log = dir_.Write("empty-kmsg", "").string();
  gather.nvml_library = "libnvidia-ml-not-here.so.1";
  Result<std::unique_ptr<worker::WorkerDaemon>> daemon =
      worker::WorkerDaemon::Start({.gather = gather,
                                   .state_dir = (dir_.path() / "state").string(),
                                   .status_listen = std::move(listen),
                                   .control_listen = std::move(control_listen),
                                   .control_token = std::move(token),
                                   .control_tls = std::move(tls),
                                   .job_list_lifetime = job_list_lifetime,
                                   .log = [this](const std::string& line) {
                                     const std::lock_guard lock(mutex_);
                                     log_.push_back(line);
                                   }});
  if (!daemon) {
    start_error_ = daemon.error_message();
    return;
  }
  daemon_ = std::move(*daemon);
  // Its first gathering probes the missing GPU, so that the enable meets a fresh red probe.
  EXPECT_TRUE(daemon_->WaitGathered(std::chrono::seconds(30)));
}

WorkerEndpoint RealWorker::Endpoint(const std::string& token_in_file) const {
  return {.name = "gpu-box-1:gpu0",
          .url = daemon_ ? "http://" + daemon_->status_address() : "http://127.0.0.1:1",
          .control_url = !daemon_ || daemon_->control_address().empty()
                             ? ""
                             : "http://" + daemon_->control_address(),
          .control_token_file = dir_.Write("control-token", token_in_file + "\n").string()};
}

std::vector<std::string> RealWorker::Log() const {
  const std::lock_guard lock(mutex_);
  return log_;
}

bool RealWorker::Logged(const std::string& words) const {
  const std::vector<std::string> log = Log();
  return std::any_of(log.begin(), log.end(), [&](const std::string& line) {
    return line.find(words) != std::string::npos;
  });
}

}  // namespace mc::pool::testing
