#include "agent/api_claim_checker.h"

#include <nlohmann/json.hpp>

#include "facts/json_path.h"

namespace mc {

plugin::ClaimChecker ApiClaimChecker(kube::KubeClient& client) {
  return [&client](const std::string& claim_namespace, const std::string& name,
                   const std::string& uid) -> std::optional<std::string> {
    const std::string claim = claim_namespace + "/" + name;
    Result<kube::HttpResponse> response = client.Send(
        {.target = "/apis/resource.k8s.io/v1/namespaces/" + claim_namespace + "/resourceclaims/" + name});
    if (!response) return "reading claim " + claim + ": " + response.error();
    if (response->status == 404) return "claim " + claim + " does not exist (any more)";
    if (response->status != 200) return "reading claim " + claim + ": " + kube::StatusMessage(*response);
    const nlohmann::json object = nlohmann::json::parse(response->body, nullptr, false);
    const std::string held = JsonStringAt(object, {"metadata", "uid"});
    if (held.empty()) return "reading claim " + claim + ": the answer has no UID";
    if (held != uid) {
      return "claim " + claim + " has UID " + held + ", not " + uid +
             ": the claim the kubelet asked for was deleted and another made under its name";
    }
    return std::nullopt;
  };
}

}  // namespace mc
