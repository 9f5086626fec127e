// A kubeconfig is outside input: the agent reads whatever file --kubeconfig names. The parser
// must answer every text with a value or an error, never a crash or an escaping exception.
// Relative file names are taken from a directory that does not exist, so that they fail to
// read; an absolute one may be read, which does no harm, since nothing is ever written.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/kube/kube_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::kube::KubeConfig> config =
      mc::kube::ParseKubeconfig(text, "/nonexistent-fuzz-base");
  if (!config) {
    if (config.error_message().empty()) std::abort();
    return 0;
  }
  // Whatever is accepted names a server the client can take.
  if (!config->server.starts_with("https://") && !config->server.starts_with("http://"))
    std::abort();
  if (config->client_cert_pem.empty() != config->client_key_pem.empty()) std::abort();
  return 0;
}
