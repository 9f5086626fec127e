// The in-cluster configuration, built as client-go's rest.InClusterConfig builds it:
// - the API server's Service address, from the environment the kubelet gives every container;
// - the CA and the token, from the service account's mount.
#include "common/base/read_file.h"
#include "common/kube/kube_config.h"

namespace mc::kube {

Result<KubeConfig> InClusterConfig(const Environment& environment,
                                   const std::filesystem::path& account_dir) {
  const char* const kHost = "KUBERNETES_SERVICE_HOST";
  const char* const kPort = "KUBERNETES_SERVICE_PORT";
  const std::optional<std::string> host = environment(kHost);
  const std::optional<std::string> port = environment(kPort);
  for (const auto& [name, value] : {std::pair{kHost, &host}, std::pair{kPort, &port}}) {
    if (!*value || (*value)->empty()) {
      return InvalidInput(std::string("in-cluster configuration: ") + name +
                          " is not set (not running in a pod? give --kubeconfig)");
    }
  }

  KubeConfig config;
  // net.JoinHostPort: an IPv6 address goes in brackets. So its colons are not read as the port's.
  const bool ipv6 = host->find(':') != std::string::npos && !host->starts_with('[');
  config.server = "https://" + (ipv6 ? "[" + *host + "]" : *host) + ":" + *port;

  Result<std::string> ca = ReadFileText(account_dir / "ca.crt");
  if (!ca)
    return InvalidInput("in-cluster configuration: the service account's CA " + ca.error_message());
  if (ca->empty())
    return InvalidInput("in-cluster configuration: the service account's CA " +
                        (account_dir / "ca.crt").string() + " is empty");
  config.ca_pem = std::move(ca).value();

  // The token is read once here, so a missing mount fails at start. Otherwise it would fail at the
  // first request. The client reads it again whenever the kubelet rotates it.
  config.token_file = account_dir / "token";
  Result<std::string> token = ReadFileText(config.token_file);
  if (!token)
    return InvalidInput("in-cluster configuration: the service account's token " +
                        token.error_message());
  const char* const space = " \t\r\n";
  const std::size_t first = token->find_first_not_of(space);
  if (first == std::string::npos) {
    return InvalidInput("in-cluster configuration: the service account's token " +
                        config.token_file.string() + " is empty");
  }
  config.token = token->substr(first, token->find_last_not_of(space) - first + 1);
  return config;
}

}  // namespace mc::kube
