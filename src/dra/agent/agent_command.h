// `media-capabilities agent`: the DaemonSet's process (docs/dra/agent.md).
// The binary fills in an AgentCommand from its command line.
// It hands it to the agent module, which:
//  - connects to the API server;
//  - runs the agent;
//  - stops it on SIGTERM or SIGINT.
#pragma once

#include <string>

#include "dra/agent/agent_options.h"

namespace mc::dra {

struct AgentCommand {
  AgentOptions agent;
  // A kubeconfig file; empty means the in-cluster configuration.
  std::string kubeconfig;
};

// RunAgentCommand runs in the module.
// It gives the process's exit status.
int RunAgentCommand(AgentCommand command);

}  // namespace mc::dra
