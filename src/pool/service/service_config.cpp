#include "pool/service/service_config.h"

#include <array>
#include <set>
#include <utility>

#include "common/http/url.h"
#include "common/peertube/plain_http.h"
#include "pool/policy/config_yaml.h"
#include "pool/policy/yaml_values.h"

namespace mc::pool {

namespace {

using pool::KeyError;

constexpr std::array<std::pair<std::string_view, ControlMode>, 3> kModes = {{
    {"workers", ControlMode::kWorkers},
    {"bare-metal", ControlMode::kBareMetal},
    {"kubernetes", ControlMode::kKubernetes},
}};

constexpr const char* kTopKeys[] = {"peertube", "control",    "dry_run", "listen",
                                    "workers",  "kubernetes", "policy",  nullptr};
constexpr const char* kPeerTubeKeys[] = {
    "url", "credentials_file", "job_types", "poll", "request_budget", "allow_plain_http", nullptr};
constexpr const char* kWorkerKeys[] = {"name",
                                       "url",
                                       "control_url",
                                       "control_ca_file",
                                       "control_tls_name",
                                       "control_token_file",
                                       "wakeable",
                                       "commands",
                                       nullptr};
constexpr const char* kCommandKeys[] = {"start", "stop", "wake", "suspend", "deadline", nullptr};
constexpr const char* kKubernetesKeys[] = {
    "kubeconfig",   "namespace",       "statefulset",      "selector",     "worker_port",
    "control_port", "control_ca_file", "control_key_file", "max_replicas", nullptr};

// Reader walks the file and keeps the first error; each Read* names its key's full path.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  Result<ServiceConfig> Read(const YAML::Node& root) {
    if (!root.IsMap()) return InvalidInput(file_ + ": expected a map of settings at the top level");
    if (!Keys(root, "", kTopKeys)) return error_;
    ServiceConfig config;
    if (!ReadPeerTube(root["peertube"], config.peertube) ||
        !ReadMode(root["control"], config.control) ||
        !Optional(root["dry_run"], "dry_run", config.dry_run) ||
        !Optional(root["listen"], "listen", config.listen)) {
      return error_;
    }
    if (config.control == ControlMode::kKubernetes) {
      if (!ReadKubernetes(root["kubernetes"], config.kubernetes)) return error_;
      if (root["workers"].IsDefined()) {
        return KeyError(file_, "workers",
                        "the workers are the StatefulSet's pods in kubernetes "
                        "mode; leave the list out");
      }
    } else {
      if (root["kubernetes"].IsDefined()) {
        return KeyError(file_, "kubernetes", "only read with control: kubernetes");
      }
      if (!ReadWorkers(root["workers"], config.control, config.workers)) return error_;
    }
    if (const YAML::Node policy = root["policy"]; policy.IsDefined()) {
      Result<pool::PoolConfig> parsed = pool::ParsePoolConfigNode(policy, file_ + ": policy");
      if (!parsed) return parsed.error();
      config.policy = *parsed;
    }
    return config;
  }

 private:
  bool Fail(const std::string& path, const std::string& what) {
    if (error_.message.empty()) error_ = KeyError(file_, path, what);
    return false;
  }

  bool Keys(const YAML::Node& map, const std::string& path, const char* const* known) {
    if (auto unknown = pool::UnknownKey(map, known)) {
      return Fail(path.empty() ? *unknown : path + "." + *unknown, "unknown key");
    }
    return true;
  }

  bool Map(const YAML::Node& node, const std::string& path, const char* const* known) {
    if (!node.IsMap()) return Fail(path, "expected a map");
    return Keys(node, path, known);
  }

