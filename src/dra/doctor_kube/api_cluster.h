// ApiCluster is the doctor's ClusterApi over the project's API client.
// Each call is one request.
// It hands the answer back as it came, with the server's reason on one line.
#pragma once

#include <memory>

#include "common/kube/kube_client.h"
#include "dra/doctor/cluster_api.h"

namespace mc::dra {

class ApiCluster : public ClusterApi {
 public:
  // Open reads the kubeconfig of `options`, or the in-cluster service account.
  // It makes the client, and sends nothing.
  static Result<std::unique_ptr<ApiCluster>> Open(const ClusterOptions& options);
  explicit ApiCluster(std::unique_ptr<kube::KubeClient> client);

  Result<ApiReply> Get(const std::string& target) override;
  Result<ApiReply> Post(const std::string& target, const std::string& body) override;

 private:
  Result<ApiReply> Send(const kube::HttpRequest& request);
  std::unique_ptr<kube::KubeClient> client_;
};

}  // namespace mc::dra
