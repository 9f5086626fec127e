// One request to the API server whose answer is one object, as a value: the object on a 2xx,
// else an Error that names the request and gives the server's reason, with a code the caller
// branches on (409 conflict, 404 not found, 403 permission denied, anything else unavailable)
// and the server's Retry-After. Every request of the agent goes through it.
#pragma once

#include <nlohmann/json.hpp>

#include "common/base/result.h"
#include "common/kube/kube_client.h"

namespace mc::dra {

Result<nlohmann::json> SendForObject(kube::KubeClient& client, const kube::HttpRequest& request);

}  // namespace mc::dra
