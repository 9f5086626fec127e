#include "dra/agent/liken_render_nodes.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "common/base/json_path.h"
#include "probe/gpu/pci_address.h"

namespace mc::dra {
namespace {

using Json = nlohmann::json;

// AttributeString reads a string attribute, whose API form is {"string": "..."}.
std::string AttributeString(const Json& attributes, const char* name) {
  return JsonStringAt(attributes, {name, "string"});
}

bool IsRenderNode(const Json& attributes) {
  const Json* value = JsonAt(attributes, {"renderNode", "bool"});
  return value && value->is_boolean() && value->get<bool>();
}

}  // namespace

LikenRenderNodes RenderNodesOfLikenSlices(const std::vector<Json>& slices) {
  std::map<std::string, std::int64_t> newest;
  for (const Json& slice : slices) {
    const std::optional<std::int64_t> generation = JsonIntAt(slice, {"spec", "pool", "generation"});
    if (!generation) continue;
    std::int64_t& held = newest[JsonStringAt(slice, {"spec", "pool", "name"})];
    held = std::max(held, *generation);
  }

  LikenRenderNodes result;
  for (const Json& slice : slices) {
    const std::string slice_name = JsonStringAt(slice, {"metadata", "name"});
    const std::optional<std::int64_t> generation = JsonIntAt(slice, {"spec", "pool", "generation"});
    if (!generation) {
      result.problems.push_back("liken's slice " + slice_name +
                                " has no spec.pool.generation; its devices are not read");
      continue;
    }
    if (*generation < newest[JsonStringAt(slice, {"spec", "pool", "name"})]) continue;
    const Json* devices = JsonAt(slice, {"spec", "devices"});
    if (!devices) continue;
    if (!devices->is_array()) {
      result.problems.push_back("liken's slice " + slice_name +
                                " has a spec.devices that is not a list");
      continue;
    }
    for (const Json& device : *devices) {
      const std::string name = JsonStringAt(device, {"name"});
      const Json* attributes = JsonAt(device, {"attributes"});
      if (!attributes || !IsRenderNode(*attributes)) continue;
      if (name.empty()) {
        result.problems.push_back("liken's slice " + slice_name +
                                  " has a render node with no name");
        continue;
      }
      std::string address = AttributeString(*attributes, "address");
      if (address.empty())
        address = AttributeString(*attributes, "resource.kubernetes.io/pciBusID");
      std::optional<std::string> canonical = probe::NormalisePciAddress(address);
      if (!canonical) {
        result.problems.push_back("liken's render node " + name + " in slice " + slice_name +
                                  (address.empty()
                                       ? " has no PCI address"
                                       : " has an address that is not a PCI address: " + address));
      }
      result.nodes.push_back({name, canonical.value_or("")});
    }
  }
  std::ranges::sort(result.nodes, {}, &LikenRenderNode::device_name);
  // std::unique, not std::ranges::unique.
  // The fuzz build's clang 14 cannot compile the latter's subrange with GCC 12's library.
  auto same_name = [](const LikenRenderNode& a, const LikenRenderNode& b) {
    return a.device_name == b.device_name;
  };
  result.nodes.erase(std::unique(result.nodes.begin(), result.nodes.end(), same_name),
                     result.nodes.end());
  return result;
}

}  // namespace mc::dra