  bool Optional(const YAML::Node& node, const std::string& path, std::string& out) {
    if (!node.IsDefined()) return true;
    return pool::ReadString(node, out) || Fail(path, "expected a string");
  }
  bool Optional(const YAML::Node& node, const std::string& path, bool& out) {
    if (!node.IsDefined()) return true;
    return pool::ReadBool(node, out) || Fail(path, "expected true or false");
  }
  bool OptionalDuration(const YAML::Node& node, const std::string& path, pool::Duration& out) {
    if (!node.IsDefined()) return true;
    if (!pool::ReadDuration(node, out) || out <= pool::Seconds(0)) {
      return Fail(path, "expected a positive duration such as 15s");
    }
    return true;
  }
  bool Required(const YAML::Node& node, const std::string& path, std::string& out) {
    if (!node.IsDefined()) return Fail(path, "missing");
    if (!pool::ReadString(node, out) || out.empty()) return Fail(path, "expected a string");
    return true;
  }
  bool Strings(const YAML::Node& node, const std::string& path, std::vector<std::string>& out) {
    if (!node.IsDefined()) return true;
    if (!node.IsSequence()) return Fail(path, "expected a list of strings");
    out.clear();
    for (std::size_t i = 0; i < node.size(); ++i) {
      std::string word;
      if (!pool::ReadString(node[i], word) || word.empty()) {
        return Fail(path + "[" + std::to_string(i) + "]", "expected a string");
      }
      out.push_back(std::move(word));
    }
    return true;
  }
  bool HttpUrl(const std::string& text, const std::string& path) {
    Result<http::Url> url = http::ParseUrl(text);
    if (!url)
      return Fail(path, "expected http://HOST:PORT or https://HOST (" + url.error_message() + ")");
    return true;
  }
  // A control URL carries the worker's token: TLS, unless it stays on this host.
  bool ControlUrl(const std::string& text, const std::string& path) {
    if (!HttpUrl(text, path)) return false;
    const http::Url url = *http::ParseUrl(text);
    if (url.scheme == "http" && !peertube::IsLoopback(url.host))
      return Fail(path, "expected https://HOST:PORT: over http:// to " + url.host +
                            " the worker's control token would cross the network in clear");
    return true;
  }
  bool Port(const YAML::Node& node, const std::string& path, int& out) {
    if (!node.IsDefined()) return true;
    if (!pool::ReadInteger(node, out) || out < 1 || out > 65535)
      return Fail(path, "expected a port between 1 and 65535");
    return true;
  }

  bool ReadPeerTube(const YAML::Node& node, PeerTubeSettings& out) {
    if (!node.IsDefined()) return Fail("peertube", "missing (the url and credentials_file)");
    if (!Map(node, "peertube", kPeerTubeKeys) || !Required(node["url"], "peertube.url", out.url) ||
        !HttpUrl(out.url, "peertube.url") ||
        !Required(node["credentials_file"], "peertube.credentials_file", out.credentials_file) ||
        !Strings(node["job_types"], "peertube.job_types", out.job_types) ||
        !OptionalDuration(node["poll"], "peertube.poll", out.poll) ||
        !Optional(node["allow_plain_http"], "peertube.allow_plain_http", out.allow_plain_http)) {
      return false;
    }
    if (Result<void> checked =
            peertube::CheckPlainHttp(*http::ParseUrl(out.url), out.allow_plain_http,
                                     kPeerTubeSecrets, "peertube.allow_plain_http: true");
        !checked) {
      return Fail("peertube.url", checked.error_message());
    }
    if (out.job_types.empty()) return Fail("peertube.job_types", "expected at least one job type");
    if (const YAML::Node budget = node["request_budget"]; budget.IsDefined()) {
      if (!pool::ReadInteger(budget, out.request_budget) || out.request_budget < 1 ||
          out.request_budget > 1000) {
        return Fail("peertube.request_budget", "expected an integer between 1 and 1000");
      }
    }
    return true;
  }

  bool ReadMode(const YAML::Node& node, ControlMode& out) {
    if (!node.IsDefined()) return true;
    std::string name;
    pool::ReadString(node, name);
    for (const auto& [word, mode] : kModes) {
      if (word == name) {
        out = mode;
        return true;
      }
    }
    return Fail("control", "expected workers, bare-metal or kubernetes");
  }

