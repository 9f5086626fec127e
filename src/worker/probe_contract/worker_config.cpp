#include "worker/probe_contract/worker_config.h"

#include <cstdlib>

#include "common/base/text.h"

namespace mc::worker {
namespace {

std::optional<std::int64_t> Integer(std::string_view text) {
  const std::optional<std::int64_t> value = ParseInteger<std::int64_t>(text);
  if (!value || *value < 0) return std::nullopt;
  return value;
}

std::optional<bool> Bool(std::string_view text) {
  if (text == "1" || text == "true" || text == "yes") return true;
  if (text == "0" || text == "false" || text == "no" || text.empty()) return false;
  return std::nullopt;
}

const char* Expected(SettingKind kind) {
  switch (kind) {
    case SettingKind::kText:
      return "text";
    case SettingKind::kCount:
      return "a whole number of 0 or more";
    case SettingKind::kSeconds:
      return "a whole number of seconds, 1 or more";
    case SettingKind::kBool:
      return "1, 0, true, false, yes or no";
    case SettingKind::kCountOrAuto:
      return "auto or a whole number of 0 or more";
  }
  return "a value";
}

}  // namespace

const std::array<Setting, 20> kSettings{{
    {"PT_WORKER_GPU_PROBE", "--probe-module", SettingKind::kText, "",
     "The probe module: nvidia-nvenc, vaapi or intel-qsv; empty for the GPU's own.",
     [](WorkerConfig& c, std::string_view t, std::int64_t) { c.probe_module = std::string(t); }},
    {"PT_WORKER_GPU_DEVICES", "--gpu", SettingKind::kText, "",
     "The one GPU of this worker (one worker per GPU): a device name such as pci-0000-01-00-0, a "
     "PCI address, or its place in PCI address order such as 0.",
     [](WorkerConfig& c, std::string_view t, std::int64_t) { c.gpu = std::string(t); }},
    {"PT_WORKER_SESSIONS_CAP", "--sessions-cap", SettingKind::kCountOrAuto, "auto",
     "Encode sessions the GPU allows at once; auto takes the self-test's count, else the driver's "
     "cap.",
     [](WorkerConfig& c, std::string_view t, std::int64_t n) {
       c.sessions_cap = t == "auto" || t.empty() ? std::nullopt : std::optional<std::int64_t>(n);
     }},
    {"PT_WORKER_SESSIONS_RESERVE", "--sessions-reserve", SettingKind::kCount, "1",
     "Sessions kept free as headroom: the worker is BUSY at the cap less these.",
     [](WorkerConfig& c, std::string_view, std::int64_t n) { c.sessions_reserve = n; }},
    {"PT_WORKER_VRAM_FLOOR_MB", "--vram-floor-mb", SettingKind::kCount, "1024",
     "Free VRAM below this many MB puts the worker in GPU_UNAVAILABLE (NVIDIA).",
     [](WorkerConfig& c, std::string_view, std::int64_t n) { c.vram_floor_mb = n; }},
    {"PT_WORKER_DRIVER_MIN", "--driver-min", SettingKind::kCount, "550",
     "The oldest NVIDIA driver branch accepted; an older one puts the worker in GPU_UNAVAILABLE.",
     [](WorkerConfig& c, std::string_view, std::int64_t n) { c.driver_min = n; }},
    {"PT_WORKER_PROBE_INTERVAL", "--probe-interval", SettingKind::kSeconds, "300",
     "Seconds between full probes.",
     [](WorkerConfig& c, std::string_view, std::int64_t n) { c.probe_interval_s = n; }},
    {"PT_WORKER_COUNTER_INTERVAL", "--counter-interval", SettingKind::kSeconds, "10",
     "Seconds between readings of the counters (VRAM, utilisation, temperature) between probes.",
     [](WorkerConfig& c, std::string_view, std::int64_t n) { c.counter_interval_s = n; }},
    {"PT_WORKER_UNAVAILABLE_REPROBE", "--unavailable-reprobe", SettingKind::kSeconds, "60",
     "Seconds between probes while GPU_UNAVAILABLE.",
     [](WorkerConfig& c, std::string_view, std::int64_t n) { c.unavailable_reprobe_s = n; }},
    {"PT_WORKER_STEP_DEADLINE", "--step-deadline", SettingKind::kSeconds, "30",
     "Seconds each self-test step may take before it fails.",
     [](WorkerConfig& c, std::string_view, std::int64_t n) { c.step_deadline_s = n; }},
    {"PT_WORKER_CONCURRENCY_MAX", "--concurrency-max", SettingKind::kCountOrAuto, "auto",
     "The most jobs at once whatever the resources allow; auto for no such limit.",
     [](WorkerConfig& c, std::string_view t, std::int64_t n) {
       c.concurrency_max = t == "auto" || t.empty() ? std::nullopt : std::optional<std::int64_t>(n);
     }},
    {"PT_WORKER_ALLOW_WSL2", "--allow-wsl2", SettingKind::kBool, "0",
     "Let a worker on WSL2 work (a development platform: the GPU is shared with Windows).",
     [](WorkerConfig& c, std::string_view t, std::int64_t) {
       c.allow_wsl2 = Bool(t).value_or(false);
     }},
    {"PT_WORKER_FFMPEG", "--ffmpeg", SettingKind::kText, "ffmpeg",
     "The ffmpeg the self-test and the jobs run.",
     [](WorkerConfig& c, std::string_view t, std::int64_t) { c.ffmpeg = std::string(t); }},
    {"PT_WORKER_FFMPEG_NVENC_PRESET", "--nvenc-preset", SettingKind::kText, "p5",
     "The NVENC preset PeerTube's quality maps to.",
     [](WorkerConfig& c, std::string_view t, std::int64_t) { c.nvenc_preset = std::string(t); }},
    {"PT_WORKER_WORK_DIR", "--work-dir", SettingKind::kText, "/var/lib/peertube-worker",
     "Where jobs write; its free space bounds the concurrency.",
     [](WorkerConfig& c, std::string_view t, std::int64_t) { c.work_dir = std::string(t); }},
    {"PT_WORKER_JOB_CPU_MILLICORES", "--job-cpu-millicores", SettingKind::kCount, "500",
     "Thousandths of a CPU core one job takes beside the GPU's work (demuxing, audio, muxing, "
     "the runner); 0 leaves the CPU out of the concurrency.",
     [](WorkerConfig& c, std::string_view, std::int64_t n) { c.job_cpu_millicores = n; }},
    {"PT_WORKER_PLAUSIBLE_CPU_PCT", "--plausible-cpu-pct", SettingKind::kCount, "25",
     "The most CPU time a job's ffmpeg may spend, in percent of what a libx264 encode of the "
     "same work takes on this box; more fails the job as a CPU encode.",
     [](WorkerConfig& c, std::string_view, std::int64_t n) { c.plausible_cpu_pct = n; }},
    {"PT_WORKER_RUNNER_NAME", "--runner-name", SettingKind::kText, "",
     "The runner's name in PeerTube, such as w2:gpu0; empty for HOSTNAME:GPU.",
     [](WorkerConfig& c, std::string_view t, std::int64_t) { c.runner_name = std::string(t); }},
    {"PT_WORKER_SANDBOX_PATHS", "--sandbox-paths", SettingKind::kText, "",
     "Folders a boxed ffmpeg or ffprobe may also read and write beside the job's own files "
     "(colon-separated), such as a driver's cache; it may make symbolic links there, never "
     "beside the job's outputs. The self-test's ffmpeg gets them too.",
     [](WorkerConfig& c, std::string_view t, std::int64_t) { c.sandbox_paths = std::string(t); }},
    {"PT_WORKER_REQUIRE_SANDBOX", "--require-sandbox", SettingKind::kBool, "0",
     "Refuse to start where the kernel has no Landlock, rather than run ffmpeg unboxed.",
     [](WorkerConfig& c, std::string_view t, std::int64_t) {
       c.require_sandbox = Bool(t).value_or(false);
     }},
}};

Environment ProcessEnvironment() {
  return [](std::string_view variable) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(variable).c_str());
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
}

