// The client against the real kube-apiserver of tests/cluster: every kind of identity the
// agent may be given, a watch that sees what a Send did, and stop. Not a ctest test: it needs
// a control plane, which `make test-cluster` starts, and it fails (never skips) without one:
//
//   tests/cluster/start-control-plane /tmp/cp
//   MEDIA_CAP_CLUSTER_DIR=/tmp/cp build/tests/kube_cluster_tests
#include <gtest/gtest.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/kube/kube_client.h"
#include "common/kube/kube_config.h"
#include "common/kube/watch_event.h"
#include "support/cluster_suite.h"
#include "support/temp_dir.h"

namespace mc::kube {
namespace {

using ::mc::testing::TempDir;
namespace fs = std::filesystem;

constexpr const char* kAgentUser = "system:serviceaccount:liken-system:media-capabilities";

class KubeClientCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* dir = std::getenv("MEDIA_CAP_CLUSTER_DIR");
    ASSERT_TRUE(dir && *dir) << "MEDIA_CAP_CLUSTER_DIR is not set: start a control plane with "
                                "tests/cluster/start-control-plane DIR and give its DIR";
    dir_ = dir;
    Result<std::map<std::string, std::string>> env = mc::testing::ReadClusterEnv(dir_);
    ASSERT_TRUE(env) << env.error_message();
    env_ = std::move(env).value();
    ASSERT_TRUE(env_.count("API_PORT")) << "cluster.env has no API_PORT";
  }

  std::unique_ptr<KubeClient> ClientFrom(const std::string& kubeconfig) {
    Result<KubeConfig> config = LoadKubeconfig(dir_ / kubeconfig);
    EXPECT_TRUE(config) << config.error_message();
    if (!config) return nullptr;
    Result<std::unique_ptr<KubeClient>> client = KubeClient::Create(std::move(config).value());
    EXPECT_TRUE(client) << client.error_message();
    return client ? std::move(client).value() : nullptr;
  }

  // An in-cluster client whose service-account mount is `mount`, holding the agent's token.
  std::unique_ptr<KubeClient> InClusterClient(const TempDir& mount) {
    fs::copy_file(dir_ / "agent.token", mount.path() / "token",
                  fs::copy_options::overwrite_existing);
    fs::copy_file(dir_ / "ca.crt", mount.path() / "ca.crt", fs::copy_options::overwrite_existing);
    const std::string port = env_["API_PORT"];
    Environment environment = [port](const std::string& name) -> std::optional<std::string> {
      if (name == "KUBERNETES_SERVICE_HOST") return "127.0.0.1";
      if (name == "KUBERNETES_SERVICE_PORT") return port;
      return std::nullopt;
    };
    Result<KubeConfig> config = InClusterConfig(environment, mount.path());
    EXPECT_TRUE(config) << config.error_message();
    if (!config) return nullptr;
    return KubeClient::Create(std::move(config).value()).value();
  }

  // Who the server takes the client to be, from a SelfSubjectReview.
  static std::string UserOf(KubeClient& client) {
    HttpRequest request;
    request.method = "POST";
    request.target = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
    request.body = R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})";
    Result<HttpResponse> response = client.Send(request);
    if (!response) return "error: " + response.error_message();
    if (response->status != 201) return StatusMessage(*response);
    const auto review = nlohmann::json::parse(response->body, nullptr, false);
    if (!review.is_object()) return "not JSON: " + response->body;
    return review.value("/status/userInfo/username"_json_pointer, std::string("no username"));
  }

  static std::string UniqueName(const char* what) {
    return std::string("kube-test-") + what + "-" + std::to_string(::getpid()) + "-" +
           std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000007);
  }

  fs::path dir_;
  std::map<std::string, std::string> env_;
};

TEST_F(KubeClientCluster, TheAdminKubeconfigGetsTheVersionWithItsToken) {
  auto client = ClientFrom("admin.kubeconfig");
  ASSERT_TRUE(client);
  Result<HttpResponse> response = client->Send({.target = "/version"});
  ASSERT_TRUE(response) << response.error_message();
  ASSERT_EQ(response->status, 200) << StatusMessage(*response);
  const auto version = nlohmann::json::parse(response->body, nullptr, false);
  ASSERT_TRUE(version.is_object()) << response->body;
  EXPECT_TRUE(version.value("gitVersion", "").starts_with("v1.")) << response->body;
  EXPECT_EQ(UserOf(*client), "admin");
}

TEST_F(KubeClientCluster, TheSchedulerKubeconfigAuthenticatesWithItsClientCertificate) {
  auto client = ClientFrom("scheduler.kubeconfig");
  ASSERT_TRUE(client);
  EXPECT_EQ(UserOf(*client), "system:kube-scheduler");
}

