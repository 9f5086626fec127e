// ClusterApi is what the doctor's cluster checks need of the Kubernetes API.
// It is a GET and a POST that give the server's answer as it came.
// It is an interface of plain values.
// So the binary can hold one without linking the API client.
// The implementation lives in the module media-capabilities-doctor-kube.so.
// It uses the project's API client (src/common/kube), with its HTTP client and OpenSSL.
// cluster_module.h opens the module.
#pragma once

#include <chrono>
#include <string>

#include "common/base/result.h"

namespace mc::dra {

struct ClusterOptions {
  // A kubeconfig file; empty means the pod's own service account (in-cluster).
  std::string kubeconfig;
  std::chrono::milliseconds request_timeout{15000};
};

// One answer of the API server, whatever its status.
struct ApiReply {
  long status = 0;
  std::string body;
  // For an answer other than 2xx, one line:
  // "HTTP 403: <the Status object's message>".
  std::string summary;
};

class ClusterApi {
 public:
  virtual ~ClusterApi() = default;
  // Get and Post fail only when no answer came: refused, TLS, a timeout.
  // An answer of any status is a reply.
  virtual Result<ApiReply> Get(const std::string& target) = 0;
  virtual Result<ApiReply> Post(const std::string& target, const std::string& body) = 0;
};

}  // namespace mc::dra
