// The agent module's one entry point.
// The module media-capabilities-agent.so, beside the binary, holds:
//  - the agent;
//  - its gRPC server, over libnghttp2 and protobuf-lite;
//  - the API client.
// So `probe` and the query children never load them.
// `agent` opens it (src/cli/agent_module.h) and calls this.
#pragma once

#include <cstddef>

#include "dra/agent/agent_command.h"

// `command_size` is sizeof(AgentCommand) as the binary was built.
// A module built from other sources answers with an error instead of misreading it.
extern "C" int MediaCapabilitiesAgentMain(mc::dra::AgentCommand* command, std::size_t command_size);

namespace mc::dra {

inline constexpr char kAgentModuleFile[] = "media-capabilities-agent.so";
inline constexpr char kAgentModuleEntry[] = "MediaCapabilitiesAgentMain";

}  // namespace mc::dra
