#include "worker/daemon/runner_config.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"
#include "common/base/read_file.h"

namespace mc::worker {
namespace fs = std::filesystem;

namespace {

// A TOML basic string: quotes, backslashes and control characters escaped.
std::string TomlString(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

std::string RegistrationPath(const std::string& state_dir) {
  return (fs::path(state_dir) / "registration.json").string();
}

Result<Registration> LoadRegistration(const std::string& path) {
  Result<std::string> text = ReadFileText(path);
  if (!text) return text.error();
  const nlohmann::json value = ParseJsonOrDiscarded(*text);
  JsonReader reader;
  Registration registration;
  const nlohmann::json* url = nullptr;
  const nlohmann::json* name = nullptr;
  const nlohmann::json* id = nullptr;
  const nlohmann::json* token = nullptr;
  if (value.is_discarded()) return InvalidInput(path + ": not JSON");
  if (!reader.Object(value, "") || !(url = reader.Member(value, "", "server_url")) ||
      !reader.String(*url, "server_url", registration.server_url) ||
      !(name = reader.Member(value, "", "runner_name")) ||
      !reader.String(*name, "runner_name", registration.runner_name) ||
      !(id = reader.Member(value, "", "runner_id")) ||
      !reader.Int(*id, "runner_id", 0, INT64_MAX, registration.runner_id) ||
      !(token = reader.Member(value, "", "runner_token")) ||
      !reader.String(*token, "runner_token", registration.runner_token))
    return InvalidInput(path + ": " + reader.error_message());
  return registration;
}

Result<void> SaveRegistration(const std::string& path, const Registration& registration) {
  const nlohmann::json value = {{"server_url", registration.server_url},
                                {"runner_name", registration.runner_name},
                                {"runner_id", registration.runner_id},
                                {"runner_token", registration.runner_token}};
  return WritePrivateFile(path, JsonText(value, 2) + "\n");
}

std::string RunnerConfigToml(const RunnerConfig& config) {
  std::string text;
  text += "[jobs]\nconcurrency = " + std::to_string(config.concurrency) + "\n\n";
  text += "[ffmpeg]\nthreads = " + std::to_string(config.ffmpeg_threads) +
          "\nnice = " + std::to_string(config.ffmpeg_nice) + "\n\n";
  text += "[[registeredInstances]]\nurl = " + TomlString(config.url) +
          "\nrunnerToken = " + TomlString(config.runner_token) +
          "\nrunnerName = " + TomlString(config.runner_name) + "\n";
  return text;
}

std::string RunnerConfigPath(const std::string& xdg_config_home, const std::string& runner_id) {
  // The runner names its folders with env-paths, which adds "-nodejs" to the name.
  return (fs::path(xdg_config_home) / "peertube-runner-nodejs" / runner_id / "config.toml")
      .string();
}

Result<void> WritePrivateFile(const std::string& path, const std::string& text) {
  std::error_code error;
  fs::create_directories(fs::path(path).parent_path(), error);
  const std::string partial = path + ".partial";
  const int fd = open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Unavailable("cannot write " + partial + ": " + std::strerror(errno));
  // An existing file keeps its old mode through O_CREAT. The secret must not.
  fchmod(fd, 0600);
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      return Unavailable("cannot write " + partial + ": " + std::strerror(errno));
    }
    written += static_cast<std::size_t>(n);
  }
  close(fd);
  if (std::rename(partial.c_str(), path.c_str()) != 0)
    return Unavailable("cannot rename " + partial + " to " + path + ": " + std::strerror(errno));
  return Ok();
}

}  // namespace mc::worker
