// One request to the API server whose answer is one object, as a value.
// On a 2xx it gives the object.
// Else it gives an Error that names the request and the server's reason.
// It carries the server's Retry-After and a code the caller branches on:
//  - 409: conflict;
//  - 404: not found;
//  - 403: permission denied;
//  - anything else: unavailable.
// Every request of the agent goes through it.
#pragma once

#include <nlohmann/json.hpp>

#include "common/base/result.h"
#include "common/kube/kube_client.h"

namespace mc::dra {

Result<nlohmann::json> SendForObject(kube::KubeClient& client, const kube::HttpRequest& request);

}  // namespace mc::dra
