// The pool service's file: every key read, and a wrong one named with its place.
#include "pool/service/service_config.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "recorded_data.h"

namespace mc::pool {
namespace {

using testing::Recorded;

constexpr const char* kMinimal = R"(peertube:
  url: http://127.0.0.1:9000
  credentials_file: /run/admin
workers:
  - name: a:gpu0
    url: http://127.0.0.1:9464
    control_url: http://127.0.0.1:9466
    control_token_file: /run/a.token
)";

TEST(ServiceConfig, ABareMetalFileGivesEveryWorkerItsCommandsAndThePolicyItsNumbers) {
  Result<ServiceConfig> config = ParseServiceConfig(Recorded("pool-bare-metal.yaml"), "pool.yaml");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->control, ControlMode::kBareMetal);
  EXPECT_EQ(config->peertube.url, "https://videos.example.org");
  EXPECT_EQ(config->peertube.poll, pool::Seconds(20));
  EXPECT_EQ(config->peertube.job_types,
            (std::vector<std::string>{"vod-web-video-transcoding", "vod-hls-transcoding"}));
  EXPECT_EQ(config->listen, "0.0.0.0:9465");
  ASSERT_EQ(config->workers.size(), 2u);
  EXPECT_EQ(config->workers[0].commands.start,
            (std::vector<std::string>{"systemctl", "start", "media-worker@0"}));
  EXPECT_EQ(config->workers[0].commands.deadline, std::chrono::seconds(120));
  EXPECT_EQ(config->workers[0].control_url, "https://10.0.0.5:9466");
  EXPECT_EQ(config->workers[0].control_ca_file, "/etc/media-pool/workers-ca.crt");
  EXPECT_EQ(config->workers[0].control_tls_name, "box-1.example.lan");
  EXPECT_EQ(config->workers[1].control_url, "https://box-2.example.lan:9466");
  EXPECT_FALSE(config->workers[0].wakeable);
  EXPECT_TRUE(config->workers[1].wakeable);
  EXPECT_EQ(config->workers[1].commands.suspend.size(), 4u);
  EXPECT_EQ(config->policy.cycle, pool::Seconds(10));
  EXPECT_EQ(config->policy.hysteresis.up_window, pool::Seconds(30));
  EXPECT_EQ(config->policy.hysteresis.up_windows, 2);
}

// Plain http:// carries the admin's password: on loopback it stays on the host; elsewhere it
// is refused unless the file allows it.
TEST(ServiceConfig, PlainHttpToPeerTubeBeyondThisHostIsRefusedUnlessAllowed) {
  std::string text = kMinimal;
  text.replace(text.find("http://127.0.0.1:9000"), 21, "http://10.0.0.5:9000");
  Result<ServiceConfig> refused = ParseServiceConfig(text, "pool.yaml");
  ASSERT_FALSE(refused);
  EXPECT_NE(
      refused.error_message().find("pool.yaml: peertube.url: http://10.0.0.5:9000 is plain http: "
                                   "the admin's password and session tokens would cross the "
                                   "network in clear"),
      std::string::npos)
      << refused.error_message();
  EXPECT_NE(refused.error_message().find("peertube.allow_plain_http: true"), std::string::npos);
  text.insert(text.find("workers:"), "  allow_plain_http: true\n");
  Result<ServiceConfig> allowed = ParseServiceConfig(text, "pool.yaml");
  ASSERT_TRUE(allowed) << allowed.error_message();
  EXPECT_TRUE(allowed->peertube.allow_plain_http);
  EXPECT_TRUE(ParseServiceConfig(kMinimal, "pool.yaml"));
}

TEST(ServiceConfig, TheDefaultsAreTheWorkersModeWithEveryVodJobType) {
  Result<ServiceConfig> config = ParseServiceConfig(kMinimal, "pool.yaml");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->control, ControlMode::kWorkers);
  EXPECT_FALSE(config->dry_run);
  // Below the workers' ports, which start at 9464.
  EXPECT_EQ(config->listen, "127.0.0.1:9460");
  EXPECT_EQ(config->peertube.job_types.size(), 3u);
  EXPECT_EQ(config->peertube.request_budget, 40);
}

