// The pool's configuration file is outside input: a configuration or an error that names
// the file, never a crash; one it accepts writes out and reads back to the same text.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "pool/policy/config_yaml.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto config = mc::pool::ParsePoolConfig(text, "pool.yaml");
  if (!config) {
    if (config.error_message().rfind("pool.yaml", 0) != 0) std::abort();
    return 0;
  }
  if (config->hysteresis.down_threshold >= config->hysteresis.up_threshold) std::abort();
  const std::string written = mc::pool::PoolConfigToYaml(*config);
  auto again = mc::pool::ParsePoolConfig(written, "pool.yaml");
  if (!again || mc::pool::PoolConfigToYaml(*again) != written) std::abort();
  return 0;
}
