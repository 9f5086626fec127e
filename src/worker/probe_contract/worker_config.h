// The worker's configuration: one table, as data, of every setting. Each has its PT_WORKER_*
// variable, its flag, its default and what it means. A flag overrides the variable, which overrides
// the default. docs/worker/worker.md prints the same table.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::worker {

struct WorkerConfig {
  // The probe module. Empty for the GPU's own.
  std::string probe_module;
  // The GPU this worker works on: a device name or a PCI address.
  std::string gpu;
  // The session cap. Empty or "auto" takes the driver's (or the self-test's); else a number.
  std::optional<std::int64_t> sessions_cap;
  std::int64_t sessions_reserve = 1;
  std::int64_t vram_floor_mb = 1024;
  std::int64_t driver_min = 550;
  std::int64_t probe_interval_s = 300;
  std::int64_t counter_interval_s = 10;
  std::int64_t unavailable_reprobe_s = 60;
  std::int64_t step_deadline_s = 30;
  std::optional<std::int64_t> concurrency_max;
  bool allow_wsl2 = false;
  std::string ffmpeg = "ffmpeg";
  std::string nvenc_preset = "p5";
  std::string work_dir = "/var/lib/peertube-worker";
  std::string runner_name;
  std::int64_t job_cpu_millicores = 500;
  std::int64_t plausible_cpu_pct = 25;
  // ffmpeg's sandbox: folders it may also write (colon-separated). And whether a kernel without
  // Landlock keeps the worker from starting. Otherwise ffmpeg runs unboxed.
  std::string sandbox_paths;
  bool require_sandbox = false;
};

enum class SettingKind { kText, kCount, kSeconds, kBool, kCountOrAuto };

struct Setting {
  std::string_view variable;
  std::string_view flag;
  SettingKind kind;
  std::string_view default_text;
  std::string_view meaning;
  // Where the parsed value goes.
  void (*store)(WorkerConfig&, std::string_view text, std::int64_t number);
};

extern const std::array<Setting, 20> kSettings;

// The variables' values, by name. The caller gives its environment or a test's.
using Environment = std::function<std::optional<std::string>(std::string_view variable)>;

// ProcessEnvironment reads this process's environment.
Environment ProcessEnvironment();

// LoadConfig reads every setting from `flags`, by flag name as given on the command line. Else it
// reads the environment, else takes the default. A malformed value is an error. It names the
// variable or flag and what it expected.
Result<WorkerConfig> LoadConfig(const Environment& environment,
                                const std::map<std::string, std::string>& flags);

// SettingsTableMarkdown is the table for docs/worker/worker.md.
std::string SettingsTableMarkdown();

}  // namespace mc::worker
