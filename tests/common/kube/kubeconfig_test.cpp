#include <gtest/gtest.h>

#include "common/kube/kube_config.h"
#include "support/temp_dir.h"

namespace mc::kube {
namespace {

using ::mc::testing::TempDir;

// "-----BEGIN CERTIFICATE-----\nca\n" in base64, as a kubeconfig embeds it.
constexpr const char* kCaPem = "-----BEGIN CERTIFICATE-----\nca\n";
constexpr const char* kCaBase64 = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCmNhCg==";

// A kubeconfig with two of everything, so that a test sees the current context's choice.
std::string TwoContexts(const std::string& current, const std::string& user_body) {
  return "apiVersion: v1\n"
         "kind: Config\n"
         "current-context: " +
         current +
         "\n"
         "clusters:\n"
         "- name: other\n"
         "  cluster:\n"
         "    server: https://other.example:6443\n"
         "- name: test\n"
         "  cluster:\n"
         "    server: https://127.0.0.1:6443/\n"
         "    certificate-authority-data: " +
         kCaBase64 +
         "\n"
         "users:\n"
         "- name: other\n"
         "  user:\n"
         "    token: other-token\n"
         "- name: me\n"
         "  user:\n" +
         user_body +
         "contexts:\n"
         "- name: other\n"
         "  context:\n"
         "    cluster: other\n"
         "    user: other\n"
         "- name: me@test\n"
         "  context:\n"
         "    cluster: test\n"
         "    user: me\n";
}

TEST(Kubeconfig, TheCurrentContextPicksItsClusterAndItsUser) {
  Result<KubeConfig> config =
      ParseKubeconfig(TwoContexts("me@test", "    token: my-token\n"), "/nowhere");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->server, "https://127.0.0.1:6443");
  EXPECT_EQ(config->ca_pem, kCaPem);
  EXPECT_EQ(config->token, "my-token");
  EXPECT_TRUE(config->token_file.empty());
  EXPECT_TRUE(config->client_cert_pem.empty());
  EXPECT_FALSE(config->insecure_skip_tls_verify);

  Result<KubeConfig> other =
      ParseKubeconfig(TwoContexts("other", "    token: my-token\n"), "/nowhere");
  ASSERT_TRUE(other) << other.error_message();
  EXPECT_EQ(other->server, "https://other.example:6443");
  EXPECT_EQ(other->token, "other-token");
  EXPECT_TRUE(other->ca_pem.empty());
}

TEST(Kubeconfig, EmbeddedClientCertificateAndKeyAreDecoded) {
  // "cert\n" and "key\n".
  Result<KubeConfig> config = ParseKubeconfig(
      TwoContexts("me@test",
                  "    client-certificate-data: Y2VydAo=\n    client-key-data: a2V5Cg==\n"),
      "/nowhere");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->client_cert_pem, "cert\n");
  EXPECT_EQ(config->client_key_pem, "key\n");
  EXPECT_TRUE(config->token.empty());
}

TEST(Kubeconfig, RelativeCertificatePathsAreTakenFromTheFilesDirectory) {
  TempDir dir;
  dir.Write("kube/pki/ca.crt", "ca from file");
  dir.Write("kube/pki/client.crt", "cert from file");
  dir.Write("kube/pki/client.key", "key from file");
  const auto file = dir.Write("kube/config",
                              "current-context: c\n"
                              "clusters:\n"
                              "- name: k\n"
                              "  cluster:\n"
                              "    server: https://10.0.0.1\n"
                              "    certificate-authority: pki/ca.crt\n"
                              "users:\n"
                              "- name: u\n"
                              "  user:\n"
                              "    client-certificate: pki/client.crt\n"
                              "    client-key: pki/client.key\n"
                              "    tokenFile: token\n"
                              "contexts:\n"
                              "- name: c\n"
                              "  context: {cluster: k, user: u}\n");
  Result<KubeConfig> config = LoadKubeconfig(file);
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->ca_pem, "ca from file");
  EXPECT_EQ(config->client_cert_pem, "cert from file");
  EXPECT_EQ(config->client_key_pem, "key from file");
  EXPECT_EQ(config->token_file, dir.path() / "kube" / "token");
}

