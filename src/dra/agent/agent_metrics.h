// The agent's metrics, served at GET /metrics beside its health probes (docs/dra/agent.md).
// They say, per node, what an admin acts on:
//  - whether each device's driver query succeeded (a failed one publishes every capability false);
//  - whether the slices hold what the queries found;
//  - whether the kubelet accepted the plugin.
// The text is a pure function of a snapshot, so it is tested without an agent.
#pragma once

#include <map>
#include <string>

#include "dra/plugin/health_board.h"

namespace mc::dra {

struct AgentMetrics {
  std::string node;
  // The health board's devices: healthy means the device's query succeeded.
  std::map<std::string, DeviceHealth> devices;
  bool slices_published = false;
  bool plugin_registered = false;
};

// AgentMetricsText writes the metrics in Prometheus's text exposition format, version 0.0.4.
std::string AgentMetricsText(const AgentMetrics& metrics);

}  // namespace mc::dra
