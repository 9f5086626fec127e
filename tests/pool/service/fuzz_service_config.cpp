// The pool service's file is outside input: a configuration or an error that names the file,
// never a crash.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "pool/service/service_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto config = mc::pool::ParseServiceConfig(text, "pool.yaml");
  if (!config) {
    if (config.error_message().rfind("pool.yaml", 0) != 0) std::abort();
    return 0;
  }
  if (config->peertube.url.empty() || config->peertube.job_types.empty()) std::abort();
  return 0;
}
