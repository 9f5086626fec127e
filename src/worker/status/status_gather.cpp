#include "worker/status/status_gather.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <sstream>

#include "common/base/read_file.h"
#include "probe/capabilities/encode_session_cap.h"
#include "probe/capabilities/nvidia_generations.h"
#include "worker/evidence/kernel_log.h"
#include "worker/evidence/nvml_library.h"
#include "worker/probe_contract/contract_report.h"
#include "worker/probe_contract/landlock.h"
#include "worker/probe_contract/utc_time.h"
#include "worker/self_test/self_test_state.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;

std::string Hostname() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

// The text of a file of /proc. Empty where it cannot be read; its reader reports that.
std::string ReadText(const std::string& path) {
  Result<std::string> text = ReadFileText(path);
  return text ? std::move(*text) : std::string();
}

// HostResourcesOf reads the CPU, memory and disk the jobs would share.
HostResources HostResourcesOf(const GatherOptions& options, std::vector<std::string>& problems) {
  HostResources host;
  host.cpu_cores = static_cast<double>(sysconf(_SC_NPROCESSORS_ONLN));
  std::istringstream loadavg(ReadText(options.proc_root + "/loadavg"));
  if (!(loadavg >> host.load_1m))
    problems.push_back("cannot read " + options.proc_root + "/loadavg");
  std::istringstream cpuinfo(ReadText(options.proc_root + "/cpuinfo"));
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.starts_with("model name")) {
      host.cpu_model =
          line.substr(line.find(':') == std::string::npos ? line.size() : line.find(':') + 2);
      break;
    }
  }
  std::istringstream meminfo(ReadText(options.proc_root + "/meminfo"));
  for (std::string line; std::getline(meminfo, line);) {
    if (line.starts_with("MemAvailable:")) {
      std::istringstream fields(line.substr(13));
      std::int64_t kb = 0;
      if (fields >> kb) host.ram_available_mb = kb / 1024;
    }
  }
  if (!host.ram_available_mb)
    problems.push_back("cannot read MemAvailable from " + options.proc_root + "/meminfo");
  // The work directory may not exist yet. The jobs take the space of the file system it would be
  // made on.
  fs::path where = options.config.work_dir;
  std::error_code error;
  while (!where.empty() && !fs::exists(where, error) && where != where.parent_path())
    where = where.parent_path();
  struct statvfs space {};
  if (!where.empty() && statvfs(where.c_str(), &space) == 0) {
    host.disk_free_gb =
        static_cast<double>(space.f_bavail) * static_cast<double>(space.f_frsize) / 1e9;
  } else {
    problems.push_back("cannot read the free space of " + options.config.work_dir);
  }
  return host;
}

std::string NvidiaKernelModule(const std::string& proc_root) {
  const std::string version = ReadText(proc_root + "/driver/nvidia/version");
  if (version.empty()) return "unknown";
  return version.find("Open Kernel Module") != std::string::npos ? "open" : "proprietary";
}

// The saved self-test of this GPU. It is read where the caller gave none, and gave a state
// directory to read it from. A report of another card or driver is not this GPU's. It is said to be
// stale.
void LoadSavedSelfTest(GatherOptions& options, const ContractDevice* device, StatusInputs& inputs) {
  if (options.self_test || options.self_test_state_dir.empty() || !device) return;
  const std::string path = SelfTestStatePath(options.self_test_state_dir, device->name);
  Result<SelfTestReport> saved = LoadSelfTestOf(path, *device, std::chrono::system_clock::now());
  if (saved) {
    options.self_test = *saved;
  } else if (!saved.error().IsNotFound()) {
    inputs.problems.push_back("the self-test's report: " + saved.error_message());
  }
}

