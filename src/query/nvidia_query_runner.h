// The parent's side of the NVIDIA query: one child per GPU in the query batch, all at once,
// each under the same deadline as a VA-API query, and every way a child can go wrong
// turned into a failed result with the words that explain it.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "facts/nvidia_facts.h"
#include "query/query_command.h"

namespace mc {

struct NvidiaQueryRunOptions {
  // Pass --measure-sessions to every child (the session-slot test).
  bool measure_sessions = false;
};

// QueryNvidiaGpus queries the GPUs at the canonical PCI addresses; the results are in the
// order of the addresses.
std::vector<Result<NvidiaFacts>> QueryNvidiaGpus(const QueryCommand& command,
                                                 const std::vector<std::string>& pci_addresses,
                                                 const NvidiaQueryRunOptions& options = {});

}  // namespace mc
