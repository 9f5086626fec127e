#include "dra/doctor/cluster_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_path.h"
#include "common/base/text.h"

namespace mc::dra {
namespace {

using Json = nlohmann::json;

Result<Json> Parse(std::string_view body, std::string_view what) {
  Json json = ParseJsonOrDiscarded(body);
  if (json.is_discarded() || !json.is_object())
    return InvalidInput(std::string(what) + ": the answer is not a JSON object");
  return json;
}

// Items gives the list's items, which must be an array.
// An empty list may leave it out.
Result<const Json*> Items(const Json& list, std::string_view what) {
  static const Json kEmpty = Json::array();
  const Json* items = JsonAt(list, {"items"});
  if (!items || items->is_null()) return &kEmpty;
  if (!items->is_array()) return InvalidInput(std::string(what) + ": items: expected an array");
  return items;
}

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::ranges::find(names, name) != names.end();
}

// NamesDriver says whether any CEL selector in `selectors` mentions the driver.
// `selectors` is an array of {cel: {expression}}.
bool SelectorsName(const Json* selectors, std::string_view driver) {
  if (!selectors || !selectors->is_array()) return false;
  for (const Json& selector : *selectors) {
    if (JsonStringAt(selector, {"cel", "expression"}).find(driver) != std::string::npos)
      return true;
  }
  return false;
}

}  // namespace

Result<std::vector<std::string>> ParseApiResourceNames(std::string_view body) {
  Result<Json> json = Parse(body, "resource.k8s.io/v1");
  if (!json) return json.error();
  const Json* resources = JsonAt(*json, {"resources"});
  if (!resources || !resources->is_array())
    return InvalidInput("resource.k8s.io/v1: resources: expected an array");
  std::vector<std::string> names;
  for (const Json& resource : *resources) {
    const std::string name = JsonStringAt(resource, {"name"});
    if (!name.empty()) names.push_back(PrintableLine(name));
  }
  return names;
}

Result<std::vector<SliceSummary>> ParseSlices(std::string_view body) {
  Result<Json> json = Parse(body, "resourceslices");
  if (!json) return json.error();
  Result<const Json*> items = Items(*json, "resourceslices");
  if (!items) return items.error();
  std::vector<SliceSummary> slices;
  for (const Json& item : **items) {
    SliceSummary slice{.name = PrintableLine(JsonStringAt(item, {"metadata", "name"}))};
    const Json* devices = JsonAt(item, {"spec", "devices"});
    if (devices && devices->is_array()) {
      for (const Json& device : *devices) {
        const Json* render = JsonAt(device, {"attributes", "renderNode", "bool"});
        slice.devices.push_back(
            {.name = PrintableLine(JsonStringAt(device, {"name"})),
             .render_node = render && render->is_boolean() && render->get<bool>(),
             .pci_bus_id =
                 !JsonStringAt(device, {"attributes", "resource.kubernetes.io/pciBusID", "string"})
                      .empty()});
      }
    }
    slices.push_back(std::move(slice));
  }
  return slices;
}

Result<StoredCapacity> ParseStoredCapacity(std::string_view body, std::string_view capacity) {
  Result<Json> json = Parse(body, "resourceslice");
  if (!json) return json.error();
  const Json* devices = JsonAt(*json, {"spec", "devices"});
  if (!devices || !devices->is_array() || devices->empty())
    return InvalidInput("resourceslice: spec.devices: expected a non-empty array");
  const Json& device = devices->front();
  StoredCapacity stored;
  const Json* multiple = JsonAt(device, {"allowMultipleAllocations"});
  stored.allow_multiple_allocations = multiple && multiple->is_boolean() && multiple->get<bool>();
  const Json* policy = JsonAt(device, {"capacity", std::string(capacity).c_str(), "requestPolicy"});
  stored.request_policy = policy && policy->is_object() && !policy->empty();
  return stored;
}

Result<std::vector<std::string>> ParseClassesOfDriver(std::string_view body,
                                                      std::string_view driver) {
  Result<Json> json = Parse(body, "deviceclasses");
  if (!json) return json.error();
  Result<const Json*> items = Items(*json, "deviceclasses");
  if (!items) return items.error();
  std::vector<std::string> classes;
  for (const Json& item : **items) {
    if (SelectorsName(JsonAt(item, {"spec", "selectors"}), driver))
      classes.push_back(JsonStringAt(item, {"metadata", "name"}));
  }
  return classes;
}

