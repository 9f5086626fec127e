#include "probe/pipeline/probe_pipeline.h"

#include <algorithm>
#include <map>

#include "common/base/text.h"
#include "common/base/utf8.h"
#include "probe/capabilities/capability_table.h"
#include "probe/capabilities/encode_session_cap.h"
#include "probe/capabilities/nvidia_generations.h"
#include "probe/devices/device_builder.h"
#include "probe/facts/nvidia_facts_json.h"
#include "probe/facts/va_facts_json.h"
#include "probe/gpu/gpu_selector.h"
#include "probe/gpu/nvidia_discovery.h"
#include "probe/gpu/pci_names.h"
#include "probe/query/child_failure.h"
#include "probe/query/child_reports.h"
#include "probe/query/query_batch.h"

namespace mc::probe {
namespace {

// Targets is what discovery found:
//  - the GPUs to ask through VA-API;
//  - the GPUs to ask NVIDIA.
struct Targets {
  std::vector<Gpu> va;
  std::vector<Gpu> nvidia;
};

// NvidiaGpuAt gives the NVIDIA GPU at the render node's PCI address, or nullptr.
const Gpu* NvidiaGpuAt(const std::vector<Gpu>& nvidia, const Gpu& gpu) {
  if (gpu.pci_address.empty()) return nullptr;
  auto it = std::ranges::find(nvidia, gpu.pci_address, &Gpu::pci_address);
  return it == nvidia.end() ? nullptr : &*it;
}

// NamedGpuMissing is the report of a named GPU that sysfs shows no render node of.
DeviceReport NamedGpuMissing(const ProbeRequest& request, const NamedPciDevice& named) {
  const std::string why = named.pci_address.empty()
                              ? "no PCI address is known for this render node"
                              : "sysfs (" + request.roots.sysfs +
                                    "/class/drm) shows no render node of the PCI device " +
                                    named.pci_address;
  Gpu gpu{.bus = named.pci_address.empty() ? "" : "pci",
          .pci_address = named.pci_address,
          .device_name = named.device_name};
  return {.gpu = gpu, .device = BuildVaDevice(gpu, Error{why}), .failure = why};
}

// PathsOfNamedDevices finds the render node of each named GPU. Where sysfs shows none, the
// GPU is reported as failed at once.
std::vector<std::string> PathsOfNamedDevices(const ProbeRequest& request, PciNames& names,
                                             ProbeResult& result) {
  std::map<std::string, std::string> render_node_at;
  if (Result<std::vector<std::string>> listed = ListRenderNodes(request.roots)) {
    for (const std::string& node : *listed) {
      const Gpu gpu = DescribeRenderNode(request.roots, node, names);
      if (!gpu.pci_address.empty())
        render_node_at.emplace(gpu.pci_address, request.roots.dev + "/dri/" + node);
    }
  }
  std::vector<std::string> paths;
  for (const NamedPciDevice& named : request.named_devices) {
    auto found = render_node_at.find(named.pci_address);
    if (named.pci_address.empty() || found == render_node_at.end()) {
      result.reports.push_back(NamedGpuMissing(request, named));
    } else {
      paths.push_back(found->second);
    }
  }
  return paths;
}

Targets Discover(const ProbeRequest& request, ProbeResult& result) {
  PciNames names;
  Targets targets;
  Result<std::vector<Gpu>> nvidia = DiscoverNvidiaGpus(request.roots, names);
  if (!nvidia) result.discovery_errors.push_back(nvidia.error_message());
  const std::vector<Gpu> nvidia_gpus = nvidia ? *nvidia : std::vector<Gpu>{};

  std::vector<std::string> nodes;
  const std::vector<std::string> paths = request.named_devices.empty()
                                             ? request.render_nodes
                                             : PathsOfNamedDevices(request, names, result);
  if (paths.empty() && request.named_devices.empty()) {
    Result<std::vector<std::string>> listed = ListRenderNodes(request.roots);
    if (listed) {
      nodes = *listed;
    } else if (nvidia_gpus.empty()) {
      result.discovery_errors.push_back(listed.error_message());
    }
    targets.nvidia = nvidia_gpus;
  } else {
    for (const std::string& path : paths) nodes.push_back(RenderNodeForPath(path));
  }
  // A named GPU takes its given name, whichever API then asks it.
  auto rename = [&request](Gpu& gpu) {
    for (const NamedPciDevice& named : request.named_devices) {
      if (named.pci_address == gpu.pci_address) gpu.device_name = named.device_name;
    }
  };

  for (std::size_t i = 0; i < nodes.size(); ++i) {
    Gpu gpu = DescribeRenderNode(request.roots, nodes[i], names);
    // A node the user named is opened where the user said it is.
    if (!paths.empty()) gpu.render_node = paths[i];
    rename(gpu);
    const Gpu* nvidia_gpu = NvidiaGpuAt(nvidia_gpus, gpu);
    if (!nvidia_gpu) {
      targets.va.push_back(std::move(gpu));
    } else if (!paths.empty()) {
      // A chosen render node is an NVIDIA GPU's. NVIDIA's API answers for that GPU.
      targets.nvidia.push_back(*nvidia_gpu);
      rename(targets.nvidia.back());
    }
  }
  return targets;
}

DeviceReport VaReport(Gpu gpu, const Result<VaFacts>& facts) {
  DeviceReport report{.gpu = gpu, .device = BuildVaDevice(gpu, facts)};
  if (facts) {
    report.driver = facts->vendor;
    report.warnings = facts->warnings;
    report.va_facts = *facts;
  } else {
    report.failure = facts.error_message();
  }
  return report;
}

DeviceReport NvidiaReport(Gpu gpu, const Result<NvidiaFacts>& facts, std::size_t capped_gpus) {
  DeviceReport report{.gpu = gpu, .device = BuildNvidiaDevice(gpu, facts, capped_gpus)};
  if (!facts) {
    report.failure = facts.error_message();
    return report;
  }
  report.nvidia_facts = *facts;
  report.driver = facts->name + ", driver " +
                  (facts->driver_version.empty() ? "of unknown version" : facts->driver_version);
  report.warnings = NvidiaWarnings(*facts);
  if (facts->sessions) {
    report.warnings.push_back("the session-slot test opened " +
                              std::to_string(facts->sessions->opened) +
                              " encode sessions at once; then: " + facts->sessions->stopped_by);
  }
  return report;
}

// Unqueried is the report of a GPU left unasked because the request names another.
DeviceReport Unqueried(const Gpu& gpu, bool nvidia, const std::string& only_gpu) {
  const std::string why = "not queried: this probe asks GPU " + only_gpu + " alone";
  return {.gpu = gpu,
          .device = nvidia ? BuildNvidiaDevice(gpu, Error{why}) : BuildVaDevice(gpu, Error{why}),
          .queried = false,
          .failure = why};
}

// KeepNamedGpu leaves in `targets` only the GPU `request.only_gpu` names. It reports every
// other one unqueried. It gives how many of those are NVIDIA GPUs that may share the consumer
// session cap. Those are all but the ones pci.ids names as workstation or datacenter boards.
// A share counted too large is the one error the scheduler cannot recover from.
std::size_t KeepNamedGpu(const ProbeRequest& request, Targets& targets, ProbeResult& result) {
  std::vector<Gpu> all;
  for (const DeviceReport& report : result.reports) all.push_back(report.gpu);
  all.insert(all.end(), targets.va.begin(), targets.va.end());
  all.insert(all.end(), targets.nvidia.begin(), targets.nvidia.end());
  std::ranges::sort(all, {}, &Gpu::device_name);
  const std::optional<std::size_t> place = SelectGpu(all, request.only_gpu);
  auto named = [&](const Gpu& gpu) { return place && all[*place] == gpu; };
  std::size_t capped_siblings = 0;
  for (const Gpu& gpu : targets.va) {
    if (!named(gpu)) result.reports.push_back(Unqueried(gpu, false, request.only_gpu));
  }
  for (const Gpu& gpu : targets.nvidia) {
    if (named(gpu)) continue;
    result.reports.push_back(Unqueried(gpu, true, request.only_gpu));
    if (gpu.product_name.empty() || BoardClassOf(gpu.product_name) == BoardClass::kConsumer)
      ++capped_siblings;
  }
  std::erase_if(targets.va, [&](const Gpu& gpu) { return !named(gpu); });
  std::erase_if(targets.nvidia, [&](const Gpu& gpu) { return !named(gpu); });
  return capped_siblings;
}

}  // namespace

ProbeResult ProbeGpus(const ProbeRequest& request) {
  ProbeResult result;
  result.searched =
      request.roots.sysfs + "/class/drm and " + request.roots.sysfs + "/bus/pci/devices";
  Targets targets = Discover(request, result);
  const std::size_t capped_siblings =
      request.only_gpu.empty() ? 0 : KeepNamedGpu(request, targets, result);

  // Every query runs at once, whichever API it asks. So the probe takes as long as its
  // slowest GPU.
  std::vector<QueryTarget> queries;
  for (const Gpu& gpu : targets.va) queries.push_back({QueryTarget::Api::kVa, gpu.render_node});
  for (const Gpu& gpu : targets.nvidia) {
    queries.push_back({QueryTarget::Api::kNvidia, gpu.pci_address, request.measure_sessions});
  }
  const std::vector<ChildOutcome> outcomes = RunQueryBatch(request.query, queries);

  for (std::size_t i = 0; i < targets.va.size(); ++i) {
    result.reports.push_back(
        VaReport(targets.va[i],
                 FactsFromOutcome<VaFacts>(outcomes[i], request.query.deadline, &ParseVaFacts)));
  }
  std::vector<Result<NvidiaFacts>> nvidia_facts;
  for (std::size_t i = 0; i < targets.nvidia.size(); ++i) {
    nvidia_facts.push_back(FactsFromOutcome<NvidiaFacts>(
        outcomes[targets.va.size() + i], request.query.deadline, &ParseNvidiaFacts));
  }
  const std::size_t capped_gpus = SessionCappedGpus(nvidia_facts) + capped_siblings;
  for (std::size_t i = 0; i < targets.nvidia.size(); ++i) {
    result.reports.push_back(NvidiaReport(targets.nvidia[i], nvidia_facts[i], capped_gpus));
  }
  std::ranges::sort(result.reports, {}, [](const DeviceReport& r) { return r.device.name; });
  return result;
}

std::vector<std::string> LogLines(const DeviceReport& report) {
  if (!report.queried) return {};
  const std::string where =
      report.gpu.render_node.empty() ? report.gpu.pci_address : report.gpu.render_node;
  const std::string head = "capabilities: " + report.device.name + " (" + where;
  std::vector<std::string> lines;
  if (report.failure) {
    lines.push_back(head + "): query failed: " + *report.failure);
  } else {
    std::string line = head + ", " + JoinLines(ValidUtf8(report.driver)) + "):";
    for (const Capability& capability : kCapabilities) {
      const AttributeValue* value = report.device.Attribute(std::string(capability.name));
      const bool holds = value && std::get<bool>(*value);
      line += " " + std::string(capability.name) + "=" + (holds ? "true" : "false");
    }
    lines.push_back(std::move(line));
  }
  for (const std::string& warning : report.warnings)
    lines.push_back(head + "): warning: " + warning);
  for (const std::string& problem : report.gpu.problems)
    lines.push_back(head + "): warning: " + problem);
  return lines;
}

}  // namespace mc::probe
