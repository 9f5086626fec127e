#include "dra/probe_pipeline.h"

#include "base/utf8.h"
#include "capabilities/capability_table.h"
#include "dra/device_builder.h"
#include "gpu/pci_names.h"
#include "query/child_failure.h"

namespace mc {

ProbeResult ProbeRenderNodes(const ProbeRequest& request) {
  ProbeResult result;
  result.searched = request.roots.sysfs + "/class/drm";
  std::vector<std::string> nodes;
  std::vector<std::string> paths = request.render_nodes;
  if (paths.empty()) {
    Result<std::vector<std::string>> listed = ListRenderNodes(request.roots);
    if (!listed) {
      result.discovery_error = listed.error();
      return result;
    }
    nodes = *listed;
  } else {
    for (const std::string& path : paths) nodes.push_back(RenderNodeForPath(path));
  }

  PciNames names;
  std::vector<Gpu> gpus;
  std::vector<std::string> node_paths;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    Gpu gpu = DescribeRenderNode(request.roots, nodes[i], names);
    // A node the user named is opened where the user said it is.
    if (!paths.empty()) gpu.render_node = paths[i];
    node_paths.push_back(gpu.render_node);
    gpus.push_back(std::move(gpu));
  }

  std::vector<Result<VaFacts>> facts = QueryVaNodes(request.query, node_paths);
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    Device device = BuildVaDevice(gpus[i], facts[i]);
    result.reports.push_back({std::move(gpus[i]), std::move(facts[i]), std::move(device)});
  }
  return result;
}

std::vector<std::string> LogLines(const DeviceReport& report) {
  const std::string head = "capabilities: " + report.device.name + " (" + report.gpu.render_node;
  std::vector<std::string> lines;
  if (!report.facts) {
    lines.push_back(head + "): query failed: " + report.facts.error());
  } else {
    std::string line = head + ", " + OneLine(ValidUtf8(report.facts->vendor)) + "):";
    for (const Capability& capability : kCapabilities) {
      const AttributeValue* value = report.device.Attribute(std::string(capability.name));
      const bool holds = value && std::get<bool>(*value);
      line += " " + std::string(capability.name) + "=" + (holds ? "true" : "false");
    }
    lines.push_back(std::move(line));
    for (const std::string& warning : report.facts->warnings) {
      lines.push_back(head + "): warning: " + warning);
    }
  }
  for (const std::string& problem : report.gpu.problems) {
    lines.push_back(head + "): warning: " + problem);
  }
  return lines;
}

}  // namespace mc
