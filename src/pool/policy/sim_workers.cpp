#include "pool/policy/sim_workers.h"

#include <unordered_set>

#include "pool/policy/yaml_values.h"

namespace mc::pool {

namespace {

const char* const kWorkerKeys[] = {
    "name",       "count",    "vendor",      "concurrency",  "speed",         "startup",
    "enable",     "boot",     "probe_every", "probe_age",    "state",         "weight",
    "max_height", "av1_dec",  "av1_enc",     "vram_free_mb", "download_mbps", "sessions_cap",
    "cold",       "wakeable", "on_battery",  "fail",         nullptr};

struct StartStateName {
  const char* name;
  ManagerState state;
};
constexpr StartStateName kStartStates[] = {{"active", ManagerState::kActive},
                                           {"spare", ManagerState::kSpare},
                                           {"warm", ManagerState::kWarm},
                                           {"cold", ManagerState::kCold}};
const char* const kFailKeys[] = {"kind", "at", "for", nullptr};

struct FailureName {
  const char* name;
  FailureKind kind;
};
constexpr FailureName kFailureNames[] = {{"gpu_unavailable", FailureKind::kGpuUnavailable},
                                         {"thermal", FailureKind::kThermal},
                                         {"no_evidence", FailureKind::kNoEvidence},
                                         {"unreadable", FailureKind::kUnreadable}};

// WorkerReader reads one entry of the list, keeping its place for the errors.
class WorkerReader {
 public:
  WorkerReader(const YAML::Node& node, std::string path, const std::string& file)
      : node_(node), path_(std::move(path)), file_(file) {}

  Result<void> Read(SimWorkerSpec& spec, int& count) {
    if (!node_.IsMap()) return Fail("", "expected a map");
    if (auto unknown = UnknownKey(node_, kWorkerKeys)) return Fail("." + *unknown, "unknown key");
    if (!ReadString(node_["name"], spec.name) || spec.name.empty()) {
      return Fail(".name", "expected a non-empty string");
    }
    double number = 0;
    Duration duration{};
    bool flag = false;
    int integer = 0;
    std::optional<Error> error;
    const auto integer_key = [&](const char* key, int low, int high, int& out) {
      if (error || !node_[key].IsDefined()) return;
      if (!ReadInteger(node_[key], integer) || integer < low || integer > high) {
        error = KeyError(
            file_, path_ + "." + key,
            "expected an integer between " + std::to_string(low) + " and " + std::to_string(high));
      } else {
        out = integer;
      }
    };
    const auto number_key = [&](const char* key, double low, double& out) {
      if (error || !node_[key].IsDefined()) return;
      if (!ReadNumber(node_[key], number) || number < low) {
        error = KeyError(file_, path_ + "." + key,
                         "expected a number of at least " + std::to_string(static_cast<int>(low)));
      } else {
        out = number;
      }
    };
    const auto duration_key = [&](const char* key, double& out) {
      if (error || !node_[key].IsDefined()) return;
      if (!ReadDuration(node_[key], duration)) {
        error = KeyError(file_, path_ + "." + key,
                         "expected a duration (seconds, or a number with s, m or h)");
      } else {
        out = duration.count();
      }
    };
    const auto bool_key = [&](const char* key, bool& out) {
      if (error || !node_[key].IsDefined()) return;
      if (!ReadBool(node_[key], flag))
        error = KeyError(file_, path_ + "." + key, "expected true or false");
      else
        out = flag;
    };
    integer_key("count", 1, 100000, count);
    integer_key("concurrency", 1, 64, spec.concurrency);
    integer_key("max_height", 1, 8640, spec.capabilities.max_height);
    integer_key("sessions_cap", 0, 1000, spec.sessions_cap);
    number_key("speed", 0, spec.speed);
    number_key("vram_free_mb", 0, spec.vram_free_mb);
    number_key("download_mbps", 0, spec.download_mbps);
    duration_key("startup", spec.startup_s);
    if (node_["enable"].IsDefined()) {
      double enable_s = 0;
      duration_key("enable", enable_s);
      spec.enable_s = enable_s;
    }
    duration_key("probe_age", spec.probe_age_at_start);
    duration_key("boot", spec.boot_s);
    duration_key("probe_every", spec.probe_every_s);
    bool_key("av1_dec", spec.capabilities.av1_dec);
    bool_key("av1_enc", spec.capabilities.av1_enc);
    bool_key("cold", spec.cold);
    bool_key("wakeable", spec.wakeable);
    bool_key("on_battery", spec.on_battery);
    if (error) return *error;
    if (spec.speed <= 0) return Fail(".speed", "expected a number above 0");
    if (node_["weight"].IsDefined()) {
      double weight = 0;
      if (!ReadNumber(node_["weight"], weight) || weight < 0.01 || weight > 100) {
        return Fail(".weight", "expected a number between 0.01 and 100");
      }
      spec.weight = weight;
    }
    if (node_["state"].IsDefined()) {
      std::string name;
      bool known = false;
      if (ReadString(node_["state"], name)) {
        for (const StartStateName& entry : kStartStates) {
          if (name == entry.name) {
            spec.start_state = entry.state;
            known = true;
          }
        }
      }
      if (!known) return Fail(".state", "expected active, spare, warm or cold");
      if (spec.start_state == ManagerState::kCold) spec.cold = true;
    }
    if (node_["vendor"].IsDefined()) {
      if (!ReadString(node_["vendor"], spec.vendor) ||
          (spec.vendor != "nvidia" && spec.vendor != "intel")) {
        return Fail(".vendor", "expected nvidia or intel");
      }
    }
    if (node_["fail"].IsDefined()) return ReadFailure(node_["fail"], spec);
    return Ok();
  }

