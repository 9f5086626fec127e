// The pool over the API client, against a canned server: which request each call sends, and
// how each answer the server may give comes back. The same pool is then opened through the
// module, the way the binary reaches it.
#include "pool/kube_api/api_pool.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/kube/canned_http_server.h"
#include "pool/kube/pool_module.h"
#include "support/temp_dir.h"

namespace mc::pool {
namespace {

using kube::testing::CannedHttpServer;

KubernetesPoolOptions Options() {
  return {.ns = "peertube-workers",
          .statefulset = "peertube-worker",
          .selector = "app.kubernetes.io/name=peertube-worker",
          .instance = "media-pool-7"};
}

std::unique_ptr<ApiKubernetesPool> PoolOf(const CannedHttpServer& server) {
  kube::KubeConfig config;
  config.server = server.url();
  config.token = "secret";
  Result<std::unique_ptr<kube::KubeClient>> client = kube::KubeClient::Create(std::move(config));
  EXPECT_TRUE(client) << client.error_message();
  return std::make_unique<ApiKubernetesPool>(std::move(client).value(), Options());
}

std::string Answer(int status, const std::string& body) {
  return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\n" +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string RequestLine(const std::string& request) {
  return request.substr(0, request.find("\r\n"));
}
std::string Body(const std::string& request) {
  return request.substr(request.find("\r\n\r\n") + 4);
}

constexpr char kScale[] =
    R"({"kind":"Scale","metadata":{"resourceVersion":"31"},"spec":{"replicas":1}})";

TEST(ApiPool, ReadsTheScaleSubresource) {
  CannedHttpServer server(
      [](const std::string&, const CannedHttpServer::Send& send) { send(Answer(200, kScale)); });
  auto pool = PoolOf(server);
  Result<int> replicas = pool->Replicas();
  ASSERT_TRUE(replicas) << replicas.error_message();
  EXPECT_EQ(*replicas, 1);
  EXPECT_EQ(
      RequestLine(server.requests().at(0)),
      "GET /apis/apps/v1/namespaces/peertube-workers/statefulsets/peertube-worker/scale HTTP/1.1");
}

TEST(ApiPool, AConditionalWriteIsAPutOfTheScaleAtItsVersion) {
  CannedHttpServer server(
      [](const std::string&, const CannedHttpServer::Send& send) { send(Answer(200, kScale)); });
  auto pool = PoolOf(server);
  ASSERT_TRUE(pool->WriteScale(2, "31"));
  const std::string request = server.requests().at(0);
  EXPECT_EQ(
      RequestLine(request),
      "PUT /apis/apps/v1/namespaces/peertube-workers/statefulsets/peertube-worker/scale HTTP/1.1");
  const auto body = nlohmann::json::parse(Body(request));
  EXPECT_EQ(body["metadata"]["resourceVersion"], "31");
  EXPECT_EQ(body["spec"]["replicas"], 2);
}

TEST(ApiPool, ScaleToIsAMergePatch) {
  CannedHttpServer server(
      [](const std::string&, const CannedHttpServer::Send& send) { send(Answer(200, kScale)); });
  auto pool = PoolOf(server);
  ASSERT_TRUE(pool->ScaleTo(0));
  const std::string request = server.requests().at(0);
  EXPECT_TRUE(RequestLine(request).starts_with("PATCH ")) << request;
  EXPECT_NE(request.find("Content-Type: application/merge-patch+json"), std::string::npos)
      << request;
  EXPECT_EQ(nlohmann::json::parse(Body(request))["spec"]["replicas"], 0);
}

TEST(ApiPool, AnswersOtherThanSuccessComeBackAsErrorsOfTheirKind) {
  struct Case {
    int status;
    ErrorCode code;
  };
  for (const Case& c : {Case{403, ErrorCode::kPermissionDenied}, Case{404, ErrorCode::kNotFound},
                        Case{409, ErrorCode::kConflict}, Case{503, ErrorCode::kUnavailable}}) {
    CannedHttpServer server([&c](const std::string&, const CannedHttpServer::Send& send) {
      send(Answer(c.status, R"({"kind":"Status","message":"told no"})"));
    });
    auto pool = PoolOf(server);
    Result<void> result = pool->WriteScale(3, "31");
    ASSERT_FALSE(result) << c.status;
    EXPECT_EQ(result.error_code(), c.code) << c.status << ": " << result.error_message();
    EXPECT_EQ(result.error_message(),
              "statefulset peertube-workers/peertube-worker: scale to 3: HTTP " +
                  std::to_string(c.status) + ": told no");
  }
}

TEST(ApiPool, AServerThatIsGoneIsUnavailable) {
  std::string url;
  {
    CannedHttpServer gone([](const std::string&, const CannedHttpServer::Send&) {});
    url = gone.url();
  }
  kube::KubeConfig config;
  config.server = url;
  auto pool =
      std::make_unique<ApiKubernetesPool>(kube::KubeClient::Create(config).value(), Options());
  Result<Scale> scale = pool->ReadScale();
  ASSERT_FALSE(scale);
  EXPECT_TRUE(scale.error().IsUnavailable()) << scale.error_message();
  EXPECT_TRUE(scale.error_message().starts_with(
      "statefulset peertube-workers/peertube-worker: read scale: "))
      << scale.error_message();
}

TEST(ApiPool, ListsPodsByTheSelector) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send& send) {
    send(Answer(200, R"({"kind":"PodList","items":[]})"));
  });
  auto pool = PoolOf(server);
  Result<std::vector<WorkerPod>> pods = pool->WorkerPods();
  ASSERT_TRUE(pods) << pods.error_message();
  EXPECT_EQ(RequestLine(server.requests().at(0)),
            "GET /api/v1/namespaces/peertube-workers/pods?labelSelector="
            "app.kubernetes.io%2Fname%3Dpeertube-worker HTTP/1.1");
}