  bool ReadWorkers(const YAML::Node& node, ControlMode mode, std::vector<WorkerEndpoint>& out) {
    if (!node.IsDefined() || !node.IsSequence() || node.size() == 0) {
      return Fail("workers", "expected a list of workers, each with a name and a url");
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < node.size(); ++i) {
      const std::string path = "workers[" + std::to_string(i) + "]";
      const YAML::Node entry = node[i];
      WorkerEndpoint worker;
      if (!Map(entry, path, kWorkerKeys) || !Required(entry["name"], path + ".name", worker.name) ||
          !Required(entry["url"], path + ".url", worker.url) ||
          !HttpUrl(worker.url, path + ".url") ||
          !Required(entry["control_url"], path + ".control_url", worker.control_url) ||
          !ControlUrl(worker.control_url, path + ".control_url") ||
          !Optional(entry["control_ca_file"], path + ".control_ca_file", worker.control_ca_file) ||
          !Optional(entry["control_tls_name"], path + ".control_tls_name",
                    worker.control_tls_name) ||
          !Required(entry["control_token_file"], path + ".control_token_file",
                    worker.control_token_file) ||
          !Optional(entry["wakeable"], path + ".wakeable", worker.wakeable)) {
        return false;
      }
      if (!names.insert(worker.name).second) {
        return Fail(path + ".name", "\"" + worker.name + "\" names an earlier worker too");
      }
      if (const YAML::Node commands = entry["commands"]; commands.IsDefined()) {
        if (mode != ControlMode::kBareMetal) {
          return Fail(path + ".commands", "only read with control: bare-metal");
        }
        if (!ReadCommands(commands, path + ".commands", worker.commands)) return false;
      }
      out.push_back(std::move(worker));
    }
    return true;
  }

  bool ReadCommands(const YAML::Node& node, const std::string& path, BareMetalCommands& out) {
    if (!Map(node, path, kCommandKeys) || !Strings(node["start"], path + ".start", out.start) ||
        !Strings(node["stop"], path + ".stop", out.stop) ||
        !Strings(node["wake"], path + ".wake", out.wake) ||
        !Strings(node["suspend"], path + ".suspend", out.suspend)) {
      return false;
    }
    pool::Duration deadline = out.deadline;
    if (!OptionalDuration(node["deadline"], path + ".deadline", deadline)) return false;
    out.deadline = std::chrono::seconds(static_cast<long>(deadline.count() + 0.5));
    return true;
  }

  bool ReadKubernetes(const YAML::Node& node, KubernetesSettings& out) {
    const std::string path = "kubernetes";
    if (!node.IsDefined()) return Fail(path, "missing (the workers' statefulset and selector)");
    if (!Map(node, path, kKubernetesKeys) ||
        !Optional(node["kubeconfig"], path + ".kubeconfig", out.kubeconfig) ||
        !Required(node["namespace"], path + ".namespace", out.namespace_name) ||
        !Required(node["statefulset"], path + ".statefulset", out.statefulset) ||
        !Required(node["selector"], path + ".selector", out.selector) ||
        !Port(node["worker_port"], path + ".worker_port", out.worker_port) ||
        !Port(node["control_port"], path + ".control_port", out.control_port) ||
        !Required(node["control_ca_file"], path + ".control_ca_file", out.control_ca_file) ||
        !Required(node["control_key_file"], path + ".control_key_file", out.control_key_file)) {
      return false;
    }
    if (const YAML::Node most = node["max_replicas"]; most.IsDefined()) {
      if (!pool::ReadInteger(most, out.max_replicas) || out.max_replicas < 1 ||
          out.max_replicas > 1000) {
        return Fail(path + ".max_replicas", "expected an integer between 1 and 1000");
      }
    }
    return true;
  }

  std::string file_;
  Error error_{"", ErrorCode::kInvalidInput};
};

}  // namespace

Result<ServiceConfig> ParseServiceConfig(const std::string& text, const std::string& file) {
  Result<YAML::Node> loaded = pool::LoadYaml(text, file);
  if (!loaded) return loaded.error();
  return Reader(file).Read(*loaded);
}

std::string_view ControlModeName(ControlMode mode) {
  for (const auto& [word, value] : kModes) {
    if (value == mode) return word;
  }
  return "workers";
}

}  // namespace mc::pool
