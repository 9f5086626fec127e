#include "dra/doctor/cluster_checks.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/base/json_text.h"
#include "dra/doctor/cluster_json.h"
#include "probe/capabilities/encode_session_cap.h"
#include "probe/devices/device_json.h"

namespace mc::dra {
namespace {

constexpr char kResourceApi[] = "resource-api";
constexpr char kCapacity[] = "consumable-capacity";
constexpr char kMediaSlices[] = "media-slices";
constexpr char kPciBusId[] = "liken-pci-bus-id";
constexpr char kPending[] = "pending-claims";

constexpr char kApi[] = "/apis/resource.k8s.io/v1";

constexpr char kKubeconfigRemedy[] =
    "check --kubeconfig (or the pod's service account) and that the API server is up";

// Answer is a GET that should give 200: its body, or a result line that says why not.
struct Answer {
  std::string body;
  std::optional<CheckResult> problem;
};

Answer Read(ClusterApi& api, std::string_view id, const std::string& target) {
  Result<ApiReply> reply = api.Get(target);
  if (!reply)
    return {.problem = Fail(id, "GET " + target + ": " + reply.error_message(), kKubeconfigRemedy)};
  if (reply->status == 401 || reply->status == 403) {
    return {.problem = Warn(id, "GET " + target + ": " + reply->summary,
                            "the doctor's identity may not read this: use a kubeconfig that may "
                            "get and list it")};
  }
  if (reply->status != 200)
    return {.problem = Fail(id, "GET " + target + ": " + reply->summary, kKubeconfigRemedy)};
  return {.body = std::move(reply->body)};
}

std::string Selector(const ClusterTarget& target, const std::string& driver) {
  return std::string(kApi) + "/resourceslices?fieldSelector=spec.driver%3D" + driver +
         "%2Cspec.nodeName%3D" + target.node;
}

CheckResult CheckResourceApi(ClusterApi& api) {
  Answer answer = Read(api, kResourceApi, kApi);
  if (answer.problem) {
    if (answer.problem->finding.find("HTTP 404") != std::string::npos) {
      answer.problem->remedy =
          "resource.k8s.io/v1 is served from Kubernetes 1.34 on: upgrade the control plane";
    }
    return *answer.problem;
  }
  Result<std::vector<std::string>> names = ParseApiResourceNames(answer.body);
  if (!names) return Fail(kResourceApi, names.error_message(), kKubeconfigRemedy);
  std::vector<std::string> missing;
  for (const char* needed : {"resourceslices", "resourceclaims", "deviceclasses"}) {
    if (std::ranges::find(*names, needed) == names->end()) missing.push_back(needed);
  }
  if (!missing.empty()) {
    std::string list;
    for (const std::string& name : missing) list += (list.empty() ? "" : ", ") + name;
    return Fail(kResourceApi, "resource.k8s.io/v1 is served without " + list,
                "upgrade the control plane to Kubernetes 1.34 or later");
  }
  return Ok(kResourceApi,
            "resource.k8s.io/v1 is served (resourceslices, resourceclaims, "
            "deviceclasses)");
}

// CapacitySlice is a slice of one device, shaped as the agent publishes a GeForce's.
// Any number of claims share it.
// It has the encodeSessions capacity and its request policy.
// It is created with dryRun=All.
// So the server validates and answers with what it would store, and stores nothing.
std::string CapacitySlice(const ClusterTarget& target) {
  probe::Device device{
      .name = "doctor-capacity-check",
      .capacity = {{probe::kEncodeSessionsCapacity, {.value = 8, .default_request = 1}}},
      .allow_multiple_allocations = true};
  const nlohmann::ordered_json slice = {
      {"apiVersion", "resource.k8s.io/v1"},
      {"kind", "ResourceSlice"},
      {"metadata", {{"name", "media-capabilities-doctor-" + target.node}}},
      {"spec",
       {{"driver", target.driver},
        {"allNodes", true},
        {"pool",
         {{"name", "media-capabilities-doctor"}, {"generation", 1}, {"resourceSliceCount", 1}}},
        {"devices", probe::DevicesJsonValue({device})}}}};
  return JsonText(slice);
}

CheckResult CheckConsumableCapacity(ClusterApi& api, const ClusterTarget& target) {
  const std::string path = std::string(kApi) + "/resourceslices?dryRun=All";
  Result<ApiReply> reply = api.Post(path, CapacitySlice(target));
  if (!reply)
    return Fail(kCapacity, "POST " + path + ": " + reply.error_message(), kKubeconfigRemedy);
  if (reply->status == 401 || reply->status == 403) {
    return Warn(kCapacity,
                "cannot tell: a dry-run create of a ResourceSlice was refused: " + reply->summary,
                "use a kubeconfig that may create resourceslices; a dry run stores nothing");
  }
  if (reply->status != 200 && reply->status != 201)
    return Fail(kCapacity, "POST " + path + ": " + reply->summary, kKubeconfigRemedy);
  Result<StoredCapacity> stored = ParseStoredCapacity(reply->body, probe::kEncodeSessionsCapacity);
  if (!stored) return Fail(kCapacity, stored.error_message(), kKubeconfigRemedy);
  std::vector<std::string> dropped;
  if (!stored->allow_multiple_allocations) dropped.push_back("allowMultipleAllocations");
  if (!stored->request_policy)
    dropped.push_back(std::string("capacity.") + probe::kEncodeSessionsCapacity + ".requestPolicy");
  if (!dropped.empty()) {
    std::string list;
    for (const std::string& field : dropped) list += (list.empty() ? "" : " and ") + field;
    return Fail(kCapacity,
                "the API server dropped " + list +
                    " from a dry-run ResourceSlice: the DRAConsumableCapacity feature gate is off",
                "turn on DRAConsumableCapacity on the apiserver, the scheduler, the "
                "controller-manager and the kubelets (beta, on by default from 1.36); until then "
                "each media device goes to one claim at a time");
  }
  return Ok(kCapacity, "a dry-run ResourceSlice kept allowMultipleAllocations and the " +
                           std::string(probe::kEncodeSessionsCapacity) +
                           " capacity's requestPolicy: DRAConsumableCapacity is on");
}

CheckResult CheckMediaSlices(ClusterApi& api, const ClusterTarget& target) {
  Answer answer = Read(api, kMediaSlices, Selector(target, target.driver));
  if (answer.problem) return *answer.problem;
  Result<std::vector<SliceSummary>> slices = ParseSlices(answer.body);
  if (!slices) return Fail(kMediaSlices, slices.error_message(), kKubeconfigRemedy);
  if (slices->empty()) {
    return Fail(kMediaSlices, "no " + target.driver + " ResourceSlice for node " + target.node,
                "is the agent running on " + target.node +
                    "? kubectl -n liken-system get pods -o wide --field-selector spec.nodeName=" +
                    target.node +
                    ", then its log (docs/dra/agent.md); a node labelled "
                    "media.liken.sh/gpu=none gets no agent");
  }
  std::string names;
  std::size_t devices = 0;
  for (const SliceSummary& slice : *slices) {
    names += (names.empty() ? "" : ", ") + slice.name;
    devices += slice.devices.size();
  }
  if (devices == 0) {
    return Warn(kMediaSlices,
                names + " publishes no device: the agent found no GPU on " + target.node,
                "the agent's log says where it looked; in liken mode it publishes the render "
                "nodes liken publishes (liken-pci-bus-id)");
  }
  return Ok(kMediaSlices,
            names + ": " + std::to_string(devices) + " device" + (devices == 1 ? "" : "s"));
}

CheckResult CheckLikenPciBusId(ClusterApi& api, const ClusterTarget& target) {
  Answer answer = Read(api, kPciBusId, Selector(target, target.liken_driver));
  if (answer.problem) return *answer.problem;
  Result<std::vector<SliceSummary>> slices = ParseSlices(answer.body);
  if (!slices) return Fail(kPciBusId, slices.error_message(), kKubeconfigRemedy);
  std::vector<std::string> without;
  std::size_t render_nodes = 0;
  for (const SliceSummary& slice : *slices) {
    for (const SliceDevice& device : slice.devices) {
      if (!device.render_node) continue;
      ++render_nodes;
      if (!device.pci_bus_id) without.push_back(device.name);
    }
  }
  if (slices->empty() || render_nodes == 0) {
    return Fail(
        kPciBusId,
        "liken (" + target.liken_driver + ") publishes no render node for node " + target.node,
        "is liken running on " + target.node +
            "? The agent takes its render nodes from liken's slices; without liken run "
            "it with --render-nodes sysfs");
  }
  if (!without.empty()) {
    std::string list;
    for (const std::string& name : without) list += (list.empty() ? "" : ", ") + name;
    return Fail(kPciBusId,
                "liken's render nodes " + list + " on " + target.node +
                    " carry no resource.kubernetes.io/pciBusID, so no claim can pair them with "
                    "their media.liken.sh device",
                "upgrade liken to the release that ships with this agent (docs/install.md)");
  }
  return Ok(kPciBusId, std::to_string(render_nodes) + " render node" +
                           (render_nodes == 1 ? "" : "s") + " of liken on " + target.node +
                           (render_nodes == 1 ? " carries" : " carry") +
                           " resource.kubernetes.io/pciBusID");
}

// WhyPending finds the claim's pod and what the scheduler said of it.
// That is its PodScheduled condition, else its newest Event.
std::string WhyPending(ClusterApi& api, const PendingClaim& claim, std::string& pod_name) {
  const std::string ns_path = "/api/v1/namespaces/" + claim.ns;
  Result<ApiReply> reply = api.Get(ns_path + "/pods");
  if (!reply || reply->status != 200) return "";
  Result<std::vector<PodSummary>> pods = ParsePods(reply->body);
  if (!pods) return "";
  for (const PodSummary& pod : *pods) {
    const bool owns = pod.name == claim.owner_pod;
    if (!owns && std::ranges::find(pod.claims, claim.name) == pod.claims.end()) continue;
    pod_name = pod.name;
    if (!pod.unschedulable.empty()) return pod.unschedulable;
    Result<ApiReply> events = api.Get(
        ns_path + "/events?fieldSelector=involvedObject.kind%3DPod%2CinvolvedObject.name%3D" +
        pod.name);
    if (!events || events->status != 200) return "";
    Result<std::string> message = ParseNewestEventMessage(events->body);
    return message ? *message : "";
  }
  return "";
}

CheckResults CheckPendingClaims(ClusterApi& api, const ClusterTarget& target) {
  Answer classes_answer = Read(api, kPending, std::string(kApi) + "/deviceclasses");
  if (classes_answer.problem) return {*classes_answer.problem};
  Result<std::vector<std::string>> classes =
      ParseClassesOfDriver(classes_answer.body, target.driver);
  if (!classes) return {Fail(kPending, classes.error_message(), kKubeconfigRemedy)};
  Answer claims_answer = Read(api, kPending, std::string(kApi) + "/resourceclaims");
  if (claims_answer.problem) return {*claims_answer.problem};
  Result<std::vector<PendingClaim>> pending =
      ParsePendingClaims(claims_answer.body, *classes, target.driver);
  if (!pending) return {Fail(kPending, pending.error_message(), kKubeconfigRemedy)};
  if (pending->empty()) {
    return {Ok(kPending, "no ResourceClaim for " + target.driver + " devices is waiting")};
  }
  CheckResults results;
  for (const PendingClaim& claim : *pending) {
    std::string pod;
    const std::string why = WhyPending(api, claim, pod);
    const std::string what = "claim " + claim.ns + "/" + claim.name +
                             (pod.empty() ? "" : " (pod " + claim.ns + "/" + pod + ")");
    if (why.empty()) {
      results.push_back(Warn(kPending,
                             what + " is not allocated, and the scheduler has said nothing "
                                    "of it yet",
                             "a claim is allocated when a pod that uses it is scheduled: is there "
                             "such a pod?"));
    } else {
      results.push_back(Fail(kPending, what + " is not allocated: " + why,
                             "compare the claim's selectors with what the nodes' devices state: "
                             "kubectl get resourceslices --field-selector spec.driver=" +
                                 target.driver +
                                 " -o yaml, and media-capabilities probe on the "
                                 "node; docs/dra/guides/claim-a-gpu-by-what-it-decodes.md"));
    }
  }
  return results;
}

}  // namespace

CheckResults ClusterNotChecked(CheckResult resource_api) {
  CheckResults results = {std::move(resource_api)};
  // Every other check reads resource.k8s.io/v1: they would repeat the same failure.
  for (const char* id : {kCapacity, kMediaSlices, kPciBusId, kPending}) {
    results.push_back(Warn(id, "not checked: resource-api failed", "see resource-api"));
  }
  return results;
}

CheckResults ClusterUnreachable(const std::string& why) {
  return ClusterNotChecked(Fail(kResourceApi, why, kKubeconfigRemedy));
}

CheckResults RunClusterChecks(ClusterApi& api, const ClusterTarget& target) {
  CheckResults results = {CheckResourceApi(api)};
  if (results.front().status == Status::kFail) return ClusterNotChecked(results.front());
  results.push_back(CheckConsumableCapacity(api, target));
  results.push_back(CheckMediaSlices(api, target));
  results.push_back(CheckLikenPciBusId(api, target));
  for (CheckResult& result : CheckPendingClaims(api, target)) results.push_back(std::move(result));
  return results;
}

}  // namespace mc::dra
