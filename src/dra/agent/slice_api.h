// SliceApi is the agent's few requests to the API server, as values.
// They concern the ResourceSlices of its driver and node, and its Node.
// Each failure says which request failed and why.
// It carries a code the caller branches on:
//  - kConflict: the object changed or exists already; read and plan again at once;
//  - kNotFound: the object is gone;
//  - anything else: back off.
// It also carries the server's Retry-After, so the caller backs off as the server asks.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/kube/kube_client.h"
#include "dra/slices/resource_slices.h"

namespace mc::dra {

inline constexpr char kResourceSlicesPath[] = "/apis/resource.k8s.io/v1/resourceslices";

class SliceApi {
 public:
  explicit SliceApi(kube::KubeClient& client) : client_(client) {}

  // Write performs one planned write and gives the object the server stored.
  // A delete gives an empty object.
  // A delete of a slice that is already gone succeeds.
  // A failure's message is "PUT /apis/...: HTTP 500 ..." or the transport's error.
  Result<nlohmann::json> Write(const SliceWrite& write);
  // ListSlices reads every slice of `driver` on `node`: the list object.
  Result<nlohmann::json> ListSlices(const std::string& driver, const std::string& node);
  Result<nlohmann::json> GetNode(const std::string& node);

 private:
  Result<nlohmann::json> Send(const kube::HttpRequest& request);
  kube::KubeClient& client_;
};

// The field selector of a driver's slices on one node.
std::string SliceSelector(const std::string& driver, const std::string& node);

}  // namespace mc::dra
