// SliceApi is the agent's few requests to the API server, as values: the ResourceSlices of
// its driver and node, and its Node. Each failure says which request failed and why, and
// carries the server's Retry-After, so that the caller can back off as the server asks.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "dra/resource_slices.h"
#include "kube/kube_client.h"

namespace mc {

inline constexpr char kResourceSlicesPath[] = "/apis/resource.k8s.io/v1/resourceslices";

struct ApiFailure {
  enum class Kind {
    // The object changed or exists already: read again and plan again, at once.
    kConflict,
    // The object is gone.
    kNotFound,
    // Anything else: back off and try again.
    kOther,
  };
  Kind kind = Kind::kOther;
  // "PUT /apis/...: 500 ..." or the transport's error.
  std::string message;
  std::optional<std::chrono::seconds> retry_after;
};

// An answer of the API: the object it returned, or why it failed.
struct ApiAnswer {
  std::optional<ApiFailure> failure;
  nlohmann::json object;
};

class SliceApi {
 public:
  explicit SliceApi(kube::KubeClient& client) : client_(client) {}

  // Write performs one planned write and gives the object the server stored (nothing for
  // a delete). A delete of a slice that is already gone succeeds.
  ApiAnswer Write(const SliceWrite& write);
  // ListSlices reads every slice of `driver` on `node`; the answer's object is the list.
  ApiAnswer ListSlices(const std::string& driver, const std::string& node);
  ApiAnswer GetNode(const std::string& node);

 private:
  ApiAnswer Send(const kube::HttpRequest& request);
  kube::KubeClient& client_;
};

// The field selector of a driver's slices on one node.
std::string SliceSelector(const std::string& driver, const std::string& node);

}  // namespace mc
