#include "dra/doctor_kube/api_cluster.h"

#include <utility>

#include "common/kube/kube_config.h"

namespace mc::dra {

Result<std::unique_ptr<ApiCluster>> ApiCluster::Open(const ClusterOptions& options) {
  Result<kube::KubeConfig> config = options.kubeconfig.empty()
                                        ? kube::InClusterConfig(kube::ProcessEnvironment())
                                        : kube::LoadKubeconfig(options.kubeconfig);
  if (!config) return config.error().WithContext("doctor");
  kube::ClientSettings settings;
  settings.request_timeout = options.request_timeout;
  settings.user_agent = "media-capabilities-doctor";
  Result<std::unique_ptr<kube::KubeClient>> client =
      kube::KubeClient::Create(std::move(config).value(), settings);
  if (!client) return client.error();
  return std::make_unique<ApiCluster>(std::move(client).value());
}

ApiCluster::ApiCluster(std::unique_ptr<kube::KubeClient> client) : client_(std::move(client)) {}

Result<ApiReply> ApiCluster::Send(const kube::HttpRequest& request) {
  Result<kube::HttpResponse> response = client_->Send(request);
  if (!response) return response.error();
  ApiReply reply{.status = response->status, .body = std::move(response->body)};
  if (reply.status < 200 || reply.status > 299) {
    reply.summary = kube::StatusMessage({.status = reply.status, .body = reply.body});
  }
  return reply;
}

Result<ApiReply> ApiCluster::Get(const std::string& target) { return Send({.target = target}); }

Result<ApiReply> ApiCluster::Post(const std::string& target, const std::string& body) {
  return Send({.method = "POST", .target = target, .body = body});
}

}  // namespace mc::dra
