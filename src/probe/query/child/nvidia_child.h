// `media-capabilities query-nvidia PCI [--measure-sessions]`: the internal child. It asks one
// NVIDIA GPU's driver and prints the JSON report on stdout.
#pragma once

#include <string>

#include "probe/nvidia/nvidia_query.h"

namespace mc::probe {

// RunQueryNvidia: 0 after printing a report, 1 after the error on stderr.
int RunQueryNvidia(const std::string& pci_address, const NvidiaQueryOptions& options);

}  // namespace mc::probe