 private:
  Error Fail(const std::string& key, const std::string& what) {
    return KeyError(file_, path_ + key, what);
  }

  Result<void> ReadFailure(const YAML::Node& fail, SimWorkerSpec& spec) {
    if (!fail.IsMap()) return Fail(".fail", "expected a map with kind, at and for");
    if (auto unknown = UnknownKey(fail, kFailKeys)) return Fail(".fail." + *unknown, "unknown key");
    WorkerFailure failure;
    std::string kind;
    bool known = false;
    if (ReadString(fail["kind"], kind)) {
      for (const FailureName& name : kFailureNames) {
        if (kind == name.name) {
          failure.kind = name.kind;
          known = true;
        }
      }
    }
    if (!known) {
      return Fail(".fail.kind", "expected gpu_unavailable, thermal, no_evidence or unreadable");
    }
    Duration at{};
    if (!ReadDuration(fail["at"], at)) return Fail(".fail.at", "expected a duration");
    failure.at_s = at.count();
    if (fail["for"].IsDefined()) {
      Duration lasts{};
      if (!ReadDuration(fail["for"], lasts)) return Fail(".fail.for", "expected a duration");
      failure.for_s = lasts.count();
    }
    spec.failure = failure;
    return Ok();
  }

  const YAML::Node& node_;
  std::string path_;
  const std::string& file_;
};

}  // namespace

std::vector<SimWorkerSpec> FleetOf(const SimWorkerSpec& spec, int count) {
  std::vector<SimWorkerSpec> fleet;
  fleet.reserve(count);
  for (int i = 1; i <= count; ++i) {
    fleet.push_back(spec);
    fleet.back().name = spec.name + "-" + std::to_string(i);
  }
  return fleet;
}

Result<std::vector<SimWorkerSpec>> ParseWorkers(const std::string& text, const std::string& file) {
  Result<YAML::Node> loaded = LoadYaml(text, file);
  if (!loaded) return loaded.failure();
  const YAML::Node& root = *loaded;
  if (!root.IsMap() || !root["workers"].IsDefined() || !root["workers"].IsSequence()) {
    return KeyError(file, "workers", "expected a list of workers");
  }
  const char* const known[] = {"workers", nullptr};
  if (auto unknown = UnknownKey(root, known)) return KeyError(file, *unknown, "unknown key");
  std::vector<SimWorkerSpec> workers;
  const YAML::Node list = root["workers"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node entry = list[i];
    SimWorkerSpec spec;
    int count = 0;
    WorkerReader reader(entry, "workers[" + std::to_string(i) + "]", file);
    if (Result<void> read = reader.Read(spec, count); !read) return read.failure();
    if (count == 0) {
      workers.push_back(spec);
    } else {
      for (SimWorkerSpec& copy : FleetOf(spec, count)) workers.push_back(std::move(copy));
    }
    if (workers.size() > 100000) return KeyError(file, "workers", "more than 100000 workers");
  }
  std::unordered_set<std::string> names;
  for (const SimWorkerSpec& worker : workers) {
    if (!names.insert(worker.name).second) {
      return KeyError(file, "workers", "the name " + worker.name + " appears twice");
    }
  }
  if (workers.empty()) return KeyError(file, "workers", "expected at least one worker");
  return workers;
}

}  // namespace mc::pool
