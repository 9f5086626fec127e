#include "worker/transcode/plan_device.h"

#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/text.h"

namespace mc::worker {
namespace {

using Json = nlohmann::json;

// ReadAttributes fills the device from its attributes. Each is a one-member object naming its type.
bool ReadAttributes(JsonReader& reader, const Json& attributes, const std::string& path,
                    PlanDevice& device) {
  if (!reader.Object(attributes, path)) return false;
  std::string bus_id;
  for (const auto& [name, value] : attributes.items()) {
    const std::string where = JsonReader::Child(path, name.c_str());
    if (!reader.Object(value, where)) return false;
    if (value.size() != 1) {
      return reader.Fail(where, "expected exactly one of \"bool\", \"string\", \"int\"");
    }
    // The member is read through an iterator that outlives the reads. A structured binding of
    // items() would refer into a temporary.
    const auto member = value.begin();
    const std::string type = member.key();
    const Json& typed = member.value();
    const std::string typed_path = JsonReader::Child(where, type.c_str());
    if (type == "bool") {
      bool flag = false;
      if (!reader.Bool(typed, typed_path, flag)) return false;
      device.flags[name] = flag;
    } else if (type == "string") {
      std::string text;
      if (!reader.String(typed, typed_path, text)) return false;
      if (name == "api") device.api = text;
      if (name == "address") device.pci_address = text;
      if (name == "resource.kubernetes.io/pciBusID") bus_id = text;
      if (name == "vendor") device.vendor_id = text;
    } else if (type == "int") {
      std::int64_t number = 0;
      if (!reader.Int(typed, typed_path, INT64_MIN, INT64_MAX, number)) return false;
    } else {
      return reader.Fail(where, "unknown attribute type \"" + type + "\"");
    }
  }
  if (device.pci_address.empty()) device.pci_address = bus_id;
  if (device.api.empty()) return reader.Fail(JsonReader::Child(path, "api"), "missing");
  if (device.api != "nvidia" && device.api != "vaapi") {
    return reader.Fail(JsonReader::Child(path, "api"),
                       "\"" + device.api + "\" is neither \"nvidia\" nor \"vaapi\"");
  }
  return true;
}

// ReadSessions reads capacity.encodeSessions.value, a string of digits, where present.
bool ReadSessions(JsonReader& reader, const Json& capacity, const std::string& path,
                  PlanDevice& device) {
  if (!reader.Object(capacity, path)) return false;
  const Json* sessions = JsonReader::OptionalMember(capacity, "encodeSessions");
  if (!sessions) return true;
  const std::string sessions_path = JsonReader::Child(path, "encodeSessions");
  if (!reader.Object(*sessions, sessions_path)) return false;
  const Json* value = reader.Member(*sessions, sessions_path, "value");
  if (!value) return false;
  const std::string value_path = JsonReader::Child(sessions_path, "value");
  std::string digits;
  if (!reader.String(*value, value_path, digits)) return false;
  const std::optional<std::uint32_t> count =
      digits.size() > 9 ? std::nullopt : ParseInteger<std::uint32_t>(digits);
  if (!count) {
    return reader.Fail(value_path, "expected a string of digits, got \"" + digits + "\"");
  }
  device.encode_sessions = *count;
  return true;
}

}  // namespace

bool PlanDevice::Flag(std::string_view attribute) const {
  const auto it = flags.find(std::string(attribute));
  return it != flags.end() && it->second;
}

Result<PlanDevice> ParsePlanDevice(std::string_view device_json) {
  const Json document = ParseJsonOrDiscarded(device_json);
  JsonReader reader;
  if (document.is_discarded()) return InvalidInput("the device is not valid JSON");
  const Json* element = &document;
  std::string path = "device";
  if (document.is_array()) {
    if (document.size() != 1) {
      return InvalidInput("device: expected one device, the array holds " +
                          std::to_string(document.size()));
    }
    element = &document[0];
    path = JsonReader::Element(path, 0);
  }
  if (!reader.Object(*element, path)) return reader.error();
  PlanDevice device;
  const Json* name = reader.Member(*element, path, "name");
  if (!name || !reader.String(*name, JsonReader::Child(path, "name"), device.name)) {
    return reader.error();
  }
  const Json* attributes = reader.Member(*element, path, "attributes");
  if (!attributes ||
      !ReadAttributes(reader, *attributes, JsonReader::Child(path, "attributes"), device)) {
    return reader.error();
  }
  if (const Json* capacity = JsonReader::OptionalMember(*element, "capacity")) {
    if (!ReadSessions(reader, *capacity, JsonReader::Child(path, "capacity"), device)) {
      return reader.error();
    }
  }
  return device;
}

}  // namespace mc::worker
