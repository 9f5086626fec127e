// `media-capabilities worker run|register|drain|enable|concurrency|eligibility|state`: the
// worker of one GPU in PeerTube's path (docs/worker/worker.md, "In PeerTube's path").
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "probe/pipeline/probe_pipeline.h"
#include "worker/daemon/local_protocol.h"
#include "worker/probe_contract/probe_contract.h"
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
  // Running as root, which the worker otherwise refuses.
  bool allow_root = false;
  // The official runner's command line up to its own arguments.
  std::vector<std::string> runner_command;
  // Empty: the default of the GPU's place in PCI address order (DefaultListenAddress).
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

// What the self-test gate needs; `worker run` and `worker register` pass the same one.
struct SelfTestGateOptions {
  // The probe of the GPU that self_test.config names.
  probe::ProbeRequest probe;
  worker::SelfTestOptions self_test;
  // Where the reports are kept.
  std::string state_dir;
  // A green report kept this young is taken instead of running the test; 0 always runs it.
  std::chrono::seconds max_age{0};
  // The command that says in the log what the gate does: "worker run".
  std::string command;
};

// The GPU as its self-test found it: the contract it was tested under, the report, and its
// place in PCI address order.
struct TestedGpu {
  worker::ProbeContract contract;
  worker::SelfTestReport self_test;
  std::size_t place = 0;
};

// PassSelfTestGate probes the GPU and takes or runs its self-test. It fails, in words, on a
// GPU that does not pass: nothing may be registered or started on it.
Result<TestedGpu> PassSelfTestGate(const SelfTestGateOptions& options);

// The exit status of a command refused by the self-test gate: GPU_UNAVAILABLE.
inline constexpr int kGpuUnavailableExit = 3;

struct WorkerRegisterOptions {
  std::string state_dir;
  std::string server_url;
  std::string registration_token_file;
  std::string runner_name;
  std::string description;
  bool allow_plain_http = false;
};

int RunWorkerRegister(const WorkerRegisterOptions& options);

// RunWorkerControlToken writes the control token of the worker named `name` to `out` (mode
// 0600). It derives it from the pool's key in `key_file`. It prints where, never the token.
int RunWorkerControlToken(const std::string& key_file, const std::string& name,
                          const std::string& out);

// RunnerName is the runner's name in PeerTube, which `worker register` and `worker run` both
// give it: the configured one (PT_WORKER_RUNNER_NAME, --runner-name), else HOSTNAME:DEVICE.
std::string RunnerName(const std::string& configured, const std::string& device);

// RunWorkerControl sends one request to the worker of `state_dir` and prints its answer.
int RunWorkerControl(const std::string& state_dir, const worker::LocalRequest& request,
                     const std::string& name);

}  // namespace mc
