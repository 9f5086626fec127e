// The agent module: media-capabilities-agent.so, beside the binary, holds the agent and the
// libraries only it needs (gRPC, libcurl), so that `probe` and the query children never load
// them. `agent` opens it and calls its one entry point.
#pragma once

#include <cstddef>

#include "cli/agent_command.h"

// The module's entry point. `command_size` is sizeof(AgentCommand) as the binary was built:
// a module built from other sources answers with an error instead of misreading it.
extern "C" int MediaCapabilitiesAgentMain(mc::AgentCommand* command, std::size_t command_size);

namespace mc {

inline constexpr char kAgentModuleFile[] = "media-capabilities-agent.so";
inline constexpr char kAgentModuleEntry[] = "MediaCapabilitiesAgentMain";

// RunAgentModule opens the module in the binary's own directory and runs the agent.
int RunAgentModule(AgentCommand command);

}  // namespace mc
