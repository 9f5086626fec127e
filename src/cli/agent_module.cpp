#include "cli/agent_module.h"

#include <iostream>

#include "common/base/module_entry_point.h"
#include "dra/agent/module_entry.h"

namespace mc {

int RunAgentModule(dra::AgentCommand command) {
  Result<void*> symbol =
      OpenModuleEntryPoint({}, dra::kAgentModuleFile, dra::kAgentModuleEntry, "agent");
  if (!symbol) {
    std::cerr << symbol.error_message() << '\n';
    return 1;
  }
  auto* entry = reinterpret_cast<decltype(&MediaCapabilitiesAgentMain)>(*symbol);
  return entry(&command, sizeof command);
}

}  // namespace mc