// An NVIDIA GPU's kernel module, generation and driver branch, and what NVML counts of it now.
// Gives the VRAM free above the floor, where NVML tells it.
std::optional<double> ReadNvidiaDevice(const GatherOptions& options, const ContractDevice& device,
                                       const probe::DeviceReport* report, StatusInputs& inputs,
                                       StateSignals& signals) {
  const WorkerConfig& config = options.config;
  std::optional<double> vram_free_mb;
  inputs.kernel_module = NvidiaKernelModule(options.proc_root);
  if (report && report->nvidia_facts) {
    inputs.generation =
        std::string(probe::NvidiaGeneration(report->nvidia_facts->compute_capability));
    if (std::optional<int> branch = probe::DriverBranch(report->nvidia_facts->driver_version))
      signals.driver_branch = *branch;
  }
  Result<std::unique_ptr<NvmlLibrary>> nvml = NvmlLibrary::Load(options.nvml_library);
  Result<void*> handle = nvml ? (*nvml)->Device(device.pci_address) : Result<void*>(nvml.error());
  if (!handle) {
    inputs.problems.push_back("NVML: " + handle.error_message());
    return vram_free_mb;
  }
  const NvmlTelemetry telemetry = (*nvml)->Telemetry(*handle);
  DeviceTelemetry counters;
  // NVML's own number for the GPU. So the second GPU's worker does not call it device 0.
  if (telemetry.index) counters.index = *telemetry.index;
  counters.uuid = telemetry.uuid;
  if (telemetry.memory_total_bytes)
    counters.vram_total_mb = *telemetry.memory_total_bytes / (1024 * 1024);
  if (telemetry.memory_free_bytes)
    counters.vram_free_mb = *telemetry.memory_free_bytes / (1024 * 1024);
  if (telemetry.enc_util_pct) counters.enc_util_pct = *telemetry.enc_util_pct;
  if (telemetry.dec_util_pct) counters.dec_util_pct = *telemetry.dec_util_pct;
  if (telemetry.temperature_c) counters.temp_c = *telemetry.temperature_c;
  if (telemetry.throttle_reasons) {
    counters.throttle_reasons = ThrottleReasonNames(*telemetry.throttle_reasons);
    signals.thermal_throttle_reasons = ThermalThrottleReasonNames(*telemetry.throttle_reasons);
  }
  for (const std::string& problem : telemetry.problems)
    inputs.problems.push_back("NVML: " + problem);
  inputs.devices.push_back(counters);
  if (counters.vram_free_mb) {
    signals.vram_free_mb = counters.vram_free_mb;
    vram_free_mb = static_cast<double>(*counters.vram_free_mb - config.vram_floor_mb);
  }
  if (Result<std::vector<NvmlEncoderSession>> sessions = (*nvml)->EncoderSessions(*handle)) {
    inputs.sessions.active = static_cast<std::int64_t>(sessions->size());
  } else {
    inputs.problems.push_back("NVML: " + sessions.error_message());
  }
  return vram_free_mb;
}

// The encode sessions' cap: the configured one, else the self-test's, else the driver class's.
void SetSessionsCap(const GatherOptions& options, StatusInputs& inputs) {
  if (options.config.sessions_cap) {
    inputs.sessions.cap = options.config.sessions_cap;
    inputs.sessions.cap_source = "config";
  } else if (options.self_test && options.self_test->sessions_cap) {
    inputs.sessions.cap = options.self_test->sessions_cap;
    inputs.sessions.cap_source = "probe";
  } else if (inputs.probe.max_sessions) {
    inputs.sessions.cap = inputs.probe.max_sessions;
    inputs.sessions.cap_source = "driver_class_table";
  }
}

// How many jobs at once the resources allow. The pool's hint, where it is lower.
void ResolveJobConcurrency(const GatherOptions& options, std::optional<double> vram_free_mb,
                           StatusInputs& inputs) {
  const WorkerConfig& config = options.config;
  ConcurrencyInputs resources;
  resources.probe_ok = inputs.probe.ok;
  resources.cpu_cores = inputs.host.cpu_cores;
  resources.cpu_load_others = inputs.host.load_1m;
  resources.ram_mb = static_cast<double>(inputs.host.ram_available_mb.value_or(0));
  resources.disk_gb = inputs.host.disk_free_gb.value_or(0);
  // The sessions the worker's own jobs hold are theirs to use. Only other users' count against the
  // cap.
  const std::int64_t others_sessions =
      std::max<std::int64_t>(0, inputs.sessions.active - options.live.sessions_held);
  inputs.sessions.active = std::max(inputs.sessions.active, options.live.sessions_held);
  if (inputs.sessions.cap) {
    resources.sessions_free =
        static_cast<double>(*inputs.sessions.cap - config.sessions_reserve - others_sessions);
  }
  resources.vram_free_mb = vram_free_mb;
  // Once a job has measured it, the recent download rate bounds the jobs.
  resources.bandwidth_mbps = options.live.transfer.recent_download_mbps;
  resources.costs = options.costs;
  resources.costs.cpu_cores = static_cast<double>(config.job_cpu_millicores) / 1000.0;
  if (options.self_test && options.self_test->pipeline_vram_mb)
    resources.costs.vram_mb = *options.self_test->pipeline_vram_mb;
  resources.configured_max = config.concurrency_max;
  inputs.concurrency = ResolveConcurrency(resources);
  if (options.live.concurrency_hint && *options.live.concurrency_hint < inputs.concurrency.value) {
    inputs.concurrency.value = *options.live.concurrency_hint;
    inputs.concurrency.bound_by = "pool";
  }
}

