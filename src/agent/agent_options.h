// What the agent is told to do (docs/agent.md). A plain header with no gRPC or libcurl in
// it, since the binary fills it in and the agent module (src/agent/module_entry.h) runs it.
#pragma once

#include <filesystem>
#include <string>

#include "gpu/render_node_discovery.h"
#include "query/query_command.h"

namespace mc {

enum class RenderNodeSource { kLiken, kSysfs };

inline constexpr char kLikenDriver[] = "liken.sh";

struct AgentOptions {
  std::string node_name;
  std::string driver_name = "media.liken.sh";
  RenderNodeSource source = RenderNodeSource::kLiken;
  DiscoveryRoots roots;
  QueryCommand query;
  std::filesystem::path plugins_dir = "/var/lib/kubelet/plugins";
  std::filesystem::path registry_dir = "/var/lib/kubelet/plugins_registry";
  std::string health_address = "0.0.0.0:8081";
};

}  // namespace mc