TEST(ServiceConfig, AKubernetesFileNamesTheStatefulSetAndNoWorkers) {
  Result<ServiceConfig> config = ParseServiceConfig(R"(peertube:
  url: https://pt
  credentials_file: /run/admin
control: kubernetes
kubernetes:
  namespace: peertube-workers
  statefulset: peertube-worker
  selector: app.kubernetes.io/name=peertube-worker
  control_ca_file: /run/control/ca.crt
  control_key_file: /run/control/key
  max_replicas: 4
)",
                                                    "pool.yaml");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->kubernetes.statefulset, "peertube-worker");
  EXPECT_EQ(config->kubernetes.worker_port, 9464);
  EXPECT_EQ(config->kubernetes.control_port, 9466);
  EXPECT_EQ(config->kubernetes.control_ca_file, "/run/control/ca.crt");
  EXPECT_EQ(config->kubernetes.control_key_file, "/run/control/key");
  EXPECT_EQ(config->kubernetes.max_replicas, 4);
}

TEST(ServiceConfig, AWrongFileIsAnErrorNamingTheFileAndTheKey) {
  const std::string minimal = kMinimal;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"control: workers\n", "pool.yaml: peertube: missing (the url and credentials_file)"},
      {minimal + "dry_rnu: true\n", "pool.yaml: dry_rnu: unknown key"},
      {minimal + "control: swarm\n",
       "pool.yaml: control: expected workers, bare-metal or kubernetes"},
      {minimal + "    urll: x\n", "pool.yaml: workers[0].urll: unknown key"},
      {minimal + "  - name: a:gpu0\n    url: http://h:1\n    control_url: https://h:2\n"
                 "    control_token_file: t\n",
       "pool.yaml: workers[1].name: \"a:gpu0\" names an earlier worker too"},
      {minimal + "  - name: b:gpu0\n    url: http://h:1\n    control_token_file: t\n",
       "pool.yaml: workers[1].control_url: missing"},
      {minimal + "  - name: b:gpu0\n    url: http://h:1\n    control_url: http://h:2\n"
                 "    control_token_file: t\n",
       "pool.yaml: workers[1].control_url: expected https://HOST:PORT: over http:// to h the "
       "worker's control token would cross the network in clear"},
      {"peertube:\n  url: https://pt\n  credentials_file: /run/admin\ncontrol: kubernetes\n"
       "kubernetes:\n  namespace: n\n  statefulset: s\n  selector: a=b\n"
       "  control_ca_file: /ca\n",
       "pool.yaml: kubernetes.control_key_file: missing"},
      {minimal + "    commands: {start: [true]}\n",
       "pool.yaml: workers[0].commands: only read with control: bare-metal"},
      {minimal + "policy:\n  hysteresis:\n    up_threshold: 2\n",
       "pool.yaml: policy: hysteresis.up_threshold: expected a number between 0 and 1"},
      {"peertube:\n  url: https://pt\n  credentials_file: /run/admin\n  poll: -3s\n",
       "pool.yaml: peertube.poll: expected a positive duration such as 15s"},
      {minimal + "control: kubernetes\n",
       "pool.yaml: kubernetes: missing (the workers' statefulset and selector)"},
  };
  for (const auto& [text, error] : cases) {
    Result<ServiceConfig> config = ParseServiceConfig(text, "pool.yaml");
    ASSERT_FALSE(config) << text;
    EXPECT_EQ(config.error_message(), error) << text;
  }
}

TEST(ServiceConfig, AWorkerUrlThatIsNotHttpIsRefused) {
  std::string text = kMinimal;
  text.replace(text.find("http://127.0.0.1:9464"), 21, "ftp://127.0.0.1:9464");
  Result<ServiceConfig> config = ParseServiceConfig(text, "pool.yaml");
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error_message().rfind("pool.yaml: workers[0].url: expected http://HOST:PORT", 0),
            0u)
      << config.error_message();
}

}  // namespace
}  // namespace mc::pool
