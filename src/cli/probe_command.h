// `media-capabilities probe`: what this machine's GPUs state, with no cluster involved.
#pragma once

#include <string>
#include <vector>

#include "probe/pipeline/probe_pipeline.h"

namespace mc {

enum class ProbeOutput { kTable, kWide, kJson, kYaml };

struct ProbeOptions {
  probe::ProbeRequest request;
  ProbeOutput output = ProbeOutput::kTable;
};

// RunProbe prints the devices on stdout and the log lines on stderr; it returns the exit
// status. A GPU whose query failed is a result, not an error of the probe.
int RunProbe(const ProbeOptions& options);

}  // namespace mc
