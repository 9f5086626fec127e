// CommandChannel is the bare-metal path. It uses:
//  - the configuration's commands for each worker (BareMetalCommands, worker_endpoint.h);
//  - the worker's own control API for the rest, as WorkerApiChannel carries it.
// The commands do what only the box can do: wake, suspend, and start a silent service.
// See docs/pool/operating.md, "Control channels", for them and what they are given.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "common/base/result.h"
#include "pool/service/control_channel.h"
#include "pool/service/logger.h"
#include "pool/service/worker_api_channel.h"

namespace mc::pool {

// The environment variable a command finds the worker's name in.
inline constexpr const char* kWorkerNameVariable = "MEDIA_POOL_WORKER";

struct CommandChannelOptions {
  WorkerApiOptions api;
  Logger log = [](const std::string&) {};
  // How often a service that was just started is asked whether it answers yet.
  std::chrono::milliseconds start_poll{250};
  // How much of a command's output is logged: its last this many bytes.
  std::size_t max_output = 4096;
};

class CommandChannel : public ControlChannel {
 public:
  explicit CommandChannel(CommandChannelOptions options);

  // Apply runs commands.wake and commands.suspend for a wake and a suspend.
  // An enable goes over the control API.
  // The service may refuse the connection: the box is up, the service is not.
  // Then it runs commands.start, waits until GET /status answers, and enables.
  // A drain, a change of classes and a probe go over the control API.
  Result<void> Apply(const pool::Action& action, const WorkerEndpoint& worker) override;
  std::string Describe(const pool::Action& action, const WorkerEndpoint& worker) const override;

  // Stop runs commands.stop, for the service's shutdown. It is never part of scale-down.
  // There a drained worker stays SPARE, registered and idle.
  // So its next promotion costs an enable, not a start with its self-test.
  Result<void> Stop(const WorkerEndpoint& worker);

 private:
  Result<void> Enable(const pool::Action& action, const WorkerEndpoint& worker);
  // Run runs `command` (one of worker.commands) for `what` ("wake", "enable: start").
  // It runs without a shell (command_runner.h) and under commands.deadline.
  // No secret reaches a command. An argument's "{name}" becomes the worker's name.
  // The command also finds that name in MEDIA_POOL_WORKER.
  // The control token is never handed over.
  // The output's last max_output bytes are logged line by line.
  // A failure is an error naming the worker, the action and the program. Failures are:
  //  - a non-zero exit;
  //  - a kill at the deadline;
  //  - a missing program.
  Result<void> Run(const std::vector<std::string>& command, const std::string& what,
                   const WorkerEndpoint& worker);
  // WaitUntilAnswering asks GET /status until it answers or commands.deadline has passed.
  Result<void> WaitUntilAnswering(const WorkerEndpoint& worker);

  CommandChannelOptions options_;
  WorkerApiChannel api_;
};

// CommandArgv is `command` with "{name}" in each argument replaced by the worker's name.
std::vector<std::string> CommandArgv(const std::vector<std::string>& command,
                                     const WorkerEndpoint& worker);

// CommandText is an argv as one would type it, each argument with a space or a quote in it
// quoted: "ssh gpu-box-1 'systemctl suspend'".
std::string CommandText(const std::vector<std::string>& argv);

}  // namespace mc::pool
