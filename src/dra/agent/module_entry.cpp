// The one symbol the agent module exports (src/dra/agent/module_entry.h).
#include "dra/agent/module_entry.h"

#include <iostream>
#include <utility>

extern "C" __attribute__((visibility("default"))) int MediaCapabilitiesAgentMain(
    mc::dra::AgentCommand* command, std::size_t command_size) {
  if (command_size != sizeof(mc::dra::AgentCommand)) {
    std::cerr << "agent: the agent module and the binary were built from different sources; "
                 "install them together\n";
    return 1;
  }
  return mc::dra::RunAgentCommand(std::move(*command));
}