// What the agent may never do, whether or not deploy/'s RBAC has been applied (make
// test-cluster applies it before these tests run): list Secrets across the cluster.
constexpr const char* kRefusedToTheAgent = "/api/v1/secrets?limit=1";

TEST_F(KubeClientCluster, TheAgentInClusterIsRefusedAndTheMessageSaysWhy) {
  TempDir mount;
  auto client = InClusterClient(mount);
  ASSERT_TRUE(client);
  EXPECT_EQ(UserOf(*client), kAgentUser);
  Result<HttpResponse> response = client->Send({.target = kRefusedToTheAgent});
  ASSERT_TRUE(response) << response.error_message();
  EXPECT_EQ(response->status, 403);
  const std::string message = StatusMessage(*response);
  EXPECT_NE(message.find("forbidden"), std::string::npos) << message;
  EXPECT_NE(message.find(kAgentUser), std::string::npos) << message;
  EXPECT_NE(message.find("cannot list resource \"secrets\""), std::string::npos) << message;
}

TEST_F(KubeClientCluster, ARewrittenTokenFileAuthorisesTheNextRequest) {
  TempDir mount;
  auto client = InClusterClient(mount);
  ASSERT_TRUE(client);
  const HttpRequest list{.target = kRefusedToTheAgent};
  Result<HttpResponse> before = client->Send(list);
  ASSERT_TRUE(before) << before.error_message();
  EXPECT_EQ(before->status, 403);

  // The same length as the agent's token: only the file's times tell that it changed. They
  // move in clock ticks, so the rewrite waits for the next one.
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  std::ofstream(mount.path() / "token", std::ios::trunc) << env_["ADMIN_TOKEN"] << "\n";
  Result<HttpResponse> after = client->Send(list);
  ASSERT_TRUE(after) << after.error_message();
  EXPECT_EQ(after->status, 200) << StatusMessage(*after);
  EXPECT_EQ(UserOf(*client), "admin");
}

TEST_F(KubeClientCluster, AWatchSeesACreatedSliceAddedAndThenDeleted) {
  auto client = ClientFrom("admin.kubeconfig");
  ASSERT_TRUE(client);
  const std::string name = UniqueName("watch");

  std::mutex mutex;
  std::condition_variable changed;
  std::vector<WatchEvent> events;
  std::vector<std::string> bad_lines;
  std::atomic<bool> stop{false};
  Result<KubeClient::WatchEnd> end = Error{"not run"};
  std::thread watcher([&] {
    end = client->Watch(
        "/apis/resource.k8s.io/v1/resourceslices?watch=true&fieldSelector=metadata.name%3D" + name,
        [&](std::string_view line) {
          Result<WatchEvent> event = ParseWatchEvent(line);
          std::lock_guard lock(mutex);
          if (event) {
            events.push_back(std::move(event).value());
          } else {
            bad_lines.push_back(event.error_message() + ": " + std::string(line));
          }
          changed.notify_all();
        },
        [&] { return stop.load(); });
  });
  const auto saw = [&](WatchEvent::Type type) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(15), [&] {
      for (const WatchEvent& event : events) {
        if (event.type == type) return true;
      }
      return false;
    });
  };

  // A watch from no resource version starts with the objects that exist, so a create that
  // lands before the watch is open still comes as ADDED.
  const nlohmann::json slice = {
      {"apiVersion", "resource.k8s.io/v1"},
      {"kind", "ResourceSlice"},
      {"metadata", {{"name", name}}},
      {"spec",
       {{"driver", "kube-test.example.com"},
        {"pool", {{"name", name}, {"generation", 1}, {"resourceSliceCount", 1}}},
        {"allNodes", true}}}};
  Result<HttpResponse> created = client->Send({.method = "POST",
                                               .target = "/apis/resource.k8s.io/v1/resourceslices",
                                               .body = slice.dump()});
  ASSERT_TRUE(created) << created.error_message();
  EXPECT_EQ(created->status, 201) << StatusMessage(*created);
  EXPECT_TRUE(saw(WatchEvent::Type::kAdded));

  Result<HttpResponse> deleted = client->Send(
      {.method = "DELETE", .target = "/apis/resource.k8s.io/v1/resourceslices/" + name});
  ASSERT_TRUE(deleted) << deleted.error_message();
  EXPECT_EQ(deleted->status, 200) << StatusMessage(*deleted);
  EXPECT_TRUE(saw(WatchEvent::Type::kDeleted));

  stop = true;
  watcher.join();
  ASSERT_TRUE(end) << end.error_message();
  EXPECT_TRUE(end->stopped);
  EXPECT_EQ(end->status, 200);
  std::lock_guard lock(mutex);
  EXPECT_TRUE(bad_lines.empty()) << bad_lines.front();
  for (const WatchEvent& event : events) {
    EXPECT_EQ(event.object["metadata"]["name"], name);
    EXPECT_FALSE(event.resource_version.empty());
  }
}

