#include "pool/kube_api/api_pool.h"

#include <chrono>
#include <utility>

#include "common/kube/kube_config.h"
#include "common/kube/list_watch.h"
#include "pool/kube_api/event_json.h"
#include "pool/kube_api/pod_list_json.h"
#include "pool/kube_api/scale_json.h"

namespace mc::pool {
namespace {

// ApiError is an answer other than success as an Error of the code a caller branches on.
Error ApiError(const std::string& what, const kube::HttpResponse& response) {
  Error error{what + ": " + kube::StatusMessage(response), ErrorCode::kInternal,
              response.retry_after};
  switch (response.status) {
    case 400:
    case 422:
      error.code = ErrorCode::kInvalidInput;
      break;
    case 401:
    case 403:
      error.code = ErrorCode::kPermissionDenied;
      break;
    case 404:
      error.code = ErrorCode::kNotFound;
      break;
    case 409:
      error.code = ErrorCode::kConflict;
      break;
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
      error.code = ErrorCode::kUnavailable;
      break;
    default:
      break;
  }
  return error;
}

// Send makes one request and keeps only an answer of `expected`, else an error naming `what`.
Result<kube::HttpResponse> Send(kube::KubeClient& client, const std::string& what,
                                const kube::HttpRequest& request, long expected) {
  Result<kube::HttpResponse> response = client.Send(request);
  if (!response) {
    Error error = response.error().WithContext(what);
    if (error.code == ErrorCode::kInternal) error.code = ErrorCode::kUnavailable;
    return error;
  }
  if (response->status != expected) return ApiError(what, *response);
  return response;
}

}  // namespace

Result<void> ValidatePoolOptions(const KubernetesPoolOptions& options) {
  if (options.ns.empty()) return InvalidInput("kubernetes pool: the namespace is not set");
  if (options.statefulset.empty())
    return InvalidInput("kubernetes pool: the StatefulSet's name is not set");
  if (options.selector.empty())
    return InvalidInput("kubernetes pool: the pods' label selector is not set");
  if (options.component.empty())
    return InvalidInput("kubernetes pool: the Events' component is not set");
  return Ok();
}

Result<std::unique_ptr<ApiKubernetesPool>> ApiKubernetesPool::Open(
    const KubernetesPoolOptions& options) {
  if (Result<void> valid = ValidatePoolOptions(options); !valid) return valid.error();
  Result<kube::KubeConfig> config = options.kubeconfig.empty()
                                        ? kube::InClusterConfig(kube::ProcessEnvironment())
                                        : kube::LoadKubeconfig(options.kubeconfig);
  if (!config) return config.error().WithContext("kubernetes pool");
  kube::ClientSettings settings;
  settings.request_timeout = options.request_timeout;
  settings.user_agent = options.component;
  Result<std::unique_ptr<kube::KubeClient>> client =
      kube::KubeClient::Create(std::move(config).value(), settings);
  if (!client) return client.error().WithContext("kubernetes pool");
  return std::make_unique<ApiKubernetesPool>(std::move(client).value(), options);
}

ApiKubernetesPool::ApiKubernetesPool(std::unique_ptr<kube::KubeClient> client,
                                     KubernetesPoolOptions options)
    : client_(std::move(client)), options_(std::move(options)) {}

std::string ApiKubernetesPool::StatefulSetPath() const {
  return "/apis/apps/v1/namespaces/" + options_.ns + "/statefulsets/" + options_.statefulset;
}

std::string ApiKubernetesPool::What() const {
  return "statefulset " + options_.ns + "/" + options_.statefulset;
}

Result<Scale> ApiKubernetesPool::ReadScale() {
  const std::string what = What() + ": read scale";
  Result<kube::HttpResponse> response =
      Send(*client_, what, {.target = StatefulSetPath() + "/scale"}, 200);
  if (!response) return response.error();
  Result<Scale> scale = ParseScale(response->body);
  if (!scale) return scale.error().WithContext(what);
  return scale;
}

Result<void> ApiKubernetesPool::WriteScale(int replicas, const std::string& resource_version) {
  if (replicas < 0) return InvalidInput(What() + ": scale to " + std::to_string(replicas));
  const std::string what = What() + ": scale to " + std::to_string(replicas);
  kube::HttpRequest request;
  request.target = StatefulSetPath() + "/scale";
  if (resource_version.empty()) {
    request.method = "PATCH";
    request.content_type = "application/merge-patch+json";
    request.body = ScalePatch(replicas);
  } else {
    request.method = "PUT";
    request.body = ScaleUpdate(options_.ns, options_.statefulset, replicas, resource_version);
  }
  Result<kube::HttpResponse> response = Send(*client_, what, request, 200);
  if (!response) return response.error();
  return Ok();
}

Result<std::vector<WorkerPod>> ApiKubernetesPool::WorkerPods() {
  const std::string what = What() + ": list pods " + options_.selector;
  Result<kube::HttpResponse> response =
      Send(*client_, what,
           {.target = "/api/v1/namespaces/" + options_.ns +
                      "/pods?labelSelector=" + kube::UrlEncode(options_.selector)},
           200);
  if (!response) return response.error();
  Result<std::vector<WorkerPod>> pods = ParseWorkerPods(response->body, options_.statefulset);
  if (!pods) return pods.error().WithContext(what);
  return pods;
}

Result<std::string> ApiKubernetesPool::StatefulSetUid() {
  std::lock_guard lock(uid_mutex_);
  if (!uid_.empty()) return uid_;
  const std::string what = What() + ": read";
  Result<kube::HttpResponse> response = Send(*client_, what, {.target = StatefulSetPath()}, 200);
  if (!response) return response.error();
  Result<std::string> uid = ParseObjectUid(response->body);
  if (!uid) return uid.error().WithContext(what);
  uid_ = *uid;
  return uid_;
}

Result<void> ApiKubernetesPool::RecordEvent(EventType type, const std::string& reason,
                                            const std::string& message) {
  Result<std::string> uid = StatefulSetUid();
  if (!uid) return uid.error();
  const EventSource source{.ns = options_.ns,
                           .statefulset = options_.statefulset,
                           .uid = *uid,
                           .component = options_.component,
                           .instance = options_.instance};
  const PoolEvent event{.type = type, .reason = reason, .message = message};
  kube::HttpRequest request;
  request.method = "POST";
  request.target = "/api/v1/namespaces/" + options_.ns + "/events";
  request.body = EventBody(source, event, std::chrono::system_clock::now());
  Result<kube::HttpResponse> response =
      Send(*client_, What() + ": record event " + reason, request, 201);
  if (!response) return response.error();
  return Ok();
}

}  // namespace mc::pool