// The signals the state follows, from the live worker and the self-test.
void AddLiveSignals(const GatherOptions& options, const StatusInputs& inputs,
                    StateSignals& signals) {
  signals.sessions_active = inputs.sessions.active;
  signals.drain_requested = options.live.drain_requested;
  signals.drain_timed_out = options.live.drain_timed_out;
  signals.enable_requested = options.live.enable_requested;
  signals.active_jobs = options.live.active_jobs;
  signals.canary_ok = options.live.canary_ok;
  signals.canary_detail = options.live.canary_detail;
  signals.self_test_ok =
      options.self_test ? std::optional<bool>(options.self_test->ok) : std::nullopt;
  signals.self_test_detail = options.self_test ? options.self_test->detail : "";
  signals.concurrency = inputs.concurrency.value;
}

}  // namespace

StatusInputs GatherStatus(const GatherOptions& options) {
  return GatherStatus(options, probe::ProbeGpus(options.probe));
}

void ApplyLiveJobs(const LiveFacts& live, StatusInputs& inputs) {
  inputs.active_jobs = live.active_jobs;
  inputs.jobs = live.jobs;
  inputs.last_job = live.last_job;
  inputs.canary = live.canary;
  inputs.last_job_record = live.last_job_record;
  inputs.recent_jobs = live.recent_jobs;
  inputs.transfer = live.transfer;
}

StatusInputs GatherStatus(const GatherOptions& given, const probe::ProbeResult& probe) {
  // The saved self-test, when read below, fills in what the caller did not give.
  GatherOptions options = given;
  StatusInputs inputs;
  const WorkerConfig& config = options.config;
  inputs.generated_at = NowUtc();
  inputs.hostname = Hostname();
  inputs.probe = ContractFor(probe, {config.gpu, config.probe_module});
  const ContractDevice* device = inputs.probe.devices.empty() ? nullptr : &inputs.probe.devices[0];
  inputs.runner_name = !config.runner_name.empty()
                           ? config.runner_name
                           : inputs.hostname + ":" + (device ? device->name : config.gpu);
  inputs.platform = DetectPlatform(options.platform);
  inputs.wsl2_allowed = config.allow_wsl2;
  inputs.sandbox = FfmpegSandboxOf(LandlockAbi(), config.require_sandbox);
  LoadSavedSelfTest(options, device, inputs);
  inputs.self_test = options.self_test;
  inputs.host = HostResourcesOf(options, inputs.problems);

  StateSignals signals;
  signals.probe_ok = inputs.probe.ok;
  signals.probe_reason = inputs.probe.reason.value_or("");
  signals.platform_refused = inputs.platform.wsl2 && !config.allow_wsl2;
  signals.platform_evidence = inputs.platform.evidence;

  std::optional<double> vram_free_mb;
  if (device && device->vendor == "nvidia") {
    vram_free_mb =
        ReadNvidiaDevice(options, *device, ReportOf(probe, inputs.probe), inputs, signals);
  } else if (device) {
    inputs.kernel_module = device->kernel_driver;
    inputs.devices.push_back(DeviceTelemetry{});
  }
  SetSessionsCap(options, inputs);
  signals.sessions_cap = inputs.sessions.cap;

  Result<std::string> log = ReadKernelLog(options.kernel_log);
  if (log) {
    const std::optional<XidRecord> xid =
        FindXid(*log, device ? std::optional<std::string_view>(device->pci_address) : std::nullopt,
                options.live.acknowledged_xid);
    if (xid) {
      signals.xid_line = xid->message;
      signals.xid_sequence = xid->sequence;
    }
  } else {
    inputs.problems.push_back("the kernel log was not checked for Xid errors: " +
                              log.error_message());
  }

  ResolveJobConcurrency(options, vram_free_mb, inputs);
  inputs.registered = options.live.registered;
  inputs.peertube = options.live.peertube;
  ApplyLiveJobs(options.live, inputs);
  AddLiveSignals(options, inputs, signals);
  inputs.signals = signals;
  inputs.state = NextState(options.live.state.value_or(options.previous), signals,
                           {.driver_min = config.driver_min,
                            .vram_floor_mb = config.vram_floor_mb,
                            .sessions_reserve = config.sessions_reserve});
  return inputs;
}

}  // namespace mc::worker