TEST(Kubeconfig, AbsolutePathsAreKeptAsTheyAre) {
  TempDir dir;
  const auto ca = dir.Write("elsewhere/ca.crt", "absolute ca");
  Result<KubeConfig> config = ParseKubeconfig(
      "current-context: c\n"
      "clusters: [{name: k, cluster: {server: 'https://h', certificate-authority: '" +
          ca.string() +
          "'}}]\n"
          "users: [{name: u, user: {tokenFile: /run/token}}]\n"
          "contexts: [{name: c, context: {cluster: k, user: u}}]\n",
      "/base/dir");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->ca_pem, "absolute ca");
  EXPECT_EQ(config->token_file, "/run/token");
}

TEST(Kubeconfig, EmbeddedDataWinsOverAFileName) {
  Result<KubeConfig> config = ParseKubeconfig(
      "current-context: c\n"
      "clusters: [{name: k, cluster: {server: 'https://h', certificate-authority: /no/such/file, "
      "certificate-authority-data: '" +
          std::string(kCaBase64) +
          "'}}]\n"
          "contexts: [{name: c, context: {cluster: k}}]\n",
      "/nowhere");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->ca_pem, kCaPem);
}

TEST(Kubeconfig, InsecureSkipTlsVerifyIsRead) {
  Result<KubeConfig> config = ParseKubeconfig(
      "current-context: c\n"
      "clusters: [{name: k, cluster: {server: 'https://h', insecure-skip-tls-verify: true}}]\n"
      "contexts: [{name: c, context: {cluster: k}}]\n",
      "/nowhere");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_TRUE(config->insecure_skip_tls_verify);
}

TEST(Kubeconfig, AServerWithoutSchemeIsHttpsAndLosesItsTrailingSlash) {
  Result<KubeConfig> config = ParseKubeconfig(
      "current-context: c\n"
      "clusters: [{name: k, cluster: {server: 'api.example:443//'}}]\n"
      "contexts: [{name: c, context: {cluster: k}}]\n",
      "/nowhere");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->server, "https://api.example:443");
}

TEST(Kubeconfig, AContextWithoutUserIsAnonymous) {
  Result<KubeConfig> config = ParseKubeconfig(
      "current-context: c\n"
      "clusters: [{name: k, cluster: {server: 'http://h:8080'}}]\n"
      "contexts: [{name: c, context: {cluster: k}}]\n",
      "/nowhere");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->server, "http://h:8080");
  EXPECT_TRUE(config->token.empty());
  EXPECT_TRUE(config->token_file.empty());
}

// Each error case: the kubeconfig's text, and what the error must say.
struct Broken {
  const char* text;
  const char* error;
};

class KubeconfigErrors : public ::testing::TestWithParam<Broken> {};

TEST_P(KubeconfigErrors, NameTheFieldAtFault) {
  Result<KubeConfig> config = ParseKubeconfig(GetParam().text, "/nowhere");
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error_message(), GetParam().error);
}

