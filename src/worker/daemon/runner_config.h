// What the official runner reads:
// - its config.toml, written by the worker before each start;
// - the worker's registration record, from which the runner's registration is written.
// The runner keeps its own registrations in config.toml. The worker writes them there. So a
// registration token never reaches the runner's command line.
#pragma once

#include <cstdint>
#include <string>

#include "common/base/result.h"

namespace mc::worker {

// Registration is what `worker register` got from PeerTube. It is kept in the state directory,
// readable by the worker's user only.
struct Registration {
  // The PeerTube server the runner was registered with.
  std::string server_url;
  std::string runner_name;
  std::int64_t runner_id = 0;
  // The runner's token ("ptrt-…"): a secret, never logged.
  std::string runner_token;
};

std::string RegistrationPath(const std::string& state_dir);
Result<Registration> LoadRegistration(const std::string& path);
Result<void> SaveRegistration(const std::string& path, const Registration& registration);

struct RunnerConfig {
  // The most jobs the GPU can ever carry. The gate lets fewer through when it must.
  std::int64_t concurrency = 1;
  std::int64_t ffmpeg_threads = 2;
  std::int64_t ffmpeg_nice = 20;
  // The URL the runner talks to: the worker's admission gate, not the server.
  std::string url;
  std::string runner_name;
  std::string runner_token;
};

// RunnerConfigToml is the file's text, as the runner's own writer lays it out.
std::string RunnerConfigToml(const RunnerConfig& config);

// RunnerConfigPath is where this id's runner reads it, under XDG_CONFIG_HOME.
std::string RunnerConfigPath(const std::string& xdg_config_home, const std::string& runner_id);

// WritePrivateFile writes `text` whole to `path`, mode 0600. It replaces what was there.
Result<void> WritePrivateFile(const std::string& path, const std::string& text);

}  // namespace mc::worker
