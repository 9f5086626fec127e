// `media-capabilities agent`: the DaemonSet's process (docs/agent.md). This file turns the
// command line into the agent's configuration, connects to the API server, and stops the
// agent on SIGTERM or SIGINT.
#pragma once

#include <string>

#include "agent/agent.h"

namespace mc {

struct AgentCommand {
  AgentOptions agent;
  // A kubeconfig file; empty means the in-cluster configuration.
  std::string kubeconfig;
};

int RunAgentCommand(AgentCommand command);

}  // namespace mc
