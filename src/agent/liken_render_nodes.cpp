#include "agent/liken_render_nodes.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "gpu/pci_address.h"

namespace mc {
namespace {

using Json = nlohmann::json;

const Json* Member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// Path follows keys through nested objects and gives nullptr where one is missing.
const Json* Path(const Json& object, std::initializer_list<const char*> keys) {
  const Json* at = &object;
  for (const char* key : keys) {
    at = Member(*at, key);
    if (!at) return nullptr;
  }
  return at;
}

std::string StringAt(const Json& object, std::initializer_list<const char*> keys) {
  const Json* value = Path(object, keys);
  return value && value->is_string() ? value->get<std::string>() : "";
}

// AttributeString reads a string attribute, whose API form is {"string": "..."}.
std::string AttributeString(const Json& attributes, const char* name) {
  const Json* value = Path(attributes, {name, "string"});
  return value && value->is_string() ? value->get<std::string>() : "";
}

bool IsRenderNode(const Json& attributes) {
  const Json* value = Path(attributes, {"renderNode", "bool"});
  return value && value->is_boolean() && value->get<bool>();
}

}  // namespace

LikenRenderNodes RenderNodesOfLikenSlices(const std::vector<Json>& slices) {
  std::map<std::string, std::int64_t> newest;
  for (const Json& slice : slices) {
    const Json* generation = Path(slice, {"spec", "pool", "generation"});
    if (!generation || !generation->is_number_integer()) continue;
    std::int64_t& held = newest[StringAt(slice, {"spec", "pool", "name"})];
    held = std::max(held, generation->get<std::int64_t>());
  }

  LikenRenderNodes result;
  for (const Json& slice : slices) {
    const std::string slice_name = StringAt(slice, {"metadata", "name"});
    const Json* generation = Path(slice, {"spec", "pool", "generation"});
    if (!generation || !generation->is_number_integer()) {
      result.problems.push_back("liken's slice " + slice_name + " has no spec.pool.generation; its devices are not read");
      continue;
    }
    if (generation->get<std::int64_t>() < newest[StringAt(slice, {"spec", "pool", "name"})]) continue;
    const Json* devices = Path(slice, {"spec", "devices"});
    if (!devices) continue;
    if (!devices->is_array()) {
      result.problems.push_back("liken's slice " + slice_name + " has a spec.devices that is not a list");
      continue;
    }
    for (const Json& device : *devices) {
      const std::string name = StringAt(device, {"name"});
      const Json* attributes = Member(device, "attributes");
      if (!attributes || !IsRenderNode(*attributes)) continue;
      if (name.empty()) {
        result.problems.push_back("liken's slice " + slice_name + " has a render node with no name");
        continue;
      }
      std::string address = AttributeString(*attributes, "address");
      if (address.empty()) address = AttributeString(*attributes, "resource.kubernetes.io/pciBusID");
      std::optional<std::string> canonical = NormalisePciAddress(address);
      if (!canonical) {
        result.problems.push_back("liken's render node " + name + " in slice " + slice_name +
                                  (address.empty() ? " has no PCI address" : " has an address that is not a PCI address: " + address));
      }
      result.nodes.push_back({name, canonical.value_or("")});
    }
  }
  std::ranges::sort(result.nodes, {}, &LikenRenderNode::device_name);
  auto duplicates = std::ranges::unique(result.nodes, {}, &LikenRenderNode::device_name);
  result.nodes.erase(duplicates.begin(), duplicates.end());
  return result;
}

}  // namespace mc
