// What the agent is told to do (docs/dra/agent.md).
// It is a plain header, with no gRPC or API client in it.
// The binary fills it in.
// The agent module runs it (src/dra/agent/module_entry.h).
#pragma once

#include <filesystem>
#include <string>

#include "probe/gpu/render_node_discovery.h"
#include "probe/query/query_command.h"

namespace mc::dra {

enum class RenderNodeSource { kLiken, kSysfs };

inline constexpr char kLikenDriver[] = "liken.sh";

// The agent's own pod, from the downward API.
// The agent evicts it to be made again with every render node.
// src/dra/agent/eviction_guard.h says when. Unknown outside a pod.
struct PodRef {
  std::string namespace_name;
  std::string name;
  bool known() const { return !namespace_name.empty() && !name.empty(); }
};

struct AgentOptions {
  std::string node_name;
  PodRef pod;
  std::string driver_name = "media.liken.sh";
  RenderNodeSource source = RenderNodeSource::kLiken;
  probe::DiscoveryRoots roots;
  probe::QueryCommand query;
  std::filesystem::path plugins_dir = "/var/lib/kubelet/plugins";
  std::filesystem::path registry_dir = "/var/lib/kubelet/plugins_registry";
  std::string health_address = "0.0.0.0:8081";
};

}  // namespace mc::dra
