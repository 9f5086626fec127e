#include <gtest/gtest.h>

#include <map>

#include "common/kube/kube_config.h"
#include "support/temp_dir.h"

namespace mc::kube {
namespace {

using ::mc::testing::TempDir;

Environment Env(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const std::string& name) -> std::optional<std::string> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

// A service-account mount as the kubelet lays it out.
struct Mount {
  TempDir dir;
  Mount() {
    dir.Write("ca.crt", "the cluster's CA");
    dir.Write("token", "the-token\n");
  }
};

TEST(InClusterConfig, TheServerComesFromTheServiceEnvironment) {
  Mount mount;
  Result<KubeConfig> config = InClusterConfig(
      Env({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}}),
      mount.dir.path());
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->server, "https://10.96.0.1:443");
  EXPECT_EQ(config->ca_pem, "the cluster's CA");
  EXPECT_EQ(config->token, "the-token");
  EXPECT_EQ(config->token_file, mount.dir.path() / "token");
  EXPECT_FALSE(config->insecure_skip_tls_verify);
}

TEST(InClusterConfig, AnIpv6HostIsPutInBrackets) {
  Mount mount;
  Result<KubeConfig> config = InClusterConfig(
      Env({{"KUBERNETES_SERVICE_HOST", "fd00::1"}, {"KUBERNETES_SERVICE_PORT", "6443"}}),
      mount.dir.path());
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->server, "https://[fd00::1]:6443");
}

TEST(InClusterConfig, AMissingHostNamesTheVariable) {
  Mount mount;
  Result<KubeConfig> config =
      InClusterConfig(Env({{"KUBERNETES_SERVICE_PORT", "443"}}), mount.dir.path());
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error_message(),
            "in-cluster configuration: KUBERNETES_SERVICE_HOST is not set (not running in a pod? "
            "give --kubeconfig)");
}

TEST(InClusterConfig, AnEmptyPortNamesTheVariable) {
  Mount mount;
  Result<KubeConfig> config = InClusterConfig(
      Env({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", ""}}),
      mount.dir.path());
  ASSERT_FALSE(config);
  EXPECT_NE(config.error_message().find("KUBERNETES_SERVICE_PORT is not set"), std::string::npos)
      << config.error_message();
}

TEST(InClusterConfig, AMissingCaNamesTheFile) {
  TempDir dir;
  dir.Write("token", "t");
  Result<KubeConfig> config = InClusterConfig(
      Env({{"KUBERNETES_SERVICE_HOST", "h"}, {"KUBERNETES_SERVICE_PORT", "1"}}), dir.path());
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error_message(), "in-cluster configuration: the service account's CA " +
                                        (dir.path() / "ca.crt").string() +
                                        ": No such file or directory");
}

TEST(InClusterConfig, AMissingTokenNamesTheFile) {
  TempDir dir;
  dir.Write("ca.crt", "ca");
  Result<KubeConfig> config = InClusterConfig(
      Env({{"KUBERNETES_SERVICE_HOST", "h"}, {"KUBERNETES_SERVICE_PORT", "1"}}), dir.path());
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error_message(), "in-cluster configuration: the service account's token " +
                                        (dir.path() / "token").string() +
                                        ": No such file or directory");
}

TEST(InClusterConfig, AnEmptyTokenIsAnError) {
  TempDir dir;
  dir.Write("ca.crt", "ca");
  dir.Write("token", "\n");
  Result<KubeConfig> config = InClusterConfig(
      Env({{"KUBERNETES_SERVICE_HOST", "h"}, {"KUBERNETES_SERVICE_PORT", "1"}}), dir.path());
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error_message(), "in-cluster configuration: the service account's token " +
                                        (dir.path() / "token").string() + " is empty");
}

TEST(InClusterConfig, TheProcessEnvironmentIsRead) {
  ::setenv("MEDIA_CAP_KUBE_TEST_VARIABLE", "value", 1);
  EXPECT_EQ(ProcessEnvironment()("MEDIA_CAP_KUBE_TEST_VARIABLE"), "value");
  ::unsetenv("MEDIA_CAP_KUBE_TEST_VARIABLE");
  EXPECT_EQ(ProcessEnvironment()("MEDIA_CAP_KUBE_TEST_VARIABLE"), std::nullopt);
}

}  // namespace
}  // namespace mc::kube
