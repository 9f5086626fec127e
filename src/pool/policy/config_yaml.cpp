#include "pool/policy/config_yaml.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <variant>
#include <vector>

#include "pool/policy/reasons.h"
#include "pool/policy/yaml_values.h"

namespace mc::pool {

namespace {

using PerClass = std::array<double, kJobClassCount>;
using FieldRef =
    std::variant<double*, int*, Duration*, PerClass*, std::vector<std::string>*, PolicyProfile*>;

// One key of the file: where it sits, the range it accepts, and the member it sets. The
// table is the one place that knows the file's layout; the parser and the writer walk it.
struct ConfigField {
  const char* section;  // "" for a key at the top level
  const char* key;
  double low;
  double high;
  FieldRef (*ref)(PoolConfig&);
};

constexpr double kNoLimit = std::numeric_limits<double>::max();

const ConfigField kFields[] = {
    {"", "profile", 0, 0, [](PoolConfig& c) -> FieldRef { return &c.profile; }},
    {"", "cycle", 1, 3600, [](PoolConfig& c) -> FieldRef { return &c.cycle; }},
    {"", "target_wait", 0, 86400, [](PoolConfig& c) -> FieldRef { return &c.target_wait; }},
    {"", "vendor_disabled", 0, 0, [](PoolConfig& c) -> FieldRef { return &c.vendors.disabled; }},
    {"", "nvenc_session_reserve", 0, 64,
     [](PoolConfig& c) -> FieldRef { return &c.vendors.nvenc_session_reserve; }},
    {"pressure", "depth_waves", 0.1, 100,
     [](PoolConfig& c) -> FieldRef { return &c.pressure.depth_waves; }},
    {"pressure", "age_full", 1, 86400,
     [](PoolConfig& c) -> FieldRef { return &c.pressure.age_full; }},
    {"hysteresis", "up_threshold", 0, 1,
     [](PoolConfig& c) -> FieldRef { return &c.hysteresis.up_threshold; }},
    {"hysteresis", "up_window", 1, 3600,
     [](PoolConfig& c) -> FieldRef { return &c.hysteresis.up_window; }},
    {"hysteresis", "up_windows", 1, 100,
     [](PoolConfig& c) -> FieldRef { return &c.hysteresis.up_windows; }},
    {"hysteresis", "down_threshold", 0, 1,
     [](PoolConfig& c) -> FieldRef { return &c.hysteresis.down_threshold; }},
    {"hysteresis", "down_sustain", 0, 86400,
     [](PoolConfig& c) -> FieldRef { return &c.hysteresis.down_sustain; }},
    {"hysteresis", "idle_before_demote", 0, 86400,
     [](PoolConfig& c) -> FieldRef { return &c.hysteresis.idle_before_demote; }},
    {"hysteresis", "min_active", 0, 100000,
     [](PoolConfig& c) -> FieldRef { return &c.hysteresis.min_active; }},
    {"hysteresis", "promotion_spacing", 0, 3600,
     [](PoolConfig& c) -> FieldRef { return &c.hysteresis.promotion_spacing; }},
    {"hysteresis", "probe_max_age", 1, 86400,
     [](PoolConfig& c) -> FieldRef { return &c.hysteresis.probe_max_age; }},
    {"sizing", "target_drain", 1, 86400,
     [](PoolConfig& c) -> FieldRef { return &c.sizing.target_drain; }},
    {"sizing", "enable_after", 0, 86400,
     [](PoolConfig& c) -> FieldRef { return &c.sizing.enable_after; }},
    {"sizing", "idle_before_release", 0, 86400,
     [](PoolConfig& c) -> FieldRef { return &c.sizing.idle_before_release; }},
    {"sizing", "default_speed", 0.01, 1000,
     [](PoolConfig& c) -> FieldRef { return &c.sizing.default_speed; }},
    {"sizing", "wake_after_work", 0, 86400,
     [](PoolConfig& c) -> FieldRef { return &c.sizing.wake_after_work; }},
    {"failure", "failures_to_cooldown", 1, 1000,
     [](PoolConfig& c) -> FieldRef { return &c.failure.failures_to_cooldown; }},
    {"failure", "failure_window", 1, 7 * 86400,
     [](PoolConfig& c) -> FieldRef { return &c.failure.failure_window; }},
    {"failure", "cooldown", 0, 7 * 86400,
     [](PoolConfig& c) -> FieldRef { return &c.failure.cooldown; }},
    {"weights", "lambda", 0.01, 1, [](PoolConfig& c) -> FieldRef { return &c.weights.lambda; }},
    {"weights", "shrink_k", 0, 1000, [](PoolConfig& c) -> FieldRef { return &c.weights.shrink_k; }},
    {"weights", "prior", 0.01, 100, [](PoolConfig& c) -> FieldRef { return &c.weights.prior; }},
    {"weights", "baseline_mpx_s", 0.01, kNoLimit,
     [](PoolConfig& c) -> FieldRef { return &c.weights.baseline_mpx_s; }},
    {"gates", "small_max_height", 1, 100000,
     [](PoolConfig& c) -> FieldRef { return &c.gates.bounds.small_max_height; }},
    {"gates", "small_max_duration", 0, 7 * 86400,
     [](PoolConfig& c) -> FieldRef { return &c.gates.bounds.small_max_duration; }},
    {"gates", "medium_max_height", 1, 100000,
     [](PoolConfig& c) -> FieldRef { return &c.gates.bounds.medium_max_height; }},
    {"gates", "long_form_min_fps", 1, 1000,
     [](PoolConfig& c) -> FieldRef { return &c.gates.bounds.long_form_min_fps; }},
    {"gates", "medium_min_enc_headroom_pct", 0, 100,
     [](PoolConfig& c) -> FieldRef { return &c.gates.medium_min_enc_headroom_pct; }},
    {"gates", "large_min_realtime_factor", 0, 1000,
     [](PoolConfig& c) -> FieldRef { return &c.gates.large_min_realtime_factor; }},
    {"gates", "large_min_download_mbps", 0, kNoLimit,
     [](PoolConfig& c) -> FieldRef { return &c.gates.large_min_download_mbps; }},
    {"gates", "large_min_vram_free_mb", 0, kNoLimit,
     [](PoolConfig& c) -> FieldRef { return &c.gates.large_min_vram_free_mb; }},
    {"gates", "xl_min_weight", 0, 100,
     [](PoolConfig& c) -> FieldRef { return &c.gates.xl_min_weight; }},
    {"wake", "pressure", 0, 1, [](PoolConfig& c) -> FieldRef { return &c.wake.pressure; }},
    {"wake", "sustain", 0, 86400, [](PoolConfig& c) -> FieldRef { return &c.wake.sustain; }},
    {"wake", "max_concurrent", 0, 1000,
     [](PoolConfig& c) -> FieldRef { return &c.wake.max_concurrent; }},
    {"wake", "spacing", 0, 86400, [](PoolConfig& c) -> FieldRef { return &c.wake.spacing; }},
    {"wake", "max_per_day", 0, 1000, [](PoolConfig& c) -> FieldRef { return &c.wake.max_per_day; }},
    {"wake", "boot_timeout", 1, 86400,
     [](PoolConfig& c) -> FieldRef { return &c.wake.boot_timeout; }},
    {"wake", "sleep_after", 0, 7 * 86400,
     [](PoolConfig& c) -> FieldRef { return &c.wake.sleep_after; }},
    {"queue", "stale_after", 1, 86400,
     [](PoolConfig& c) -> FieldRef { return &c.queue.stale_after; }},
};

const char* const kVendors[] = {"nvidia", "intel", nullptr};

std::string Path(const ConfigField& field) {
  return *field.section ? std::string(field.section) + "." + field.key : std::string(field.key);
}

std::string Between(const ConfigField& field, bool seconds) {
  const std::string unit = seconds ? "s" : "";
  if (field.high == kNoLimit) return " of at least " + FormatNumber(field.low) + unit;
  return " between " + FormatNumber(field.low) + unit + " and " + FormatNumber(field.high) + unit;
}

// ReadField sets the member of `field` from `node`, or returns the error that names it.
Result<void> ReadField(const ConfigField& field, const YAML::Node& node, PoolConfig& config,
                       const std::string& file) {
  const std::string path = Path(field);
  const auto in_range = [&](double value) { return value >= field.low && value <= field.high; };
  FieldRef ref = field.ref(config);
  if (double** number = std::get_if<double*>(&ref)) {
    double value = 0;
    if (!ReadNumber(node, value) || !in_range(value)) {
      return KeyError(file, path, "expected a number" + Between(field, false));
    }
    **number = value;
  } else if (int** integer = std::get_if<int*>(&ref)) {
    int value = 0;
    if (!ReadInteger(node, value) || !in_range(value)) {
      return KeyError(file, path, "expected an integer" + Between(field, false));
    }
    **integer = value;
  } else if (Duration** duration = std::get_if<Duration*>(&ref)) {
    Duration value{};
    if (!ReadDuration(node, value) || !in_range(value.count())) {
      return KeyError(
          file, path,
          "expected a duration (seconds, or a number with s, m or h)" + Between(field, true));
    }
    **duration = value;
  } else if (PerClass** per_class = std::get_if<PerClass*>(&ref)) {
    if (!node.IsMap()) return KeyError(file, path, "expected a map of job classes (S, M, L, XL)");
    for (const auto& entry : node) {
      std::string name;
      std::optional<JobClass> job_class;
      if (ReadString(entry.first, name)) job_class = ParseJobClass(name);
      if (!job_class) return KeyError(file, path + "." + name, "unknown job class (S, M, L or XL)");
      double value = 0;
      if (!ReadNumber(entry.second, value) || !in_range(value)) {
        return KeyError(file, path + "." + name, "expected a number" + Between(field, false));
      }
      (**per_class)[Index(*job_class)] = value;
    }
  } else if (auto** strings = std::get_if<std::vector<std::string>*>(&ref)) {
    if (!node.IsSequence())
      return KeyError(file, path, "expected a list of vendors (nvidia, intel)");
    (*strings)->clear();
    for (std::size_t i = 0; i < node.size(); ++i) {
      std::string vendor;
      bool known = false;
      if (ReadString(node[i], vendor)) {
        for (const char* const* name = kVendors; *name; ++name) known = known || vendor == *name;
      }
      if (!known) {
        return KeyError(file, path + "[" + std::to_string(i) + "]", "expected nvidia or intel");
      }
      (*strings)->push_back(vendor);
    }
  } else if (PolicyProfile** profile = std::get_if<PolicyProfile*>(&ref)) {
    std::string name;
    std::optional<PolicyProfile> parsed;
    if (ReadString(node, name)) parsed = ParsePolicyProfile(name);
    if (!parsed) return KeyError(file, path, "expected work-aware or design");
    **profile = *parsed;
  }
  return Ok();
}

// KnownKeys lists the keys of one section (or the sections at the top level).
std::vector<const char*> KnownKeys(const char* section) {
  std::vector<const char*> keys;
  for (const ConfigField& field : kFields) {
    if (*section) {
      if (std::string(field.section) == section) keys.push_back(field.key);
    } else if (!*field.section) {
      keys.push_back(field.key);
    } else {
      bool listed = false;
      for (const char* key : keys) listed = listed || std::string(key) == field.section;
      if (!listed) keys.push_back(field.section);
    }
  }
  keys.push_back(nullptr);
  return keys;
}

bool IsSection(const std::string& key) {
  for (const ConfigField& field : kFields) {
    if (key == field.section) return true;
  }
  return false;
}

}  // namespace

std::string_view PolicyProfileName(PolicyProfile profile) {
  switch (profile) {
    case PolicyProfile::kWorkAware:
      return "work-aware";
    case PolicyProfile::kDesign:
      return "design";
  }
  return "?";
}

std::optional<PolicyProfile> ParsePolicyProfile(std::string_view name) {
  for (PolicyProfile profile : {PolicyProfile::kWorkAware, PolicyProfile::kDesign}) {
    if (PolicyProfileName(profile) == name) return profile;
  }
  return std::nullopt;
}

Result<PoolConfig> ParsePoolConfig(const std::string& text, const std::string& file,
                                   const PoolConfig& defaults) {
  Result<YAML::Node> loaded = LoadYaml(text, file);
  if (!loaded) return loaded.error();
  return ParsePoolConfigNode(*loaded, file, defaults);
}

Result<PoolConfig> ParsePoolConfigNode(const YAML::Node& root, const std::string& file,
                                       const PoolConfig& defaults) {
  PoolConfig config = defaults;
  if (root.IsNull()) return config;
  if (!root.IsMap()) return InvalidInput(file + ": expected a map of settings at the top level");
  if (auto unknown = UnknownKey(root, KnownKeys("").data())) {
    return KeyError(file, *unknown, "unknown key");
  }
  for (const auto& entry : root) {
    std::string key = entry.first.Scalar();
    if (IsSection(key)) {
      const YAML::Node& section = entry.second;
      if (!section.IsMap()) return KeyError(file, key, "expected a map");
      if (auto unknown = UnknownKey(section, KnownKeys(key.c_str()).data())) {
        return KeyError(file, key + "." + *unknown, "unknown key");
      }
    }
  }
  for (const ConfigField& field : kFields) {
    const YAML::Node node = *field.section ? root[field.section] : root;
    if (!node.IsDefined() || !node.IsMap()) continue;
    const YAML::Node value = node[field.key];
    if (!value.IsDefined()) continue;
    if (Result<void> read = ReadField(field, value, config, file); !read) return read.error();
  }
  if (config.hysteresis.down_threshold >= config.hysteresis.up_threshold) {
    return KeyError(file, "hysteresis.down_threshold",
                    "must be below hysteresis.up_threshold (" +
                        FormatNumber(config.hysteresis.up_threshold) + ")");
  }
  return config;
}

std::string PoolConfigToYaml(const PoolConfig& defaults) {
  PoolConfig config = defaults;
  std::ostringstream out;
  std::string section = "-";
  for (const ConfigField& field : kFields) {
    if (section != field.section) {
      section = field.section;
      if (!section.empty()) out << section << ":\n";
    }
    const char* indent = section.empty() ? "" : "  ";
    out << indent << field.key << ": ";
    FieldRef ref = field.ref(config);
    if (double** number = std::get_if<double*>(&ref)) {
      out << FormatNumber(**number);
    } else if (int** integer = std::get_if<int*>(&ref)) {
      out << **integer;
    } else if (Duration** duration = std::get_if<Duration*>(&ref)) {
      out << FormatNumber((*duration)->count()) << "s";
    } else if (PerClass** per_class = std::get_if<PerClass*>(&ref)) {
      out << "{";
      for (JobClass job_class : kAllJobClasses) {
        out << (job_class == JobClass::kS ? "" : ", ") << JobClassName(job_class) << ": "
            << FormatNumber((**per_class)[Index(job_class)]);
      }
      out << "}";
    } else if (auto** strings = std::get_if<std::vector<std::string>*>(&ref)) {
      out << "[";
      for (std::size_t i = 0; i < (*strings)->size(); ++i) out << (i ? ", " : "") << (**strings)[i];
      out << "]";
    } else if (PolicyProfile** profile = std::get_if<PolicyProfile*>(&ref)) {
      out << PolicyProfileName(**profile);
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace mc::pool
