// The pool's one configuration file.
// Every key is optional and falls back to the default of config.h.
// A key that is unknown, of the wrong kind or out of range is an error.
// The error names the file, the key and what was expected, such as
// "pool.yaml: hysteresis.up_threshold: expected a number between 0 and 1".
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "common/base/result.h"
#include "pool/policy/config.h"

namespace mc::pool {

// ParsePoolConfig reads the YAML `text` of the file called `file` (used in errors only); a key
// the file leaves out keeps its value in `defaults`.
Result<PoolConfig> ParsePoolConfig(const std::string& text, const std::string& file = "pool.yaml",
                                   const PoolConfig& defaults = PoolConfig{});

// ParsePoolConfigNode is the same for a map already loaded, such as the `policy` section of the
// pool service's file; `file` prefixes every error ("pool.yaml: policy").
Result<PoolConfig> ParsePoolConfigNode(const YAML::Node& root, const std::string& file,
                                       const PoolConfig& defaults = PoolConfig{});

// PoolConfigToYaml writes `config` as a file ParsePoolConfig reads back to the same values.
std::string PoolConfigToYaml(const PoolConfig& config);

}  // namespace mc::pool