Result<std::vector<PendingClaim>> ParsePendingClaims(std::string_view body,
                                                     const std::vector<std::string>& classes,
                                                     std::string_view driver) {
  Result<Json> json = Parse(body, "resourceclaims");
  if (!json) return json.error();
  Result<const Json*> items = Items(*json, "resourceclaims");
  if (!items) return items.error();
  std::vector<PendingClaim> pending;
  for (const Json& item : **items) {
    const Json* allocation = JsonAt(item, {"status", "allocation"});
    if (allocation && !allocation->is_null()) continue;
    bool media = false;
    const Json* requests = JsonAt(item, {"spec", "devices", "requests"});
    if (requests && requests->is_array()) {
      for (const Json& request : *requests) {
        // A request asks for exactly one class, or the first available of several.
        media = media || Contains(classes, JsonStringAt(request, {"exactly", "deviceClassName"})) ||
                SelectorsName(JsonAt(request, {"exactly", "selectors"}), driver);
        const Json* alternatives = JsonAt(request, {"firstAvailable"});
        if (alternatives && alternatives->is_array()) {
          for (const Json& alternative : *alternatives) {
            media = media || Contains(classes, JsonStringAt(alternative, {"deviceClassName"})) ||
                    SelectorsName(JsonAt(alternative, {"selectors"}), driver);
          }
        }
      }
    }
    if (!media) continue;
    PendingClaim claim{.ns = PrintableLine(JsonStringAt(item, {"metadata", "namespace"})),
                       .name = PrintableLine(JsonStringAt(item, {"metadata", "name"}))};
    const Json* owners = JsonAt(item, {"metadata", "ownerReferences"});
    if (owners && owners->is_array()) {
      for (const Json& owner : *owners) {
        if (JsonStringAt(owner, {"kind"}) == "Pod")
          claim.owner_pod = PrintableLine(JsonStringAt(owner, {"name"}));
      }
    }
    pending.push_back(std::move(claim));
  }
  return pending;
}

Result<std::vector<PodSummary>> ParsePods(std::string_view body) {
  Result<Json> json = Parse(body, "pods");
  if (!json) return json.error();
  Result<const Json*> items = Items(*json, "pods");
  if (!items) return items.error();
  std::vector<PodSummary> pods;
  for (const Json& item : **items) {
    PodSummary pod{.name = PrintableLine(JsonStringAt(item, {"metadata", "name"}))};
    for (const auto& [keys, member] :
         {std::pair{JsonAt(item, {"spec", "resourceClaims"}), "resourceClaimName"},
          std::pair{JsonAt(item, {"status", "resourceClaimStatuses"}), "resourceClaimName"}}) {
      if (!keys || !keys->is_array()) continue;
      for (const Json& claim : *keys) {
        const std::string name = JsonStringAt(claim, {member});
        if (!name.empty()) pod.claims.push_back(PrintableLine(name));
      }
    }
    const Json* conditions = JsonAt(item, {"status", "conditions"});
    if (conditions && conditions->is_array()) {
      for (const Json& condition : *conditions) {
        if (JsonStringAt(condition, {"type"}) == "PodScheduled" &&
            JsonStringAt(condition, {"status"}) == "False") {
          pod.unschedulable = PrintableLine(JsonStringAt(condition, {"message"}));
          if (pod.unschedulable.empty())
            pod.unschedulable = PrintableLine(JsonStringAt(condition, {"reason"}));
        }
      }
    }
    pods.push_back(std::move(pod));
  }
  return pods;
}

Result<std::string> ParseNewestEventMessage(std::string_view body) {
  Result<Json> json = Parse(body, "events");
  if (!json) return json.error();
  Result<const Json*> items = Items(*json, "events");
  if (!items) return items.error();
  std::string newest_time;
  std::string message;
  for (const Json& item : **items) {
    std::string time = JsonStringAt(item, {"lastTimestamp"});
    if (time.empty()) time = JsonStringAt(item, {"eventTime"});
    // RFC 3339 times of one server compare as text.
    if (message.empty() || time >= newest_time) {
      newest_time = time;
      message = PrintableLine(JsonStringAt(item, {"message"}));
    }
  }
  return message;
}

}  // namespace mc::dra
