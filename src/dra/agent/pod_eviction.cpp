#include "dra/agent/pod_eviction.h"

#include <nlohmann/json.hpp>

#include "common/base/json_text.h"
#include "dra/agent/api_call.h"

namespace mc::dra {

Result<void> EvictPod(kube::KubeClient& client, const PodRef& pod) {
  const nlohmann::json eviction = {
      {"apiVersion", "policy/v1"},
      {"kind", "Eviction"},
      {"metadata", {{"name", pod.name}, {"namespace", pod.namespace_name}}}};
  Result<nlohmann::json> answer = SendForObject(
      client,
      {.method = "POST",
       .target = "/api/v1/namespaces/" + pod.namespace_name + "/pods/" + pod.name + "/eviction",
       .body = JsonText(eviction)});
  if (!answer && !answer.error().IsNotFound()) return answer.error();
  return Ok();
}

}  // namespace mc::dra
