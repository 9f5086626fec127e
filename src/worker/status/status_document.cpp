#include "worker/status/status_document.h"

#include <cmath>
#include <sstream>

#include "common/base/text.h"
#include "worker/probe_contract/probe_contract_json.h"

namespace mc::worker {
namespace {

using Json = nlohmann::ordered_json;

template <typename T>
Json Optional(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

std::string Vendor(const StatusInputs& inputs) {
  return inputs.probe.devices.empty() ? std::string("none") : inputs.probe.devices[0].vendor;
}

Json SelfTestJson(const std::optional<SelfTestReport>& report) {
  if (!report) return nullptr;
  Json json;
  json["ts"] = report->ts;
  json["ok"] = report->ok;
  json["evidence"] = report->evidence;
  json["detail"] = report->detail;
  json["steps"] = Json::array();
  for (const SelfTestStep& step : report->steps) {
    json["steps"].push_back({{"name", step.name},
                             {"ok", step.ok},
                             {"seconds", step.seconds},
                             {"evidence", step.evidence},
                             {"detail", step.detail}});
  }
  json["sessions_cap"] = Optional(report->sessions_cap);
  json["pipeline_vram_mb"] = Optional(report->pipeline_vram_mb);
  json["age_seconds"] = Optional(report->age_seconds);
  json["downgraded"] = report->downgraded;
  return json;
}

Json CanaryJson(const Canaries& canary) {
  Json json;
  json["pending"] = canary.pending;
  json["running"] = canary.running;
  json["passed"] = canary.passed;
  json["failed"] = canary.failed;
  json["last"] = nullptr;
  if (canary.last) {
    json["last"] = {{"ok", canary.last->ok},           {"ts", canary.last->ts},
                    {"seconds", canary.last->seconds}, {"cause", canary.last->cause},
                    {"reason", canary.last->reason},   {"evidence", canary.last->evidence}};
  }
  return json;
}

// CanaryWords is the canaries in one line for people.
std::string CanaryWords(const Canaries& canary) {
  std::string words =
      std::to_string(canary.passed) + " passed, " + std::to_string(canary.failed) + " failed";
  if (canary.running) words += "; one runs now";
  if (canary.pending) words += "; one waits to run";
  if (canary.last)
    words += "; the last " + std::string(canary.last->ok ? "passed " : "failed ") +
             canary.last->ts + (canary.last->ok ? "" : ": " + canary.last->reason);
  return words;
}

Json DeviceJson(const DeviceTelemetry& device) {
  Json json;
  json["index"] = device.index;
  json["uuid"] = Optional(device.uuid);
  json["vram_total_mb"] = Optional(device.vram_total_mb);
  json["vram_free_mb"] = Optional(device.vram_free_mb);
  json["enc_util_pct"] = Optional(device.enc_util_pct);
  json["dec_util_pct"] = Optional(device.dec_util_pct);
  json["temp_c"] = Optional(device.temp_c);
  json["throttle_reasons"] = device.throttle_reasons;
  return json;
}

}  // namespace

nlohmann::ordered_json StatusDocument(const StatusInputs& inputs) {
  Json json;
  json["schema_version"] = kStatusSchemaVersion;
  json["generated_at"] = inputs.generated_at;
  json["hostname"] = inputs.hostname;
  json["runner_name"] = inputs.runner_name;
  json["state"] = std::string(StateName(inputs.state.state));
  json["state_reason"] = inputs.state.reason;
  // Registration is the next part of the worker's work. Until then it is never registered.
  json["registration_state"] = inputs.registered ? "registered" : "unregistered";
  if (inputs.peertube) {
    json["peertube"] = {{"server_version", inputs.peertube->server},
                        {"runner_version", inputs.peertube->runner},
                        {"support", inputs.peertube->support},
                        {"advice", inputs.peertube->advice}};
  }
  json["active_jobs"] = inputs.active_jobs;
  json["concurrency"] = inputs.concurrency.value;
  json["concurrency_bound_by"] = inputs.concurrency.bound_by;
  // Every limiter is listed. It is null where it sets no bound or was not given.
  Json limiters = Json::object();
  for (std::string_view name : kLimiterNames) {
    limiters[std::string(name)] = nullptr;
    for (const Limiter& limiter : inputs.concurrency.limiters) {
      if (limiter.name == name) limiters[std::string(name)] = Optional(limiter.bound);
    }
  }
  json["concurrency_limiters"] = limiters;

  const ContractDevice* device = inputs.probe.devices.empty() ? nullptr : &inputs.probe.devices[0];
  Json gpu;
  gpu["vendor"] = Vendor(inputs);
  gpu["probe_module"] = inputs.probe.probe_module;
  gpu["model"] = device ? device->model : "";
  gpu["generation"] = inputs.generation;
  gpu["driver"] =
      device ? (device->driver_version.empty() ? device->driver : device->driver_version) : "";
  gpu["kernel_module"] = inputs.kernel_module;
  gpu["capabilities"] = CapabilitiesJson(inputs.probe.capabilities);
  gpu["max_width"] = Optional(inputs.probe.max_width);
  gpu["max_height"] = Optional(inputs.probe.max_height);
  gpu["sessions"] = {{"active", inputs.sessions.active},
                     {"cap", Optional(inputs.sessions.cap)},
                     {"cap_source", inputs.sessions.cap_source}};
  gpu["devices"] = Json::array();
  for (const DeviceTelemetry& telemetry : inputs.devices)
    gpu["devices"].push_back(DeviceJson(telemetry));
  gpu["self_test"] = SelfTestJson(inputs.self_test);
  json["gpu"] = gpu;

  json["probe"] = {{"ok", inputs.probe.ok},
                   {"reason", Optional(inputs.probe.reason)},
                   {"evidence", inputs.probe.evidence},
                   {"device", device ? Json(device->name) : Json(nullptr)},
                   {"pci_address", device ? Json(device->pci_address) : Json(nullptr)}};
  json["hw_evidence_last_job"] = inputs.last_job ? Json{{"ok", inputs.last_job->ok},
                                                        {"method", inputs.last_job->method},
                                                        {"ts", inputs.last_job->ts}}
                                                 : Json(nullptr);
  json["canary"] = CanaryJson(inputs.canary);
  json["platform"] = {{"wsl2", inputs.platform.wsl2},
                      {"allowed", !inputs.platform.wsl2 || inputs.wsl2_allowed},
                      {"kernel", inputs.platform.kernel},
                      {"evidence", inputs.platform.evidence}};
  json["sandbox"] = {{"landlock_abi", inputs.sandbox.landlock_abi},
                     {"ffmpeg_boxed", inputs.sandbox.ffmpeg_boxed},
                     {"required", inputs.sandbox.required},
                     {"enforced", SandboxEnforced(inputs.sandbox)}};
  const double util =
      inputs.host.cpu_cores > 0 ? 100.0 * inputs.host.load_1m / inputs.host.cpu_cores : 0;
  json["cpu"] = {{"model", inputs.host.cpu_model},
                 {"cores", inputs.host.cpu_cores},
                 {"util_pct", static_cast<std::int64_t>(std::lround(std::min(util, 100.0)))}};
  json["ram_available_mb"] = Optional(inputs.host.ram_available_mb);
  json["disk_free_gb"] = Optional(inputs.host.disk_free_gb);
  json["jobs"] = {{"completed", inputs.jobs.completed},
                  {"failed", inputs.jobs.failed},
                  {"hw_fallback_prevented", inputs.jobs.hw_fallback_prevented},
                  {"aborted", inputs.jobs.aborted}};
  json["last_job"] = inputs.last_job_record;
  json["recent_jobs"] = inputs.recent_jobs;
  json["transfer"] = {{"recent_download_mbps", Optional(inputs.transfer.recent_download_mbps)},
                      {"recent_upload_mbps", Optional(inputs.transfer.recent_upload_mbps)},
                      {"network_degraded", inputs.transfer.network_degraded}};
  json["problems"] = inputs.problems;
  return json;
}

std::string StatusTable(const StatusInputs& inputs) {
  std::ostringstream out;
  const ContractDevice* device = inputs.probe.devices.empty() ? nullptr : &inputs.probe.devices[0];
  out << "state:        " << StateName(inputs.state.state) << "\n";
  out << "reason:       " << inputs.state.reason << "\n";
  out << "gpu:          "
      << (device ? device->name + " (" + device->vendor + ", " + device->model + ")" : "none")
      << "\n";
  out << "probe:        "
      << (inputs.probe.ok ? "ok" : "refused: " + inputs.probe.reason.value_or("")) << "\n";
  out << "capabilities:";
  for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
    out << " " << kCapabilityKeys[i].key << "=" << (inputs.probe.capabilities[i] ? 1 : 0);
  }
  out << "\n";
  out << "sessions:     " << inputs.sessions.active << " of "
      << (inputs.sessions.cap ? std::to_string(*inputs.sessions.cap) : std::string("no cap"))
      << " (" << inputs.sessions.cap_source << ")\n";
  out << "concurrency:  " << inputs.concurrency.value << ", bound by "
      << inputs.concurrency.bound_by << " (";
  bool first = true;
  for (const Limiter& limiter : inputs.concurrency.limiters) {
    if (!limiter.bound) continue;
    out << (first ? "" : ", ") << limiter.name << " " << *limiter.bound;
    first = false;
  }
  out << ")\n";
  for (const DeviceTelemetry& telemetry : inputs.devices) {
    out << "device " << telemetry.index << ":     VRAM free "
        << (telemetry.vram_free_mb ? std::to_string(*telemetry.vram_free_mb) + " MB"
                                   : std::string("unknown"))
        << ", temperature "
        << (telemetry.temp_c ? std::to_string(*telemetry.temp_c) + " C" : std::string("unknown"))
        << "\n";
  }
  if (inputs.peertube) {
    out << "peertube:     server "
        << (inputs.peertube->server.empty() ? "?" : inputs.peertube->server) << ", runner "
        << (inputs.peertube->runner.empty() ? "?" : inputs.peertube->runner) << ": "
        << inputs.peertube->support << " (" << inputs.peertube->advice << ")\n";
  }
  out << "self-test:    "
      << (inputs.self_test ? (inputs.self_test->ok ? "passed " : "failed ") + inputs.self_test->ts
                           : "not run")
      << "\n";
  out << "canary:       " << CanaryWords(inputs.canary) << "\n";
  out << "platform:     " << (inputs.platform.wsl2 ? "WSL2" : "native") << " ("
      << inputs.platform.evidence << ")\n";
  out << "sandbox:      " << SandboxVerdict(inputs.sandbox) << ": "
      << SandboxFinding(inputs.sandbox) << "\n";
  for (const std::string& problem : inputs.problems) out << "problem:      " << problem << "\n";
  return out.str();
}

namespace {

class Exposition {
 public:
  // Fifteen digits, so that a timestamp in seconds since the epoch keeps its seconds.
  Exposition() { out_.precision(15); }
  void Family(const std::string& name, const char* type, const std::string& help) {
    out_ << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
  }
  void Sample(const std::string& name,
              const std::vector<std::pair<std::string, std::string>>& labels, double value) {
    out_ << name;
    if (!labels.empty()) {
      out_ << "{";
      for (std::size_t i = 0; i < labels.size(); ++i) {
        out_ << (i ? "," : "") << labels[i].first << "=\"" << PrometheusLabelValue(labels[i].second)
             << "\"";
      }
      out_ << "}";
    }
    out_ << " " << value << "\n";
  }
  std::string Text() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

// The worker's liveness and state.
void AddStateMetrics(Exposition& e, const StatusInputs& inputs) {
  e.Family("pt_worker_up", "gauge", "1 while the worker answers.");
  e.Sample("pt_worker_up", {}, 1);
  e.Family("pt_worker_state", "gauge", "1 for the worker's current state, 0 for the others.");
  for (WorkerState state :
       {WorkerState::kAvailable, WorkerState::kBusy, WorkerState::kDraining, WorkerState::kDrained,
        WorkerState::kGpuUnavailable, WorkerState::kThermalThrottled, WorkerState::kOffline}) {
    e.Sample("pt_worker_state", {{"state", std::string(StateName(state))}},
             state == inputs.state.state ? 1 : 0);
  }
}

// What the probe found:
//  - the contract's verdict;
//  - the capabilities;
//  - the encode sessions.
void AddGpuMetrics(Exposition& e, const StatusInputs& inputs) {
  const std::string vendor = Vendor(inputs);
  e.Family("pt_worker_probe_ok", "gauge", "1 when the probe contract accepts the GPU.");
  e.Sample("pt_worker_probe_ok", {{"vendor", vendor}, {"probe_module", inputs.probe.probe_module}},
           inputs.probe.ok ? 1 : 0);
  e.Family("pt_worker_gpu_capability", "gauge",
           "1 for each vendor-neutral capability the GPU states.");
  for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
    e.Sample("pt_worker_gpu_capability",
             {{"vendor", vendor}, {"capability", std::string(kCapabilityKeys[i].key)}},
             inputs.probe.capabilities[i] ? 1 : 0);
  }
  e.Family("pt_worker_gpu_sessions", "gauge", "Encode sessions in use on the GPU.");
  e.Sample("pt_worker_gpu_sessions",
           {{"vendor", vendor}, {"cap_source", inputs.sessions.cap_source}},
           static_cast<double>(inputs.sessions.active));
  if (inputs.sessions.cap) {
    e.Family("pt_worker_gpu_sessions_cap", "gauge", "Encode sessions the GPU allows at once.");
    e.Sample("pt_worker_gpu_sessions_cap",
             {{"vendor", vendor}, {"cap_source", inputs.sessions.cap_source}},
             static_cast<double>(*inputs.sessions.cap));
  }
}

// The evidence that the GPU does the work:
//  - the last job's;
//  - the canaries';
//  - the self-test's.
void AddEvidenceMetrics(Exposition& e, const StatusInputs& inputs) {
  e.Family("pt_worker_hw_evidence_ok", "gauge",
           "0 when the last job finished without hardware evidence (the no-silent-CPU rule "
           "broken), else 1.");
  e.Sample("pt_worker_hw_evidence_ok", {}, inputs.last_job && !inputs.last_job->ok ? 0 : 1);
  e.Family("pt_worker_canaries_total", "counter",
           "Canaries run after a job failed, by result: the self-test's encode and decode of its "
           "own stream on the GPU.");
  e.Sample("pt_worker_canaries_total", {{"result", "passed"}},
           static_cast<double>(inputs.canary.passed));
  e.Sample("pt_worker_canaries_total", {{"result", "failed"}},
           static_cast<double>(inputs.canary.failed));
  if (inputs.canary.last) {
    e.Family("pt_worker_canary_last_ok", "gauge", "1 when the last canary passed, else 0.");
    e.Sample("pt_worker_canary_last_ok", {}, inputs.canary.last->ok ? 1 : 0);
    e.Family("pt_worker_canary_last_timestamp_seconds", "gauge",
             "When the last canary started, in seconds since the epoch.");
    e.Sample("pt_worker_canary_last_timestamp_seconds", {}, inputs.canary.last->unix_seconds);
  }
  e.Family("pt_worker_self_test_ok", "gauge",
           "1 when the self-test passed, 0 when it failed or has not run.");
  e.Sample("pt_worker_self_test_ok", {}, inputs.self_test && inputs.self_test->ok ? 1 : 0);
}

// The concurrency, its limiters, and the jobs running and finished.
void AddJobMetrics(Exposition& e, const StatusInputs& inputs) {
  e.Family("pt_worker_concurrency", "gauge", "Jobs the worker can carry at once.");
  e.Sample("pt_worker_concurrency", {{"bound_by", inputs.concurrency.bound_by}},
           static_cast<double>(inputs.concurrency.value));
  e.Family("pt_worker_concurrency_limit", "gauge",
           "The bound each limiter sets on the concurrency.");
  for (const Limiter& limiter : inputs.concurrency.limiters) {
    if (limiter.bound)
      e.Sample("pt_worker_concurrency_limit", {{"limiter", limiter.name}},
               static_cast<double>(*limiter.bound));
  }
  e.Family("pt_worker_active_jobs", "gauge", "Jobs running now.");
  e.Sample("pt_worker_active_jobs", {}, static_cast<double>(inputs.active_jobs));
  e.Family("pt_worker_jobs_total", "counter", "Jobs finished, by result.");
  e.Sample("pt_worker_jobs_total", {{"result", "completed"}},
           static_cast<double>(inputs.jobs.completed));
  e.Sample("pt_worker_jobs_total", {{"result", "failed"}}, static_cast<double>(inputs.jobs.failed));
  e.Sample("pt_worker_jobs_total", {{"result", "hw_fallback_prevented"}},
           static_cast<double>(inputs.jobs.hw_fallback_prevented));
}

// The platform: WSL2, and the kernel's Landlock sandbox for each job's ffmpeg.
void AddPlatformMetrics(Exposition& e, const StatusInputs& inputs) {
  e.Family("pt_worker_platform_wsl2", "gauge", "1 when the worker runs on WSL2.");
  e.Sample("pt_worker_platform_wsl2", {}, inputs.platform.wsl2 ? 1 : 0);
  e.Family("pt_worker_ffmpeg_boxed", "gauge",
           "1 when each job's ffmpeg runs in its Landlock sandbox, 0 when it runs unboxed "
           "(or, where the sandbox is required, the worker does not start).");
  e.Sample("pt_worker_ffmpeg_boxed", {}, inputs.sandbox.ffmpeg_boxed ? 1 : 0);
  e.Family("pt_worker_landlock_abi", "gauge",
           "The kernel's Landlock ABI version; 0 where it has none or has it turned off.");
  e.Sample("pt_worker_landlock_abi", {}, inputs.sandbox.landlock_abi);
}

// One gauge of the devices' telemetry. It has a sample per device that has it. It is none
// where none has.
void AddDeviceGauge(Exposition& e, const StatusInputs& inputs, const char* name, const char* help,
                    std::optional<std::int64_t> DeviceTelemetry::*field) {
  bool any = false;
  for (const DeviceTelemetry& device : inputs.devices) any |= (device.*field).has_value();
  if (!any) return;
  e.Family(name, "gauge", help);
  for (const DeviceTelemetry& device : inputs.devices) {
    if (!(device.*field)) continue;
    e.Sample(name, {{"index", std::to_string(device.index)}, {"uuid", device.uuid.value_or("")}},
             static_cast<double>(*(device.*field)));
  }
}

// The devices' telemetry: VRAM, the engines' use, the temperature.
void AddDeviceMetrics(Exposition& e, const StatusInputs& inputs) {
  AddDeviceGauge(e, inputs, "pt_worker_gpu_vram_free_mb", "Free VRAM in MB.",
                 &DeviceTelemetry::vram_free_mb);
  AddDeviceGauge(e, inputs, "pt_worker_gpu_vram_total_mb", "VRAM in MB.",
                 &DeviceTelemetry::vram_total_mb);
  AddDeviceGauge(e, inputs, "pt_worker_gpu_enc_util_pct",
                 "Encoder utilisation of the whole GPU, percent.", &DeviceTelemetry::enc_util_pct);
  AddDeviceGauge(e, inputs, "pt_worker_gpu_dec_util_pct",
                 "Decoder utilisation of the whole GPU, percent.", &DeviceTelemetry::dec_util_pct);
  AddDeviceGauge(e, inputs, "pt_worker_gpu_temperature_celsius", "GPU temperature.",
                 &DeviceTelemetry::temp_c);
}

}  // namespace

std::string PrometheusText(const StatusInputs& inputs) {
  Exposition e;
  AddStateMetrics(e, inputs);
  AddGpuMetrics(e, inputs);
  AddEvidenceMetrics(e, inputs);
  AddJobMetrics(e, inputs);
  AddPlatformMetrics(e, inputs);
  AddDeviceMetrics(e, inputs);
  return e.Text();
}

}  // namespace mc::worker
