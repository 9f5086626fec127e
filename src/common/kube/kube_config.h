// KubeConfig says where the API server is and how the agent proves who it is. It comes from a
// kubeconfig file (--kubeconfig). Or it comes from the pod's service-account mount (in-cluster).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::kube {

struct KubeConfig {
  // The server's base URL with no trailing slash, such as "https://127.0.0.1:6443".
  std::string server;
  // The PEM CA bundle that signs the server's certificate. Empty means the system's.
  std::string ca_pem;
  bool insecure_skip_tls_verify = false;
  // A client certificate and its key, as PEM. Both are empty for a token identity.
  std::string client_cert_pem;
  std::string client_key_pem;
  // A bearer token given once (a kubeconfig's `token`).
  std::string token;
  // A bearer token kept in a file (in-cluster, or `tokenFile`). It is re-read whenever the file
  // changes. The kubelet rotates a projected service-account token in place. When set, the client
  // sends the file's token, not `token`, as client-go does.
  std::filesystem::path token_file;
};

// ParseKubeconfig reads a kubeconfig's text. It picks its current context's cluster and user.
// Relative file names in it are taken from `base_dir`, as kubectl does. These are
// certificate-authority, client-certificate, client-key and tokenFile. The certificate files are
// read here. The client reads the token file at each request. Inline `-data` fields win over file
// names. Errors name the field at fault. What the client cannot honour is an error too:
// - exec plugins and auth providers;
// - basic auth and impersonation;
// - proxy-url and tls-server-name.
//
// LoadKubeconfig reads the file and takes its directory as `base_dir`. Its errors name the file.
Result<KubeConfig> ParseKubeconfig(std::string_view yaml_text,
                                   const std::filesystem::path& base_dir);
Result<KubeConfig> LoadKubeconfig(const std::filesystem::path& path);

// The environment as a function, so tests leave the process's own alone.
using Environment = std::function<std::optional<std::string>(const std::string& name)>;
Environment ProcessEnvironment();

inline constexpr std::string_view kServiceAccountDir =
    "/var/run/secrets/kubernetes.io/serviceaccount";

// InClusterConfig is client-go's rest.InClusterConfig. It takes:
// - the server https://KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT, an IPv6 host in brackets;
// - the CA from <account_dir>/ca.crt;
// - the token file <account_dir>/token.
//
// Both files are read once here, so a missing mount fails at start. Errors name the missing
// variable or file.
Result<KubeConfig> InClusterConfig(const Environment& environment,
                                   const std::filesystem::path& account_dir = kServiceAccountDir);

}  // namespace mc::kube
