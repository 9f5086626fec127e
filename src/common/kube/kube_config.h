// KubeConfig is where the API server is and how the agent proves who it is: read from a
// kubeconfig file (--kubeconfig) or from the pod's service-account mount (in-cluster).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::kube {

struct KubeConfig {
  // The server's base URL, such as "https://127.0.0.1:6443", with no trailing slash.
  std::string server;
  // The CA bundle that signs the server's certificate, as PEM; empty means the system's.
  std::string ca_pem;
  bool insecure_skip_tls_verify = false;
  // A client certificate and its key, as PEM; both empty when the identity is a token.
  std::string client_cert_pem;
  std::string client_key_pem;
  // A bearer token given once (a kubeconfig's `token`).
  std::string token;
  // A bearer token kept in a file and re-read whenever the file changes, since the kubelet
  // rotates a projected service-account token in place (in-cluster, or `tokenFile`). When
  // it is set, the client sends the file's token and not `token`, as client-go does.
  std::filesystem::path token_file;
};

// ParseKubeconfig reads a kubeconfig's text and picks its current context's cluster and
// user. Relative file names in it (certificate-authority, client-certificate, client-key,
// tokenFile) are taken from `base_dir`, as kubectl does; the certificate files are read
// here, the token file by the client at each request. Inline `-data` fields win over file
// names. Errors name the field at fault; what the client could not honour (exec plugins,
// auth providers, basic auth, impersonation, proxy-url, tls-server-name) is an error too.
// LoadKubeconfig reads the file and takes its directory as `base_dir`; its errors name it.
Result<KubeConfig> ParseKubeconfig(std::string_view yaml_text,
                                   const std::filesystem::path& base_dir);
Result<KubeConfig> LoadKubeconfig(const std::filesystem::path& path);

// The environment, as a function, so that tests need not change the process's own.
using Environment = std::function<std::optional<std::string>(const std::string& name)>;
Environment ProcessEnvironment();

inline constexpr std::string_view kServiceAccountDir =
    "/var/run/secrets/kubernetes.io/serviceaccount";

// InClusterConfig is client-go's rest.InClusterConfig: https://KUBERNETES_SERVICE_HOST:
// KUBERNETES_SERVICE_PORT (an IPv6 host in brackets), the CA from <account_dir>/ca.crt and
// the token file <account_dir>/token. Both files are read once here, so that a missing mount
// fails at start; errors name the variable or the file that is missing.
Result<KubeConfig> InClusterConfig(const Environment& environment,
                                   const std::filesystem::path& account_dir = kServiceAccountDir);

}  // namespace mc::kube