Result<WorkerConfig> LoadConfig(const Environment& environment,
                                const std::map<std::string, std::string>& flags) {
  WorkerConfig config;
  for (const Setting& setting : kSettings) {
    std::string text(setting.default_text);
    std::string where = "the default of " + std::string(setting.variable);
    if (std::optional<std::string> value = environment(setting.variable)) {
      text = *value;
      where = std::string(setting.variable);
    }
    if (auto flag = flags.find(std::string(setting.flag)); flag != flags.end()) {
      text = flag->second;
      where = std::string(setting.flag);
    }
    std::int64_t number = 0;
    bool valid = true;
    switch (setting.kind) {
      case SettingKind::kText:
        break;
      case SettingKind::kCount:
      case SettingKind::kSeconds: {
        const std::optional<std::int64_t> value = Integer(text);
        valid = value && (setting.kind == SettingKind::kCount || *value >= 1);
        number = value.value_or(0);
        break;
      }
      case SettingKind::kCountOrAuto:
        if (text != "auto" && !text.empty()) {
          const std::optional<std::int64_t> value = Integer(text);
          valid = value.has_value();
          number = value.value_or(0);
        }
        break;
      case SettingKind::kBool:
        valid = Bool(text).has_value();
        break;
    }
    if (!valid) {
      return InvalidInput(where + ": \"" + text + "\" is not " + Expected(setting.kind));
    }
    setting.store(config, text, number);
  }
  return config;
}

std::string SettingsTableMarkdown() {
  std::string table = "| variable | flag | default | meaning |\n|---|---|---|---|\n";
  for (const Setting& setting : kSettings) {
    table += "| `" + std::string(setting.variable) + "` | `" + std::string(setting.flag) + "` | " +
             (setting.default_text.empty() ? std::string("(empty)")
                                           : "`" + std::string(setting.default_text) + "`") +
             " | " + std::string(setting.meaning) + " |\n";
  }
  return table;
}

}  // namespace mc::worker