const Broken kBroken[] = {
    {"current-context: c\n",
     "kubeconfig: current-context names context \"c\", which the file does not hold"},
    {"clusters: []\n", "kubeconfig: current-context is not set"},
    {"[1, 2]\n", "kubeconfig: expected a map at the top"},
    {"current-context: [x]\n", "kubeconfig: current-context: expected a string"},
    {"current-context: c\ncontexts: {c: 1}\n", "kubeconfig: contexts: expected a list"},
    {"current-context: c\ncontexts: [{name: c, context: {user: u}}]\n",
     "kubeconfig: context \"c\": cluster is not set"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b}}]\n",
     "kubeconfig: context \"a\" names cluster \"b\", which the file does not hold"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b, user: u}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h'}}]\n",
     "kubeconfig: context \"a\" names user \"u\", which the file does not hold"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b}}]\nclusters: [{name: b, "
     "cluster: {}}]\n",
     "kubeconfig: cluster \"b\": server is not set"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b}}]\n"
     "clusters: [{name: b, cluster: {server: 'ftp://h'}}]\n",
     "kubeconfig: cluster \"b\": server \"ftp://h\": expected an http or https URL"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://'}}]\n",
     "kubeconfig: cluster \"b\": server \"https://\" names no host"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h', certificate-authority-data: "
     "'no*base64'}}]\n",
     "kubeconfig: cluster \"b\": certificate-authority-data: invalid base64: unexpected character "
     "at offset 2"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h', certificate-authority: ca.crt}}]\n",
     "kubeconfig: cluster \"b\": certificate-authority: cannot read /nowhere/ca.crt: No such file "
     "or directory"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h', insecure-skip-tls-verify: maybe}}]\n",
     "kubeconfig: cluster \"b\": insecure-skip-tls-verify: expected true or false"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h', insecure-skip-tls-verify: true, "
     "certificate-authority-data: Y2EK}}]\n",
     "kubeconfig: cluster \"b\": insecure-skip-tls-verify and a certificate authority together: "
     "specifying a root certificates file with the insecure flag is not allowed"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h', proxy-url: 'http://proxy'}}]\n",
     "kubeconfig: cluster \"b\": proxy-url is not supported"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b, user: u}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h'}}]\n"
     "users: [{name: u, user: {exec: {command: aws}}}]\n",
     "kubeconfig: user \"u\": exec credential plugins are not supported; use a token, a token file "
     "or a client "
     "certificate"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b, user: u}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h'}}]\n"
     "users: [{name: u, user: {auth-provider: {name: gcp}}}]\n",
     "kubeconfig: user \"u\": auth-provider is not supported; use a token, a token file or a "
     "client certificate"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b, user: u}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h'}}]\n"
     "users: [{name: u, user: {username: bob, password: secret}}]\n",
     "kubeconfig: user \"u\": username is not supported"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b, user: u}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h'}}]\n"
     "users: [{name: u, user: {client-certificate-data: Y2VydAo=}}]\n",
     "kubeconfig: user \"u\": client-certificate is set without client-key"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b, user: u}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h'}}]\n"
     "users: [{name: u, user: {client-key: /k, client-certificate-data: Y2VydAo=}}]\n",
     "kubeconfig: user \"u\": client-key: cannot read /k: No such file or directory"},
    {"current-context: a\ncontexts: [{name: a, context: {cluster: b, user: u}}]\n"
     "clusters: [{name: b, cluster: {server: 'https://h'}}]\n"
     "users: [{name: u, user: {token: {nested: 1}}}]\n",
     "kubeconfig: user \"u\": token: expected a string"},
};

INSTANTIATE_TEST_SUITE_P(Kubeconfig, KubeconfigErrors, ::testing::ValuesIn(kBroken));

TEST(Kubeconfig, TextThatIsNotYamlIsAnError) {
  Result<KubeConfig> config = ParseKubeconfig("clusters: [unclosed\n", "/nowhere");
  ASSERT_FALSE(config);
  EXPECT_TRUE(config.error_message().starts_with("kubeconfig: not valid YAML: "))
      << config.error_message();
}

TEST(Kubeconfig, ErrorsOfALoadedFileNameTheFile) {
  TempDir dir;
  const auto file =
      dir.Write("config", "current-context: a\ncontexts: [{name: a, context: {cluster: b}}]\n");
  Result<KubeConfig> config = LoadKubeconfig(file);
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error_message(),
            "kubeconfig " + file.string() +
                ": context \"a\" names cluster \"b\", which the file does not hold");
}

TEST(Kubeconfig, AMissingFileIsAnErrorNamingIt) {
  Result<KubeConfig> config = LoadKubeconfig("/no/such/kubeconfig");
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error_message(), "kubeconfig /no/such/kubeconfig: No such file or directory");
}

}  // namespace
}  // namespace mc::kube
