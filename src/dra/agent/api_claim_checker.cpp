#include "dra/agent/api_claim_checker.h"

#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_path.h"

namespace mc::dra {

ClaimChecker ApiClaimChecker(kube::KubeClient& client, std::string driver_name) {
  return [&client, driver_name](const std::string& claim_namespace, const std::string& name,
                                const std::string& uid) -> Result<std::vector<PreparedDevice>> {
    const std::string claim = claim_namespace + "/" + name;
    Result<kube::HttpResponse> response =
        client.Send({.target = "/apis/resource.k8s.io/v1/namespaces/" + claim_namespace +
                               "/resourceclaims/" + name});
    if (!response) return Unavailable("reading claim " + claim + ": " + response.error_message());
    if (response->status == 404) return NotFound("claim " + claim + " does not exist (any more)");
    if (response->status != 200)
      return Unavailable("reading claim " + claim + ": " + kube::StatusMessage(*response));
    const nlohmann::json object = ParseJsonOrDiscarded(response->body);
    const std::string held = JsonStringAt(object, {"metadata", "uid"});
    if (held.empty()) return Error{"reading claim " + claim + ": the answer has no UID"};
    if (held != uid) {
      return Error{"claim " + claim + " has UID " + held + ", not " + uid +
                   ": the claim the kubelet asked for was deleted and another made under its name"};
    }
    // The kubelet learns the claim's devices only from this answer.
    // Through them it ties the health stream to the pod.
    // It also lists them in its pod-resources API.
    if (!JsonAt(object, {"status", "allocation"}))
      return Error{"claim " + claim + " is not allocated"};
    std::vector<PreparedDevice> devices;
    const nlohmann::json* results = JsonAt(object, {"status", "allocation", "devices", "results"});
    for (const nlohmann::json& result :
         results && results->is_array() ? *results : nlohmann::json::array()) {
      if (JsonStringAt(result, {"driver"}) != driver_name) continue;
      // A subrequest ("request/subrequest") counts as its request.
      // The kubelet strips it too.
      const std::string request = JsonStringAt(result, {"request"});
      PreparedDevice device{.request_names = {request.substr(0, request.find('/'))},
                            .pool_name = JsonStringAt(result, {"pool"}),
                            .device_name = JsonStringAt(result, {"device"})};
      if (JsonAt(result, {"shareID"})) device.share_id = JsonStringAt(result, {"shareID"});
      devices.push_back(std::move(device));
    }
    return devices;
  };
}

}  // namespace mc::dra
