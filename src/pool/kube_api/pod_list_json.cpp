#include "pool/kube_api/pod_list_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/text.h"

namespace mc::pool {
namespace {

using Json = nlohmann::json;

// The StatefulSet controller labels each pod with its ordinal (since Kubernetes 1.28).
constexpr char kPodIndexLabel[] = "apps.kubernetes.io/pod-index";

int ParseOrdinal(std::string_view digits) {
  if (digits.empty() || digits.size() > 9) return -1;
  return ParseInteger<int>(digits).value_or(-1);
}

// OptionalString reads `name` of `object` into `out` when it is there; false on a wrong type.
bool OptionalString(JsonReader& reader, const Json& object, const std::string& path,
                    const char* name, std::string& out) {
  const Json* value = JsonReader::OptionalMember(object, name);
  return !value || reader.String(*value, JsonReader::Child(path, name), out);
}

bool OwnedBy(JsonReader& reader, const Json& metadata, const std::string& path,
             const std::string& statefulset, bool& owned) {
  owned = false;
  const Json* owners = JsonReader::OptionalMember(metadata, "ownerReferences");
  if (!owners) return true;
  const std::string owners_path = JsonReader::Child(path, "ownerReferences");
  if (!reader.Array(*owners, owners_path)) return false;
  for (std::size_t i = 0; i < owners->size(); ++i) {
    const Json& owner = (*owners)[i];
    const std::string owner_path = JsonReader::Element(owners_path, i);
    if (!reader.Object(owner, owner_path)) return false;
    std::string kind, name;
    bool controller = false;
    if (!OptionalString(reader, owner, owner_path, "kind", kind) ||
        !OptionalString(reader, owner, owner_path, "name", name))
      return false;
    if (const Json* flag = JsonReader::OptionalMember(owner, "controller")) {
      if (!reader.Bool(*flag, JsonReader::Child(owner_path, "controller"), controller))
        return false;
    }
    if (controller && kind == "StatefulSet" && name == statefulset) owned = true;
  }
  return true;
}

// ReadConditions fills `ready` and `unschedulable` from status.conditions.
bool ReadConditions(JsonReader& reader, const Json& status, const std::string& path,
                    WorkerPod& pod) {
  const Json* conditions = JsonReader::OptionalMember(status, "conditions");
  if (!conditions) return true;
  const std::string list_path = JsonReader::Child(path, "conditions");
  if (!reader.Array(*conditions, list_path)) return false;
  for (std::size_t i = 0; i < conditions->size(); ++i) {
    const Json& condition = (*conditions)[i];
    const std::string condition_path = JsonReader::Element(list_path, i);
    if (!reader.Object(condition, condition_path)) return false;
    std::string type, value, reason, message;
    if (!OptionalString(reader, condition, condition_path, "type", type) ||
        !OptionalString(reader, condition, condition_path, "status", value) ||
        !OptionalString(reader, condition, condition_path, "reason", reason) ||
        !OptionalString(reader, condition, condition_path, "message", message))
      return false;
    if (type == "Ready") pod.ready = value == "True";
    if (type == "PodScheduled" && value == "False") {
      // The message says why (which claims, how many nodes); a condition without one still
      // says that the pod is waiting, in its reason.
      pod.unschedulable = !message.empty() ? message : !reason.empty() ? reason : "not scheduled";
    }
  }
  return true;
}

bool ReadPod(JsonReader& reader, const Json& item, const std::string& path,
             const std::string& statefulset, std::vector<WorkerPod>& pods) {
  if (!reader.Object(item, path)) return false;
  const std::string metadata_path = JsonReader::Child(path, "metadata");
  const Json* metadata = reader.Member(item, path, "metadata");
  if (!metadata || !reader.Object(*metadata, metadata_path)) return false;
  WorkerPod pod;
  const Json* name = reader.Member(*metadata, metadata_path, "name");
  if (!name || !reader.String(*name, JsonReader::Child(metadata_path, "name"), pod.name))
    return false;
  bool owned = false;
  if (!OwnedBy(reader, *metadata, metadata_path, statefulset, owned)) return false;
  if (!owned) return true;

  pod.ordinal = OrdinalOf(pod.name, statefulset);
  if (const Json* labels = JsonReader::OptionalMember(*metadata, "labels")) {
    const std::string labels_path = JsonReader::Child(metadata_path, "labels");
    if (!reader.Object(*labels, labels_path)) return false;
    std::string index;
    if (!OptionalString(reader, *labels, labels_path, kPodIndexLabel, index)) return false;
    if (!index.empty() && ParseOrdinal(index) >= 0) pod.ordinal = ParseOrdinal(index);
  }
  if (const Json* annotations = JsonReader::OptionalMember(*metadata, "annotations")) {
    const std::string annotations_path = JsonReader::Child(metadata_path, "annotations");
    if (!reader.Object(*annotations, annotations_path) ||
        !OptionalString(reader, *annotations, annotations_path, kRunnerNameAnnotation,
                        pod.runner_name))
      return false;
  }
  std::string deletion;
  if (!OptionalString(reader, *metadata, metadata_path, "deletionTimestamp", deletion))
    return false;
  pod.terminating = !deletion.empty();

  if (const Json* spec = JsonReader::OptionalMember(item, "spec")) {
    const std::string spec_path = JsonReader::Child(path, "spec");
    if (!reader.Object(*spec, spec_path) ||
        !OptionalString(reader, *spec, spec_path, "nodeName", pod.node_name))
      return false;
  }
  if (const Json* status = JsonReader::OptionalMember(item, "status")) {
    const std::string status_path = JsonReader::Child(path, "status");
    if (!reader.Object(*status, status_path) ||
        !OptionalString(reader, *status, status_path, "phase", pod.phase) ||
        !OptionalString(reader, *status, status_path, "podIP", pod.pod_ip) ||
        !ReadConditions(reader, *status, status_path, pod))
      return false;
  }
  pods.push_back(std::move(pod));
  return true;
}

}  // namespace

int OrdinalOf(std::string_view pod_name, std::string_view statefulset) {
  if (pod_name.size() <= statefulset.size() + 1 || !pod_name.starts_with(statefulset) ||
      pod_name[statefulset.size()] != '-')
    return -1;
  return ParseOrdinal(pod_name.substr(statefulset.size() + 1));
}

Result<std::vector<WorkerPod>> ParseWorkerPods(std::string_view body,
                                               const std::string& statefulset) {
  const auto fail = [](const std::string& what) { return InvalidInput("pods: " + what); };
  const Json root = ParseJsonOrDiscarded(body);
  if (root.is_discarded()) return fail("not valid JSON");
  JsonReader reader;
  if (!reader.Object(root, "list")) return fail(reader.error_message());
  std::vector<WorkerPod> pods;
  // An empty list may come as "items": null.
  const Json* items = JsonReader::OptionalMember(root, "items");
  if (!items || items->is_null()) return pods;
  if (!reader.Array(*items, "items")) return fail(reader.error_message());
  for (std::size_t i = 0; i < items->size(); ++i) {
    if (!ReadPod(reader, (*items)[i], JsonReader::Element("items", i), statefulset, pods))
      return fail(reader.error_message());
  }
  std::stable_sort(pods.begin(), pods.end(),
                   [](const WorkerPod& a, const WorkerPod& b) { return a.ordinal < b.ordinal; });
  return pods;
}

}  // namespace mc::pool
