#include "probe/devices/device_json.h"

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include "common/base/json_text.h"

namespace mc::probe {
namespace {

using OrderedJson = nlohmann::ordered_json;

OrderedJson AttributeToJson(const AttributeValue& value) {
  return std::visit(
      [](const auto& v) -> OrderedJson {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) return {{"bool", v}};
        if constexpr (std::is_same_v<T, std::int64_t>) return {{"int", v}};
        if constexpr (std::is_same_v<T, std::string>) return {{"string", v}};
      },
      value);
}

OrderedJson DeviceToJson(const Device& device) {
  OrderedJson attributes = OrderedJson::object();
  for (const auto& [name, value] : device.attributes) attributes[name] = AttributeToJson(value);
  OrderedJson out = {{"name", device.name}, {"attributes", std::move(attributes)}};
  if (!device.capacity.empty()) {
    OrderedJson capacity = OrderedJson::object();
    // A capacity's value is a resource.Quantity, which the API writes as a string.
    for (const auto& [name, value] : device.capacity) {
      OrderedJson entry = {{"value", std::to_string(value.value)}};
      if (value.default_request) {
        entry["requestPolicy"] = {
            {"default", std::to_string(*value.default_request)},
            {"validRange", {{"min", "0"}, {"max", std::to_string(value.value)}, {"step", "1"}}}};
      }
      capacity[name] = std::move(entry);
    }
    out["capacity"] = std::move(capacity);
  }
  if (device.allow_multiple_allocations) out["allowMultipleAllocations"] = true;
  return out;
}

void EmitYaml(YAML::Emitter& out, const OrderedJson& value) {
  if (value.is_object()) {
    out << YAML::BeginMap;
    for (const auto& [key, item] : value.items()) {
      out << YAML::Key << key << YAML::Value;
      EmitYaml(out, item);
    }
    out << YAML::EndMap;
  } else if (value.is_array()) {
    out << YAML::BeginSeq;
    for (const OrderedJson& item : value) EmitYaml(out, item);
    out << YAML::EndSeq;
  } else if (value.is_boolean()) {
    out << value.get<bool>();
  } else if (value.is_number_integer()) {
    out << value.get<std::int64_t>();
  } else if (value.is_string()) {
    // Quoted, so that a string such as "8086" or "true" stays a string when read back.
    out << YAML::DoubleQuoted << value.get<std::string>();
  } else {
    out << YAML::Null;
  }
}

}  // namespace

OrderedJson DevicesJsonValue(const std::vector<Device>& devices) {
  OrderedJson list = OrderedJson::array();
  for (const Device& device : devices) list.push_back(DeviceToJson(device));
  return list;
}

std::string DevicesToJson(const std::vector<Device>& devices) {
  return JsonText(DevicesJsonValue(devices), 2) + "\n";
}

std::string DevicesToYaml(const std::vector<Device>& devices) {
  YAML::Emitter out;
  out.SetBoolFormat(YAML::TrueFalseBool);
  EmitYaml(out, DevicesJsonValue(devices));
  return std::string(out.c_str()) + "\n";
}

}  // namespace mc::probe