TEST_F(KubeClientCluster, StopEndsAQuietWatchWithinAboutASecond) {
  auto client = ClientFrom("admin.kubeconfig");
  ASSERT_TRUE(client);
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> stopped_at_ns{0};
  std::thread stopper([&] {
    // Long enough for the watch to be open and idle.
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    stopped_at_ns = std::chrono::steady_clock::now().time_since_epoch().count();
    stop = true;
  });
  std::size_t lines = 0;
  Result<KubeClient::WatchEnd> end = client->Watch(
      "/apis/resource.k8s.io/v1/resourceslices?watch=true&fieldSelector=metadata.name%3D" +
          UniqueName("quiet"),
      [&](std::string_view) { ++lines; }, [&] { return stop.load(); });
  const auto returned_at = std::chrono::steady_clock::now().time_since_epoch().count();
  stopper.join();
  ASSERT_TRUE(end) << end.error_message();
  EXPECT_TRUE(end->stopped);
  EXPECT_EQ(end->status, 200);
  EXPECT_EQ(lines, 0u);
  const auto took = std::chrono::nanoseconds(returned_at - stopped_at_ns.load());
  EXPECT_LT(took, std::chrono::milliseconds(1300))
      << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
}

TEST_F(KubeClientCluster, FourThreadsMaySendAtOnce) {
  auto client = ClientFrom("admin.kubeconfig");
  ASSERT_TRUE(client);
  const Traffic before = client->traffic();
  std::atomic<int> good{0};
  std::vector<std::string> failures;
  std::mutex mutex;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        Result<HttpResponse> response =
            client->Send({.target = i % 2 ? "/version" : "/api/v1/namespaces/default"});
        if (response && response->status == 200) {
          ++good;
        } else {
          std::lock_guard lock(mutex);
          failures.push_back(response ? StatusMessage(*response) : response.error_message());
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(good, 100) << (failures.empty() ? "" : failures.front());
  const Traffic after = client->traffic();
  EXPECT_EQ(after.requests - before.requests, 100u);
}

TEST_F(KubeClientCluster, TheTrafficCountersGrowWithEachRequest) {
  auto client = ClientFrom("admin.kubeconfig");
  ASSERT_TRUE(client);
  auto other = ClientFrom("admin.kubeconfig");
  EXPECT_EQ(client->traffic().requests, 0u);
  Result<HttpResponse> version = client->Send({.target = "/version"});
  ASSERT_TRUE(version) << version.error_message();
  const Traffic first = client->traffic();
  EXPECT_EQ(first.requests, 1u);
  EXPECT_EQ(first.bytes_received, version->body.size());
  EXPECT_EQ(first.bytes_sent, 0u);

  const std::string review =
      R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})";
  Result<HttpResponse> posted =
      client->Send({.method = "POST",
                    .target = "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                    .body = review});
  ASSERT_TRUE(posted) << posted.error_message();
  const Traffic second = client->traffic();
  EXPECT_EQ(second.requests, 2u);
  EXPECT_EQ(second.bytes_sent, review.size());
  EXPECT_EQ(second.bytes_received, first.bytes_received + posted->body.size());
  // Each client counts its own.
  EXPECT_EQ(other->traffic().requests, 0u);
}

TEST_F(KubeClientCluster, AMissingObjectIsAnAnswerWhoseMessageNamesIt) {
  auto client = ClientFrom("admin.kubeconfig");
  ASSERT_TRUE(client);
  Result<HttpResponse> response =
      client->Send({.target = "/apis/resource.k8s.io/v1/resourceslices/no-such-slice"});
  ASSERT_TRUE(response) << response.error_message();
  EXPECT_EQ(response->status, 404);
  EXPECT_EQ(StatusMessage(*response),
            "HTTP 404: resourceslices.resource.k8s.io \"no-such-slice\" not found");
}

TEST_F(KubeClientCluster, AClientThatTrustsAnotherCaIsRefusedByTls) {
  Result<KubeConfig> config = LoadKubeconfig(dir_ / "admin.kubeconfig");
  ASSERT_TRUE(config) << config.error_message();
  // The front-proxy CA signed no serving certificate of the apiserver.
  std::ifstream other_ca(dir_ / "pki" / "front-proxy-ca.crt");
  config.value().ca_pem.assign(std::istreambuf_iterator<char>(other_ca),
                               std::istreambuf_iterator<char>());
  auto client = KubeClient::Create(std::move(config).value()).value();
  Result<HttpResponse> response = client->Send({.target = "/version"});
  ASSERT_FALSE(response);
  EXPECT_TRUE(response.error_message().starts_with("GET /version: ")) << response.error_message();
}

}  // namespace
}  // namespace mc::kube
