// `agent` runs in a module beside the binary (src/dra/agent/module_entry.h says why): this opens
// it and hands it the command line's AgentCommand.
#pragma once

#include "dra/agent/agent_command.h"

namespace mc {

// RunAgentModule opens the module in the binary's own directory and runs the agent.
int RunAgentModule(dra::AgentCommand command);

}  // namespace mc
