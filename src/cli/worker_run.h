// `media-capabilities worker run|register|drain|enable|concurrency|eligibility|state`: the
// worker of one GPU in PeerTube's path (docs/worker/worker.md, "In PeerTube's path").
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "worker/daemon/local_protocol.h"
#include "worker/self_test/self_test.h"
#include "worker/status/status_gather.h"

namespace mc {

struct WorkerRunOptions {
  worker::GatherOptions gather;
  worker::SelfTestOptions self_test;
  std::string state_dir;
  // The PeerTube server; with a registration token file, the worker registers first.
  std::string server_url;
  std::string registration_token_file;
  std::string description;
  // Plain http:// to a PeerTube server beyond this host, which the worker otherwise refuses.
  bool allow_plain_http = false;
  // The official runner's command line up to its own arguments.
  std::vector<std::string> runner_command;
  std::string gate_listen;
  std::string status_listen;
  // The control API's own listener, off when empty; its token, and its TLS certificate and
  // key (both or neither; needed beyond loopback).
  std::string control_listen;
  std::string control_token_file;
  std::string control_tls_cert;
  std::string control_tls_key;
  std::chrono::seconds drain_timeout{1800};
  // A green self-test this young is taken instead of running one; 0 always runs one.
  std::chrono::seconds self_test_max_age{0};
  std::string ffprobe = "ffprobe";
};

int RunWorkerRun(WorkerRunOptions options);

struct WorkerRegisterOptions {
  std::string state_dir;
  std::string server_url;
  std::string registration_token_file;
  std::string runner_name;
  std::string description;
  bool allow_plain_http = false;
};

int RunWorkerRegister(const WorkerRegisterOptions& options);

// RunWorkerControlToken writes the control token of the worker named `name`, derived from the
// pool's key in `key_file`, to `out` (mode 0600); it prints where, never the token.
int RunWorkerControlToken(const std::string& key_file, const std::string& name,
                          const std::string& out);

// RunnerName is the runner's name in PeerTube, which `worker register` and `worker run` both
// give it: the configured one (PT_WORKER_RUNNER_NAME, --runner-name), else HOSTNAME:DEVICE.
std::string RunnerName(const std::string& configured, const std::string& device);

// RunWorkerControl sends one request to the worker of `state_dir` and prints its answer.
int RunWorkerControl(const std::string& state_dir, const worker::LocalRequest& request,
                     const std::string& name);

}  // namespace mc
