#include "pool/simulator/sim_workers.h"

#include <unordered_set>
#include <utility>

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
// Each step reads one part of the entry. The first error met is the one told.
class WorkerReader {
 public:
  WorkerReader(const YAML::Node& node, std::string path, const std::string& file)
      : node_(node), path_(std::move(path)), file_(file) {}

  Result<void> Read(SimWorkerSpec& spec, int& count) {
    if (!node_.IsMap()) return Fail("", "expected a map");
    if (auto unknown = UnknownKey(node_, kWorkerKeys)) return Fail("." + *unknown, "unknown key");
    Result<void> read = ReadName(spec);
    if (read) read = ReadIntegers(spec, count);
    if (read) read = ReadNumbers(spec);
    if (read) read = ReadDurations(spec);
    if (read) read = ReadFlags(spec);
    if (read) read = CheckSpeed(spec);
    if (read) read = ReadWeight(spec);
    if (read) read = ReadStartState(spec);
    if (read) read = ReadVendor(spec);
    if (read) read = ReadFailure(spec);
    return read;
  }

 private:
  // An integer key and its bounds.
  struct IntegerKey {
    const char* key;
    int low;
    int high;
    int* out;
  };
  // A number key and its least value.
  struct NumberKey {
    const char* key;
    double low;
    double* out;
  };

  Error Fail(const std::string& key, const std::string& what) const {
    return KeyError(file_, path_ + key, what);
  }

  Result<void> ReadName(SimWorkerSpec& spec) const {
    if (!ReadString(node_["name"], spec.name) || spec.name.empty()) {
      return Fail(".name", "expected a non-empty string");
    }
    return Ok();
  }

  // The counts: how many workers, their slots, their largest height, their NVENC sessions.
  Result<void> ReadIntegers(SimWorkerSpec& spec, int& count) const {
    const IntegerKey keys[] = {{"count", 1, 100000, &count},
                               {"concurrency", 1, 64, &spec.concurrency},
                               {"max_height", 1, 8640, &spec.capabilities.max_height},
                               {"sessions_cap", 0, 1000, &spec.sessions_cap}};
    for (const IntegerKey& key : keys) {
      if (Result<void> read = ReadIntegerKey(key); !read) return read;
    }
    return Ok();
  }

  // The sizes: realtime factor, free VRAM, download rate.
  Result<void> ReadNumbers(SimWorkerSpec& spec) const {
    const NumberKey keys[] = {{"speed", 0, &spec.speed},
                              {"vram_free_mb", 0, &spec.vram_free_mb},
                              {"download_mbps", 0, &spec.download_mbps}};
    for (const NumberKey& key : keys) {
      if (Result<void> read = ReadNumberKey(key); !read) return read;
    }
    return Ok();
  }

  // The times: start-up, enable, the probe's age and interval, boot.
  Result<void> ReadDurations(SimWorkerSpec& spec) const {
    if (Result<void> read = ReadDurationKey("startup", spec.startup_s); !read) return read;
    if (node_["enable"].IsDefined()) {
      double enable_s = 0;
      if (Result<void> read = ReadDurationKey("enable", enable_s); !read) return read;
      spec.enable_s = enable_s;
    }
    const std::pair<const char*, double*> keys[] = {{"probe_age", &spec.probe_age_at_start},
                                                    {"boot", &spec.boot_s},
                                                    {"probe_every", &spec.probe_every_s}};
    for (const auto& [key, out] : keys) {
      if (Result<void> read = ReadDurationKey(key, *out); !read) return read;
    }
    return Ok();
  }

  // The flags: AV1 decode and encode, powered off, wakeable, on battery.
  Result<void> ReadFlags(SimWorkerSpec& spec) const {
    const std::pair<const char*, bool*> keys[] = {{"av1_dec", &spec.capabilities.av1_dec},
                                                  {"av1_enc", &spec.capabilities.av1_enc},
                                                  {"cold", &spec.cold},
                                                  {"wakeable", &spec.wakeable},
                                                  {"on_battery", &spec.on_battery}};
    for (const auto& [key, out] : keys) {
      if (Result<void> read = ReadBoolKey(key, *out); !read) return read;
    }
    return Ok();
  }

  Result<void> ReadIntegerKey(const IntegerKey& key) const {
    if (!node_[key.key].IsDefined()) return Ok();
    int integer = 0;
    if (!ReadInteger(node_[key.key], integer) || integer < key.low || integer > key.high) {
      return Fail(std::string(".") + key.key, "expected an integer between " +
                                                  std::to_string(key.low) + " and " +
                                                  std::to_string(key.high));
    }
    *key.out = integer;
    return Ok();
  }

  Result<void> ReadNumberKey(const NumberKey& key) const {
    if (!node_[key.key].IsDefined()) return Ok();
    double number = 0;
    if (!ReadNumber(node_[key.key], number) || number < key.low) {
      return Fail(std::string(".") + key.key,
                  "expected a number of at least " + std::to_string(static_cast<int>(key.low)));
    }
    *key.out = number;
    return Ok();
  }

  Result<void> ReadDurationKey(const char* key, double& out) const {
    if (!node_[key].IsDefined()) return Ok();
    Duration duration{};
    if (!ReadDuration(node_[key], duration)) {
      return Fail(std::string(".") + key,
                  "expected a duration (seconds, or a number with s, m or h)");
    }
    out = duration.count();
    return Ok();
  }

  Result<void> ReadBoolKey(const char* key, bool& out) const {
    if (!node_[key].IsDefined()) return Ok();
    bool flag = false;
    if (!ReadBool(node_[key], flag)) return Fail(std::string(".") + key, "expected true or false");
    out = flag;
    return Ok();
  }

  // Checked once every key is read: a speed of 0 passes the number's own bound.
  Result<void> CheckSpeed(const SimWorkerSpec& spec) const {
    if (spec.speed <= 0) return Fail(".speed", "expected a number above 0");
    return Ok();
  }

  Result<void> ReadWeight(SimWorkerSpec& spec) const {
    if (!node_["weight"].IsDefined()) return Ok();
    double weight = 0;
    if (!ReadNumber(node_["weight"], weight) || weight < 0.01 || weight > 100) {
      return Fail(".weight", "expected a number between 0.01 and 100");
    }
    spec.weight = weight;
    return Ok();
  }

  // The state the pool's policy finds the worker in; a cold one starts powered off.
  Result<void> ReadStartState(SimWorkerSpec& spec) const {
    if (!node_["state"].IsDefined()) return Ok();
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
    return Ok();
  }

  Result<void> ReadVendor(SimWorkerSpec& spec) const {
    if (!node_["vendor"].IsDefined()) return Ok();
    if (!ReadString(node_["vendor"], spec.vendor) ||
        (spec.vendor != "nvidia" && spec.vendor != "intel")) {
      return Fail(".vendor", "expected nvidia or intel");
    }
    return Ok();
  }

  Result<void> ReadFailure(SimWorkerSpec& spec) const {
    const YAML::Node fail = node_["fail"];
    if (!fail.IsDefined()) return Ok();
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
  if (!loaded) return loaded.error();
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
    if (Result<void> read = reader.Read(spec, count); !read) return read.error();
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