TEST(ApiPool, AnEventNamesTheStatefulSetByItsUidReadOnce) {
  CannedHttpServer server([](const std::string& request, const CannedHttpServer::Send& send) {
    if (request.starts_with("GET "))
      send(Answer(
          200, R"({"kind":"StatefulSet","metadata":{"name":"peertube-worker","uid":"sts-uid"}})"));
    else
      send(Answer(201, "{}"));
  });
  auto pool = PoolOf(server);
  ASSERT_TRUE(pool->RecordEvent(EventType::kNormal, "ScaledUp", "one more"));
  ASSERT_TRUE(pool->RecordEvent(EventType::kWarning, "DrainFailed", "no answer"));
  const std::vector<std::string> requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(RequestLine(requests[0]),
            "GET /apis/apps/v1/namespaces/peertube-workers/statefulsets/peertube-worker HTTP/1.1");
  EXPECT_EQ(RequestLine(requests[1]), "POST /api/v1/namespaces/peertube-workers/events HTTP/1.1");
  const auto event = nlohmann::json::parse(Body(requests[2]));
  EXPECT_EQ(event["involvedObject"]["uid"], "sts-uid");
  EXPECT_EQ(event["type"], "Warning");
  EXPECT_EQ(event["reportingInstance"], "media-pool-7");
}

TEST(ApiPool, OpenRefusesOptionsThatNameNoWorkers) {
  KubernetesPoolOptions options = Options();
  options.selector.clear();
  Result<std::unique_ptr<ApiKubernetesPool>> pool = ApiKubernetesPool::Open(options);
  ASSERT_FALSE(pool);
  EXPECT_EQ(pool.error_message(), "kubernetes pool: the pods' label selector is not set");
}

// --- Through the module, as the binary opens it -------------------------------------------

TEST(PoolModule, OpensThePoolAndItsRequestsReachTheServer) {
  CannedHttpServer server(
      [](const std::string&, const CannedHttpServer::Send& send) { send(Answer(200, kScale)); });
  mc::testing::TempDir dir;
  const auto kubeconfig = dir.Write("kubeconfig",
                                    "apiVersion: v1\nkind: Config\n"
                                    "clusters: [{name: c, cluster: {server: '" +
                                        server.url() +
                                        "'}}]\n"
                                        "users: [{name: u, user: {token: t}}]\n"
                                        "contexts: [{name: x, context: {cluster: c, user: u}}]\n"
                                        "current-context: x\n");
  KubernetesPoolOptions options = Options();
  options.kubeconfig = kubeconfig.string();
  Result<std::unique_ptr<KubernetesPool>> pool = OpenKubernetesPool(options, MEDIA_CAP_POOL_MODULE);
  ASSERT_TRUE(pool) << pool.error_message();
  Result<int> replicas = (*pool)->Replicas();
  ASSERT_TRUE(replicas) << replicas.error_message();
  EXPECT_EQ(*replicas, 1);
}

TEST(PoolModule, TheModulesErrorsComeBackWhole) {
  KubernetesPoolOptions options = Options();
  options.kubeconfig = "/nonexistent/kubeconfig";
  Result<std::unique_ptr<KubernetesPool>> pool = OpenKubernetesPool(options, MEDIA_CAP_POOL_MODULE);
  ASSERT_FALSE(pool);
  EXPECT_TRUE(pool.error_message().starts_with("kubernetes pool: ")) << pool.error_message();
  EXPECT_NE(pool.error_message().find("/nonexistent/kubeconfig"), std::string::npos)
      << pool.error_message();
}

TEST(PoolModule, AMissingModuleIsUnavailableAndNamesIt) {
  Result<std::unique_ptr<KubernetesPool>> pool =
      OpenKubernetesPool(Options(), "/nonexistent/media-capabilities-pool-kube.so");
  ASSERT_FALSE(pool);
  EXPECT_TRUE(pool.error().IsUnavailable());
  EXPECT_NE(pool.error_message().find("/nonexistent/media-capabilities-pool-kube.so"),
            std::string::npos)
      << pool.error_message();
}

}  // namespace
}  // namespace mc::pool
